//! Infinite Recursion Chess rules, each test named by its spec id.

use super::*;
use crate::core::{perft, tactical_walk, BoardError};

/// Joins two 8×8 placements into the 16×8 one (board A on files a–h, B on i–p).
fn combine(a: &str, b: &str) -> String {
    fn expand(r: &str) -> Vec<Option<char>> {
        let mut v = Vec::new();
        for c in r.chars() {
            match c.to_digit(10) {
                Some(d) => v.extend(std::iter::repeat_n(None, d as usize)),
                None => v.push(Some(c)),
            }
        }
        v
    }
    let ra: Vec<&str> = a.split('/').collect();
    let rb: Vec<&str> = b.split('/').collect();
    let cells: Vec<Vec<Option<char>>> = (0..8)
        .map(|i| {
            let mut row = expand(ra[7 - i]);
            row.extend(expand(rb[7 - i]));
            row
        })
        .collect();
    crate::core::fen::write_placement(16, 8, |f, r| cells[r as usize][f as usize])
}

fn moves(pos: &Recursion) -> Vec<String> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut v: Vec<String> = list
        .iter()
        .map(|&m| pos.move_text(m, Dialect::UCI))
        .collect();
    v.sort();
    v
}

fn moves_from(pos: &Recursion, from: &str) -> Vec<String> {
    moves(pos)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

fn play(pos: &mut Recursion, text: &str) {
    let m = pos
        .parse_move(text, Dialect::UCI)
        .unwrap_or_else(|e| panic!("{text}: {e} in {}", pos.fen()));
    pos.make_move(m);
}

const B_START: &str = "rmbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR";
/// Board B finished: White to move and mated there (Black won it).
const B_BLACK_WON: &str = "k7/8/8/8/8/8/6PP/r6K";
/// Board B finished: Black to move and mated there (White won it).
const B_WHITE_WON: &str = "R6k/6pp/8/8/8/8/8/K7";
/// Board B drawn: bare kings.
const B_DRAWN: &str = "k7/8/8/8/8/8/8/7K";

#[test]
fn ir_1_ir_2_start_position() {
    let pos = Recursion::startpos();
    assert_eq!(pos.fen(), START_FEN);
    assert_eq!(pos.mega_square(0), Some(Square(1)));
    assert_eq!(pos.mega_square(1), Some(Square(57)));
    assert_eq!(pos.board(0).king_square(Color::White), Square(3));
    // White opens on its own board (files a-h) only.
    let m = moves(&pos);
    assert_eq!(m.len(), 20);
    assert!(m.iter().all(|t| t.as_bytes()[0] <= b'h'), "{m:?}");
    assert!(m.contains(&"b1c3".to_string()) && m.contains(&"e2e4".to_string()));
}

#[test]
fn ir_5_steps_alternate_boards_and_perft_multiplies() {
    let mut pos = Recursion::startpos();
    play(&mut pos, "e2e4"); // step 1: White on A
    assert!(moves(&pos).iter().all(|t| t.as_bytes()[0] >= b'i'));
    assert!(
        pos.parse_move("e7e5", Dialect::UCI).is_err(),
        "Black may not play on A now"
    );
    play(&mut pos, "m7m5"); // step 1: Black on B
    assert!(moves(&pos).iter().all(|t| t.as_bytes()[0] >= b'i'));
    assert!(
        pos.parse_move("d2d4", Dialect::UCI).is_err(),
        "White plays on B in step 2"
    );
    play(&mut pos, "m2m4"); // step 2: White on B
    assert!(moves(&pos).iter().all(|t| t.as_bytes()[0] <= b'h'));
    play(&mut pos, "e7e5"); // step 2: Black on A
    assert!(moves(&pos).iter().all(|t| t.as_bytes()[0] <= b'h'));
    // While both boards run independently, perft is a product of the boards' perfts: after
    // n plies board A has had 1, 1, 2, 2, 3 plies and board B 0, 1, 2, 2, 2.
    let mut start = Recursion::startpos();
    assert_eq!(perft(&mut start, 1), 20);
    assert_eq!(perft(&mut start, 2), 20 * 20);
    assert_eq!(perft(&mut start, 3), 20 * 400);
    assert_eq!(perft(&mut start, 4), 400 * 400);
    // Board A's chess perft(3) is 8902, less the three lines in which White's Neutral
    // mega-knight would capture on its second move (IR-4): Nc3 d5 Nxd5, Nc3 b5 Nxb5,
    // Na3 b5 Nxb5.
    assert_eq!(perft(&mut start, 5), (8902 - 3) * 400);
}

#[test]
fn ir_4_neutral_mega_knight_cannot_capture() {
    let a = "4k3/8/8/3p4/8/2M5/8/4K3";
    let fen = format!("{} w a w:-:-:0:*:n b:KQkq:-:0:*:n 1", combine(a, B_START));
    let pos = Recursion::from_fen(&fen).unwrap();
    assert_eq!(
        moves_from(&pos, "c3"),
        ["c3a2", "c3a4", "c3b1", "c3b5", "c3d1", "c3e2", "c3e4"]
    );
}

#[test]
fn ir_4_neutral_mega_knight_cannot_be_captured() {
    let a = "4k3/8/8/8/3p4/2M5/8/4K3";
    let fen = format!("{} b a b:-:-:0:*:n b:KQkq:-:0:*:n 1", combine(a, B_START));
    let pos = Recursion::from_fen(&fen).unwrap();
    assert_eq!(
        moves(&pos),
        ["d4d3", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]
    );
    // Not even the king may take it, and it still covers its squares.
    let a = "7K/8/8/P7/8/8/3k4/2M5";
    let fen = format!("{} b a b:-:-:0:*:n b:KQkq:-:0:*:n 1", combine(a, B_START));
    let pos = Recursion::from_fen(&fen).unwrap();
    assert_eq!(moves(&pos), ["d2c2", "d2c3", "d2d1", "d2e1", "d2e3"]);
}

#[test]
fn ir_4_neutral_mega_knight_gives_check() {
    let a = "7K/8/8/P7/8/3k4/8/2M5";
    let fen = format!("{} b a b:-:-:0:*:n b:KQkq:-:0:*:n 1", combine(a, B_START));
    let pos = Recursion::from_fen(&fen).unwrap();
    assert!(pos.in_check());
    assert_eq!(
        moves(&pos),
        ["d3c2", "d3c3", "d3c4", "d3d2", "d3d4", "d3e3", "d3e4"]
    );
}

#[test]
fn ir_4_frozen_mega_knight_cannot_move_but_can_be_captured() {
    let a = "4k3/8/8/3p4/8/2M5/8/4K3";
    let fen = format!(
        "{} w a w:-:-:0:*:f w:-:-:0:0-1:n 1",
        combine(a, B_BLACK_WON)
    );
    let pos = Recursion::from_fen(&fen).unwrap();
    assert_eq!(moves_from(&pos, "c3"), Vec::<String>::new());
    assert_eq!(moves(&pos), ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]);
    let a = "4k3/8/8/8/3p4/2M5/8/4K3";
    let fen = format!(
        "{} b a b:-:-:0:*:f w:-:-:0:0-1:n 1",
        combine(a, B_BLACK_WON)
    );
    let pos = Recursion::from_fen(&fen).unwrap();
    assert!(moves(&pos).contains(&"d4c3".to_string()));
}

