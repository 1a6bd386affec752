//! The thirteen Immune Chess pieces as data (IM-4).
//!
//! Each type is a [`PieceDef`] (movement atoms + [`Powers`]) plus the data its powers need: the
//! direction atoms of its shots ([`Powers::SHOOT`], IM-5), the type it promotes to
//! ([`Powers::ZONE_PROMOTES`]) and its capture limit ([`Powers::CAPTURE_LIMIT`]): [`CELLS`], the
//! one list; [`PIECES`], the letter table, the type count, the evaluation's value slots and
//! XBoard's `piece` lines are derived from it. The move generator in `mod.rs` reads only this
//! data.

use crate::core::{letters, Atom, Mode, PieceDef, Powers, Reach, Sym};

pub const INVADER: u8 = 0;
pub const COMPLEMENT: u8 = 1;
pub const MACROPHAGE: u8 = 2;
pub const HELPER_T: u8 = 3;
pub const B_CELL: u8 = 4;
pub const KILLER_T: u8 = 5;
pub const BASOPHIL: u8 = 6;
pub const EOSINOPHIL: u8 = 7;
pub const NEUTROPHIL: u8 = 8;
pub const MAST_CELL: u8 = 9;
pub const MONOCYTE: u8 = 10;
pub const DENDRITIC: u8 = 11;
pub const NATURAL_KILLER: u8 = 12;

/// The captures after which a Dendritic cell leaves the board (IM-4).
pub const DENDRITIC_LIMIT: u8 = 10;

/// One piece type of Immune Chess: the generic definition plus the data of its powers.
#[derive(Copy, Clone, Debug)]
pub struct CellDef {
    pub def: PieceDef,
    /// The seed's abbreviation (IM-7): `M`, `HT`, `MO`, …; the Invader has none (`I` here).
    pub abbrev: &'static str,
    /// With [`Powers::SHOOT`]: the directions it shoots in. A slide atom shoots the first piece
    /// along the line within its range (the path before it empty); a leap atom shoots the piece
    /// on its target square. The target is removed, the shooter stays (IM-5).
    pub shots: &'static [Atom],
    /// With [`Powers::ZONE_PROMOTES`]: the type it becomes in the promotion zone.
    pub promotes_to: Option<u8>,
    /// With [`Powers::CAPTURE_LIMIT`]: the capture with which it leaves the board.
    pub capture_limit: u8,
    /// A rough value for move ordering (an Invader is 100).
    pub value: i32,
    /// Which side the type belongs to: `true` for White (immune cells), `false` for Black.
    pub white: bool,
}

const fn atom(dx: i8, dy: i8, reach: Reach, mode: Mode, sym: Sym) -> Atom {
    Atom::new(dx, dy, reach, mode, sym)
}

/// Queen lines of the given range (0 = unlimited) and mode.
const fn queen(range: u8, mode: Mode) -> [Atom; 2] {
    [
        atom(1, 0, Reach::Slide(range), mode, Sym::All),
        atom(1, 1, Reach::Slide(range), mode, Sym::All),
    ]
}

/// Rook lines of the given range and mode.
const fn rook(range: u8, mode: Mode) -> [Atom; 1] {
    [atom(1, 0, Reach::Slide(range), mode, Sym::All)]
}

/// One orthogonal step, moving and capturing: the Invader and its look-alikes.
const WAZIR: &[Atom] = &[Atom::WAZIR];
/// Queen lines of range 2, moving and capturing (Macrophage, Dendritic cell).
const QUEEN2: &[Atom] = &queen(2, Mode::Both);
const QUEEN3: &[Atom] = &queen(3, Mode::Both);
const QUEEN_MOVES: &[Atom] = &queen(0, Mode::MoveOnly);
const ROOK2: &[Atom] = &rook(2, Mode::Both);
const ROOK2_MOVES: &[Atom] = &rook(2, Mode::MoveOnly);

