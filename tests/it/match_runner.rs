//! `cellmate match`: adjudication against misbehaving engines (tests/match_engines/fake.py),
//! real matches between two `cellmate` processes in every variant, and the command line.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use cellmate::core::Color;
use cellmate::referee::game::Termination;
use cellmate::referee::spec::{EngineSpec, Limit};
use cellmate::referee::stats::{Sprt, SprtState};
use cellmate::referee::{run, MatchConfig, MatchReport};
use cellmate::variants::VariantKind;

const BIN: &str = env!("CARGO_BIN_EXE_cellmate");

fn fake(proto: &str, mode: &str) -> EngineSpec {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/match_engines/fake.py");
    EngineSpec::parse(&format!(
        "cmd=python3,arg={},arg={proto},arg={mode},proto={proto}",
        script.display()
    ))
    .unwrap()
}

fn cellmate(proto: &str, name: &str) -> EngineSpec {
    EngineSpec::parse(&format!("cmd={BIN},proto={proto},name={name}")).unwrap()
}

fn random() -> EngineSpec {
    EngineSpec::parse("builtin=random").unwrap()
}

/// Two games of `first` (White in game 1, Black in game 2) against the random mover.
fn against_random(first: EngineSpec, limit: Limit) -> MatchReport {
    let mut cfg = MatchConfig::new([first, random()], VariantKind::Chess);
    cfg.limit = limit;
    cfg.games = 2;
    cfg.time_margin = Duration::from_millis(100);
    run(&cfg).expect("the match runs")
}

/// The first engine lost both games by `termination`, its reason containing `words`.
/// A fake engine misbehaving in `mode` plays two depth-1 games against the random mover and
/// loses both by `termination`, for a reason containing `words`.
fn fake_loses(proto: &str, mode: &str, termination: Termination, words: &str) -> MatchReport {
    let r = against_random(fake(proto, mode), Limit::Depth(1));
    lost_both(&r, termination, words);
    r
}

fn lost_both(r: &MatchReport, termination: Termination, words: &str) {
    assert_eq!(r.games.len(), 2);
    assert_eq!((r.wdl.wins, r.wdl.draws, r.wdl.losses), (0, 0, 2), "{r:#?}");
    for (i, g) in &r.games {
        let loser = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!(g.result.winner, Some(!loser), "{g:#?}");
        assert_eq!(g.result.termination, termination, "{g:#?}");
        assert!(
            g.result.reason.contains(loser.name()) && g.result.reason.contains(words),
            "{:?}",
            g.result.reason
        );
        // Its first move was legal and played; it misbehaved at its second.
        assert_eq!(g.moves[*i % 2], if *i % 2 == 0 { "b1c3" } else { "b8c6" });
        assert_eq!(g.moves.len(), 2 + i % 2, "{:?}", g.moves);
    }
}

#[test]
fn an_engine_that_exits_mid_game_loses() {
    let r = fake_loses("uci", "crash", Termination::Abandoned, "disconnects");
    assert_eq!(r.names[0], "fake-crash");
}

#[test]
fn an_illegal_move_loses() {
    let r = fake_loses("uci", "illegal", Termination::IllegalMove, "illegal move");
    assert!(r.games[0].1.result.reason.contains("b1c3"));
}

#[test]
fn an_engine_past_its_time_loses() {
    let tc = Limit::parse_tc("1").unwrap();
    let r = against_random(fake("uci", "sleep"), tc);
    lost_both(&r, Termination::TimeForfeit, "loses on time");
    // Its silence lasted until the flag fell (1.1 s): not over the 2 s stall gap.
    let f = r.faults();
    assert_eq!((f.forfeits, f.stalls, f.crashes), (2, 0, 0), "{f:?}");
}

/// One game, `first` White against the random mover, adjudicated after 4 plies: the fake
/// engine's second move (ply 3) is the one it misbehaves at.
fn four_plies(first: EngineSpec, limit: Limit, stall_gap: Duration) -> MatchReport {
    let mut cfg = MatchConfig::new([first, random()], VariantKind::Chess);
    cfg.limit = limit;
    cfg.games = 1;
    cfg.max_plies = Some(4);
    cfg.stall_gap = stall_gap;
    let r = run(&cfg).expect("the match runs");
    assert_eq!(r.games.len(), 1);
    let g = &r.games[0].1;
    assert_eq!(g.result.termination, Termination::Adjudication, "{g:?}");
    assert_eq!(g.moves.len(), 4);
    assert_eq!((&g.moves[0][..], &g.moves[2][..]), ("b1c3", "a2a3"));
    r
}

