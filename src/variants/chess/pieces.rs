//! International chess pieces as data: [`PIECES`], the one list the letter table, the powers
//! the generator reads ([`has`], [`type_with`]), the evaluation's slots and XBoard's `piece`
//! lines are derived from.

use crate::core::{letters, Atom, PieceDef, Powers};

pub const PAWN: u8 = 0;
pub const KNIGHT: u8 = 1;
pub const BISHOP: u8 = 2;
pub const ROOK: u8 = 3;
pub const QUEEN: u8 = 4;
pub const KING: u8 = 5;

/// The six chess pieces, indexed by the constants above: the pawn promotes and may be taken en
/// passant, the rook is the castling partner, the king is royal and castles.
pub const PIECES: [PieceDef; 6] = [
    PieceDef::new(
        "Pawn",
        'P',
        &Atom::PAWN,
        Powers::PROMOTES.union(Powers::EN_PASSANT),
        2,
    ),
    piece("Knight", 'N', &[Atom::KNIGHT], Powers::NONE),
    piece("Bishop", 'B', &[Atom::BISHOP], Powers::NONE),
    piece("Rook", 'R', &[Atom::ROOK], Powers::CASTLE_PARTNER),
    piece("Queen", 'Q', &[Atom::ROOK, Atom::BISHOP], Powers::NONE),
    piece(
        "King",
        'K',
        &[Atom::WAZIR, Atom::FERZ],
        Powers::ROYAL.union(Powers::CASTLES),
    ),
];

/// A piece without a first move of its own.
const fn piece(
    name: &'static str,
    letter: char,
    atoms: &'static [Atom],
    powers: Powers,
) -> PieceDef {
    PieceDef::new(name, letter, atoms, powers, 1)
}

/// How many piece types there are.
pub const TYPES: usize = PIECES.len();

/// FEN letters by piece type.
pub const LETTERS: [char; TYPES] = letters(&PIECES);

/// Whether piece type `t` has power `p`. A constant read of [`PIECES`], so that the
/// generator's reads of powers cost nothing at run time.
pub const fn has(t: u8, p: Powers) -> bool {
    crate::core::piece::type_has(&PIECES, t, p)
}

/// The one piece type with power `p` (compile error, when used in a constant, if none has it).
pub const fn type_with(p: Powers) -> u8 {
    crate::core::piece::type_with(&PIECES, p)
}
