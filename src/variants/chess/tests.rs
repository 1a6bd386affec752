use super::*;
use crate::core::{perft, perft_divide, tactical_walk};

fn p(fen: &str, depth: u32) -> u64 {
    let mut pos = Chess::from_fen(fen).unwrap();
    perft(&mut pos, depth)
}

#[test]
fn start_position_perft() {
    assert_eq!(p(START_FEN, 1), 20);
    assert_eq!(p(START_FEN, 2), 400);
    assert_eq!(p(START_FEN, 3), 8902);
    assert_eq!(p(START_FEN, 4), 197_281);
}

#[test]
fn kiwipete_perft() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(p(fen, 1), 48);
    assert_eq!(p(fen, 2), 2039);
    assert_eq!(p(fen, 3), 97_862);
}

#[test]
fn fen_round_trips() {
    for fen in [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
        "8/8/8/8/8/8/6k1/4K2R w K - 12 40",
    ] {
        assert_eq!(Chess::from_fen(fen).unwrap().fen(), fen);
    }
}

#[test]
fn make_unmake_restores_and_hash_is_incremental() {
    let mut pos =
        Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let before = pos.fen();
    let h = pos.hash();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    for &m in &list {
        pos.make_move(m);
        assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.fen());
        let mut l2 = MoveList::new();
        pos.legal_moves(&mut l2);
        for &m2 in &l2 {
            pos.make_move(m2);
            assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.fen());
            pos.unmake_move();
        }
        pos.unmake_move();
        assert_eq!(pos.fen(), before);
        assert_eq!(pos.hash(), h);
    }
}

#[test]
fn divide_sums_to_perft() {
    let mut pos = Chess::startpos();
    let d = perft_divide(&mut pos, 3);
    assert_eq!(d.len(), 20);
    assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 8902);
}

/// Found by tests/it/fuzz.rs: a long run of digits in a rank overflowed the counter.
#[test]
fn long_digit_run_in_a_rank_is_refused() {
    for fen in [
        "rnbqkbnr/pppppppp/99999999999999999999/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K4294967296 w - - 0 1",
    ] {
        assert!(
            matches!(Chess::from_fen(fen), Err(FenError::Board(_))),
            "{fen}"
        );
    }
}

/// Found by tests/it/fuzz.rs: a four-byte move text with a multi-byte character panicked in the
/// king-takes-rook castling reader (a slice inside a character).
#[test]
fn non_ascii_four_byte_move_text_is_refused() {
    let pos = Chess::startpos();
    for text in ["🂡", "gé1", "éb1", "e2é"] {
        for d in [Dialect::UCI, Dialect::XBOARD] {
            assert!(pos.parse_move(text, d).is_err(), "{text}");
        }
    }
}

fn moves_of(pos: &Chess) -> Vec<String> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&m| pos.move_text(m, Dialect::UCI))
        .collect()
}

fn play_text(pos: &mut Chess, text: &str) {
    let m = pos.parse_move(text, Dialect::UCI).unwrap();
    pos.make_move(m);
    assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.fen());
}

fn marked(square: u8, powers: Powers) -> Option<Mark> {
    Some(Mark {
        square: Square(square),
        powers,
    })
}

/// A mark may sit on any piece of its colour: a rook that cannot move neither moves nor castles;
/// one that cannot capture moves and castles but never takes.
#[test]
fn a_marked_rook_obeys_its_powers() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let plain = moves_of(&Chess::from_fen(fen).unwrap());
    let mut pos = Chess::from_fen(fen).unwrap();
    pos.set_mark(Color::White, marked(7, Powers::NO_MOVE))
        .unwrap();
    assert_eq!(pos.hash(), pos.compute_hash());
    let still = moves_of(&pos);
    assert!(still.iter().all(|t| !t.starts_with("h1")), "{still:?}");
    assert!(!still.contains(&"e1g1".to_string()) && still.contains(&"e1c1".to_string()));
    assert_eq!(
        still.len(),
        plain.iter().filter(|t| !t.starts_with("h1")).count() - 1
    );
    pos.set_mark_powers(Color::White, Powers::NO_CAPTURE);
    assert_eq!(pos.hash(), pos.compute_hash());
    let quiet = moves_of(&pos);
    assert!(!quiet.contains(&"h1h8".to_string()) && quiet.contains(&"h1h7".to_string()));
    assert!(quiet.contains(&"e1g1".to_string()));
    assert_eq!(quiet.len(), plain.len() - 1);
    // The tactical generator obeys the mark too: the rook's capture h1h8 is gone from it.
    let mut tactical = MoveList::new();
    pos.tactical_moves(&mut tactical);
    let texts: Vec<String> = tactical
        .iter()
        .map(|&m| pos.move_text(m, Dialect::UCI))
        .collect();
    assert_eq!(texts, ["a1a8"]);
    // And at every node three plies deep (asserted inside against the filtered legal moves).
    tactical_walk(&mut pos, 3, false);
}

