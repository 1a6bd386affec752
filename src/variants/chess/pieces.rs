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

/// Powers by piece type: the pawn promotes and may be taken en passant, the rook is the
/// castling partner, the king is royal and castles. A constant, so that the generator's reads
/// of it ([`type_with`], [`has`]) cost nothing at run time.
pub const POWERS: [Powers; 6] = [
    Powers(Powers::PROMOTES.0 | Powers::EN_PASSANT.0),
    Powers::NONE,
    Powers::NONE,
    Powers::CASTLE_PARTNER,
    Powers::NONE,
    Powers(Powers::ROYAL.0 | Powers::CASTLES.0),
];

/// Whether piece type `t` has power `p`.
pub const fn has(t: u8, p: Powers) -> bool {
    POWERS[t as usize].has(p)
}

/// The one piece type with power `p` (compile error, when used in a constant, if none has it).
pub const fn type_with(p: Powers) -> u8 {
    let mut t = 0;
    while t < POWERS.len() {
        if POWERS[t].has(p) {
            return t as u8;
        }
        t += 1;
    }
    panic!("no chess piece has this power")
}

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
            powers: POWERS[PAWN as usize],
            initial_push: 2,
        },
        PieceDef {
            name: "Knight",
            letter: 'N',
            atoms: vec![Atom::KNIGHT],
            powers: POWERS[KNIGHT as usize],
            initial_push: 1,
        },
        PieceDef {
            name: "Bishop",
            letter: 'B',
            atoms: vec![Atom::BISHOP],
            powers: POWERS[BISHOP as usize],
            initial_push: 1,
        },
        PieceDef {
            name: "Rook",
            letter: 'R',
            atoms: vec![Atom::ROOK],
            powers: POWERS[ROOK as usize],
            initial_push: 1,
        },
        PieceDef {
            name: "Queen",
            letter: 'Q',
            atoms: vec![Atom::ROOK, Atom::BISHOP],
            powers: POWERS[QUEEN as usize],
            initial_push: 1,
        },
        PieceDef {
            name: "King",
            letter: 'K',
            atoms: vec![Atom::WAZIR, Atom::FERZ],
            powers: POWERS[KING as usize],
            initial_push: 1,
        },
    ]
}
