//! Bad input, table-driven: each bad line gets exactly one error line in the protocol's own
//! form, the position is unchanged, and the engine still answers `isready` / `ping`.

use crate::protocol_support::Engine;

/// A FEN with nine white kings.
const NINE_KINGS: &str = "KKKKKKKK/K7/8/8/8/8/8/k7 w - - 0 1";
/// The seventh rank has seven squares.
const SHORT_RANK: &str = "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// Nine squares on the first rank.
const LONG_RANK: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1";
/// Black is in check with White to move.
const IMPOSSIBLE: &str = "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1";
/// A pawn on the first rank.
const PAWN_ON_RANK_1: &str = "4k3/8/8/8/8/8/8/P3K3 w - - 0 1";

#[test]
fn uci_bad_input() {
    let cases: Vec<(String, &str)> = vec![
        (
            "position fen garbage".into(),
            "info string Invalid FEN: garbage (",
        ),
        (
            format!("position fen {NINE_KINGS}"),
            "info string Invalid FEN: ",
        ),
        (
            format!("position fen {SHORT_RANK}"),
            "info string Invalid FEN: ",
        ),
        (
            format!("position fen {LONG_RANK}"),
            "info string Invalid FEN: ",
        ),
        (
            format!("position fen {IMPOSSIBLE}"),
            "info string Invalid FEN: ",
        ),
        (
            format!("position fen {PAWN_ON_RANK_1}"),
            "info string Invalid FEN: ",
        ),
        (
            "position fen 8/8/8/8/8/8/8/8 x".into(),
            "info string Invalid FEN: ",
        ),
        (
            "position startpos moves e2e4 z9z9".into(),
            "info string Illegal move: z9z9",
        ),
        (
            "position startpos moves e2e4 e7e5 e1e2 e8e7 e2e4".into(),
            "info string Illegal move: e2e4",
        ),
        (
            "position startpos moves e2e5".into(),
            "info string Illegal move: e2e5",
        ),
        (
            "position startpos moves 0000".into(),
            "info string Illegal move: 0000",
        ),
        (
            "position startpos e2e4".into(),
            "info string Invalid position command: ",
        ),
        ("position".into(), "info string Invalid position command: "),
        (
            "position fen".into(),
            "info string Invalid position command: ",
        ),
        (
            "position banana".into(),
            "info string Invalid position command: ",
        ),
        ("foo".into(), "info string Unknown command: foo"),
        ("xboard".into(), "info string Unknown command: xboard"),
        (
            "setoption name Hash value 0".into(),
            "info string Invalid option value: ",
        ),
        (
            "setoption name Hash value 65537".into(),
            "info string Invalid option value: ",
        ),
        (
            "setoption name Threads value lots".into(),
            "info string Invalid option value: ",
        ),
        (
            "setoption name MultiPV value 65".into(),
            "info string Invalid option value: ",
        ),
        (
            "setoption name Move Overhead value -1".into(),
            "info string Invalid option value: ",
        ),
        (
            "setoption name Ponder value maybe".into(),
            "info string Invalid option value: ",
        ),
        (
            "setoption name UCI_Variant value shogi".into(),
            "info string Invalid option value: ",
        ),
        (
            "setoption name NoSuchOption value 1".into(),
            "info string Unknown option: NoSuchOption",
        ),
        (
            "setoption".into(),
            "info string Invalid setoption command: ",
        ),
        (
            "go perft 1 frob".into(),
            "info string Invalid go parameters: ",
        ),
    ];
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("position startpos moves e2e4 c7c5");
    let fen = e.uci_fen();
    for (cmd, expected) in &cases {
        e.send(cmd);
        let lines = e.uci_sync();
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert_eq!(errors.len(), 1, "{cmd}: {lines:#?}");
        assert!(errors[0].starts_with(expected), "{cmd}: {:?}", errors[0]);
        assert_eq!(e.uci_fen(), fen, "position changed by {cmd}");
    }
    // The engine still works.
    e.send("go depth 1");
    e.read_until(|l| l.starts_with("bestmove"));
    e.finish();
}