/// An XBoard engine that says nothing for 3 s after it starts (past XBoard's 2 s feature
/// wait, as a Python engine on a loaded machine) still has its features read: its name, and
/// `usermove=1` (the fake ignores a move sent without the word, so its second move, ply 3,
/// comes only if the referee says `usermove`).
#[test]
fn a_slow_starting_engine_has_its_features_read() {
    let r = four_plies(
        fake("xboard", "slowstart:3"),
        Limit::Depth(1),
        Duration::from_secs(2),
    );
    assert_eq!(r.names[0], "fake-slowstart");
    assert_eq!(r.faults(), cellmate::referee::Faults::default());
}

/// A stall: 1.5 s without a line while thinking (XBoard, `st 5`), over a 1 s stall gap.
/// Counted, not a loss: the move came in time.
#[test]
fn a_silent_engine_stalls() {
    let r = four_plies(
        fake("xboard", "silent:1.5"),
        Limit::MoveTime { ms: 5000 },
        Duration::from_secs(1),
    );
    let g = &r.games[0].1;
    assert_eq!(g.stalls.len(), 1, "{g:?}");
    let st = &g.stalls[0];
    assert_eq!((st.ply, st.side), (2, Color::White));
    assert!(st.silence >= Duration::from_millis(1500), "{st:?}");
    assert!(st.silence < Duration::from_secs(5), "{st:?}");
    assert_eq!(g.longest_silence[0], st.silence);
    let f = r.faults();
    assert_eq!(
        f,
        cellmate::referee::Faults {
            stalls: 1,
            ..Default::default()
        }
    );
    let lines = r.stall_lines();
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with("game 1 ply 3 White (fake-silent) silent 1."),
        "{lines:?}"
    );
}

/// Thinking 1.5 s but printing a line every 0.25 s is no stall: the gap is silence, not
/// thinking time.
#[test]
fn a_talking_engine_does_not_stall() {
    let r = four_plies(
        fake("uci", "chatty:1.5"),
        Limit::MoveTime { ms: 5000 },
        Duration::from_secs(1),
    );
    let g = &r.games[0].1;
    assert_eq!(r.faults(), cellmate::referee::Faults::default(), "{g:?}");
    assert!(g.stalls.is_empty());
    assert!(g.longest_silence[0] < Duration::from_secs(1), "{g:?}");
}

/// An engine that exits with status 3 at `quit`, after a game no one lost: the referee finds
/// the abnormal exit when closing it and counts a crash.
#[test]
fn an_abnormal_exit_at_quit_is_a_crash() {
    let r = four_plies(
        fake("xboard", "quitcrash"),
        Limit::Depth(1),
        Duration::from_secs(2),
    );
    assert_eq!(r.exits.len(), 1, "{:?}", r.exits);
    assert!(r.exits[0].contains("status: 3"), "{:?}", r.exits);
    assert_eq!(r.faults().crashes, 1);
    assert_eq!(r.faults().total(), 1);
}

#[test]
fn a_false_claim_loses() {
    let r = fake_loses(
        "xboard",
        "claim",
        Termination::RulesInfraction,
        "false claim",
    );
    assert_eq!(r.names[0], "fake-claim");
}

#[test]
fn a_resignation_loses() {
    fake_loses("xboard", "resign", Termination::Normal, "resigns");
}

#[test]
fn refusing_a_legal_move_loses() {
    let r = against_random(fake("xboard", "refuse"), Limit::Depth(1));
    assert_eq!((r.wdl.wins, r.wdl.draws, r.wdl.losses), (0, 0, 2));
    for (_, g) in &r.games {
        assert_eq!(g.result.termination, Termination::RulesInfraction);
        assert!(g.result.reason.contains("refuses a legal move"));
    }
}

