//! International chess pieces as data.

use crate::core::{Atom, Mode, PieceDef, Powers, Reach, Sym};

pub const PAWN: u8 = 0;
pub const KNIGHT: u8 = 1;
pub const BISHOP: u8 = 2;
pub const ROOK: u8 = 3;
pub const QUEEN: u8 = 4;
pub const KING: u8 = 5;

/// FEN letters by piece type.
pub const LETTERS: [char; 6] = ['P', 'N', 'B', 'R', 'Q', 'K'];

/// The six chess pieces: pawn, knight, bishop, rook, queen, king (indices as the constants).
pub fn chess_pieces() -> Vec<PieceDef> {
    vec![
        PieceDef {
            name: "Pawn",
            letter: 'P',
            atoms: vec![
                Atom::new(0, 1, Reach::Leap, Mode::MoveOnly, Sym::Forward),
                Atom::new(1, 1, Reach::Leap, Mode::CaptureOnly, Sym::Forward),
            ],
            powers: Powers::PROMOTES | Powers::EN_PASSANT,
            initial_push: 2,
        },
        PieceDef {
            name: "Knight",
            letter: 'N',
            atoms: vec![Atom::KNIGHT],
            powers: Powers::NONE,
            initial_push: 1,
        },
        PieceDef {
            name: "Bishop",
            letter: 'B',
            atoms: vec![Atom::BISHOP],
            powers: Powers::NONE,
            initial_push: 1,
        },
        PieceDef {
            name: "Rook",
            letter: 'R',
            atoms: vec![Atom::ROOK],
            powers: Powers::CASTLE_PARTNER,
            initial_push: 1,
        },
        PieceDef {
            name: "Queen",
            letter: 'Q',
            atoms: vec![Atom::ROOK, Atom::BISHOP],
            powers: Powers::NONE,
            initial_push: 1,
        },
        PieceDef {
            name: "King",
            letter: 'K',
            atoms: vec![Atom::WAZIR, Atom::FERZ],
            powers: Powers::ROYAL | Powers::CASTLES,
            initial_push: 1,
        },
    ]
}