#[test]
fn uci_bad_go_parameters_still_answer() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    for cmd in [
        "go depth x",
        "go depth 1 frobnicate",
        "go depth 1 searchmoves z9z9",
        "go wtime",
        "go depth 1 movestogo -3",
    ] {
        e.send(cmd);
        // `go depth x` and `go wtime` have no limit left: they may search until stopped.
        e.send("stop");
        let lines = e.read_until(|l| l.starts_with("bestmove"));
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert_eq!(errors.len(), 1, "{cmd}: {lines:#?}");
        assert!(
            errors[0].starts_with("info string Invalid go parameters: "),
            "{cmd}"
        );
        // Exactly one bestmove per go.
        assert!(e.uci_sync().iter().all(|l| !l.starts_with("bestmove")));
    }
    e.finish();
}

#[test]
fn xboard_bad_input() {
    let cases: Vec<(String, &str)> = vec![
        ("usermove z9z9".into(), "Illegal move (not a move): z9z9"),
        ("usermove e7e5".into(), "Illegal move: e7e5"),
        ("usermove e2e5".into(), "Illegal move: e2e5"),
        ("usermove @@@@".into(), "Illegal move"),
        ("usermove".into(), "Illegal move (not a move): "),
        (
            "setboard garbage".into(),
            "Error (bad FEN): setboard garbage (bad board",
        ),
        (
            format!("setboard {NINE_KINGS}"),
            "Error (bad FEN): setboard |(impossible position",
        ),
        (
            format!("setboard {SHORT_RANK}"),
            "Error (bad FEN): setboard |(bad board",
        ),
        (
            format!("setboard {LONG_RANK}"),
            "Error (bad FEN): setboard |(bad board",
        ),
        (
            format!("setboard {IMPOSSIBLE}"),
            "Error (bad FEN): setboard |(impossible position",
        ),
        (
            format!("setboard {PAWN_ON_RANK_1}"),
            "Error (bad FEN): setboard |(impossible position",
        ),
        ("setboard".into(), "Error (bad FEN): setboard ("),
        ("foo".into(), "Error (unknown command): foo"),
        ("uci".into(), "Error (unknown command): uci"),
        (
            "variant shogi".into(),
            "Error (unsupported variant): variant shogi",
        ),
        (
            "memory 0".into(),
            "Error (bad option): memory 0 (invalid value \"0\" for Hash",
        ),
        (
            "memory 100000".into(),
            "Error (bad option): memory 100000 (invalid value",
        ),
        (
            "cores 0".into(),
            "Error (bad option): cores 0 (invalid value \"0\" for Threads",
        ),
        (
            "option MultiPV=65".into(),
            "Error (bad option): option MultiPV=65 (invalid value \"65\" for MultiPV",
        ),
        (
            "option Move Overhead=-1".into(),
            "Error (bad option): option Move Overhead=-1 (invalid",
        ),
        (
            "option Move_Overhead=-1".into(),
            "Error (bad option): option Move_Overhead=-1 (invalid",
        ),
        (
            "option Nope=1".into(),
            "Error (bad option): option Nope=1 (unknown option",
        ),
        (
            "level x y z".into(),
            "Error (bad argument): level x y z (expected",
        ),
        (
            "level 40 5".into(),
            "Error (bad argument): level 40 5 (expected",
        ),
        ("st -1".into(), "Error (bad argument): st -1 (expected"),
        ("sd zero".into(), "Error (bad argument): sd zero (expected"),
        (
            "time soon".into(),
            "Error (bad argument): time soon (expected",
        ),
        ("otim".into(), "Error (bad argument): otim (expected"),
    ];
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.read_until(|l| l == "feature done=1");
    e.send("new");
    e.send("force");
    e.send("usermove e2e4");
    e.send("usermove c7c5");
    let fen = e.xb_fen();
    for (i, (cmd, expected)) in cases.iter().enumerate() {
        e.send(cmd);
        let lines = e.xb_sync(i as u32);
        assert_eq!(lines.len(), 1, "{cmd}: {lines:#?}");
        // `PREFIX` or `PREFIX|DETAIL`: the line starts with PREFIX and holds DETAIL.
        let (prefix, detail) = expected.split_once('|').unwrap_or((expected, ""));
        assert!(
            lines[0].starts_with(prefix) && lines[0].contains(detail),
            "{cmd}: {:?}",
            lines[0]
        );
        // python-chess's pattern for an error line: a type with no parentheses inside.
        let typed = lines[0].starts_with("Illegal move: ")
            || lines[0].starts_with("Illegal move (not a move): ")
            || lines[0]
                .strip_prefix("Error (")
                .and_then(|r| r.split_once("): "))
                .is_some_and(|(kind, _)| !kind.contains(['(', ')']));
        assert!(typed, "{cmd}: {:?}", lines[0]);
        assert_eq!(e.xb_fen(), fen, "position changed by {cmd}");
    }
    // Take-backs beyond the start are refused the same way.
    e.send("new");
    e.send("force");
    e.send("undo");
    assert_eq!(e.xb_sync(1000), vec!["Error (no move to take back): undo"]);
    e.send("usermove e2e4");
    e.send("remove");
    assert_eq!(
        e.xb_sync(1001),
        vec!["Error (no move to take back): remove"]
    );
    assert_eq!(
        e.xb_fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    e.finish();
}

#[test]
fn binary_garbage_does_not_kill_the_engine() {
    for first in ["uci", "xboard"] {
        let mut e = Engine::start();
        e.send(first);
        e.send("\u{0}\u{7f}\u{fffd} position go \t  ");
        e.send("position fen \u{1F600}/8/8/8/8/8/8/8 w - - 0 1");
        e.send("usermove \u{e9}2e4");
        e.send(&"x".repeat(100_000));
        e.send("go perft -1");
        if first == "uci" {
            e.uci_sync();
        } else {
            e.xb_sync(1);
        }
        e.finish();
    }
}

/// Issue 23: a Hash size inside the advertised range that the system refuses (here: above the
/// process's address-space limit, as on a machine with less memory than `Hash 65536`) gives one
/// error line and keeps the previous table; the engine goes on searching. Before, the process
/// aborted (`memory allocation of 68719476736 bytes failed`).
#[test]
fn refused_hash_sizes_keep_the_table_in_both_protocols() {
    let mut e = Engine::start_with_address_limit(3000);
    e.send("uci");
    e.read_until(|l| l == "uciok");
    for mb in ["65536", "4096"] {
        e.send(&format!("setoption name Hash value {mb}"));
        assert_eq!(
            e.uci_sync(),
            [format!(
                "info string Invalid option value: Hash {mb} MB refused by the system, 16 MB kept"
            )]
        );
    }
    e.send("setoption name Hash value 64");
    assert!(e.uci_sync().is_empty());
    e.send("setoption name Hash value 65536");
    assert_eq!(
        e.uci_sync(),
        ["info string Invalid option value: Hash 65536 MB refused by the system, 64 MB kept"]
    );
    e.send("position startpos");
    e.send("go depth 4");
    assert!(e.read_until(|l| l.starts_with("bestmove ")).last().unwrap() != "bestmove (none)");
    e.finish();

    let mut e = Engine::start_with_address_limit(3000);
    e.send("xboard");
    e.send("protover 2");
    e.read_until(|l| l == "feature done=1");
    e.send("memory 65536");
    assert_eq!(
        e.xb_sync(1),
        ["Error (bad option): memory 65536 (Hash 65536 MB refused by the system, 16 MB kept)"]
    );
    e.send("force");
    e.send("usermove e2e4");
    e.send("sd 3");
    e.send("go");
    e.read_until(|l| l.starts_with("move "));
    e.finish();
}

/// Found by the range fuzzer (issue 23): a Hash size set right after `stop` (the GUI's order:
/// `stop`, `setoption`, `isready`) or during a search was applied at the next `go`, where a
/// size the system refuses was only logged. Now after `stop` the bestmove goes out and the
/// size is refused at once; during a search it is refused, once, when the next search starts.
#[test]
fn hash_set_after_stop_or_during_a_search_is_refused_in_the_protocol() {
    let refused =
        "info string Invalid option value: Hash 65536 MB refused by the system, 16 MB kept";
    let mut e = Engine::start_with_address_limit(3000);
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("position startpos");
    e.send("go infinite");
    e.send("stop");
    e.send("setoption name Hash value 65536");
    let lines: Vec<String> = e
        .uci_sync()
        .into_iter()
        .filter(|l| !l.starts_with("info depth"))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("bestmove "), "{lines:?}");
    assert_eq!(lines[1], refused);
    e.send("go infinite");
    e.send("setoption name Hash value 65536");
    e.send("stop");
    e.read_until(|l| l.starts_with("bestmove "));
    e.send("go depth 1");
    let lines = e.read_until(|l| l.starts_with("bestmove "));
    assert_eq!(
        lines.iter().filter(|l| *l == refused).count(),
        1,
        "{lines:?}"
    );
    e.send("go depth 1");
    let lines = e.read_until(|l| l.starts_with("bestmove "));
    assert!(!lines.iter().any(|l| l == refused), "said once: {lines:?}");
    e.finish();
}

