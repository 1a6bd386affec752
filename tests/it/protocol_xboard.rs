//! XBoard / CECP v2 against the real binary.

use std::time::Duration;

use crate::protocol_support::{chess_after, is_legal, Engine};
use cellmate::core::Dialect;

fn handshake(e: &mut Engine) -> Vec<String> {
    e.send("xboard");
    e.send("protover 2");
    e.read_until(|l| l == "feature done=1")
}

fn engine_move(line: &str) -> String {
    line.strip_prefix("move ")
        .unwrap_or_else(|| panic!("not a move: {line}"))
        .to_string()
}

#[test]
fn handshake_features_then_done_last() {
    let mut e = Engine::start();
    let lines = handshake(&mut e);
    assert!(
        lines.iter().all(|l| l.starts_with("feature ")),
        "{lines:#?}"
    );
    let first = &lines[0];
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "time=1",
        "draw=1",
        "sigint=0",
        "sigterm=0",
        "reuse=1",
        "analyze=1",
        "colors=0",
        "name=1",
        "nps=0",
        "memory=1",
        "smp=1",
        "exclude=0",
        "pause=0",
        "highlight=1",
        "variants=\"normal,recursion,microorganism,immune\"",
    ] {
        assert!(
            first.split_whitespace().any(|w| w == f),
            "{f} missing: {first}"
        );
    }
    let myname = format!("myname=\"cellmate {}\"", env!("CARGO_PKG_VERSION"));
    assert!(first.contains(&myname), "{first}");
    assert!(lines.contains(&"feature option=\"Move_Overhead -spin 30 0 5000\"".to_string()));
    assert!(lines.contains(&"feature option=\"Contempt -spin 50 -10000 10000\"".to_string()));
    assert!(lines.contains(&"feature option=\"MultiPV -spin 1 1 64\"".to_string()));
    assert!(lines.contains(&"feature option=\"Clear_Hash -button\"".to_string()));
    assert_eq!(lines.last().unwrap(), "feature done=1");
    assert_eq!(lines.iter().filter(|l| l.contains("done=")).count(), 1);
    // What XBoard sends next (from the real start-up transcript) is accepted silently.
    for cmd in [
        "accepted setboard",
        "rejected pause",
        "memory 68",
        "cores 1",
        "new",
        "random",
        "level 40 5 0",
        "post",
        "hard",
        "easy",
        "computer",
        "name Fairy-Max",
        "rating 2100 1800",
        "level 0 0:10 0.1",
        "st 2",
        "sd 8",
        "time 1000",
        "otim 962",
        "nopost",
        "option MultiPV=2",
        "option Clear Hash",
    ] {
        e.send(cmd);
        assert!(e.xb_sync(1).is_empty(), "{cmd}");
    }
    e.send("quit");
    assert!(e.finish().is_empty());
}

#[test]
fn usermove_then_go_plays_a_legal_move() {
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("new");
    e.send("force");
    e.send("usermove e2e4");
    e.send("time 6000");
    e.send("otim 6000");
    e.send("go");
    let lines = e.read_until(|l| l.starts_with("move "));
    let mv = engine_move(lines.last().unwrap());
    assert!(
        is_legal(&chess_after(None, &["e2e4"]), &mv, Dialect::XBOARD),
        "{mv}"
    );
    // The engine made its move in its own game: the user's reply is legal after it.
    e.send("force");
    let fen = e.xb_fen();
    assert_eq!(fen, {
        use cellmate::core::Variant;
        chess_after(None, &["e2e4", &mv]).fen()
    });
    e.finish();
}

#[test]
fn engine_answers_a_usermove_when_it_plays_that_side() {
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("new");
    e.send("level 0 0:10 0.1");
    e.send("post");
    e.send("usermove d2d4");
    let lines = e.read_until(|l| l.starts_with("move "));
    let mv = engine_move(lines.last().unwrap());
    assert!(is_legal(
        &chess_after(None, &["d2d4"]),
        &mv,
        Dialect::XBOARD
    ));
    // Thinking lines, if any, are `DEPTH SCORE TIME NODES PV`.
    for l in &lines[..lines.len() - 1] {
        let t: Vec<&str> = l.split_whitespace().collect();
        assert!(t.len() >= 4, "{l}");
        for n in &t[..4] {
            assert!(n.parse::<i64>().is_ok(), "{l}");
        }
    }
    // A second move: the engine keeps playing Black.
    let white = if mv == "d7d5" { "c2c4" } else { "g1f3" };
    e.send(&format!("usermove {white}"));
    let lines = e.read_until(|l| l.starts_with("move "));
    let mv2 = engine_move(lines.last().unwrap());
    assert!(is_legal(
        &chess_after(None, &["d2d4", &mv, white]),
        &mv2,
        Dialect::XBOARD
    ));
    e.finish();
}