#[test]
fn ir_4_disarmed_mega_knight_moves_without_capturing_and_can_be_captured() {
    let a = "4k3/8/8/3p4/8/2M5/8/4K3";
    let fen = format!("{} w a w:-:-:0:*:d w:-:-:0:1/2:n 1", combine(a, B_DRAWN));
    let pos = Recursion::from_fen(&fen).unwrap();
    assert_eq!(
        moves_from(&pos, "c3"),
        ["c3a2", "c3a4", "c3b1", "c3b5", "c3d1", "c3e2", "c3e4"]
    );
    let a = "4k3/8/8/8/3p4/2M5/8/4K3";
    let fen = format!("{} b a b:-:-:0:*:d w:-:-:0:1/2:n 1", combine(a, B_DRAWN));
    let pos = Recursion::from_fen(&fen).unwrap();
    assert!(moves(&pos).contains(&"d4c3".to_string()));
}

#[test]
fn ir_4_armed_mega_knight_is_a_knight() {
    let a = "4k3/8/8/3p4/8/2M5/8/4K3";
    let fen = format!(
        "{} w a w:-:-:0:*:a b:-:-:0:1-0:n 1",
        combine(a, B_WHITE_WON)
    );
    let pos = Recursion::from_fen(&fen).unwrap();
    assert_eq!(
        moves_from(&pos, "c3"),
        ["c3a2", "c3a4", "c3b1", "c3b5", "c3d1", "c3d5", "c3e2", "c3e4"]
    );
}

