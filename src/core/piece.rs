//! Pieces as data: movement atoms plus powers.
//!
//! A piece type is a list of [`Atom`]s (a vector, how far it may be repeated, which of its
//! mirror images count, whether it may move, capture or both there) and a set of [`Powers`]
//! (royalty, promotion, castling, infection, riding, bonding, expansion, shooting, …). The rules
//! of each variant read these; no variant hard-codes how a piece moves. A bacterium that absorbs
//! the powers of what it eats is a union of atom lists and power sets. Every power is given to
//! some piece and read by some generator (`tests/it/powers.rs` checks both).

use super::bitset::BitSet;
use super::color::Color;
use super::geometry::{Geometry, Square};

/// How far an atom reaches along its vector.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Reach {
    /// Exactly one application of the vector, over anything in between.
    Leap,
    /// Repeated applications through empty squares; `0` means unlimited, `n` at most `n` steps.
    Slide(u8),
}

/// Whether an atom may be used to move to an empty square, to capture, or both.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Mode {
    Both,
    MoveOnly,
    CaptureOnly,
}

/// Which mirror images of the vector an atom includes, relative to the mover's forward.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Sym {
    /// All rotations and reflections (a knight's (1,2) gives 8 vectors, (1,0) gives 4).
    All,
    /// The images that go forward (dy > 0 for the mover) — e.g. a pawn's diagonal capture.
    Forward,
    /// The images that go backward.
    Backward,
    /// The images of `All` whose dy is 0 (sideways).
    Sideways,
}

/// One movement atom.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Atom {
    pub dx: i8,
    pub dy: i8,
    pub reach: Reach,
    pub mode: Mode,
    pub sym: Sym,
}

impl Atom {
    pub const fn new(dx: i8, dy: i8, reach: Reach, mode: Mode, sym: Sym) -> Atom {
        Atom {
            dx,
            dy,
            reach,
            mode,
            sym,
        }
    }
    /// Orthogonal slider (rook).
    pub const ROOK: Atom = Atom::new(1, 0, Reach::Slide(0), Mode::Both, Sym::All);
    /// Diagonal slider (bishop).
    pub const BISHOP: Atom = Atom::new(1, 1, Reach::Slide(0), Mode::Both, Sym::All);
    /// (1,2) leaper.
    pub const KNIGHT: Atom = Atom::new(1, 2, Reach::Leap, Mode::Both, Sym::All);
    /// Orthogonal step.
    pub const WAZIR: Atom = Atom::new(1, 0, Reach::Leap, Mode::Both, Sym::All);
    /// Diagonal step.
    pub const FERZ: Atom = Atom::new(1, 1, Reach::Leap, Mode::Both, Sym::All);

    /// A chess pawn's moves: a step forward to an empty square, a diagonal step forward to
    /// capture (its longer first move is [`PieceDef::initial_push`]).
    pub const PAWN: [Atom; 2] = [
        Atom::new(0, 1, Reach::Leap, Mode::MoveOnly, Sym::Forward),
        Atom::new(1, 1, Reach::Leap, Mode::CaptureOnly, Sym::Forward),
    ];

    /// Every concrete vector this atom stands for, for a piece of `color` (forward is +rank for
    /// White and -rank for Black).
    pub fn vectors(&self, color: Color) -> Vec<(i32, i32)> {
        let (a, b) = (self.dx as i32, self.dy as i32);
        let mut all: Vec<(i32, i32)> = Vec::new();
        for &(x, y) in &[(a, b), (b, a)] {
            for sx in [1, -1] {
                for sy in [1, -1] {
                    let v = (x * sx, y * sy);
                    if v != (0, 0) && !all.contains(&v) {
                        all.push(v);
                    }
                }
            }
        }
        let f = color.forward();
        all.retain(|&(_, y)| match self.sym {
            Sym::All => true,
            Sym::Forward => y * f > 0,
            Sym::Backward => y * f < 0,
            Sym::Sideways => y == 0,
        });
        all
    }
}

