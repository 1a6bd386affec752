//! UCI against the real binary.

use std::time::Duration;

use crate::protocol_support::{chess_after, is_legal, Engine};
use cellmate::core::Dialect;

fn bestmove_of(line: &str) -> (String, Option<String>) {
    let t: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(t[0], "bestmove", "{line}");
    let ponder = match t.get(2) {
        Some(&"ponder") => Some(t[3].to_string()),
        None => None,
        Some(x) => panic!("unexpected {x} in {line}"),
    };
    (t[1].to_string(), ponder)
}

#[test]
fn handshake_is_exact() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    let version = env!("CARGO_PKG_VERSION");
    let expected = vec![
        format!("id name cellmate {version}"),
        "id author the cellmate developers".to_string(),
        "option name Hash type spin default 16 min 1 max 65536".to_string(),
        format!(
            "option name Threads type spin default 1 min 1 max {}",
            std::thread::available_parallelism().map_or(1, |n| n.get()).min(256)
        ),
        "option name Ponder type check default false".to_string(),
        "option name MultiPV type spin default 1 min 1 max 64".to_string(),
        "option name Move Overhead type spin default 30 min 0 max 5000".to_string(),
        "option name Contempt type spin default 50 min -10000 max 10000".to_string(),
        "option name UCI_Variant type combo default chess var chess var recursion var microorganism var immune".to_string(),
        "option name Clear Hash type button".to_string(),
        "uciok".to_string(),
    ];
    assert_eq!(lines, expected);
    assert!(e.uci_sync().is_empty());
    e.send("quit");
    assert!(e.finish().is_empty());
}

#[test]
fn position_moves_then_d() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("position startpos moves e2e4 e7e5");
    assert_eq!(
        e.uci_fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    // `d` shows the whole state: variant, key, checkers.
    e.send("d");
    let lines = e.uci_sync();
    assert!(lines.iter().any(|l| l == "Variant: chess"));
    assert!(lines.iter().any(|l| l.starts_with("Key: ")));
    // A FEN with fields left out (which vampirc-uci cannot read) goes through our reader.
    e.send("position fen k7/8/8/8/8/8/8/4K2R w K - moves e1g1");
    assert_eq!(e.uci_fen(), "k7/8/8/8/8/8/8/5RK1 b - - 1 1");
    // Castling, promotion and en passant spelled the UCI way.
    e.send("position fen 4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1 moves e5d6 e8f7 b7b8q");
    assert_eq!(e.uci_fen(), "1Q6/5k2/3P4/8/8/8/8/4K3 b - - 0 2");
    e.finish();
}

#[test]
fn position_that_extends_the_last_plays_only_the_new_moves() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("position startpos moves e2e4");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    let after3 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    assert_eq!(e.uci_fen(), after3);
    // An illegal appended move: one error line, the position stays after the three moves.
    e.send("position startpos moves e2e4 e7e5 g1f3 e8e6");
    assert_eq!(
        e.uci_sync(),
        vec!["info string Illegal move: e8e6".to_string()]
    );
    assert_eq!(e.uci_fen(), after3);
    // Still extends the last good command, not the refused one.
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    assert_eq!(
        e.uci_fen(),
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    );
    // A different line (a take-back), another start, ucinewgame: the game is set up afresh.
    e.send("position startpos moves d2d4");
    assert_eq!(
        e.uci_fen(),
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
    );
    e.send("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2");
    e.send("position startpos moves d2d4 d7d5");
    assert_eq!(
        e.uci_fen(),
        "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2"
    );
    e.send("ucinewgame");
    e.send("position startpos");
    assert_eq!(
        e.uci_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    e.finish();
}

#[test]
fn go_depth_returns_a_legal_move() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 2");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    for l in &lines[..lines.len() - 1] {
        assert!(l.starts_with("info "), "{l}");
    }
    let (best, ponder) = bestmove_of(lines.last().unwrap());
    let pos = chess_after(None, &["e2e4", "e7e5", "g1f3"]);
    assert!(is_legal(&pos, &best, Dialect::UCI), "{best}");
    if let Some(p) = ponder {
        let after = chess_after(None, &["e2e4", "e7e5", "g1f3", &best]);
        assert!(is_legal(&after, &p, Dialect::UCI), "{p}");
    }
    // Clock-based go, as cutechess-cli sends it.
    e.send("position startpos moves c2c4");
    e.uci_sync();
    e.send("go wtime 10003 btime 10100 winc 100 binc 100");
    let l = e.read_until(|l| l.starts_with("bestmove"));
    let (best, _) = bestmove_of(l.last().unwrap());
    assert!(is_legal(&chess_after(None, &["c2c4"]), &best, Dialect::UCI));
    e.send("quit");
    e.finish();
}

