//! `Variant::describe`: the structured picture of a position, hidden state included, checked
//! per variant with exact expectations (the GUI draws from it, see docs/gui.md).

use cellmate::core::{Badge, Color, PieceView, PositionView, Variant};
use cellmate::variants::chess::Chess;
use cellmate::variants::immune::Immune;
use cellmate::variants::micro::Micro;
use cellmate::variants::recursion::Recursion;

fn piece(letter: char, name: &'static str) -> PieceView {
    PieceView {
        letter,
        color: if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        },
        name,
    }
}

/// (square, letter, badges) of every occupied square, in the view's order.
fn summary(v: &PositionView) -> Vec<(String, char, Vec<Badge>)> {
    v.squares
        .iter()
        .map(|s| (s.square.clone(), s.piece.letter, s.badges.clone()))
        .collect()
}

#[test]
fn chess_start_lists_32_pieces_in_square_order() {
    let v = Chess::startpos().describe();
    assert_eq!((v.width, v.height, v.side_to_move), (8, 8, Color::White));
    assert_eq!(v.squares.len(), 32);
    let first = &v.squares[0];
    assert_eq!(
        (first.square.as_str(), first.file, first.rank),
        ("a1", 0, 0)
    );
    assert_eq!(first.piece, piece('R', "Rook"));
    assert_eq!(v.at("e8").unwrap().piece, piece('k', "King"));
    assert_eq!(v.squares[31].square, "h8");
    assert!(v.squares.iter().all(|s| s.badges.is_empty()));
    assert!(v.held.is_empty() && v.boards.is_empty());
}

/// MC-7, MC-8, MC-10, MC-11, MC-12: powers, both cells of an expanded amoeba, a wall, an
/// infection with its countdown (and the virus off the board), a rider.
#[test]
fn mc_micro_hidden_state_as_badges() {
    let fen = "15n/16/16/16/16/16/16/16/16/16/16/4c1A9/3P2A9/1B14/16/NTT13 w - 0 1 \
               b1:wall;c1:wall;b3:+AV;d4:rider=r;g4:cell=g5;e5:infected=V/1";
    let pos = Micro::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
    let v = pos.describe();
    assert_eq!((v.width, v.height), (16, 16));
    let prion = piece('r', "Prion");
    assert_eq!(
        summary(&v),
        vec![
            ("a1".into(), 'N', vec![]),
            ("b1".into(), 'T', vec![Badge::Wall]),
            ("c1".into(), 'T', vec![Badge::Wall]),
            (
                "b3".into(),
                'B',
                vec![Badge::Powers {
                    letters: "AV".into()
                }]
            ),
            (
                "d4".into(),
                'P',
                vec![Badge::Rider {
                    rider: prion,
                    powers: String::new()
                }]
            ),
            (
                "g4".into(),
                'A',
                vec![Badge::Expanded {
                    partner: "g5".into()
                }]
            ),
            (
                "e5".into(),
                'c',
                vec![Badge::Infected {
                    carrier: piece('V', "Virus"),
                    carrier_powers: String::new(),
                    wait: 1
                }]
            ),
            (
                "g5".into(),
                'A',
                vec![Badge::Expanded {
                    partner: "g4".into()
                }]
            ),
            ("p16".into(), 'n', vec![]),
        ]
    );
    assert_eq!(v.at("e5").unwrap().piece.name, "Paramecium");
    assert_eq!(v.held.len(), 1);
    assert_eq!(v.held[0].piece, piece('V', "Virus"));
    assert_eq!(
        v.held[0].note,
        "inside e5, hatch after 1 more turn(s) of its owner"
    );
}

/// IR-1, IR-2, IR-4, IR-7: both boards with results, the mega-knight's state, the active board.
#[test]
fn ir_recursion_boards_and_mega_knight_states() {
    let fen = "4k3R6k/14pp/16/3p12/16/2M13/16/4K3K7 w a w:-:-:0:*:a b:-:-:0:1-0:n 1";
    let pos = Recursion::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
    let v = pos.describe();
    assert_eq!((v.width, v.height), (16, 8));
    let mega = v.at("c3").unwrap();
    assert_eq!(mega.piece, piece('M', "Mega-knight"));
    assert_eq!(mega.badges, vec![Badge::Mega { state: "Armed" }]);
    assert_eq!(v.at("i8").unwrap().piece, piece('R', "Rook"));
    assert_eq!(v.at("i1").unwrap().piece, piece('K', "King"));
    assert_eq!(v.squares.len(), 9);
    assert_eq!(v.boards.len(), 2);
    let (a, b) = (&v.boards[0], &v.boards[1]);
    assert_eq!(
        (a.first_file, a.last_file, b.first_file, b.last_file),
        (0, 7, 8, 15)
    );
    assert_eq!((a.result.as_str(), a.active), ("*", true));
    assert_eq!((b.result.as_str(), b.active), ("1-0", false));
    assert_eq!(a.note, "White's mega-knight: Armed, c3");
    assert_eq!(b.note, "Black's mega-knight: Neutral, captured");
    assert_eq!(b.side_to_move, Color::Black);
    assert_eq!(v.notes, vec!["White plays on board A".to_string()]);
}

/// IM-4: a Dendritic cell's capture count with its limit.
#[test]
fn im_4_dendritic_count_badge() {
    let pos = Immune::from_fen("9i/10/10/10/4i5/4D5/10/10/10/M9 w e5:9 0 1").unwrap();
    let v = pos.describe();
    assert_eq!((v.width, v.height), (10, 10));
    assert_eq!(
        summary(&v),
        vec![
            ("a1".into(), 'M', vec![]),
            (
                "e5".into(),
                'D',
                vec![Badge::Captures {
                    count: 9,
                    limit: 10
                }]
            ),
            ("e6".into(), 'i', vec![]),
            ("j10".into(), 'i', vec![]),
        ]
    );
    assert_eq!(v.at("a1").unwrap().piece.name, "Macrophage");
    assert_eq!(v.notes, vec!["Invaders: 2, White capturers: 2".to_string()]);
}