/// Two `cellmate` processes play 2 games at 200 nodes a move, from `fen` (or the start) and 2
/// random plies; every game ends by the rules, or at `max_plies` when given.
fn real_match(kind: VariantKind, fen: Option<&str>, max_plies: Option<usize>) {
    let mut cfg = MatchConfig::new([cellmate("uci", "A"), cellmate("uci", "B")], kind);
    cfg.limit = Limit::Nodes(200);
    cfg.games = 2;
    cfg.concurrency = 2;
    cfg.random_plies = 2;
    cfg.max_plies = max_plies;
    cfg.openings = fen.map(|f| vec![f.to_string()]).unwrap_or_default();
    let r = run(&cfg).expect("the match runs");
    assert_eq!(r.wdl.games(), 2);
    assert_eq!(r.names, ["A".to_string(), "B".to_string()]);
    for (i, g) in &r.games {
        assert_eq!(g.opening_plies, 2);
        // The game replays by the rules to the same end.
        let mut pos = kind.from_fen(&g.start_fen).unwrap();
        for m in &g.moves {
            assert!(pos.outcome().is_none());
            let mv = pos.parse_move(m, cellmate::core::Dialect::UCI).unwrap();
            pos.make_move(mv);
        }
        match g.result.termination {
            Termination::Normal => {
                let o = pos.outcome().expect("the game is over by the rules");
                assert_eq!(o.score(), g.result.score());
            }
            Termination::Adjudication => {
                assert_eq!(Some(g.moves.len()), max_plies, "{kind:?} {i}: {g:?}");
                assert_eq!(g.result.winner, None);
            }
            t => panic!("{kind:?} game {i} ended by {t:?}: {g:?}"),
        }
    }
    // Both games of the pair start from the same random opening.
    assert_eq!(r.games[0].1.moves[..2], r.games[1].1.moves[..2]);
}

#[test]
fn real_match_chess() {
    real_match(VariantKind::Chess, None, None);
}

#[test]
fn real_match_recursion() {
    real_match(VariantKind::Recursion, None, None);
}

/// Microorganism games run to hundreds of plies and the engine replays the whole game at every
/// `position`: a small army and a move limit keep this test short.
#[test]
fn real_match_microorganism() {
    real_match(
        VariantKind::Microorganism,
        Some("wa6n5aw/pppp8pppp/16/16/16/16/16/16/16/16/16/16/16/16/PPPP8PPPP/WA6N5AW w - 0 1 -"),
        Some(160),
    );
}

#[test]
fn real_match_immune() {
    real_match(VariantKind::Immune, None, None);
}

/// XBoard against UCI, on the clock: the XBoard engine's own claims after the last move must
/// not be taken for false ones. The clock is real and this machine is shared: a game lost on
/// time under load is no fault of the claims, so it is the one other ending allowed.
#[test]
fn real_match_xboard_against_uci_on_the_clock() {
    let mut cfg = MatchConfig::new(
        [cellmate("xboard", "X"), cellmate("uci", "U")],
        VariantKind::Chess,
    );
    cfg.limit = Limit::parse_tc("2+0.05").unwrap();
    cfg.games = 2;
    cfg.concurrency = 2;
    cfg.random_plies = 4;
    cfg.seed = 11;
    let r = run(&cfg).expect("the match runs");
    assert_eq!(r.wdl.games(), 2);
    for (_, g) in &r.games {
        let t = g.result.termination;
        assert!(
            matches!(t, Termination::Normal | Termination::TimeForfeit),
            "{g:?}"
        );
    }
}