#[test]
fn checkmate_by_usermove_is_claimed() {
    // Fool's mate: Black mates.
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("new");
    e.send("force");
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        e.send(&format!("usermove {m}"));
    }
    assert_eq!(e.xb_sync(1), vec!["0-1 {Black mates}"]);
    // The game is over: go makes no move.
    e.send("go");
    std::thread::sleep(Duration::from_millis(200));
    let after = e.xb_sync(2);
    assert!(after.iter().all(|l| !l.starts_with("move")), "{after:?}");

    // Scholar's mate, with the engine playing Black (not in force mode): White mates.
    e.send("new");
    e.send("force");
    for m in ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("usermove h5f7");
    assert_eq!(e.xb_sync(3), vec!["1-0 {White mates}"]);
    e.finish();
}

#[test]
fn stalemate_by_usermove_is_claimed() {
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("new");
    e.send("force");
    e.send("setboard k7/8/8/2Q5/8/8/8/7K w - - 0 1");
    assert!(e.xb_sync(1).is_empty());
    e.send("usermove c5b6");
    assert_eq!(e.xb_sync(2), vec!["1/2-1/2 {Stalemate}"]);
    e.finish();
}

#[test]
fn engine_claims_the_mate_it_gives() {
    // White's only legal move, the pinned bishop taking its pinner, mates.
    let fen = "kb6/p7/8/8/8/5b2/4n1B1/5n1K w - - 0 1";
    {
        use cellmate::core::Variant;
        let mut pos = chess_after(Some(fen), &[]);
        let mut list = cellmate::core::MoveList::new();
        pos.legal_moves(&mut list);
        assert_eq!(list.len(), 1, "test position must have one legal move");
        pos.make_move(list[0]);
        assert_eq!(pos.outcome().map(|o| o.score()), Some("1-0"));
    }
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {fen}"));
    e.send("sd 2");
    e.send("go");
    let lines = e.read_until(|l| l.starts_with("move "));
    assert_eq!(engine_move(lines.last().unwrap()), "g2f3");
    assert_eq!(e.xb_sync(1), vec!["1-0 {White mates}"]);
    e.finish();
}

