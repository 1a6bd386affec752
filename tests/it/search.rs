//! Search behaviour: mates with exact distances, stalemate avoidance, tactics, determinism,
//! stopping, time, pondering, options.

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use cellmate::core::{Dialect, Move, MoveList, Variant};
use cellmate::engine::time::{ClockShape, TimeBudget};
use cellmate::engine::{bench::bench, Control, Engine, Info, Limits, Score, SearchResult};

/// Wall-clock bounds here only catch hangs: this machine is shared and noisy, so timing
/// targets (a stop within 50 ms, nodes/s) are measured by benchmarks, not asserted in tests.
/// What the tests check exactly is the budget the time manager computes.
const HANG: Duration = Duration::from_secs(5);
use cellmate::variants::chess::Chess;

fn pos(fen: &str) -> Chess {
    Chess::from_fen(fen).unwrap()
}

fn search_depth(p: &Chess, depth: u32) -> SearchResult {
    search_with_contempt(p, depth, 0)
}

fn search_with_contempt(p: &Chess, depth: u32, contempt: i32) -> SearchResult {
    let mut engine = Engine::new(16, 1);
    engine.contempt = contempt;
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    engine.search(p, &limits, &Control::new(false), &|_| {})
}

fn text(p: &Chess, m: Move) -> String {
    p.move_text(m, Dialect::UCI)
}

fn legal(p: &Chess) -> MoveList {
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    l
}

/// Brute force: can the side to move force mate within `n` of its moves?
fn forced_mate(p: &mut Chess, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    for m in legal(p) {
        p.make_move(m);
        let replies = legal(p);
        let ok = if replies.is_empty() {
            p.in_check()
        } else {
            replies.iter().all(|&r| {
                p.make_move(r);
                let w = forced_mate(p, n - 1);
                p.unmake_move();
                w
            })
        };
        p.unmake_move();
        if ok {
            return true;
        }
    }
    false
}

/// Whether playing `m` then best defence leaves a forced mate in `n - 1` more moves.
fn mates_with(p: &mut Chess, m: Move, n: u32) -> bool {
    p.make_move(m);
    let replies = legal(p);
    let ok = if replies.is_empty() {
        p.in_check()
    } else {
        replies.iter().all(|&r| {
            p.make_move(r);
            let w = forced_mate(p, n - 1);
            p.unmake_move();
            w
        })
    };
    p.unmake_move();
    ok
}