/// XBoard against UCI in every variant, from a FEN (so XBoard gets `setboard`): every move
/// crosses the XBoard wire in its spelling (Immune mirrored, 0-based ranks on 10 ranks), and
/// no game ends by a fault. Depth 1 for XBoard (it has no node limit), 200 nodes for UCI.
#[test]
fn real_match_xboard_against_uci_every_variant() {
    let micro = "wa6n5aw/pppp8pppp/16/16/16/16/16/16/16/16/16/16/16/16/PPPP8PPPP/WA6N5AW w - 0 1 -";
    for &kind in VariantKind::ALL {
        let fen = match kind {
            VariantKind::Microorganism => micro.to_string(),
            k => k.startpos().fen(),
        };
        let xb = EngineSpec::parse(&format!("cmd={BIN},proto=xboard,name=X,depth=1")).unwrap();
        let uci = EngineSpec::parse(&format!("cmd={BIN},proto=uci,name=U,nodes=200")).unwrap();
        let mut cfg = MatchConfig::new([xb, uci], kind);
        cfg.games = 2;
        cfg.concurrency = 2;
        cfg.random_plies = 3;
        cfg.max_plies = Some(60);
        cfg.openings = vec![fen];
        let r = run(&cfg).expect("the match runs");
        assert_eq!(r.wdl.games(), 2);
        assert_eq!(r.faults(), Default::default(), "{kind:?}: {r:#?}");
        for (_, g) in &r.games {
            assert!(g.moves.len() > 3, "{kind:?}: {g:?}");
        }
    }
}

/// Random against random is an even match: an SPRT for "at least 200 Elo better" stops early
/// with H0 accepted, long before the 400 games asked for.
#[test]
fn sprt_stops_early() {
    let mut cfg = MatchConfig::new([random(), random()], VariantKind::Chess);
    cfg.games = 400;
    cfg.seed = 5;
    cfg.sprt = Some(Sprt::parse("elo0=200,elo1=400").unwrap());
    let r = run(&cfg).unwrap();
    let (llr, state) = r.sprt.unwrap();
    assert_eq!(state, SprtState::AcceptH0);
    assert!(llr <= cfg.sprt.unwrap().bounds().0);
    assert!(r.wdl.games() < 400, "{}", r.wdl.games());
    assert!(r.wdl.wins > 0 && r.wdl.draws > 0 && r.wdl.losses > 0);
}

