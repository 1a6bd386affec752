//! Microorganism Chess organisms as data (MC-3 … MC-12): [`PIECES`], each type's own atoms and
//! powers, and [`GIFTS`], what a Bacterium gains by eating it (MC-7). The letter table, the
//! type count, the evaluation's value slots and XBoard's `piece` lines are derived from them.

use crate::core::{letters, Atom, Mode, PieceDef, Powers, Reach, Sym};

pub const RBC: u8 = 0; // Red blood cell (pawn), MC-3
pub const NEURON: u8 = 1; // MC-4
pub const WBC: u8 = 2; // White blood cell, MC-5
pub const PARAMECIUM: u8 = 3; // MC-6
pub const BACTERIUM: u8 = 4; // MC-7
pub const AMOEBA: u8 = 5; // MC-8
pub const PLATELET: u8 = 6; // MC-10
pub const VIRUS: u8 = 7; // MC-11
pub const PRION: u8 = 8; // MC-12

/// What a pawn may promote to (MC-3), in the order moves are generated.
pub const PROMOTIONS: [u8; 7] = [WBC, AMOEBA, BACTERIUM, PLATELET, PRION, VIRUS, PARAMECIUM];

const KING: &[Atom] = &[Atom::WAZIR, Atom::FERZ];
const QUEEN: &[Atom] = &[Atom::ROOK, Atom::BISHOP];
const LEAP30: Atom = Atom::new(3, 0, Reach::Leap, Mode::Both, Sym::All);
const LEAP33: Atom = Atom::new(3, 3, Reach::Leap, Mode::Both, Sym::All);
const PARAMECIUM_ATOMS: &[Atom] = &[Atom::ROOK, Atom::KNIGHT, LEAP33];
const AMOEBA_ATOMS: &[Atom] = &[Atom::BISHOP, LEAP30];

/// Each organism's own movement and powers, indexed by the constants above.
pub const PIECES: [PieceDef; 9] = [
    PieceDef::new(
        "Red blood cell",
        'P',
        &Atom::PAWN,
        Powers::PROMOTES.union(Powers::EN_PASSANT),
        4,
    ),
    // MC-4: royal; MC-12: never ridden.
    PieceDef::new(
        "Neuron",
        'N',
        KING,
        Powers::ROYAL.union(Powers::NO_RIDER),
        1,
    ),
    PieceDef::new("White blood cell", 'W', QUEEN, Powers::OWN_HALF, 1),
    PieceDef::new("Paramecium", 'C', PARAMECIUM_ATOMS, Powers::NONE, 1),
    PieceDef::new(
        "Bacterium",
        'B',
        &[Atom::WAZIR, Atom::FERZ, Atom::KNIGHT],
        Powers::ABSORB,
        1,
    ),
    PieceDef::new("Amoeba", 'A', AMOEBA_ATOMS, Powers::EXPAND, 1),
    PieceDef::new("Platelet", 'T', KING, Powers::BOND, 1),
    PieceDef::new(
        "Virus",
        'V',
        &[
            Atom::new(1, 0, Reach::Leap, Mode::MoveOnly, Sym::All),
            Atom::new(1, 1, Reach::Leap, Mode::MoveOnly, Sym::All),
        ],
        Powers::INFECT,
        1,
    ),
    // MC-12: rides, and a lone Prion is never ridden.
    PieceDef::new("Prion", 'R', &[], Powers::RIDE.union(Powers::NO_RIDER), 1),
];

/// How many organism types there are.
pub const TYPES: usize = PIECES.len();

/// FEN letters by type (White upper case, Black lower case).
pub const LETTERS: [char; TYPES] = letters(&PIECES);

const fn gift(name: &'static str, atoms: &'static [Atom], powers: Powers) -> PieceDef {
    PieceDef::new(name, '?', atoms, powers, 1)
}

/// What a Bacterium adds to itself by eating each type (MC-7), in type order: the eaten type's
/// moves and powers, except that the White blood cell's half-board limit is a limit, not a
/// power, a Red blood cell adds nothing, and a Neuron is never eaten. (An eaten Bacterium adds
/// what it had absorbed, on top of its own king and knight moves, which every Bacterium has.)
/// A gift without atoms and powers gives nothing ([`GIVES_NOTHING`]).
pub const GIFTS: [PieceDef; TYPES] = [
    gift("nothing (red blood cell)", &[], Powers::NONE),
    gift("nothing (neuron)", &[], Powers::NONE),
    gift("queen moves", QUEEN, Powers::NONE),
    gift(
        "rook, knight and (3,3) moves",
        PARAMECIUM_ATOMS,
        Powers::NONE,
    ),
    gift("nothing beyond its absorbed powers", &[], Powers::NONE),
    gift(
        "bishop and (3,0) moves, expansion",
        AMOEBA_ATOMS,
        Powers::EXPAND,
    ),
    gift("walls", &[], Powers::BOND),
    gift("infection", &[], Powers::INFECT),
    gift("riding and killing", &[], Powers::RIDE),
];

/// Whether type `t` has power `p` (its own, not what a Bacterium absorbed); an empty cell's
/// type has none.
pub const fn has(t: u8, p: Powers) -> bool {
    crate::core::piece::type_has(&PIECES, t, p)
}

/// The royal type, the Neuron (MC-4): there is one a side, and it is never ridden or infected.
pub const ROYAL_TYPE: u8 = crate::core::piece::type_with(&PIECES, Powers::ROYAL);

/// The pawn, the Red blood cell (MC-3): the type that promotes.
pub const PAWN_TYPE: u8 = crate::core::piece::type_with(&PIECES, Powers::PROMOTES);

/// The types whose [`GIFTS`] entry gives nothing (no atoms, no powers), as type bits: a
/// Bacterium's absorbed set never holds them (MC-7: a Red blood cell adds nothing new, a
/// Neuron is never eaten, an eaten Bacterium adds what it had absorbed, not a gift of its own).
pub const GIVES_NOTHING: u16 = {
    let mut bits = 0u16;
    let mut t = 0;
    while t < TYPES {
        if GIFTS[t].atoms.is_empty() && GIFTS[t].powers.0 == 0 {
            bits |= 1 << t;
        }
        t += 1;
    }
    bits
};