// Shots straight forward along the file, any distance (IM-4 B-cell, Killer T).
const SHOOT_FILE: Atom = atom(0, 1, Reach::Slide(0), Mode::CaptureOnly, Sym::Forward);
// Shots diagonally forward, any distance (IM-4 Killer T).
const SHOOT_DIAG: Atom = atom(1, 1, Reach::Slide(0), Mode::CaptureOnly, Sym::Forward);

#[allow(clippy::too_many_arguments)]
const fn cell(
    name: &'static str,
    abbrev: &'static str,
    letter: char,
    atoms: &'static [Atom],
    powers: Powers,
    shots: &'static [Atom],
    value: i32,
    white: bool,
) -> CellDef {
    CellDef {
        def: PieceDef::new(name, letter, atoms, powers, 1),
        abbrev,
        shots,
        promotes_to: None,
        capture_limit: 0,
        value,
        white,
    }
}

/// The thirteen types, indexed by the constants above.
pub const CELLS: [CellDef; 13] = {
    let mut v = [
        cell("Invader", "I", 'I', WAZIR, Powers::NONE, &[], 100, false),
        cell(
            "Complement",
            "C",
            'C',
            QUEEN_MOVES,
            Powers::UNCAPTURABLE,
            &[],
            150,
            true,
        ),
        cell("Macrophage", "M", 'M', QUEEN2, Powers::NONE, &[], 550, true),
        cell(
            "Helper T",
            "HT",
            'H',
            ROOK2_MOVES,
            Powers::NONE,
            &[],
            150,
            true,
        ),
        cell(
            "B-cell",
            "B",
            'B',
            &[],
            Powers::SHOOT,
            &[SHOOT_FILE],
            300,
            true,
        ),
        cell(
            "Killer T",
            "KT",
            'T',
            &[
                atom(0, 1, Reach::Leap, Mode::MoveOnly, Sym::Forward),
                atom(0, 1, Reach::Leap, Mode::MoveOnly, Sym::Backward),
            ],
            Powers::SHOOT,
            &[SHOOT_FILE, SHOOT_DIAG],
            450,
            true,
        ),
        cell("Basophil", "BA", 'A', WAZIR, Powers::NONE, &[], 120, true),
        cell("Eosinophil", "E", 'E', WAZIR, Powers::NONE, &[], 120, true),
        cell("Neutrophil", "N", 'N', WAZIR, Powers::NONE, &[], 120, true),
        cell("Mast cell", "MA", 'S', QUEEN3, Powers::NONE, &[], 700, true),
        cell(
            "Monocyte",
            "MO",
            'O',
            &[Atom::WAZIR, Atom::FERZ],
            Powers::ZONE_PROMOTES,
            &[],
            300,
            true,
        ),
        cell(
            "Dendritic cell",
            "D",
            'D',
            QUEEN2,
            Powers::CAPTURE_LIMIT,
            &[],
            400,
            true,
        ),
        cell(
            "Natural Killer",
            "NK",
            'L',
            ROOK2,
            Powers::NONE,
            &[],
            350,
            true,
        ),
    ];
    v[MONOCYTE as usize].promotes_to = Some(MACROPHAGE);
    v[DENDRITIC as usize].capture_limit = DENDRITIC_LIMIT;
    v
};

/// How many piece types there are.
pub const TYPES: usize = CELLS.len();

/// The generic definitions of [`CELLS`], by type.
pub const PIECES: [PieceDef; TYPES] = {
    let mut out = [CELLS[0].def; TYPES];
    let mut t = 0;
    while t < TYPES {
        out[t] = CELLS[t].def;
        t += 1;
    }
    out
};

/// FEN letters by type (White upper case, Black lower case). No `K`: GUIs take it for a king.
pub const LETTERS: [char; TYPES] = letters(&PIECES);

/// The type with the given FEN letter (either case).
pub fn type_of_letter(c: char) -> Option<u8> {
    LETTERS
        .iter()
        .position(|&l| l == c.to_ascii_uppercase())
        .map(|i| i as u8)
}