/// IR-4: each state is a set of powers on the board's mark of the knight, as the table says
/// (Neutral: no captures, cannot be captured; Armed: none; Disarmed: no captures; Frozen: no
/// moves); a state change gives the mark its new powers and unmake takes them back.
#[test]
fn ir_4_states_are_powers_of_the_marked_knight() {
    use crate::core::Powers;
    let p = |s: MegaState| s.powers();
    assert!(p(MegaState::Neutral).has(Powers::UNCAPTURABLE.union(Powers::NO_CAPTURE)));
    assert!(!p(MegaState::Neutral).has(Powers::NO_MOVE));
    assert_eq!(p(MegaState::Armed), Powers::NONE);
    assert_eq!(p(MegaState::Disarmed), Powers::NO_CAPTURE);
    assert_eq!(p(MegaState::Frozen), Powers::NO_MOVE);
    let mark_powers =
        |pos: &Recursion, b: usize| pos.board(b).mark(mega_owner(b)).map(|m| m.powers).unwrap();
    let fen = format!(
        "{} w a w:-:-:0:*:n b:KQkq:-:0:*:n 1",
        combine(A_WHITE_MATES_IN_ONE, B_START)
    );
    let mut pos = Recursion::from_fen(&fen).unwrap();
    assert_eq!(mark_powers(&pos, 0), p(MegaState::Neutral));
    assert_eq!(mark_powers(&pos, 1), p(MegaState::Neutral));
    play(&mut pos, "h1h8");
    play(&mut pos, "m7m5");
    assert_eq!(mark_powers(&pos, 1), p(MegaState::Frozen));
    assert_eq!(pos.board(1).hash(), pos.board(1).compute_hash());
    pos.unmake_move();
    assert_eq!(mark_powers(&pos, 1), p(MegaState::Neutral));
    assert_eq!(pos.board(1).hash(), pos.board(1).compute_hash());
}

/// Board A: White mates with Qh5xf7 style in one (Black king boxed in).
const A_WHITE_MATES_IN_ONE: &str = "4k3/8/4K3/8/8/8/8/M6R";

#[test]
fn ir_6_state_changes_after_both_moves_of_the_step() {
    let fen = format!(
        "{} w a w:-:-:0:*:n b:KQkq:-:0:*:n 1",
        combine(A_WHITE_MATES_IN_ONE, B_START)
    );
    let mut pos = Recursion::from_fen(&fen).unwrap();
    play(&mut pos, "h1h8"); // mates on board A
    assert_eq!(pos.result(0), Some(SubResult::Win(Color::White)));
    // Black's mega-knight (on B) is still Neutral during Black's move of this step.
    assert_eq!(pos.mega_state(1), MegaState::Neutral);
    assert_eq!(pos.active_board(), Some(1));
    assert!(pos.fen().contains(" b b "), "{}", pos.fen());
    // The FEN holds the pending change.
    let mid = Recursion::from_fen(&pos.fen()).unwrap();
    assert_eq!(mid.fen(), pos.fen());
    play(&mut pos, "m7m5");
    assert_eq!(pos.mega_state(1), MegaState::Frozen);
    // Board B continues alone: White to move there, no pass needed.
    assert_eq!(pos.active_board(), Some(1));
    assert!(moves(&pos).iter().all(|t| t.as_bytes()[0] >= b'i'));
    // Black's frozen mega-knight on j8 can no longer move.
    pos.unmake_move();
    assert_eq!(pos.mega_state(1), MegaState::Neutral);
    pos.unmake_move();
    assert_eq!(pos.fen(), fen);
}

#[test]
fn ir_6_both_boards_ending_in_one_step_change_nothing() {
    // A: White mates in one; B: Black (to move first) mates in one.
    let b = "r6m/8/8/8/8/4k3/8/4K3"; // Black: Ra8-a1 mates (king e1, e3 king covers d2 e2 f2)
    let fen = format!(
        "{} w a w:-:-:0:*:n b:-:-:0:*:n 1",
        combine(A_WHITE_MATES_IN_ONE, b)
    );
    let mut pos = Recursion::from_fen(&fen).unwrap();
    play(&mut pos, "h1h8");
    play(&mut pos, "i8i1");
    assert_eq!(pos.result(0), Some(SubResult::Win(Color::White)));
    assert_eq!(pos.result(1), Some(SubResult::Win(Color::Black)));
    assert_eq!(pos.mega_state(0), MegaState::Neutral);
    assert_eq!(pos.mega_state(1), MegaState::Neutral);
    assert!(moves(&pos).is_empty());
    let o = pos.outcome().unwrap();
    assert_eq!(o.score(), "1/2-1/2");
}