#[test]
fn go_perft() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    let divide: Vec<&String> = lines.iter().filter(|l| l.contains(": ")).collect();
    assert_eq!(divide.len(), 21);
    assert!(lines.contains(&"e2e4: 600".to_string()));
    e.finish();
}

/// Issue 23: `go perft N` runs like a search: `isready` is answered at once, and `stop` ends
/// it with the root moves counted so far and `info string perft stopped` instead of a total.
#[test]
fn go_perft_does_not_block_and_stops() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("position startpos");
    e.send("go perft 9");
    let before = e.uci_sync();
    assert!(before.iter().all(|l| !l.starts_with("Nodes")), "{before:?}");
    e.send("stop");
    let lines = e.read_until(|l| l == "info string perft stopped");
    // The moves counted before the stop are whole counts of the start's moves (none of
    // depth 9 is done this fast, but a listed one must be right).
    for l in &lines[..lines.len() - 1] {
        let (m, n) = l.split_once(": ").unwrap_or_else(|| panic!("{l}"));
        assert!(m.len() == 4 && n.parse::<u64>().is_ok(), "{l}");
    }
    // The engine goes on: a full count after it.
    e.send("go perft 2");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 400");
    assert!(e.uci_sync().is_empty());
    e.finish();
}

/// Found by the range fuzzer (issue 23): `go perft 100000` overflowed the perft thread's stack
/// and aborted the process. A depth above 64 is refused in one line; 64 itself runs and stops.
#[test]
fn go_perft_depth_is_bounded() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("position startpos");
    for d in ["65", "100000", "4294967295"] {
        e.send(&format!("go perft {d}"));
        assert_eq!(
            e.uci_sync(),
            [format!(
                "info string Invalid go parameters: perft {d} (at most 64)"
            )]
        );
    }
    e.send("go perft 64");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let lines = e.read_until(|l| l == "info string perft stopped");
    assert!(lines.iter().all(|l| !l.starts_with("Nodes")), "{lines:?}");
    e.finish();
}

#[test]
fn stop_during_go_infinite_returns_a_bestmove() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("position startpos moves d2d4");
    e.send("go infinite");
    // isready is answered during the search, and no bestmove comes before stop.
    std::thread::sleep(Duration::from_millis(300));
    let before = e.uci_sync();
    assert!(
        before.iter().all(|l| !l.starts_with("bestmove")),
        "{before:?}"
    );
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    let (best, _) = bestmove_of(lines.last().unwrap());
    assert!(is_legal(&chess_after(None, &["d2d4"]), &best, Dialect::UCI));
    // Exactly one bestmove: a second stop says nothing.
    e.send("stop");
    assert!(e.uci_sync().is_empty());
    e.finish();
}

#[test]
fn go_ponder_waits_for_ponderhit_or_stop() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 5000 btime 5000");
    std::thread::sleep(Duration::from_millis(200));
    let before = e.uci_sync();
    assert!(
        before.iter().all(|l| !l.starts_with("bestmove")),
        "{before:?}"
    );
    e.send("ponderhit");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    let (best, _) = bestmove_of(lines.last().unwrap());
    assert!(is_legal(
        &chess_after(None, &["e2e4", "e7e5"]),
        &best,
        Dialect::UCI
    ));

    e.send("go ponder wtime 5000 btime 5000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert!(lines.last().unwrap().starts_with("bestmove "));
    e.finish();
}

