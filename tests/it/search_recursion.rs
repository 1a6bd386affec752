//! The searcher in Infinite Recursion Chess: passes, finished boards, IR-7 results.

use cellmate::core::{Dialect, Variant};
use cellmate::engine::{Control, Engine, Limits, Score};
use cellmate::variants::recursion::Recursion;

fn best(fen: &str, depth: u32) -> (String, Score) {
    let pos = Recursion::from_fen(fen).unwrap();
    let engine = Engine::new(16, 1);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = engine.search(&pos, &limits, &Control::new(false), &|_| {});
    (pos.move_text(r.best.unwrap(), Dialect::UCI), r.score)
}

/// IR-5: when White has no unfinished board to move on, its only move is the pass.
#[test]
fn ir_5_search_plays_the_pass() {
    // Board B ended 0-1 on Black's move (rook mate on rank 1); board A waits for Black.
    let fen = "rnbkqbnrr6m/pppppppp8/16/16/4P11/12k3/PPPP1PPP8/RMBKQBNRr3K3 w - b:KQkq:-:0:*:f w:-:-:0:0-1:n 2";
    let (m, _) = best(fen, 3);
    assert_eq!(m, "0000");
}

/// With board B still even, mating on board A (a won board and a drawn one win, IR-7) is what
/// the engine plays.
#[test]
fn ir_7_search_mates_on_a_board() {
    let fen = "4k3rmbkqbnr/8pppppppp/4K11/16/16/16/8PPPPPPPP/M6RRNBKQBNR w a w:-:-:0:*:n b:KQkq:-:0:*:n 1";
    let (m, score) = best(fen, 3);
    assert_eq!(m, "h1h8");
    match score {
        Score::Cp(cp) => assert!(cp > 500, "{cp}"),
        Score::Mate(_) => panic!("one board is not the game"),
    }
}