#[test]
fn ir_5_pass_when_no_move_on_an_unfinished_board() {
    // Black ends board B with its move of step 1; board A has Black to move next, so White,
    // whose only unfinished board is A, passes.
    let a = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RMBKQBNR";
    let b = "r6m/8/8/8/8/4k3/8/4K3";
    let fen = format!("{} w a w:KQkq:-:0:*:n b:-:-:0:*:n 1", combine(a, b));
    let mut pos = Recursion::from_fen(&fen).unwrap();
    play(&mut pos, "e2e4");
    assert_eq!(moves(&pos).len(), 13 + 5 + 2, "{:?}", moves(&pos)); // rook, king, mega-knight
    play(&mut pos, "i8i1");
    assert_eq!(pos.result(1), Some(SubResult::Win(Color::Black)));
    // White's mega-knight on A is the game on B, which Black won: Frozen at once (end of step).
    assert_eq!(pos.mega_state(0), MegaState::Frozen);
    assert_eq!(moves(&pos), ["0000"]);
    assert_eq!(pos.move_text(Move::pass(), Dialect::XBOARD), "@@@@");
    assert!(pos.parse_move("d2d4", Dialect::UCI).is_err());
    let pass = pos.parse_move("@@@@", Dialect::XBOARD).unwrap();
    pos.make_move(pass);
    assert_eq!(pos.side_to_move(), Color::Black);
    assert!(moves(&pos).iter().all(|t| t.as_bytes()[0] <= b'h'));
    assert!(
        pos.parse_move("0000", Dialect::UCI).is_err(),
        "a pass when a move exists"
    );
    play(&mut pos, "e7e5");
    // From now on plies alternate on board A with no passes.
    assert!(moves(&pos).contains(&"d2d4".to_string()));
}

#[test]
fn ir_7_all_nine_result_combinations() {
    use SubResult::*;
    let w = Win(Color::White);
    let b = Win(Color::Black);
    let cases = [
        ([w, w], "1-0"),
        ([w, Draw], "1-0"),
        ([Draw, w], "1-0"),
        ([w, b], "1/2-1/2"),
        ([b, w], "1/2-1/2"),
        ([Draw, Draw], "1/2-1/2"),
        ([b, b], "0-1"),
        ([b, Draw], "0-1"),
        ([Draw, b], "0-1"),
    ];
    for (r, score) in cases {
        let o = Recursion::outcome_of([Some(r[0]), Some(r[1])]).unwrap();
        assert_eq!(o.score(), score, "{r:?}");
    }
    assert_eq!(Recursion::outcome_of([Some(w), None]), None);
}

/// A finished board B (White won, so White's mega-knights are Armed) and a standard position
/// on board A: the whole game's perft is the chess perft of board A.
#[test]
fn ir_3_cross_check_with_chess_perft() {
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBNR",
            "w",
            "KQkq",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            4,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2M2Q1p/PPPBBPPP/R3K2R",
            "w",
            "KQkq",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
        ),
        (
            "n1n5/PPPk4/8/8/8/8/4Kppp/5M1N",
            "b",
            "-",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            4,
        ),
        (
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8",
            "w",
            "-",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            5,
        ),
    ];
    for (a, side, castling, chess_fen, depth) in cases {
        let b_side = "b";
        let fen = format!(
            "{} {side} a {side}:{castling}:-:0:*:a {b_side}:-:-:0:1-0:n 1",
            combine(a, B_WHITE_WON)
        );
        let mut pos = Recursion::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut chess = Chess::from_fen(chess_fen).unwrap();
        assert_eq!(perft(&mut pos, depth), perft(&mut chess, depth), "{fen}");
        assert_eq!(pos.fen(), fen);
    }
}

#[test]
fn fen_round_trips_through_a_game() {
    let mut pos = Recursion::startpos();
    for m in [
        "e2e4", "m7m5", "m2m4", "e7e5", "b1c3", "j8k6", "j1k3", "b8c6",
    ] {
        play(&mut pos, m);
        let again = Recursion::from_fen(&pos.fen()).unwrap();
        assert_eq!(again.fen(), pos.fen());
        assert_eq!(again.hash(), pos.hash());
    }
}