/// Special abilities beyond plain moving and capturing. A bit set; one bit per idea, shared by
/// every variant that needs that idea.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, Default)]
pub struct Powers(pub u32);

impl Powers {
    pub const NONE: Powers = Powers(0);
    /// Must not be left attacked; losing it (checkmate) loses the game.
    pub const ROYAL: Powers = Powers(1 << 0);
    /// Promotes on the last rank.
    pub const PROMOTES: Powers = Powers(1 << 1);
    /// Its multi-square first move may be captured en passant.
    pub const EN_PASSANT: Powers = Powers(1 << 2);
    /// Castles with a [`Powers::CASTLE_PARTNER`].
    pub const CASTLES: Powers = Powers(1 << 3);
    /// The rook of castling.
    pub const CASTLE_PARTNER: Powers = Powers(1 << 4);
    /// Captures by infection, with a delay (Microorganism virus, MC-11).
    pub const INFECT: Powers = Powers(1 << 5);
    /// Rides other pieces and kills its host (Microorganism prion, MC-12).
    pub const RIDE: Powers = Powers(1 << 6);
    /// Bonds with its kind into invincible walls (Microorganism platelet, MC-10).
    pub const BOND: Powers = Powers(1 << 7);
    /// Expands to two cells and contracts (Microorganism amoeba, MC-8).
    pub const EXPAND: Powers = Powers(1 << 8);
    /// Takes the powers of what it captures (Microorganism bacterium, MC-7).
    pub const ABSORB: Powers = Powers(1 << 9);
    /// Removes an enemy piece at a distance without moving (Immune B-cell / Killer T, IM-5).
    pub const SHOOT: Powers = Powers(1 << 10);
    /// Can never be captured (Immune complement, IM-4).
    pub const UNCAPTURABLE: Powers = Powers(1 << 11);
    /// Confined to its own half of the board (Microorganism white blood cell, MC-5).
    pub const OWN_HALF: Powers = Powers(1 << 12);
    /// Can never carry a rider (Microorganism Neuron and lone Prion, MC-12): a Prion cannot
    /// step onto it, and a rider of a piece it captures leaves the board with its host.
    pub const NO_RIDER: Powers = Powers(1 << 13);
    /// Promotes on a move that ends in its variant's promotion zone (not only the last rank), to
    /// the type its variant's data name (Immune monocyte: the last two ranks, IM-4).
    pub const ZONE_PROMOTES: Powers = Powers(1 << 14);
    /// Counts its own captures (part of the position: FEN, hash, repetition) and leaves the board
    /// with the capture that reaches its variant's limit (Immune dendritic cell: the 10th, IM-4).
    pub const CAPTURE_LIMIT: Powers = Powers(1 << 15);
    /// Never captures: it moves only to empty squares, yet still attacks and gives check (a
    /// Neutral or Disarmed mega-knight of Infinite Recursion, IR-4).
    pub const NO_CAPTURE: Powers = Powers(1 << 16);
    /// Never moves, yet still attacks and gives check (a Frozen mega-knight of Infinite
    /// Recursion, IR-4).
    pub const NO_MOVE: Powers = Powers(1 << 17);

    #[inline(always)]
    pub const fn has(self, p: Powers) -> bool {
        self.0 & p.0 == p.0
    }
    #[inline(always)]
    pub const fn union(self, p: Powers) -> Powers {
        Powers(self.0 | p.0)
    }
}

impl std::ops::BitOr for Powers {
    type Output = Powers;
    fn bitor(self, o: Powers) -> Powers {
        self.union(o)
    }
}

/// A piece type: its name, FEN letter (upper case; Black's is the lower case), atoms and powers.
/// Each variant lists its types once, as a constant array (`PIECES`), from which its letter
/// table, its type count, its evaluation's value slots and XBoard's `piece` lines are derived.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    pub name: &'static str,
    pub letter: char,
    pub atoms: &'static [Atom],
    pub powers: Powers,
    /// The longest first move of a piece that has one (a pawn's double step is 2; MC-3's is 4);
    /// 1 means none beyond its atoms.
    pub initial_push: u8,
}