/// The mark follows its piece through castling and is restored by unmake; the key covers it.
#[test]
fn a_mark_follows_castling_and_unmake() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut pos = Chess::from_fen(fen).unwrap();
    let plain_hash = pos.hash();
    pos.set_mark(Color::White, marked(7, Powers::NONE)).unwrap();
    assert_ne!(pos.hash(), plain_hash);
    play_text(&mut pos, "e1g1");
    assert_eq!(pos.mark(Color::White), marked(5, Powers::NONE));
    pos.unmake_move();
    assert_eq!(pos.mark(Color::White), marked(7, Powers::NONE));
    pos.set_mark(Color::White, marked(4, Powers::NONE)).unwrap();
    play_text(&mut pos, "e1c1");
    assert_eq!(pos.mark(Color::White), marked(2, Powers::NONE));
    pos.unmake_move();
    pos.set_mark(Color::White, None).unwrap();
    assert_eq!(pos.hash(), plain_hash);
    // Only a piece of the mark's colour may carry it.
    assert!(pos
        .set_mark(Color::White, marked(20, Powers::NONE))
        .is_err());
    assert!(pos
        .set_mark(Color::White, marked(63, Powers::NONE))
        .is_err());
}

/// An uncapturable pawn cannot be taken en passant; a capturable marked one loses its mark.
#[test]
fn a_marked_pawn_and_en_passant() {
    let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    let mut pos = Chess::from_fen(fen).unwrap();
    assert!(moves_of(&pos).contains(&"e5d6".to_string()));
    pos.set_mark(Color::Black, marked(35, Powers::UNCAPTURABLE))
        .unwrap();
    assert!(!moves_of(&pos).contains(&"e5d6".to_string()));
    pos.set_mark_powers(Color::Black, Powers::NONE);
    play_text(&mut pos, "e5d6");
    assert_eq!(pos.mark(Color::Black), None);
    pos.unmake_move();
    assert_eq!(pos.mark(Color::Black), marked(35, Powers::NONE));
    assert_eq!(pos.hash(), pos.compute_hash());
}

/// Counts the moves at ply `depth` that give check, asking [`Chess::move_gives_check`] before
/// each move and [`Variant::in_check`] after it, and failing on the first disagreement.
fn checks_at(pos: &mut Chess, depth: u32) -> u64 {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut n = 0;
    for &m in &list {
        let told = pos.gives_check(m);
        pos.make_move(m);
        let seen = pos.in_check();
        let below = if depth > 1 {
            checks_at(pos, depth - 1)
        } else {
            0
        };
        pos.unmake_move();
        assert_eq!(
            told,
            Some(seen),
            "{} in {}",
            pos.move_text(m, Dialect::UCI),
            pos.fen()
        );
        n += if depth == 1 { seen as u64 } else { below };
    }
    n
}

#[test]
fn a_check_is_told_before_the_move_as_after_it() {
    // The check counts of the standard perft tables (chessprogramming.org "Perft Results").
    for (fen, depth, checks) in [
        (START_FEN, 4, 469),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
            993,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 1680),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            3,
            38,
        ),
    ] {
        let mut pos = Chess::from_fen(fen).unwrap();
        assert_eq!(checks_at(&mut pos, depth), checks, "{fen}");
    }
}

#[test]
fn the_tactical_generator_is_the_legal_moves_that_are_tactical() {
    // The capture counts (en passant included) of the standard perft tables
    // (chessprogramming.org "Perft Results"), positions without promotions at that depth;
    // the fourth position adds promotions (and captures that promote), counted by the filter.
    for (fen, depth, tactical) in [
        (START_FEN, 4, Some(1576)),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
            Some(17_102),
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, Some(3348)),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            3,
            None,
        ),
    ] {
        let mut pos = Chess::from_fen(fen).unwrap();
        let n = tactical_walk(&mut pos, depth, false);
        if let Some(t) = tactical {
            assert_eq!(n, t, "{fen}");
        }
    }
}
