//! Microorganism Chess organisms as data (MC-3 … MC-12): each type's own atoms and powers,
//! and what a Bacterium gains by eating it (MC-7).

use crate::core::{Atom, Mode, PieceDef, Powers, Reach, Sym};

pub const RBC: u8 = 0; // Red blood cell (pawn), MC-3
pub const NEURON: u8 = 1; // MC-4
pub const WBC: u8 = 2; // White blood cell, MC-5
pub const PARAMECIUM: u8 = 3; // MC-6
pub const BACTERIUM: u8 = 4; // MC-7
pub const AMOEBA: u8 = 5; // MC-8
pub const PLATELET: u8 = 6; // MC-10
pub const VIRUS: u8 = 7; // MC-11
pub const PRION: u8 = 8; // MC-12
pub const TYPES: usize = 9;

/// FEN letters by type (White upper case, Black lower case).
pub const LETTERS: [char; TYPES] = ['P', 'N', 'W', 'C', 'B', 'A', 'T', 'V', 'R'];

/// What a pawn may promote to (MC-3), in the order moves are generated.
pub const PROMOTIONS: [u8; 7] = [WBC, AMOEBA, BACTERIUM, PLATELET, PRION, VIRUS, PARAMECIUM];

const KING: [Atom; 2] = [Atom::WAZIR, Atom::FERZ];
const LEAP30: Atom = Atom::new(3, 0, Reach::Leap, Mode::Both, Sym::All);
const LEAP33: Atom = Atom::new(3, 3, Reach::Leap, Mode::Both, Sym::All);

/// Each organism's own movement and powers.
pub fn organisms() -> Vec<PieceDef> {
    let def = |name, letter, atoms: Vec<Atom>, powers, initial_push| PieceDef {
        name,
        letter,
        atoms,
        powers,
        initial_push,
    };
    vec![
        def(
            "Red blood cell",
            'P',
            vec![
                Atom::new(0, 1, Reach::Leap, Mode::MoveOnly, Sym::Forward),
                Atom::new(1, 1, Reach::Leap, Mode::CaptureOnly, Sym::Forward),
            ],
            Powers::PROMOTES | Powers::EN_PASSANT,
            4,
        ),
        def("Neuron", 'N', KING.to_vec(), Powers::ROYAL, 1),
        def(
            "White blood cell",
            'W',
            vec![Atom::ROOK, Atom::BISHOP],
            Powers::OWN_HALF,
            1,
        ),
        def(
            "Paramecium",
            'C',
            vec![Atom::ROOK, Atom::KNIGHT, LEAP33],
            Powers::NONE,
            1,
        ),
        def(
            "Bacterium",
            'B',
            vec![Atom::WAZIR, Atom::FERZ, Atom::KNIGHT],
            Powers::ABSORB,
            1,
        ),
        def("Amoeba", 'A', vec![Atom::BISHOP, LEAP30], Powers::EXPAND, 1),
        def("Platelet", 'T', KING.to_vec(), Powers::BOND, 1),
        def(
            "Virus",
            'V',
            vec![
                Atom::new(1, 0, Reach::Leap, Mode::MoveOnly, Sym::All),
                Atom::new(1, 1, Reach::Leap, Mode::MoveOnly, Sym::All),
            ],
            Powers::INFECT,
            1,
        ),
        def("Prion", 'R', vec![], Powers::RIDE, 1),
    ]
}

/// What a Bacterium adds to itself by eating each type (MC-7): the eaten type's moves and
/// powers, except that the White blood cell's half-board limit is a limit, not a power, a Red
/// blood cell adds nothing, and a Neuron is never eaten. (An eaten Bacterium adds what it had
/// absorbed, on top of its own king and knight moves, which every Bacterium has.)
pub fn gifts() -> Vec<PieceDef> {
    let gift = |name, atoms: Vec<Atom>, powers| PieceDef {
        name,
        letter: '?',
        atoms,
        powers,
        initial_push: 1,
    };
    vec![
        gift("nothing (red blood cell)", vec![], Powers::NONE),
        gift("nothing (neuron)", vec![], Powers::NONE),
        gift("queen moves", vec![Atom::ROOK, Atom::BISHOP], Powers::NONE),
        gift(
            "rook, knight and (3,3) moves",
            vec![Atom::ROOK, Atom::KNIGHT, LEAP33],
            Powers::NONE,
        ),
        gift("nothing beyond its absorbed powers", vec![], Powers::NONE),
        gift(
            "bishop and (3,0) moves, expansion",
            vec![Atom::BISHOP, LEAP30],
            Powers::EXPAND,
        ),
        gift("walls", vec![], Powers::BOND),
        gift("infection", vec![], Powers::INFECT),
        gift("riding and killing", vec![], Powers::RIDE),
    ]
}