#[test]
fn bad_fens_are_refused() {
    let two_megas = format!(
        "{} w a w:KQkq:-:0:*:n b:KQkq:-:0:*:n 1",
        combine("rmbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RMBKQBNR", B_START)
    );
    assert!(Recursion::from_fen(&two_megas).is_err());
    let three_kings = format!(
        "{} w a w:KQkq:-:0:*:n b:KQkq:-:0:*:n 1",
        combine("rnbkqbnr/pppppppp/8/8/8/3K4/PPPPPPPP/RMBKQBNR", B_START)
    );
    assert!(Recursion::from_fen(&three_kings).is_err());
    let wrong_result = format!(
        "{} w a w:KQkq:-:0:*:n b:KQkq:-:0:1-0:n 1",
        combine("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RMBKQBNR", B_START)
    );
    assert!(Recursion::from_fen(&wrong_result).is_err());
    let wrong_board = START_FEN.replace(" w a ", " w b ");
    assert!(Recursion::from_fen(&wrong_board).is_err());
    let wrong_state = START_FEN.replace("*:n b:", "*:a b:");
    assert!(Recursion::from_fen(&wrong_state).is_err());
    assert!(Recursion::from_fen("garbage").is_err());
    assert!(Recursion::from_fen("").is_err());
}

#[test]
fn ir_5_plain_xboard_fen_is_read_with_the_step_from_the_move_number() {
    // XBoard's Paste / Edit Position sends a plain 16×8 FEN: the start, with its castling.
    let start = "rnbkqbnrrmbkqbnr/pppppppppppppppp/16/16/16/16/PPPPPPPPPPPPPPPP/RMBKQBNRRNBKQBNR";
    let pos = Recursion::from_fen(&format!("{start} w KQkq - 0 1")).unwrap();
    assert_eq!(pos.fen(), START_FEN);
    // Without castling rights, and at Black's ply of step 1 (White has played e2e4 on A).
    let after = "rnbkqbnrrmbkqbnr/pppppppppppppppp/16/16/4P11/16/PPPP1PPPPPPPPPPP/RMBKQBNRRNBKQBNR";
    let pos = Recursion::from_fen(&format!("{after} b - - 0 1")).unwrap();
    assert_eq!(pos.fen(), format!("{after} b b b:-:-:0:*:n b:-:-:0:*:n 1"));
    // Step 2 after Black mated on B: the result and the Frozen mega-knight are read off the
    // position, and White, whose board of step 2 is B (over), passes — the same position as
    // the game that reaches it (ir_5_pass_when_no_move_on_an_unfinished_board).
    let mut played = Recursion::from_fen(&format!(
        "{} w a w:KQkq:-:0:*:n b:-:-:0:*:n 1",
        combine(
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RMBKQBNR",
            "r6m/8/8/8/8/4k3/8/4K3"
        )
    ))
    .unwrap();
    play(&mut played, "e2e4");
    play(&mut played, "i8i1");
    let plain = "rnbkqbnr7m/pppppppp8/16/16/4P11/12k3/PPPP1PPP8/RMBKQBNRr3K3 w - - 0 2";
    let pos = Recursion::from_fen(plain).unwrap();
    assert_eq!(moves(&pos), ["0000"]);
    assert_eq!(pos.mega_state(0), MegaState::Frozen);
    assert_eq!(pos.result(1), Some(SubResult::Win(Color::Black)));
    assert_eq!(
        pos.fen(),
        "rnbkqbnr7m/pppppppp8/16/16/4P11/12k3/PPPP1PPP8/RMBKQBNRr3K3 w - b:-:-:0:*:f w:-:-:0:0-1:n 2"
    );
    // The game's own position differs only in what a plain FEN cannot carry: board A's
    // castling rights and board B's halfmove clock.
    assert_eq!(
        played.fen(),
        "rnbkqbnr7m/pppppppp8/16/16/4P11/12k3/PPPP1PPP8/RMBKQBNRr3K3 w - b:KQkq:-:0:*:f w:-:-:1:0-1:n 2"
    );
    // A bad placement is reported as such.
    let bad = Recursion::from_fen(&format!("{}X w - - 0 1", &start[..start.len() - 1]));
    assert!(
        matches!(bad, Err(FenError::Board(BoardError::UnknownPiece('X')))),
        "{bad:?}"
    );
}

/// Quiescence's generator: the legal moves that are tactical, in order, on the board to move
/// (never the pass), at every node two plies below each position of a game.
#[test]
fn the_tactical_moves_are_the_active_boards_captures_and_promotions() {
    // A game of 40 plies, each move chosen by a fixed stride through the legal list.
    let mut pos = Recursion::startpos();
    let mut seen = 0;
    for i in 0..40 {
        seen += tactical_walk(&mut pos, 3, true);
        let mut all = MoveList::new();
        pos.legal_moves(&mut all);
        if all.is_empty() {
            break;
        }
        pos.make_move(all[(i * 7 + 3) % all.len()]);
    }
    assert!(seen > 0);
}