/// Whether type `t` of `pieces` has power `p`; a type beyond the list (an empty cell's) has
/// none.
pub const fn type_has(pieces: &[PieceDef], t: u8, p: Powers) -> bool {
    (t as usize) < pieces.len() && pieces[t as usize].powers.has(p)
}

/// The first type in `pieces` with power `p` (a compile error, when used in a constant, if none
/// has it): how rules name a type by what it does (the royal one, the one that castles).
pub const fn type_with(pieces: &[PieceDef], p: Powers) -> u8 {
    let mut t = 0;
    while t < pieces.len() {
        if pieces[t].powers.has(p) {
            return t as u8;
        }
        t += 1;
    }
    panic!("no piece type has this power")
}

impl PieceDef {
    /// A type of the given name, letter, atoms, powers and longest first move.
    pub const fn new(
        name: &'static str,
        letter: char,
        atoms: &'static [Atom],
        powers: Powers,
        initial_push: u8,
    ) -> PieceDef {
        PieceDef {
            name,
            letter,
            atoms,
            powers,
            initial_push,
        }
    }

    /// Whether the type can ever remove an enemy piece: some atom that may capture, or a shot.
    pub fn can_capture(&self) -> bool {
        self.powers.has(Powers::SHOOT) || self.atoms.iter().any(|a| a.mode != Mode::MoveOnly)
    }
}

/// The FEN letters of a list of types, by type (for a variant's `LETTERS`).
pub const fn letters<const N: usize>(defs: &[PieceDef; N]) -> [char; N] {
    let mut out = ['?'; N];
    let mut i = 0;
    while i < N {
        out[i] = defs[i].letter;
        i += 1;
    }
    out
}

/// Precomputed targets of one piece type on one geometry: for each colour and square, the leap
/// targets that may be moved to, the leap targets that may capture, and the slide directions.
#[derive(Clone, Debug)]
pub struct PieceTables<B: BitSet> {
    /// [color][square] leap targets usable for a non-capturing move.
    pub leap_move: [Vec<B>; 2],
    /// [color][square] leap targets usable for a capture (also: the squares it attacks by leaps).
    pub leap_capture: [Vec<B>; 2],
    /// [color] slide directions: (dx, dy, max range (0 = unlimited), mode).
    pub slides: [Vec<(i32, i32, u8, Mode)>; 2],
}

impl<B: BitSet> PieceTables<B> {
    /// Builds the tables of `def` on `geo`.
    pub fn build(def: &PieceDef, geo: Geometry) -> PieceTables<B> {
        let n = geo.squares();
        let mut t = PieceTables {
            leap_move: [vec![B::EMPTY; n], vec![B::EMPTY; n]],
            leap_capture: [vec![B::EMPTY; n], vec![B::EMPTY; n]],
            slides: [Vec::new(), Vec::new()],
        };
        for color in Color::BOTH {
            let c = color.index();
            for atom in def.atoms {
                for (dx, dy) in atom.vectors(color) {
                    match atom.reach {
                        Reach::Leap => {
                            for i in 0..n {
                                let sq = Square(i as u8);
                                if let Some(to) = geo.offset(sq, dx, dy) {
                                    if atom.mode != Mode::CaptureOnly {
                                        t.leap_move[c][i].insert(to);
                                    }
                                    if atom.mode != Mode::MoveOnly {
                                        t.leap_capture[c][i].insert(to);
                                    }
                                }
                            }
                        }
                        Reach::Slide(r) => t.slides[c].push((dx, dy, r, atom.mode)),
                    }
                }
            }
        }
        t
    }
}