#[test]
fn undo_remove_and_setboard() {
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("new");
    e.send("force");
    for m in ["e2e4", "e7e5", "g1f3"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("undo");
    assert_eq!(
        e.xb_fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    e.send("remove");
    assert_eq!(
        e.xb_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    e.send("setboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(e.xb_fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    // A bare move (protocol 1 / console) is played like usermove.
    e.send("e2e4");
    assert_eq!(e.xb_fen(), "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    e.send("variant normal");
    assert_eq!(
        e.xb_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    e.finish();
}

#[test]
fn analyze_mode_prints_no_moves_and_exits() {
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("new");
    e.send("post");
    e.send("analyze");
    e.send("usermove e2e4");
    e.send(".");
    e.send("undo");
    e.send("setboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    std::thread::sleep(Duration::from_millis(200));
    let lines = e.xb_sync(1);
    for l in &lines {
        assert!(
            l.starts_with("stat01: ") || l.split_whitespace().count() >= 4,
            "unexpected in analysis: {l}"
        );
        assert!(!l.starts_with("move"), "{l}");
    }
    e.send("exit");
    e.send("force");
    // Analysis lines printed before `exit` was read may still be in the pipe: drain them.
    for l in e.xb_sync(2) {
        assert!(!l.starts_with("move"), "{l}");
    }
    assert_eq!(e.xb_fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    e.send("quit");
    e.finish();
}

#[test]
fn hint_and_ponder_commands_are_safe() {
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("new");
    e.send("hard");
    e.send("level 0 0:05 0");
    e.send("usermove e2e4");
    let lines = e.read_until(|l| l.starts_with("move "));
    let mv = engine_move(lines.last().unwrap());
    e.send("hint");
    let hint = e.xb_sync(1);
    // A hint is given only when a ponder move is known.
    assert!(hint.len() <= 1, "{hint:?}");
    if let Some(h) = hint.first() {
        let p = h.strip_prefix("Hint: ").expect(h);
        assert!(is_legal(
            &chess_after(None, &["e2e4", &mv]),
            p,
            Dialect::XBOARD
        ));
    }
    // Whatever the engine ponders on, any legal reply gets an answer.
    let reply = if mv == "g8f6" { "d2d4" } else { "g1f3" };
    e.send(&format!("usermove {reply}"));
    let lines = e.read_until(|l| l.starts_with("move "));
    let mv2 = engine_move(lines.last().unwrap());
    assert!(is_legal(
        &chess_after(None, &["e2e4", &mv, reply]),
        &mv2,
        Dialect::XBOARD
    ));
    e.send("easy");
    e.send("force");
    e.send("result 1/2-1/2 {adjourned}");
    assert!(e.xb_sync(2).is_empty());
    e.finish();
}

/// A ponder hit budgets from the `time` XBoard sends just before the move, not from the clock
/// the ponder search started with (that one is from before the engine's own last move). Seen
/// against Sjaak II: with 0.48 s left the engine took 0.41 s on a ponder hit and its clock ran
/// down to 0.01 s.
#[test]
fn ponder_hit_uses_the_clock_sent_with_the_move() {
    let mut e = Engine::start_logging("cellmate=debug");
    handshake(&mut e);
    e.send("new");
    e.send("hard");
    e.send("level 40 0:30 0");
    e.send("time 3000");
    e.send("otim 3000");
    e.send("go");
    let lines = e.read_until(|l| l.starts_with("move "));
    let mv = engine_move(lines.last().unwrap());
    e.send("hint");
    let hint = e.xb_sync(1);
    let predicted = hint
        .iter()
        .find_map(|h| h.strip_prefix("Hint: "))
        .unwrap_or_else(|| panic!("no hint while pondering: {hint:?}"))
        .to_string();
    assert!(is_legal(
        &chess_after(None, &[&mv]),
        &predicted,
        Dialect::XBOARD
    ));
    // Let the ponder search get going, then say that the clock has 0.5 s for 39 moves.
    std::thread::sleep(Duration::from_millis(300));
    e.send("time 50");
    e.send("otim 2900");
    e.send(&format!("usermove {predicted}"));
    let lines = e.read_until(|l| l.starts_with("move "));
    let reply = engine_move(lines.last().unwrap());
    assert!(is_legal(
        &chess_after(None, &[&mv, &predicted]),
        &reply,
        Dialect::XBOARD
    ));
    e.send("force");
    e.xb_sync(2);
    let (_, log) = e.finish_with_log();
    // The ponder hit budgets from the clock sent with the move (0.5 s), not the old 30 s.
    let hit = log
        .lines()
        .find(|l| l.contains("ponder hit:"))
        .unwrap_or_else(|| panic!("no ponder hit logged: {log}"));
    assert!(hit.contains("time_left: Some(500)"), "{hit}");
}

#[test]
fn console_mode_without_handshake() {
    let mut e = Engine::start();
    e.send("fen");
    let first = e.read_until(|l| l.contains("console mode"));
    assert_eq!(first.len(), 1);
    assert!(first[0].starts_with("# "));
    let fen = e.read_until(|l| l.starts_with("# ") && l.contains('/'));
    assert_eq!(
        fen.last().unwrap(),
        "# rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    e.send("force");
    e.send("e2e4");
    assert_eq!(
        e.xb_fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    e.finish();
}

#[test]
fn console_switches_to_uci() {
    let mut e = Engine::start();
    e.send("help");
    e.read_until(|l| l.contains("console mode"));
    e.send("uci");
    e.read_until(|l| l == "uciok");
    assert!(e.uci_sync().iter().all(|l| l.starts_with('#')));
    e.finish();
}

/// CECP: a `ping` received while the engine thinks on its move is answered after the move.
#[test]
fn ping_while_thinking_is_answered_after_the_move() {
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("new");
    e.send("st 1");
    e.send("usermove e2e4");
    e.send("?");
    e.send("ping 7");
    let lines = e.read_until(|l| l == "pong 7");
    let mv = lines.iter().position(|l| l.starts_with("move "));
    assert!(mv.is_some(), "the move comes before the pong: {lines:?}");
    e.send("quit");
    e.finish();
}

/// Sends `cmd` and returns what the engine answers to it (the lines before a `pong`).
fn answer(e: &mut Engine, cmd: &str) -> Vec<String> {
    e.send(cmd);
    e.xb_sync(7)
}

/// `feature highlight=1`: XBoard's `lift SQ` is answered with `highlight COLORFEN` marking
/// every target (Y a move, R a capture, M a promotion choice), `put` on a plain square and
/// `hover` need no answer, a bad square is one error line (XBoard 4.9.1 `MarkByFEN`).
#[test]
fn lift_is_answered_with_every_target() {
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("new");
    e.send("force");
    assert_eq!(answer(&mut e, "lift e2"), ["highlight 8/8/8/8/4Y3/4Y3/8/8"]);
    assert_eq!(answer(&mut e, "lift g1"), ["highlight 8/8/8/8/8/5Y1Y/8/8"]);
    // No move from an empty square or for the side not to move.
    assert_eq!(answer(&mut e, "lift e4"), ["highlight 8/8/8/8/8/8/8/8"]);
    assert_eq!(answer(&mut e, "lift e7"), ["highlight 8/8/8/8/8/8/8/8"]);
    assert!(answer(&mut e, "put e4").is_empty());
    assert!(answer(&mut e, "hover e4").is_empty());
    assert_eq!(
        answer(&mut e, "lift e9"),
        ["Error (bad argument): lift e9 (expected a square)"]
    );
    assert_eq!(
        answer(&mut e, "put"),
        ["Error (bad argument): put (expected a square)"]
    );
    // A pawn reaching the last rank, capturing or not: a promotion choice (magenta), no
    // `choice`; a capture without promotion is red.
    e.send("setboard r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(answer(&mut e, "lift b7"), ["highlight MM6/8/8/8/8/8/8/8"]);
    assert_eq!(
        answer(&mut e, "lift e1"),
        ["highlight 8/8/8/8/8/8/3YYY2/3Y1Y2"]
    );
    e.send("setboard 4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
    assert_eq!(answer(&mut e, "lift e1"), ["highlight 8/8/8/8/8/8/3R4/5Y2"]);
    e.send("setboard r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert!(answer(&mut e, "put b8").is_empty());
    // The position is unchanged by all this: the move is still played.
    e.send("usermove b7a8q");
    assert_eq!(e.xb_fen(), "Q3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    e.finish();
}

/// Two-leg moves: the first leg's square is cyan; after XBoard's `put` and `lift` of that
/// square the second leg's targets are marked. An Immune B-cell's shot (mirrored: the cell on
/// XBoard's e9, the Invader on e2) is out and back; a Microorganism bond is out over the
/// first empty square beyond the partner and back.
#[test]
fn lift_marks_both_legs_of_shots_and_bonds() {
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("variant immune");
    e.send("force");
    e.send("setboard 4b5/10/10/10/10/10/10/4I5/10/10 b - - 0 1");
    e.xb_sync(1);
    assert_eq!(
        answer(&mut e, "lift e9"),
        ["highlight 10/10/10/10/10/10/10/4C5/10/10"]
    );
    assert!(answer(&mut e, "put e2").is_empty());
    assert_eq!(
        answer(&mut e, "lift e2"),
        ["highlight 4Y5/10/10/10/10/10/10/10/10/10"]
    );
    assert!(answer(&mut e, "put e9").is_empty());
    e.send("usermove e9e2,e2e9");
    assert_eq!(
        e.read_until(|l| l.starts_with("0-1")).last().unwrap(),
        "0-1 {Black destroyed every Invader}"
    );

    e.send("variant microorganism");
    e.send("force");
    e.send("setboard n15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/N6tt7 b - 0 1 -");
    e.xb_sync(2);
    // The Platelet on h1: steps to g1, g2, h2, i2; the bond with i1 through j1.
    assert_eq!(
        answer(&mut e, "lift h1"),
        ["highlight 16/16/16/16/16/16/16/16/16/16/16/16/16/16/6YYY7/6Y2C6"]
    );
    assert!(answer(&mut e, "put j1").is_empty());
    assert_eq!(
        answer(&mut e, "lift j1"),
        ["highlight 16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/7Y8"]
    );
    // A `lift` elsewhere starts again from that square.
    assert_eq!(
        answer(&mut e, "lift a16"),
        ["highlight 1Y14/YY14/16/16/16/16/16/16/16/16/16/16/16/16/16/16"]
    );
    e.send("usermove h1j1,j1h1");
    assert_eq!(
        e.xb_fen(),
        "n15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/N6tt7 w - 1 2 h1:wall;i1:wall"
    );
    e.finish();
}

/// Issue 21, from a real XBoard 4.9.1 `-mg 2` Recursion match with cellmate as both engines
/// (`protocol-fixtures/xboard-mg-recursion.fixture`): XBoard relays the first engine's `setup`
/// FEN to the second engine as `setboard`. That FEN must keep the castling rights, or the
/// second engine refuses White's legal castling `l1j1` on board B (IR-2) and the game hangs.
#[test]
fn recursion_second_engine_castles_after_the_relayed_setup_fen() {
    let mut first = Engine::start();
    handshake(&mut first);
    first.send("new");
    first.send("variant recursion");
    let lines = first.xb_sync(1);
    let setup = lines
        .iter()
        .find(|l| l.starts_with("setup "))
        .unwrap_or_else(|| panic!("no setup line: {lines:#?}"));
    let fen = setup.split_once("_lion ").expect("16x8+0_lion FEN").1;
    assert_eq!(
        fen,
        "rnbkqbnrrmbkqbnr/pppppppppppppppp/16/16/16/16/PPPPPPPPPPPPPPPP/RMBKQBNRRNBKQBNR w KQkq - 0 1"
    );
    first.finish();

    // The second engine's start-up as XBoard sent it, then the game of the recorded match up
    // to White's castling on board B (the engines' own moves, relayed with `usermove`).
    let mut second = Engine::start();
    handshake(&mut second);
    for cmd in [
        "memory 68",
        "cores 1",
        "new",
        "random",
        "variant recursion",
        "level 40 0:10 0",
        "post",
        "hard",
        "force",
        &format!("setboard {fen}"),
        "computer",
    ] {
        second.send(cmd);
    }
    let moves = "e2e4 m7m5 j1k3 e7e5 g1f3 o8n6 m2m4 f8c5 f1c4 n8k5 l2l3 b8c6 d2d3 n6o4 k1m3 \
                 h7h6 c1e3 o4m3 n2m3 c5e3 f2e3 l7l6 l1j1";
    for m in moves.split_whitespace() {
        second.send(&format!("usermove {m}"));
    }
    let lines = second.xb_sync(2);
    assert!(
        lines
            .iter()
            .all(|l| !l.starts_with("Illegal") && !l.starts_with("Error")),
        "{lines:#?}"
    );
    let after = second.xb_fen();
    // Board B's king on j1, its rook on k1; White has no castling left there (b:kq).
    assert_eq!(
        after,
        "r1bkq1nrrmbkq2r/pppp1pp1ppp2ppp/2n4p3p4/4p5b1p3/2B1P7P3/3PPN4NPP3/PPP3PPPPP3PP/\
         RM1KQ2R1KR1QBNR b a b:KQkq:-:0:*:n b:kq:-:1:*:n 12"
    );
    second.finish();
}

/// Issue 21: `go` on a game the rules have ended is answered with a result claim in every
/// variant (positions in XBoard's view: Immune Chess mirrored, docs/xboard.md), also when the
/// result was already claimed.
#[test]
fn go_on_an_ended_game_claims_the_result_in_every_variant() {
    let cases = [
        (
            "normal",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "0-1 {Black mates}",
        ),
        (
            "recursion",
            "k7k7/1Q7Q6/1K7K6/16/16/16/16/M7m7 b - - 0 1",
            "1-0 {White wins (board A 1-0, board B 1-0)}",
        ),
        (
            "microorganism",
            "15n/16/16/16/16/16/16/16/16/16/16/16/16/16/16/N15 w - - 0 1",
            "1/2-1/2 {Only the Neurons are left}",
        ),
        (
            "immune",
            "10/10/10/10/4m5/10/10/10/10/10 w - - 0 1",
            "0-1 {Black destroyed every Invader}",
        ),
    ];
    for (variant, fen, claim) in cases {
        let mut e = Engine::start();
        handshake(&mut e);
        e.send("new");
        e.send(&format!("variant {variant}"));
        e.send("force");
        e.send(&format!("setboard {fen}"));
        e.send("go");
        let lines: Vec<String> = e
            .xb_sync(1)
            .into_iter()
            .filter(|l| !l.starts_with("setup ") && !l.starts_with("piece "))
            .collect();
        assert_eq!(lines, [claim], "{variant}");
        e.send(&format!("result {claim}"));
        e.send("go");
        assert_eq!(e.xb_sync(2), [claim], "{variant}, claimed again");
        e.finish();
    }
}
