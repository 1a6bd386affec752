//! Named chess edge cases with their known perft counts, and castling with a king on the
//! d-file (IR-2).

use cellmate::core::{perft, Dialect, MoveKind, MoveList, Variant};
use cellmate::variants::chess::Chess;

fn check(fen: &str, depth: u32, nodes: u64) {
    let mut pos = Chess::from_fen(fen).unwrap();
    assert_eq!(perft(&mut pos, depth), nodes, "{fen} depth {depth}");
}

#[test]
fn illegal_en_passant_exposes_king_to_rook() {
    check("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1_134_888);
}

#[test]
fn illegal_en_passant_bishop_pin() {
    check("8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1_015_133);
}

#[test]
fn en_passant_capture_checks_opponent() {
    check("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1_440_467);
}

#[test]
fn short_castling_gives_check() {
    check("5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661_072);
}

#[test]
fn long_castling_gives_check() {
    check("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 6, 803_711);
}

#[test]
fn castling_rights_lost_by_capture() {
    check("r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4, 1_274_206);
}

#[test]
fn castling_through_check_prevented() {
    check("r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4, 1_720_476);
}

#[test]
fn promote_out_of_check() {
    check("2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, 3_821_001);
}

#[test]
fn discovered_check() {
    check("8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, 1_004_658);
}

#[test]
fn promote_to_give_check() {
    check("4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, 217_342);
}

#[test]
fn under_promotion_giving_check() {
    check("8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92_683);
}

#[test]
fn self_stalemate() {
    check("K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, 2_217);
}

#[test]
fn stalemate_and_checkmate() {
    check("8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, 567_584);
    check("8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4, 23_527);
}

fn castles(fen: &str) -> Vec<String> {
    let pos = Chess::from_fen(fen).unwrap();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut v: Vec<String> = list
        .iter()
        .filter(|m| m.kind() == MoveKind::Castle)
        .map(|&m| pos.move_text(m, Dialect::UCI))
        .collect();
    v.sort();
    v
}

/// IR-2: kings start on the d-file; castling moves the king two squares towards the rook and
/// the rook to the square the king crossed.
#[test]
fn ir_2_castling_with_king_on_d_file() {
    let fen = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    assert_eq!(castles(fen), vec!["e1c1", "e1g1"]);
    let fen = "r2k3r/8/8/8/8/8/8/R2K3R w KQkq - 0 1";
    assert_eq!(castles(fen), vec!["d1b1", "d1f1"]);
    let mut pos = Chess::from_fen(fen).unwrap();
    let m = pos.parse_move("d1b1", Dialect::UCI).unwrap();
    pos.make_move(m);
    assert_eq!(pos.fen(), "r2k3r/8/8/8/8/8/8/1KR4R b kq - 1 1");
    pos.unmake_move();
    let m = pos.parse_move("d1f1", Dialect::UCI).unwrap();
    pos.make_move(m);
    assert_eq!(pos.fen(), "r2k3r/8/8/8/8/8/8/R3RK2 b kq - 1 1");
    // Black castles the same way on its own rank.
    let fen = "r2k3r/8/8/8/8/8/8/R2K3R b KQkq - 0 1";
    assert_eq!(castles(fen), vec!["d8b8", "d8f8"]);
    // The king may not pass through an attacked square: c1 is attacked by the rook on c8.
    let fen = "2rk3r/8/8/8/8/8/8/R2K3R w KQk - 0 1";
    assert_eq!(castles(fen), vec!["d1f1"]);
    // The IR start position has both castlings blocked until the pieces leave.
    let fen = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w KQkq - 0 1";
    assert!(castles(fen).is_empty());
    assert_eq!(perft(&mut Chess::from_fen(fen).unwrap(), 3), 8902);
}