/// Issue 23: `Threads` goes up to the machine's logical CPUs (at most 256), as the option's
/// range says; one more is refused in both protocols and the count stays.
#[test]
fn threads_beyond_the_cpus_are_refused() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cpus >= 256 {
        return;
    }
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    let want = format!("option name Threads type spin default 1 min 1 max {cpus}");
    assert!(lines.contains(&want), "{lines:?}");
    e.send(&format!("setoption name Threads value {cpus}"));
    assert!(e.uci_sync().is_empty());
    e.send(&format!("setoption name Threads value {}", cpus + 1));
    assert_eq!(
        e.uci_sync(),
        [format!(
            "info string Invalid option value: invalid value \"{}\" for Threads: expected an \
             integer from 1 to {cpus}",
            cpus + 1
        )]
    );
    e.finish();
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.read_until(|l| l == "feature done=1");
    e.send(&format!("cores {}", cpus + 1));
    let reply = e.xb_sync(1);
    assert_eq!(reply.len(), 1, "{reply:?}");
    assert!(
        reply[0].starts_with("Error (bad option): cores "),
        "{reply:?}"
    );
    e.finish();
}

/// Issue 23: a line longer than 1 MiB is dropped as it is read (one error line, in each
/// protocol's form); a 50 MB line no longer takes the reader's memory with it, and an error
/// line quotes at most 100 characters of what was sent.
#[test]
fn overlong_lines_are_dropped_with_one_short_error() {
    let junk = "x".repeat(50 << 20);
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    let base = e.peak_rss_kb();
    e.send(&junk);
    assert_eq!(
        e.uci_sync(),
        ["info string Unknown command: \\x01input line longer than 1 MiB dropped"]
    );
    let grew = e.peak_rss_kb().saturating_sub(base);
    assert!(grew < 16 << 10, "peak memory grew by {grew} kB");
    // Just under the limit: read, refused, quoted short.
    e.send(&"y".repeat((1 << 20) - 1));
    let reply = e.uci_sync();
    assert_eq!(
        reply,
        [format!(
            "info string Unknown command: {}...",
            "y".repeat(100)
        )]
    );
    e.finish();
    let mut e = Engine::start();
    e.send("xboard");
    e.send(&junk);
    assert_eq!(
        e.xb_sync(1),
        ["Error (unknown command): \\x01input line longer than 1 MiB dropped"]
    );
    e.finish();
}