#[test]
fn command_line_match_writes_pgn_and_summary() {
    let dir = std::env::temp_dir().join(format!("cellmate-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let openings = dir.join("openings.epd");
    std::fs::write(
        &openings,
        "# two openings\n\
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    let out = Command::new(BIN)
        .args(["match", "--engine"])
        .arg(format!("cmd={BIN},name=Deep"))
        .args(["--engine", "builtin=random", "--games", "4", "--depth", "2"])
        .args([
            "--seed",
            "3",
            "--concurrency",
            "2",
            "--sprt",
            "elo0=0,elo1=50",
        ])
        .arg("--openings")
        .arg(&openings)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Score of Deep vs random: "), "{stdout}");
    assert!(stdout.contains("Elo difference: "), "{stdout}");
    assert!(stdout.contains("SPRT: elo0=0 elo1=50"), "{stdout}");
    assert!(stderr.contains("Games 4/4: "), "{stderr}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"chess\"]").count(), 4);
    assert_eq!(text.matches("[SetUp \"1\"]").count(), 4);
    assert_eq!(
        text.matches("[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]")
            .count(),
        2
    );
    assert_eq!(text.matches("[Termination \"").count(), 4);
    assert_eq!(text.matches("[Result \"").count(), 4);
    // Games start with Black to move.
    assert!(text.contains("\n1... "), "{text}");
    // Every move carries its note as cutechess-cli writes it: Deep's score from its depth-2
    // search and its time, the random mover's time alone (it reports nothing, at once).
    let notes: Vec<&str> = text
        .split('{')
        .skip(1)
        .filter_map(|c| c.split_once('}').map(|(n, _)| n))
        .filter(|n| n.ends_with('s') && !n.contains(' ') || n.contains("/2 "))
        .collect();
    let deep = notes.iter().filter(|n| n.contains("/2 ")).count();
    let random = notes.iter().filter(|n| **n == "0s").count();
    // The openings are positions without moves: every ply is an engine's.
    let plies: usize = text
        .split("[PlyCount \"")
        .skip(1)
        .map(|t| t.split('"').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(deep + random, plies, "{text}");
    assert!(deep > 0 && random > 0, "{text}");
    assert!(
        stdout.contains("\nFaults: illegal=0 forfeit=0 stall=0 crash=0 infraction=0\n"),
        "{stdout}"
    );

    // Stalls through the command line: the count in the summary, the report file.
    let stalls = dir.join("stalls.txt");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/match_engines/fake.py");
    let out = Command::new(BIN)
        .args(["match", "--engine"])
        .arg(format!(
            "cmd=python3,arg={},arg=uci,arg=silent:1.5",
            script.display()
        ))
        .args(["--engine", "builtin=random", "--games", "1", "--st", "5"])
        .args([
            "--max-plies",
            "4",
            "--stall-gap",
            "1",
            "--quiet",
            "--stall-report",
        ])
        .arg(&stalls)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("\nFaults: illegal=0 forfeit=0 stall=1 crash=0 infraction=0\n"),
        "{stdout}"
    );
    assert!(stdout.contains("\nStalls: 1 (silence over 1.0 s while thinking; longest 1."));
    let report = std::fs::read_to_string(&stalls).unwrap();
    assert_eq!(report.lines().count(), 1, "{report}");
    assert!(
        report.starts_with("game 1 ply 3 White (fake-silent) silent 1."),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    // Bad arguments are refused with a message: two random movers with one bad option, and
    // bad engine lists.
    let randoms = [
        "match",
        "--engine",
        "builtin=random",
        "--engine",
        "builtin=random",
    ];
    let with = |extra: &[&'static str]| [&randoms[..], extra].concat();
    for args in [
        vec!["match", "--engine", "builtin=random"],
        vec![
            "match",
            "--engine",
            "builtin=random",
            "--engine",
            "cmd=x,proto=ucci",
        ],
        with(&["--variant", "go"]),
        with(&["--sprt", "elo0=5,elo1=0"]),
        with(&["--stall-gap", "0"]),
        vec![
            "match",
            "--engine",
            "builtin=random",
            "--engine",
            "cmd=/nonexistent/engine",
        ],
        with(&["--draw", "movenumber=40,movecount=8"]),
        with(&["--resign", "movecount=3,score=-600"]),
    ] {
        let out = Command::new(BIN).args(&args).output().unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

/// `--openings-start N`: the first pair of games plays the file's N-th position, the ones before
/// it come after the last (so a long match splits into runs on fresh openings).
#[test]
fn openings_start_picks_the_first_opening() {
    let dir = std::env::temp_dir().join(format!("cellmate-start-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.epd");
    let fens = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1",
    ];
    std::fs::write(
        &openings,
        format!("# three\n{}\n\n{}\n{}\n", fens[0], fens[1], fens[2]),
    )
    .unwrap();
    let run = |start: &str, games: &str, pgn: Option<&std::path::Path>| {
        let mut c = Command::new(BIN);
        c.args([
            "match",
            "--engine",
            "builtin=random",
            "--engine",
            "builtin=random",
        ])
        .args([
            "--games",
            games,
            "--max-plies",
            "2",
            "--quiet",
            "--openings",
        ])
        .arg(&openings)
        .args(["--openings-start", start]);
        if let Some(pgn) = pgn {
            c.arg("--pgn").arg(pgn);
        }
        c.output().unwrap()
    };
    let pgn = dir.join("games.pgn");
    let out = run("3", "4", Some(&pgn));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let played: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[FEN \"")?.strip_suffix("\"]"))
        .collect();
    assert_eq!(played, [fens[2], fens[2], fens[0], fens[0]]);

    // Outside the file, or 0: one error line, no game.
    for start in ["4", "0", "x"] {
        let out = run(start, "2", None);
        assert!(!out.status.success(), "{start}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("openings-start"), "{start}: {err}");
    }
    let out = run("4", "2", None);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        format!(
            "cellmate: --openings-start 4: {} has 3 openings",
            openings.display()
        )
    );
    // Without --openings it is refused.
    let out = Command::new(BIN)
        .args([
            "match",
            "--engine",
            "builtin=random",
            "--engine",
            "builtin=random",
        ])
        .args(["--openings-start", "2"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two deterministic engines (cellmate at depth 1, one thread) from one start without random
/// plies: games 3 and 4 repeat games 1 and 2 move for move. The match warns before it starts,
/// and `score` finds the repeats; with random plies there is no warning.
#[test]
fn a_match_that_can_only_repeat_its_games_says_so() {
    let dir = std::env::temp_dir().join(format!("cellmate-repeat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("r.pgn");
    let play = |extra: &[&str]| {
        let out = Command::new(BIN)
            .args(["match", "--engine"])
            .arg(format!("cmd={BIN},name=A"))
            .arg("--engine")
            .arg(format!("cmd={BIN},name=B"))
            .args([
                "--depth",
                "1",
                "--games",
                "4",
                "--max-plies",
                "30",
                "--quiet",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stderr).unwrap()
    };
    let err = play(&["--pgn", pgn.to_str().unwrap()]);
    assert_eq!(
        err,
        "warning: 4 games from 1 opening at a fixed node or depth limit: deterministic engines \
         repeat the first 2 games move for move after that, and repeats add nothing to a score \
         or an SPRT; add --random-plies N to vary the games\n"
    );
    let out = Command::new(BIN).arg("score").arg(&pgn).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with(
            "\nRepeats: 2 games repeat an earlier one move for move (counted; --distinct \
             counts each once)\n"
        ),
        "{text}"
    );
    assert_eq!(play(&["--random-plies", "2"]), "");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cellmate score` over the PGN of a match gives the match's own score and Elo lines, and over
/// the PGNs of two runs the sum of both; the engine scored can be either; games of another
/// pair of engines or another variant are refused.
#[test]
fn score_reads_back_what_the_match_wrote() {
    let dir = std::env::temp_dir().join(format!("cellmate-score-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |seed: &str, variant: &str, pgn: &std::path::Path| {
        let out = Command::new(BIN)
            .args(["match", "--engine"])
            .arg(format!("cmd={BIN},name=Deep,depth=1"))
            .args([
                "--engine",
                "builtin=random",
                "--games",
                "6",
                "--max-plies",
                "40",
            ])
            .args([
                "--variant",
                variant,
                "--seed",
                seed,
                "--random-plies",
                "2",
                "--quiet",
            ])
            .arg("--pgn")
            .arg(pgn)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let score = |args: &[&std::path::Path], extra: &[&str]| {
        let out = Command::new(BIN)
            .arg("score")
            .args(args)
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    // "Score of Deep vs random: W L D  [s]" as numbers.
    let wld = |summary: &str| -> [u64; 3] {
        let line = summary.lines().find(|l| l.starts_with("Score of")).unwrap();
        let nums: Vec<u64> = line
            .split(':')
            .nth(1)
            .unwrap()
            .split_whitespace()
            .take(3)
            .map(|n| n.parse().unwrap())
            .collect();
        [nums[0], nums[1], nums[2]]
    };
    let (a, b, c) = (dir.join("a.pgn"), dir.join("b.pgn"), dir.join("c.pgn"));
    let first = run("3", "chess", &a);
    let second = run("4", "chess", &b);
    let (ok, one, err) = score(&[&a], &[]);
    assert!(ok, "{err}");
    let lines = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("Score of") || l.starts_with("Elo difference"))
            .map(String::from)
            .collect()
    };
    assert_eq!(lines(&one), lines(&first), "{one}\n{first}");
    assert!(
        one.starts_with("Deep vs random (chess, 6 games from 1 file)\n"),
        "{one}"
    );
    let (ok, both, err) = score(&[&a, &b], &["--sprt", "elo0=0,elo1=10"]);
    assert!(ok, "{err}");
    assert!(
        both.starts_with("Deep vs random (chess, 12 games from 2 files)\n"),
        "{both}"
    );
    let (x, y) = (wld(&first), wld(&second));
    assert_eq!(wld(&both), [x[0] + y[0], x[1] + y[1], x[2] + y[2]]);
    assert!(
        both.contains("\nSPRT: elo0=0 elo1=10 alpha=0.05 beta=0.05: LLR "),
        "{both}"
    );
    // The same file twice: every game of the second copy is a repeat, counted once with
    // --distinct.
    let (ok, twice, _) = score(&[&a, &a], &[]);
    assert!(ok);
    assert!(
        twice.contains("(chess, 12 games from 2 files)\n"),
        "{twice}"
    );
    assert!(
        twice.ends_with(
            "\nRepeats: 6 games repeat an earlier one move for move (counted; --distinct \
             counts each once)\n"
        ),
        "{twice}"
    );
    let (ok, once, _) = score(&[&a, &a], &["--distinct"]);
    assert!(ok);
    assert!(once.contains("(chess, 6 games from 2 files)\n"), "{once}");
    assert_eq!(wld(&once), x);
    assert!(
        once.ends_with("\nRepeats: 6 games repeat an earlier one move for move (not counted)\n"),
        "{once}"
    );
    assert!(!one.contains("Repeats"), "{one}");
    // From the other engine's side: its wins are Deep's losses.
    let (ok, other, _) = score(&[&a], &["--engine", "random"]);
    assert!(ok);
    assert!(
        other.starts_with("random vs Deep (chess, 6 games"),
        "{other}"
    );
    assert_eq!(wld(&other), [x[1], x[0], x[2]]);
    // Refused: an engine of no game, another variant, a missing file.
    let (ok, _, err) = score(&[&a], &["--engine", "nobody"]);
    assert!(!ok);
    assert_eq!(err.trim(), "cellmate: game 1: Deep v random, not nobody");
    run("5", "recursion", &c);
    let (ok, _, err) = score(&[&a, &c], &[]);
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!(
            "cellmate: {}: game 1: variant recursion, not chess",
            c.display()
        )
    );
    let (ok, _, err) = score(&[&dir.join("none.pgn")], &[]);
    assert!(!ok && err.starts_with("cellmate: cannot read "), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Adjudication by the engines' scores (`--resign`, `--draw`): one engine over XBoard (its
/// thinking lines), one over UCI (`info … score`), both at depth 4, from `fen`, two games.
fn adjudicated(fen: &str, draw: Option<&str>, resign: Option<&str>) -> MatchReport {
    use cellmate::referee::adjudicate::{DrawRule, ResignRule};
    let xb = EngineSpec::parse(&format!("cmd={BIN},proto=xboard,name=X,depth=4")).unwrap();
    let uci = EngineSpec::parse(&format!("cmd={BIN},proto=uci,name=U,depth=4")).unwrap();
    let mut cfg = MatchConfig::new([xb, uci], VariantKind::Chess);
    cfg.games = 2;
    cfg.openings = vec![fen.to_string()];
    cfg.draw_rule = draw.map(|d| DrawRule::parse(d).unwrap());
    cfg.resign_rule = resign.map(|r| ResignRule::parse(r).unwrap());
    run(&cfg).expect("the match runs")
}

/// Black without its queen: both engines agree for three moves each, and Black's third move
/// ends the game, whichever engine plays it.
#[test]
fn a_game_both_engines_call_lost_is_adjudicated() {
    let fen = "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1";
    let r = adjudicated(fen, None, Some("movecount=3,score=600,twosided=true"));
    for (i, g) in &r.games {
        assert_eq!(
            g.result.termination,
            Termination::Adjudication,
            "{i}: {g:?}"
        );
        assert_eq!(g.result.winner, Some(Color::White), "{i}: {g:?}");
        assert_eq!(
            g.result.reason, "Black's score at or below -600 cp for 3 moves",
            "{i}"
        );
        assert_eq!(g.moves.len(), 6, "{i}: {:?}", g.moves);
    }
    assert_eq!((r.wdl.wins, r.wdl.draws, r.wdl.losses), (1, 0, 1));
}

/// Kings and pawns, level: with the count from move 0 both engines' scores stay within ±50 cp
/// for two moves each, and the fourth ply ends the game as a draw.
#[test]
fn a_game_both_engines_call_level_is_adjudicated_a_draw() {
    let fen = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1";
    let r = adjudicated(fen, Some("movenumber=0,movecount=2,score=50"), None);
    for (i, g) in &r.games {
        assert_eq!(
            g.result.termination,
            Termination::Adjudication,
            "{i}: {g:?}"
        );
        assert_eq!(g.result.winner, None);
        assert_eq!(
            g.result.reason, "both engines' scores within ±50 cp for 2 moves",
            "{i}"
        );
        assert_eq!(g.moves.len(), 4, "{i}: {:?}", g.moves);
    }
}