#[test]
fn finds_mate_in_one() {
    let mut p = pos("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    let r = search_depth(&p, 6);
    assert_eq!(r.score, Score::Mate(1));
    assert_eq!(text(&p, r.best.unwrap()), "a1a8");
    assert!(mates_with(&mut p, r.best.unwrap(), 1));
}

#[test]
fn finds_mate_in_two_exactly() {
    for fen in [
        // Queen sacrifice (Qd8+ Bxd8) then rook mate on the back rank (Re8#).
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
        // King and rook against king.
        "7k/8/5K2/8/8/8/8/1R6 w - - 0 1",
    ] {
        let mut p = pos(fen);
        assert!(!forced_mate(&mut p, 1), "{fen} has a mate in 1");
        assert!(forced_mate(&mut p, 2), "{fen} has no mate in 2");
        let r = search_depth(&p, 8);
        assert_eq!(r.score, Score::Mate(2), "{fen}");
        assert!(mates_with(&mut p, r.best.unwrap(), 2), "{fen}");
    }
}

#[test]
fn sees_being_mated() {
    // Black is checkmated: no move, mate score 0.
    let r = search_depth(&pos("1R4k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"), 4);
    assert_eq!(r.best, None);
    assert_eq!(r.score, Score::Mate(0));
    // Black's only move walks into Ra8#.
    let mut p = pos("7k/8/6K1/8/8/8/8/R7 b - - 0 1");
    assert_eq!(legal(&p).len(), 1);
    let r = search_depth(&p, 5);
    assert_eq!(r.score, Score::Mate(-1));
    p.make_move(r.best.unwrap());
    assert!(forced_mate(&mut p, 1));
}

#[test]
fn avoids_stalemate_and_mates_with_queen() {
    // The tempting Qc7 stalemates; Qc8 mates.
    let p = pos("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1");
    let r = search_depth(&p, 6);
    assert_eq!(r.score, Score::Mate(1));
    let mut q = p.clone();
    q.make_move(r.best.unwrap());
    assert!(legal(&q).is_empty() && q.in_check());

    // Play KQ v K out: must mate, never stalemate.
    let mut g = pos("8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    let engine = Engine::new(16, 1);
    for _ in 0..120 {
        if g.outcome().is_some() {
            break;
        }
        let r = engine.search(
            &g,
            &Limits {
                depth: Some(7),
                ..Limits::default()
            },
            &Control::new(false),
            &|_| {},
        );
        g.make_move(r.best.unwrap());
    }
    let out = g.outcome().expect("game over");
    assert_eq!(out.score(), "1-0", "{} {}", out.reason(), g.fen());
}

#[test]
fn takes_a_hanging_queen() {
    let p = pos("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    let r = search_depth(&p, 6);
    assert_eq!(text(&p, r.best.unwrap()), "d2d5");
    match r.score {
        Score::Cp(cp) => assert!(cp > 300, "{cp}"),
        s => panic!("{s:?}"),
    }
    // In a fuller position: the knight takes the queen that strayed to h4.
    let p = pos("rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let r = search_depth(&p, 6);
    assert_eq!(text(&p, r.best.unwrap()), "f3h4", "{r:?}");
}

#[test]
fn bench_is_deterministic() {
    let (a, _) = bench(5);
    let (b, _) = bench(5);
    assert_eq!(a, b);
    assert!(a > 1000);
}

#[test]
fn stops_promptly_and_answers_legally() {
    let engine = Arc::new(Engine::new(16, 2));
    let control = Arc::new(Control::new(false));
    let p = Chess::startpos();
    let (e, c, q) = (engine.clone(), control.clone(), p.clone());
    let h = thread::spawn(move || {
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let r = e.search(&q, &limits, &c, &|_| {});
        (r, Instant::now())
    });
    thread::sleep(Duration::from_millis(300));
    assert!(!h.is_finished(), "an infinite search returned by itself");
    let asked = Instant::now();
    control.stop();
    let (r, done) = h.join().unwrap();
    let lag = done.duration_since(asked);
    assert!(lag < HANG, "took {lag:?} to stop");
    assert!(legal(&p).contains(&r.best.unwrap()));
    assert!(r.depth >= 1);
    assert!(r.nodes > 0);
}

#[test]
fn respects_movetime() {
    let engine = Engine::new(16, 1);
    let p = pos("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 1 8");
    let limits = Limits {
        movetime: Some(300),
        move_overhead: 20,
        ..Limits::default()
    };
    let b = TimeBudget::new(&limits, ClockShape::DEFAULT);
    assert_eq!(b.soft, b.hard);
    let hard = b.hard.unwrap();
    assert!(
        (200..=280).contains(&hard),
        "{hard} ms budget for movetime 300"
    );
    let t = Instant::now();
    let r = engine.search(&p, &limits, &Control::new(false), &|_| {});
    // It uses its time (no early answer in a quiet middlegame) and stops.
    let spent = t.elapsed();
    assert!(
        spent >= Duration::from_millis(150) && spent < HANG,
        "{spent:?}"
    );
    assert!(legal(&p).contains(&r.best.unwrap()));
}

#[test]
fn tiny_clock_moves_fast() {
    let engine = Engine::new(16, 1);
    let p = Chess::startpos();
    let limits = Limits {
        time_left: Some(150),
        move_overhead: 30,
        ..Limits::default()
    };
    let hard = TimeBudget::new(&limits, ClockShape::DEFAULT).hard.unwrap();
    assert!(hard + 30 < 150, "{hard} ms of a 150 ms clock");
    let t = Instant::now();
    let r = engine.search(&p, &limits, &Control::new(false), &|_| {});
    assert!(t.elapsed() < HANG);
    assert!(r.best.is_some());
}

/// A ponder search of the start position with `limits` on a thread of its own, checked to be
/// still pondering after `wait`.
fn pondering(limits: Limits, wait: Duration) -> (Arc<Control>, thread::JoinHandle<SearchResult>) {
    let engine = Arc::new(Engine::new(16, 1));
    let control = Arc::new(Control::new(true));
    let c = control.clone();
    let h = thread::spawn(move || engine.search(&Chess::startpos(), &limits, &c, &|_| {}));
    thread::sleep(wait);
    assert!(!h.is_finished(), "answered while pondering");
    (control, h)
}

#[test]
fn ponder_waits_for_ponderhit_then_uses_the_clock() {
    let limits = Limits {
        movetime: Some(200),
        ..Limits::default()
    };
    let (control, h) = pondering(limits, Duration::from_millis(400));
    let hit = Instant::now();
    control.ponderhit();
    let r = h.join().unwrap();
    // The 200 ms of thinking start at the ponder hit, not at the start of pondering.
    let spent = hit.elapsed();
    assert!(
        spent >= Duration::from_millis(100) && spent < HANG,
        "{spent:?}"
    );
    assert!(r.best.is_some());
}

/// `ponderhit_with` replaces the time budget the ponder search started with.
#[test]
fn ponderhit_with_takes_the_new_clock() {
    let limits = Limits {
        time_left: Some(60_000),
        moves_to_go: Some(20),
        ..Limits::default()
    };
    let (control, h) = pondering(limits, Duration::from_millis(300));
    let hit = Instant::now();
    let fresh = Limits {
        movetime: Some(100),
        ..Limits::default()
    };
    control.ponderhit_with(&fresh);
    // The running search now has the new clock's budget, not the one it started with.
    let b = control.budget_override().expect("a budget override");
    assert_eq!(b, TimeBudget::new(&fresh, ClockShape::DEFAULT));
    assert!(b.hard.unwrap() <= 100);
    let r = h.join().unwrap();
    assert!(hit.elapsed() < HANG);
    assert!(r.best.is_some());
}

/// A ponder hit budgets a sudden-death clock with the shape of the searched variant's clock,
/// which the control was made with (the searcher gives Microorganism's, `LONG_GAMES`).
#[test]
fn ponderhit_with_budgets_by_the_controls_clock_shape() {
    let fresh = Limits {
        time_left: Some(10_000),
        increment: 100,
        move_overhead: 30,
        ..Limits::default()
    };
    let control = Control::with_clock(true, ClockShape::LONG_GAMES);
    control.ponderhit_with(&fresh);
    let b = control.budget_override().expect("a budget override");
    assert_eq!((b.soft, b.hard), (Some(216), Some(1440)));
    let control = Control::new(true);
    control.ponderhit_with(&fresh);
    let b = control.budget_override().expect("a budget override");
    assert_eq!((b.soft, b.hard), (Some(463), Some(2060)));
}

#[test]
fn reports_iterations_and_ponder_move() {
    let engine = Engine::new(16, 1);
    let p = pos("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let infos: Mutex<Vec<Info>> = Mutex::new(Vec::new());
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    let r = engine.search(&p, &limits, &Control::new(false), &|i| {
        infos.lock().unwrap().push(i.clone())
    });
    let infos = infos.into_inner().unwrap();
    let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
    assert_eq!(depths, (1..=7).collect::<Vec<_>>());
    let last = infos.last().unwrap();
    assert_eq!(last.pv[0], r.best.unwrap());
    assert!(last.pv.len() >= 2);
    assert_eq!(r.ponder, Some(last.pv[1]));
    assert!(last.nodes > 0 && last.seldepth >= 7);
    assert_eq!(r.depth, 7);
    // The PV is a legal line.
    let mut q = p.clone();
    for &m in &last.pv {
        assert!(legal(&q).contains(&m));
        q.make_move(m);
    }
}

#[test]
fn searchmoves_and_multipv() {
    let p = Chess::startpos();
    let a3 = p.parse_move("a2a3", Dialect::UCI).unwrap();
    let h3 = p.parse_move("h2h3", Dialect::UCI).unwrap();
    let engine = Engine::new(16, 1);
    let limits = Limits {
        depth: Some(5),
        searchmoves: vec![a3, h3],
        ..Limits::default()
    };
    let r = engine.search(&p, &limits, &Control::new(false), &|_| {});
    assert!(r.best == Some(a3) || r.best == Some(h3));

    let mut engine = Engine::new(16, 1);
    engine.multipv = 3;
    let infos: Mutex<Vec<Info>> = Mutex::new(Vec::new());
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    engine.search(&p, &limits, &Control::new(false), &|i| {
        infos.lock().unwrap().push(i.clone())
    });
    let infos = infos.into_inner().unwrap();
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 5).collect();
    assert_eq!(last.len(), 3);
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let firsts: std::collections::HashSet<Move> = last.iter().map(|i| i.pv[0]).collect();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn threads_share_work() {
    let engine = Engine::new(16, 2);
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let r = engine.search(
        &p,
        &Limits {
            depth: Some(7),
            ..Limits::default()
        },
        &Control::new(false),
        &|_| {},
    );
    assert!(legal(&p).contains(&r.best.unwrap()));
    assert_eq!(r.depth, 7);
    engine.clear();
    assert_eq!(engine.hashfull(), 0);
}

#[test]
fn no_legal_move_at_root() {
    // Stalemate.
    let r = search_depth(&pos("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"), 5);
    assert_eq!(r.best, None);
    assert_eq!(r.score, Score::Cp(0));
}

/// Contempt: a draw scores −Contempt for the side to move at the root. White, a queen down,
/// is at the 99th half-move: every quiet move draws by the 50-move rule, so the score is the
/// draw's, exactly. The only move that goes on is Nxb2, losing the knight to Qxb2.
#[test]
fn contempt_scores_draws_for_the_root_side() {
    let p = pos("k7/8/8/4q3/8/8/1p6/3N3K w - - 99 80");
    let r = search_depth(&p, 4);
    assert_eq!(r.score, Score::Cp(0));
    assert_ne!(text(&p, r.best.unwrap()), "d1b2");
    assert_eq!(search_with_contempt(&p, 4, 50).score, Score::Cp(-50));
    assert_eq!(search_with_contempt(&p, 4, -50).score, Score::Cp(50));
    // A contempt larger than the lost position's evaluation plays on instead.
    let r = search_with_contempt(&p, 4, 5000);
    assert_eq!(text(&p, r.best.unwrap()), "d1b2");
    let Score::Cp(cp) = r.score else {
        panic!("no mate here: {:?}", r.score)
    };
    assert!((-5000..-900).contains(&cp), "{cp}");
}

/// `cargo test --test it search::bench_numbers -- --ignored --nocapture`: prints the bench.
#[test]
#[ignore]
fn bench_numbers() {
    let depth = std::env::var("BENCH_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(cellmate::engine::bench::DEFAULT_DEPTH);
    let (nodes, nps) = bench(depth);
    println!("bench depth {depth}: {nodes} nodes {nps} nps");
}

/// `cargo test --test it search::tactics_sample -- --ignored --nocapture`: a few classic tactics
/// (Win At Chess 1-10) at one second each; prints the solved count.
#[test]
#[ignore]
fn tactics_sample() {
    let suite = [
        (
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "g3g6",
        ),
        ("8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1", "b3b2"),
        (
            "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
            "e3g3",
        ),
        (
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
            "h6h7",
        ),
        ("5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", "c6c4"),
        ("7k/p7/1R5K/6r1/6p1/6P1/8/8 w - - 0 1", "b6b7"),
        (
            "rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq - 0 1",
            "g4e3",
        ),
        (
            "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 0 1",
            "e7f7",
        ),
        (
            "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1",
            "d6h2",
        ),
        (
            "2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - 0 1",
            "h4h7",
        ),
    ];
    let ms = std::env::var("TACTICS_MS")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(1000);
    let mut solved = 0;
    for (fen, best) in suite {
        let p = pos(fen);
        let engine = Engine::new(64, 1);
        let limits = Limits {
            movetime: Some(ms),
            ..Limits::default()
        };
        let r = engine.search(&p, &limits, &Control::new(false), &|_| {});
        let got = text(&p, r.best.unwrap());
        println!("{fen}: {got} (want {best}) {:?} depth {}", r.score, r.depth);
        solved += (got == best) as u32;
    }
    println!("solved {solved}/{}", suite.len());
}

#[test]
fn self_play_on_a_short_clock_never_flags() {
    // Two threads, sudden death with a small increment: every move within the clock.
    let engine = Engine::new(8, 2);
    let mut g = pos("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 1 8");
    let mut clock = [700u64, 700u64];
    for ply in 0..24 {
        if g.outcome().is_some() {
            break;
        }
        let side = ply % 2;
        let limits = Limits {
            time_left: Some(clock[side]),
            increment: 20,
            move_overhead: 10,
            ..Limits::default()
        };
        // Even spending its whole hard budget every move, neither side ever flags.
        let hard = TimeBudget::new(&limits, ClockShape::DEFAULT).hard.unwrap();
        assert!(
            hard + 10 < clock[side],
            "ply {ply}: budget {hard} of {}",
            clock[side]
        );
        let r = engine.search(&g, &limits, &Control::new(false), &|_| {});
        clock[side] = clock[side] - hard + 20;
        let m = r.best.expect("a move");
        assert!(legal(&g).contains(&m));
        g.make_move(m);
    }
}

#[test]
fn node_limit_is_kept() {
    let engine = Engine::new(16, 1);
    let p = Chess::startpos();
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let r = engine.search(&p, &limits, &Control::new(false), &|_| {});
    assert!((15_000..=20_010).contains(&r.nodes), "{}", r.nodes);
    assert!(legal(&p).contains(&r.best.unwrap()));
}