/// Issue 21: a game the rules have ended is answered with its result and `bestmove (none)`,
/// never `bestmove 0000` (a move: the Recursion pass), in every variant and for every ending.
#[test]
fn ended_games_get_their_result_and_bestmove_none() {
    let cases = [
        (
            "chess",
            "startpos moves f2f3 e7e5 g2g4 d8h4",
            "0-1 {Black mates}",
        ),
        (
            "chess",
            "fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "1/2-1/2 {Stalemate}",
        ),
        (
            "chess",
            "startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
            "1/2-1/2 {Draw by repetition}",
        ),
        (
            "chess",
            "fen 4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80 moves a1a2",
            "1/2-1/2 {50-move rule}",
        ),
        (
            "recursion",
            "fen k7k7/1Q7Q6/1K7K6/16/16/16/16/M7m7 b - - 0 1",
            "1-0 {White wins (board A 1-0, board B 1-0)}",
        ),
        (
            "immune",
            "fen 10/10/10/10/4i5/4A5/10/10/10/C1H7 b - 0 1 moves e6e5",
            "0-1 {White has no piece left that can capture}",
        ),
        (
            "immune",
            "fen 10/10/10/10/4i5/4M5/10/10/10/10 w - 0 1 moves e5e6",
            "1-0 {White destroyed every Invader}",
        ),
    ];
    for (variant, position, result) in cases {
        let mut e = Engine::start();
        e.send("uci");
        e.read_until(|l| l == "uciok");
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send(&format!("position {position}"));
        e.send("go depth 3");
        let lines = e.read_until(|l| l.starts_with("bestmove"));
        assert_eq!(
            lines,
            [
                format!("info string game over {result}"),
                "bestmove (none)".into()
            ],
            "{variant} {position}"
        );
        // `go infinite` waits for `stop` with its bestmove, as for a search.
        e.send("go infinite");
        assert_eq!(e.uci_sync(), [format!("info string game over {result}")]);
        e.send("stop");
        assert_eq!(e.uci_sync(), ["bestmove (none)"]);
        e.finish();
    }
}

#[test]
fn options_are_accepted_silently() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    for cmd in [
        "setoption name Hash value 32",
        "setoption name threads value 2",
        "setoption name MultiPV value 3",
        "setoption name Move Overhead value 100",
        "setoption name Ponder value false",
        "setoption name UCI_Variant value chess",
        "setoption name Clear Hash",
        "debug on",
    ] {
        e.send(cmd);
        assert!(e.uci_sync().is_empty(), "{cmd}");
    }
    e.send("go depth 1");
    e.read_until(|l| l.starts_with("bestmove"));
    e.finish();
}

/// The last `info depth` line's score of `go depth 3` on the lost position at the 99th
/// half-move (every move but a knight's sacrifice draws).
fn draw_score_line(e: &mut Engine) -> String {
    e.send("position fen k7/8/8/4q3/8/8/1p6/3N3K w - - 99 80");
    e.send("go depth 3");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    let last = lines.iter().rev().find(|l| l.starts_with("info depth"));
    last.expect("an info line").clone()
}

/// Unless told otherwise the engine plays with a contempt of 50 (`PLAY_CONTEMPT`): the draw
/// is reported as −50 for the side to move; `Contempt 0` (a host against a stronger engine)
/// scores it 0.
#[test]
fn contempt_defaults_to_fifty_and_zero_scores_a_draw_as_even() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    let line = draw_score_line(&mut e);
    assert!(line.contains(" score cp -50 "), "{line}");
    e.send("setoption name Contempt value 0");
    assert!(e.uci_sync().is_empty());
    let line = draw_score_line(&mut e);
    assert!(line.contains(" score cp 0 "), "{line}");
    e.finish();
}

/// `Contempt` reaches the search: White, lost, at the 99th half-move can only draw (or give
/// up its knight), and the draw is reported as −Contempt; an out-of-range value is refused
/// with one `info string` and leaves the setting as it was.
#[test]
fn contempt_option_scores_the_draw() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("setoption name Contempt value 40");
    assert!(e.uci_sync().is_empty());
    e.send("setoption name Contempt value 20000");
    let err = e.uci_sync();
    assert_eq!(err.len(), 1, "{err:?}");
    assert!(err[0].starts_with("info string"), "{err:?}");
    let last_info = draw_score_line(&mut e);
    assert!(last_info.contains(" score cp -40 "), "{last_info}");
    e.finish();
}

#[test]
fn quit_during_search_and_end_of_input_exit_cleanly() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("go infinite");
    e.send("quit");
    // The stopped search still answers before the engine exits.
    let rest = e.finish();
    assert!(rest.iter().any(|l| l.starts_with("bestmove")), "{rest:?}");

    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.finish();
}