/// The squares a slide of (dx, dy) with range `range` (0 = unlimited) from `from` reaches, given
/// the occupied set: every empty square up to and including the first occupied one.
pub fn slide_targets<B: BitSet>(
    geo: Geometry,
    from: Square,
    dx: i32,
    dy: i32,
    range: u8,
    occupied: B,
) -> B {
    // File and rank once, then plain steps (a division a square showed in the profile of
    // Immune Chess's evaluation, whose sliders and shooters walk their lines every node).
    let (w, h) = (geo.width as i32, geo.height as i32);
    let (mut f, mut r) = (geo.file(from) as i32, geo.rank(from) as i32);
    let (mut sq, step) = (from.0 as i32, dy * w + dx);
    let mut out = B::EMPTY;
    let mut steps = 0u32;
    loop {
        (f, r) = (f + dx, r + dy);
        if f < 0 || r < 0 || f >= w || r >= h {
            break;
        }
        sq += step;
        let next = Square(sq as u8);
        out.insert(next);
        steps += 1;
        if occupied.contains(next) || (range != 0 && steps >= range as u32) {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atom_images() {
        assert_eq!(Atom::KNIGHT.vectors(Color::White).len(), 8);
        assert_eq!(Atom::WAZIR.vectors(Color::White).len(), 4);
        assert_eq!(Atom::FERZ.vectors(Color::Black).len(), 4);
        let cap = Atom::new(1, 1, Reach::Leap, Mode::CaptureOnly, Sym::Forward);
        assert_eq!(cap.vectors(Color::White), vec![(1, 1), (-1, 1)]);
        assert_eq!(cap.vectors(Color::Black), vec![(1, -1), (-1, -1)]);
        let push = Atom::new(0, 1, Reach::Leap, Mode::MoveOnly, Sym::Forward);
        assert_eq!(push.vectors(Color::White), vec![(0, 1)]);
        let three = Atom::new(3, 3, Reach::Leap, Mode::Both, Sym::All);
        assert_eq!(three.vectors(Color::White).len(), 4);
    }

    #[test]
    fn knight_table_on_16x16() {
        let def = PieceDef {
            name: "Knight",
            letter: 'N',
            atoms: &[Atom::KNIGHT],
            powers: Powers::NONE,
            initial_push: 1,
        };
        let geo = Geometry::new(16, 16).unwrap();
        let t = PieceTables::<crate::core::bitset::U256>::build(&def, geo);
        assert_eq!(t.leap_move[0][0].count(), 2);
        let center = geo.square(7, 7).unwrap();
        assert_eq!(t.leap_capture[1][center.index()].count(), 8);
    }

    #[test]
    fn can_capture_reads_modes_and_shots() {
        const MOVER: [Atom; 1] = [Atom::new(1, 0, Reach::Slide(2), Mode::MoveOnly, Sym::All)];
        const CAPTURER: [Atom; 2] = [
            MOVER[0],
            Atom::new(1, 1, Reach::Leap, Mode::CaptureOnly, Sym::Forward),
        ];
        let mut def = PieceDef {
            name: "Mover",
            letter: 'X',
            atoms: &MOVER,
            powers: Powers::NONE,
            initial_push: 1,
        };
        assert!(!def.can_capture());
        def.powers = Powers::SHOOT;
        assert!(def.can_capture());
        def.powers = Powers::NONE;
        def.atoms = &CAPTURER;
        assert!(def.can_capture());
        assert!(!Powers::ZONE_PROMOTES.has(Powers::CAPTURE_LIMIT));
    }

    #[test]
    fn limited_slides_stop() {
        let geo = Geometry::CHESS;
        let from = geo.square(0, 0).unwrap();
        let two: u64 = slide_targets(geo, from, 1, 0, 2, 0u64);
        assert_eq!(two.count(), 2);
        let blocked: u64 = slide_targets(geo, from, 1, 0, 0, 1u64 << 3);
        assert_eq!(blocked, 0b1110);
    }
}
