//! Microorganism Chess (`microorganism`): 16×16, nine organisms with powers (MC-1 … MC-13).
//!
//! Every square holds a [`Cell`]: the organism with its hidden state (powers a Bacterium has
//! absorbed, wall membership, infection, the rider it carries, the other cell of an expanded
//! piece). One generator reads each cell's atoms and powers; the powers (infect, ride, bond,
//! expand, absorb, own-half) are mechanisms shared by every piece that has them, so a Bacterium
//! that ate a Virus infects with the Virus's code path, and one that ate an Amoeba expands with
//! the Amoeba's.

mod gen;
pub use gen::{slide, slide_dirs, slides_onto};
mod pieces;
#[cfg(test)]
mod tests;

pub use pieces::{
    has, AMOEBA, BACTERIUM, GIFTS, GIVES_NOTHING, LETTERS, NEURON, PARAMECIUM, PAWN_TYPE, PIECES,
    PLATELET, PRION, PROMOTIONS, RBC, ROYAL_TYPE, TYPES, VIRUS, WBC,
};

use std::sync::OnceLock;

use arrayvec::ArrayVec;

use crate::core::zobrist::{self, DOMAIN_EP, DOMAIN_PIECE, DOMAIN_SIDE, DOMAIN_STATE};
use crate::core::{
    BitSet, Color, Dialect, FenError, Geometry, Move, MoveError, MoveKind, MoveList, Outcome,
    PieceTables, Powers, RankBase, Square, Variant, U256,
};

pub const GEOMETRY: Geometry = Geometry {
    width: 16,
    height: 16,
};

pub const START_FEN: &str = "wabtrvtcntvrtbaw/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/WABTRVTCNTVRTBAW w - 0 1 -";

/// The most infections that can be under way at once; a further infection is not generated.
pub const MAX_INFECTIONS: usize = 64;

pub const EMPTY: u8 = 255;
/// "Off the board" in the direction tables (every `u8` is a square on 16×16).
pub const OFF: u16 = 256;
/// Cell flags.
pub const BONDED: u8 = 1;
pub const INFECTED: u8 = 2;
pub const EXPANDED: u8 = 4;

/// A rider: a Prion, or a Bacterium using a Prion's power, carried by its host (MC-12).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Hash)]
pub struct Rider {
    pub kind: u8,
    pub color: u8,
    pub absorbed: u16,
}

/// One square's content: an organism with its hidden state, or empty.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Cell {
    pub kind: u8,
    pub color: u8,
    /// Bacterium only: bit `t` set when it has absorbed type `t`'s gift (MC-7).
    pub absorbed: u16,
    pub flags: u8,
    /// The other cell of an expanded piece (MC-8), when `flags & EXPANDED`.
    pub partner: u8,
    pub rider: Option<Rider>,
}

impl Cell {
    pub const EMPTY: Cell = Cell {
        kind: EMPTY,
        color: 0,
        absorbed: 0,
        flags: 0,
        partner: 0,
        rider: None,
    };
    pub fn new(kind: u8, color: Color) -> Cell {
        Cell {
            kind,
            color: color as u8,
            ..Cell::EMPTY
        }
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.kind == EMPTY
    }
    #[inline(always)]
    pub fn color(&self) -> Color {
        if self.color == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
    #[inline(always)]
    pub fn has(&self, f: u8) -> bool {
        self.flags & f != 0
    }
    /// Whether this cell, on square index `sq`, is the upper of an expanded piece's two
    /// (MC-8): the piece is counted and described once, on its lower cell.
    #[inline(always)]
    pub fn is_upper_half(&self, sq: u8) -> bool {
        self.has(EXPANDED) && self.partner < sq
    }
    /// The piece's powers: its type's own plus what it absorbed.
    pub fn powers(&self) -> Powers {
        let t = tables();
        let mut p = t.defs_powers[self.kind as usize];
        let mut a = self.absorbed;
        while a != 0 {
            let g = a.trailing_zeros() as usize;
            a &= a - 1;
            p = p.union(t.gift_powers[g]);
        }
        p
    }
    fn pack(&self) -> u64 {
        let r = match self.rider {
            None => 0u64,
            Some(r) => 1 | (r.color as u64) << 1 | (r.kind as u64) << 2 | (r.absorbed as u64) << 6,
        };
        self.kind as u64
            | (self.color as u64) << 8
            | (self.absorbed as u64) << 9
            | (self.flags as u64) << 21
            | (self.partner as u64) << 24
            | r << 32
    }
}

/// An infection under way (MC-11): the victim's cell, the piece that entered it (a Virus or a
/// Bacterium with its powers), and how many more of the owner's turns pass before the hatch
/// is due (0: due now).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Infection {
    pub victim: Square,
    pub carrier: Cell,
    pub wait: u8,
}

/// Tables shared by every position.
pub struct Tables {
    /// [type] own tables (atoms of the organism itself).
    pub own: Vec<PieceTables<U256>>,
    /// [type] what a Bacterium gains by eating the type.
    pub gift: Vec<PieceTables<U256>>,
    pub defs_powers: [Powers; TYPES],
    pub gift_powers: [Powers; TYPES],
    /// [type] slide direction bits (index into [`DIRS`]) of the type's own atoms / gifts.
    pub own_slides: [u8; TYPES],
    pub gift_slides: [u8; TYPES],
    /// [type] leap vectors of own atoms (both colours the same except pawns) / gifts.
    pub own_leaps: Vec<Vec<(i32, i32)>>,
    pub gift_leaps: Vec<Vec<(i32, i32)>>,
    /// [dir][square]: the next square in that direction, or [`OFF`].
    pub next: [[u16; 256]; 8],
    /// [dir][square]: every square beyond it in that direction to the edge.
    pub ray: Vec<[U256; 256]>,
    /// [dir]: whether the direction runs to higher square indices (its nearest square on a
    /// ray is the lowest).
    pub ray_up: [bool; 8],
    /// [colour]: the side's half of the board (MC-5), ranks 1–8 or 9–16.
    pub half: [U256; 2],
    /// King-step targets of each square.
    pub king: Vec<U256>,
    /// The types that attack every king step around them (MC-4 … MC-12): by leap captures,
    /// or by infection (MC-11) with their king-step moves. Derived from [`PIECES`].
    pub king_attackers: Vec<u8>,
    /// The types that attack by leap captures beyond those king steps (a pawn's diagonals, a
    /// knight's jumps …), through their own `leap_capture` tables. Derived from [`PIECES`].
    pub leap_attackers: Vec<u8>,
    /// Orthogonal neighbours of each square.
    pub ortho: Vec<U256>,
}

/// The eight directions: E, W, N, S, NE, NW, SE, SW (the king's steps).
pub const DIRS: [(i32, i32); 8] = crate::core::geometry::KING_STEPS;

fn dir_index(dx: i32, dy: i32) -> usize {
    DIRS.iter()
        .position(|&d| d == (dx, dy))
        .expect("unit direction")
}

pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let (defs, gifts) = (&PIECES, &GIFTS);
        let slides_of = |t: &PieceTables<U256>| -> u8 {
            t.slides[0]
                .iter()
                .fold(0u8, |m, &(dx, dy, _, _)| m | 1 << dir_index(dx, dy))
        };
        let leaps_of = |d: &crate::core::PieceDef| -> Vec<(i32, i32)> {
            let mut v = Vec::new();
            for a in d.atoms {
                if a.reach == crate::core::Reach::Leap {
                    for x in a.vectors(Color::White) {
                        if !v.contains(&x) {
                            v.push(x);
                        }
                    }
                }
            }
            v
        };
        let own: Vec<PieceTables<U256>> = defs
            .iter()
            .map(|d| PieceTables::build(d, GEOMETRY))
            .collect();
        let gift: Vec<PieceTables<U256>> = gifts
            .iter()
            .map(|d| PieceTables::build(d, GEOMETRY))
            .collect();
        let mut next = [[OFF; 256]; 8];
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            for (sq, slot) in next[d].iter_mut().enumerate() {
                if let Some(n) = GEOMETRY.offset(Square(sq as u8), dx, dy) {
                    *slot = n.0 as u16;
                }
            }
        }
        let mut ray = vec![[U256::EMPTY; 256]; 8];
        for (d, n) in next.iter().enumerate() {
            for (sq, r) in ray[d].iter_mut().enumerate() {
                let mut cur = n[sq];
                while cur != OFF {
                    r.insert(Square(cur as u8));
                    cur = n[cur as usize];
                }
            }
        }
        let mut half = [U256::EMPTY; 2];
        for (c, h) in half.iter_mut().enumerate() {
            for sq in (0..=255u8).filter(|&sq| gen::in_own_half(sq, c as u8)) {
                h.insert(Square(sq));
            }
        }
        let mut king = vec![U256::EMPTY; 256];
        let mut ortho = vec![U256::EMPTY; 256];
        for sq in 0..256 {
            for (d, n) in next.iter().enumerate() {
                if n[sq] != OFF {
                    king[sq].insert(Square(n[sq] as u8));
                    if d < 4 {
                        ortho[sq].insert(Square(n[sq] as u8));
                    }
                }
            }
        }
        // A type's attack vectors: its leap captures, and its leap moves where they infect.
        let attacks = |d: &crate::core::PieceDef| -> Vec<(i32, i32)> {
            let infects = d.powers.has(Powers::INFECT);
            let mut v: Vec<(i32, i32)> = Vec::new();
            for a in d.atoms {
                if a.reach == crate::core::Reach::Leap
                    && (a.mode != crate::core::Mode::MoveOnly || infects)
                {
                    v.extend(a.vectors(Color::White));
                }
            }
            v
        };
        let all_steps = |d: &crate::core::PieceDef| DIRS.iter().all(|s| attacks(d).contains(s));
        let types = |keep: &dyn Fn(&crate::core::PieceDef) -> bool| -> Vec<u8> {
            (0..TYPES as u8)
                .filter(|&t| keep(&defs[t as usize]))
                .collect()
        };
        let king_attackers = types(&|d| all_steps(d));
        let leap_attackers = types(&|d| {
            let beyond_steps = |v: &(i32, i32)| !all_steps(d) || !DIRS.contains(v);
            d.atoms.iter().any(|a| {
                a.reach == crate::core::Reach::Leap
                    && a.mode != crate::core::Mode::MoveOnly
                    && a.vectors(Color::White).iter().any(beyond_steps)
            })
        });
        Tables {
            ray,
            ray_up: std::array::from_fn(|d| DIRS[d].1 > 0 || DIRS[d].1 == 0 && DIRS[d].0 > 0),
            half,
            king_attackers,
            leap_attackers,
            own_slides: std::array::from_fn(|t| slides_of(&own[t])),
            gift_slides: std::array::from_fn(|t| slides_of(&gift[t])),
            own_leaps: defs.iter().map(leaps_of).collect(),
            gift_leaps: gifts.iter().map(leaps_of).collect(),
            defs_powers: std::array::from_fn(|t| defs[t].powers),
            gift_powers: std::array::from_fn(|t| gifts[t].powers),
            own,
            gift,
            next,
            king,
            ortho,
        }
    })
}

#[derive(Clone, Debug)]
struct Undo {
    /// The move made (kept for debugging and the `d` command's history).
    #[allow(dead_code)]
    mv: Move,
    /// Where this move's entries start in the journal.
    mark: usize,
    infections: Vec<Infection>,
    ep: U256,
    ep_pawn: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    hash: u64,
    full_hash: u64,
}

/// A Microorganism Chess position.
#[derive(Clone, Debug)]
pub struct Micro {
    cells: [Cell; 256],
    occ: [U256; 2],
    types: [U256; TYPES],
    bonded: U256,
    infected: U256,
    expanded: U256,
    stm: Color,
    /// Squares a pawn passed over on the last ply (MC-3 en passant), and that pawn.
    ep: U256,
    ep_pawn: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    infections: Vec<Infection>,
    /// Key of the cells and the side to move (kept incrementally).
    hash: u64,
    history: Vec<Undo>,
    /// Old contents of every square changed, move after move (undo replays it backwards).
    journal: Vec<(u8, Cell)>,
    /// Where the current move's journal entries start.
    mark: usize,
}

fn cell_key(sq: u8, c: &Cell) -> u64 {
    if c.is_empty() {
        0
    } else {
        zobrist::key(DOMAIN_PIECE, 0x4D49_4352_4F00 | sq as u64, c.pack(), 0)
    }
}

fn side_key() -> u64 {
    zobrist::key(DOMAIN_SIDE, 16, 16, 0)
}

impl Micro {
    fn empty() -> Micro {
        Micro {
            cells: [Cell::EMPTY; 256],
            occ: [U256::EMPTY; 2],
            types: [U256::EMPTY; TYPES],
            bonded: U256::EMPTY,
            infected: U256::EMPTY,
            expanded: U256::EMPTY,
            stm: Color::White,
            ep: U256::EMPTY,
            ep_pawn: None,
            halfmove: 0,
            fullmove: 1,
            infections: Vec::new(),
            hash: 0,
            history: Vec::new(),
            journal: Vec::new(),
            mark: 0,
        }
    }

    // ----- read interface -----

    pub fn cell(&self, sq: Square) -> &Cell {
        &self.cells[sq.index()]
    }
    pub fn occupied(&self) -> U256 {
        self.occ[0] | self.occ[1]
    }
    pub fn color_set(&self, c: Color) -> U256 {
        self.occ[c.index()]
    }
    pub fn type_set(&self, t: u8) -> U256 {
        self.types[t as usize]
    }
    pub fn walls(&self) -> U256 {
        self.bonded
    }
    pub fn infected_set(&self) -> U256 {
        self.infected
    }
    pub fn expanded_set(&self) -> U256 {
        self.expanded
    }
    pub fn infections(&self) -> &[Infection] {
        &self.infections
    }
    pub fn neuron(&self, c: Color) -> Option<Square> {
        let n = self.types[ROYAL_TYPE as usize] & self.occ[c.index()];
        (!n.is_empty()).then(|| n.lsb())
    }
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    // ----- editing -----

    /// Sets a square's content, keeping sets, key and the undo journal right.
    #[inline]
    fn set(&mut self, sq: u8, new: Cell) {
        let old = self.cells[sq as usize];
        if old == new {
            return;
        }
        if !self.journal[self.mark..].iter().any(|&(s, _)| s == sq) {
            self.journal.push((sq, old));
        }
        self.hash ^= cell_key(sq, &old) ^ cell_key(sq, &new);
        self.raw_set(sq, new);
    }

    /// Sets a square without key or journal (undo restores the key from its snapshot).
    #[inline]
    fn raw_set(&mut self, sq: u8, new: Cell) {
        let s = Square(sq);
        let old = self.cells[sq as usize];
        if !old.is_empty() {
            self.occ[old.color as usize].remove(s);
            self.types[old.kind as usize].remove(s);
        }
        self.bonded.remove(s);
        self.infected.remove(s);
        self.expanded.remove(s);
        if !new.is_empty() {
            self.occ[new.color as usize].insert(s);
            self.types[new.kind as usize].insert(s);
            if new.has(BONDED) {
                self.bonded.insert(s);
            }
            if new.has(INFECTED) {
                self.infected.insert(s);
            }
            if new.has(EXPANDED) {
                self.expanded.insert(s);
            }
        }
        self.cells[sq as usize] = new;
    }

    /// The cells a piece occupies (one, or two when expanded).
    fn piece_cells(&self, sq: u8) -> ArrayVec<u8, 2> {
        let mut v = ArrayVec::new();
        v.push(sq);
        let c = &self.cells[sq as usize];
        if c.has(EXPANDED) {
            v.push(c.partner);
        }
        v
    }

    /// Writes a piece's data on all its cells.
    fn set_piece(&mut self, sq: u8, c: Cell) {
        self.set(sq, c);
        if c.has(EXPANDED) {
            let mut p = c;
            p.partner = sq;
            self.set(c.partner, p);
        }
    }

    /// Breaks the wall `sq` belongs to: every member becomes a lone platelet (MC-10).
    fn break_wall(&mut self, sq: u8) {
        let color = self.cells[sq as usize].color;
        let mut todo = vec![sq];
        let mut seen = U256::EMPTY;
        seen.insert(Square(sq));
        let members = self.bonded & self.occ[color as usize];
        let t = tables();
        while let Some(s) = todo.pop() {
            let mut c = self.cells[s as usize];
            c.flags &= !BONDED;
            self.set(s, c);
            let mut nb = t.king[s as usize] & members & !seen;
            while let Some(n) = nb.pop_lsb() {
                seen.insert(n);
                todo.push(n.0);
            }
        }
    }

    /// Removes a captured (or killed, or hatched-out) piece from all its cells and returns it.
    fn remove_piece(&mut self, sq: u8) -> Cell {
        let c = self.cells[sq as usize];
        for s in self.piece_cells(sq) {
            self.set(s, Cell::EMPTY);
        }
        c
    }

    /// A piece with ABSORB (the Bacterium) absorbs what the eaten piece gives (MC-7).
    fn absorb(eater: &mut Cell, eaten: &Cell) {
        if eater.powers().has(Powers::ABSORB) {
            eater.absorbed |= (1 << eaten.kind) | eaten.absorbed;
            // Keep the set to real gifts: a Red blood cell, a Neuron and a Bacterium's own
            // moves give nothing (their GIFTS entries are empty).
            eater.absorbed &= !GIVES_NOTHING;
        }
    }

    /// Whether `c` may carry a rider (MC-12): not a piece with [`Powers::NO_RIDER`] (a Neuron,
    /// a lone Prion), not a wall member, not infected, not already ridden.
    pub fn rideable(c: &Cell) -> bool {
        !c.is_empty()
            && !c.powers().has(Powers::NO_RIDER)
            && !c.has(BONDED)
            && !c.has(INFECTED)
            && c.rider.is_none()
    }

    /// Whether a piece of `by` may capture `c` (not a wall member, not infected, MC-10/11).
    #[inline(always)]
    pub fn capturable(c: &Cell, by: Color) -> bool {
        !c.is_empty() && c.color() != by && c.flags & (BONDED | INFECTED) == 0
    }

    /// A rider of a captured host moves onto the capturer if it can carry one (MC-12: not a
    /// piece with [`Powers::NO_RIDER`], not one already ridden).
    fn transfer_rider(capturer: &mut Cell, victim: &Cell) {
        if let Some(r) = victim.rider {
            if !capturer.powers().has(Powers::NO_RIDER) && capturer.rider.is_none() {
                capturer.rider = Some(r);
            }
        }
    }

    // ----- keys -----

    fn extra_key(&self) -> u64 {
        let mut h = 0;
        let mut ep = self.ep;
        while let Some(s) = ep.pop_lsb() {
            h ^= zobrist::key(DOMAIN_EP, 16, s.0 as u64, 0);
        }
        for (i, inf) in self.infections.iter().enumerate() {
            h ^= zobrist::key(
                DOMAIN_STATE,
                0x1F00 | i as u64,
                inf.victim.0 as u64 | (inf.wait as u64) << 8,
                inf.carrier.pack(),
            );
        }
        h
    }

    /// The key from scratch (tests compare it with the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in 0..256 {
            h ^= cell_key(sq as u8, &self.cells[sq]);
        }
        if self.stm == Color::Black {
            h ^= side_key();
        }
        h ^ self.extra_key()
    }

    /// Times the current position occurred before.
    pub fn repetitions(&self) -> usize {
        let n = self.history.len();
        let back = (self.halfmove as usize).min(n);
        let now = self.hash();
        (2..=back)
            .step_by(2)
            .filter(|&i| self.history[n - i].full_hash == now)
            .count()
    }

    /// Nothing but the two Neurons on the board and no infection under way (MC-13).
    pub fn bare_neurons(&self) -> bool {
        self.occupied().count() == 2
            && self.types[ROYAL_TYPE as usize].count() == 2
            && self.infections.is_empty()
    }

    fn square_name(sq: Square, base: RankBase) -> String {
        GEOMETRY.name(sq, base)
    }
}

impl Variant for Micro {
    const NAME: &'static str = "microorganism";

    fn startpos() -> Micro {
        Micro::from_fen(START_FEN).expect("start FEN")
    }

    fn from_fen(fen: &str) -> Result<Micro, FenError> {
        fen::parse(fen)
    }

    fn fen(&self) -> String {
        fen::write(self)
    }

    fn geometry(&self) -> Geometry {
        GEOMETRY
    }

    fn side_to_move(&self) -> Color {
        self.stm
    }

    fn legal_moves(&self, out: &mut MoveList) {
        gen::legal_moves(self, out);
    }

    fn make_move(&mut self, m: Move) {
        gen::make(self, m);
    }

    fn unmake_move(&mut self) {
        let Some(u) = self.history.pop() else {
            return;
        };
        while self.journal.len() > u.mark {
            let (sq, c) = self.journal.pop().expect("journal entry");
            self.raw_set(sq, c);
        }
        self.mark = self.history.last().map(|h| h.mark).unwrap_or(0);
        self.infections = u.infections;
        self.ep = u.ep;
        self.ep_pawn = u.ep_pawn;
        self.halfmove = u.halfmove;
        self.fullmove = u.fullmove;
        self.hash = u.hash;
        self.stm = !self.stm;
    }

    fn null_move_ok(&self) -> bool {
        let us = self.stm;
        let own = self.occ[us.index()];
        // Pieces beyond pawns and the royal Neuron.
        let pieces = own & !self.types[PAWN_TYPE as usize] & !self.types[ROYAL_TYPE as usize];
        pieces.count() >= 2
            && !self.in_check()
            && !self
                .infections
                .iter()
                .any(|i| i.carrier.color() == us && i.wait == 0)
    }

    fn make_null_move(&mut self) {
        let full = self.hash();
        self.mark = self.journal.len();
        self.history.push(Undo {
            mv: Move::pass(),
            mark: self.mark,
            infections: self.infections.clone(),
            ep: self.ep,
            ep_pawn: self.ep_pawn,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            full_hash: full,
        });
        self.ep = U256::EMPTY;
        self.ep_pawn = None;
        self.halfmove += 1;
        if self.stm == Color::Black {
            self.fullmove += 1;
        }
        self.stm = !self.stm;
        self.hash ^= side_key();
    }

    fn hash(&self) -> u64 {
        self.hash ^ self.extra_key()
    }

    fn in_check(&self) -> bool {
        match self.neuron(self.stm) {
            Some(n) => gen::attacked(self, n, !self.stm),
            None => false,
        }
    }

    fn is_tactical(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant
            | MoveKind::Promotion
            | MoveKind::Infect
            | MoveKind::Kill
            | MoveKind::Hatch => true,
            MoveKind::Normal => {
                let c = &self.cells[m.to().index()];
                !c.is_empty() && c.color() != self.stm
                    || self.cells[m.from().index()].has(EXPANDED)
                        && gen::rigid_captures(self, m) > 0
            }
            _ => false,
        }
    }

    fn tactical_order(&self, m: Move) -> i32 {
        const V: [i32; TYPES] = [100, 0, 900, 1100, 500, 700, 300, 400, 200];
        let victim = match m.kind() {
            MoveKind::EnPassant => 100,
            MoveKind::Hatch => 600,
            MoveKind::Kill | MoveKind::Infect | MoveKind::Normal | MoveKind::Promotion => {
                let c = &self.cells[m.to().index()];
                if c.is_empty() || c.color() == self.stm && m.kind() != MoveKind::Kill {
                    0
                } else {
                    V[c.kind as usize]
                }
            }
            _ => 0,
        };
        let promo = m.piece().map(|p| V[p as usize]).unwrap_or(0);
        let a = &self.cells[m.from().index()];
        let attacker = if a.is_empty() { 0 } else { V[a.kind as usize] };
        (victim + promo) * 16 - attacker / 10
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        if list.is_empty() {
            Some(Outcome::no_moves(self.in_check(), self.stm))
        } else if self.halfmove >= 100 {
            Some(Outcome::draw("100-ply rule"))
        } else if self.repetitions() >= 2 {
            Some(Outcome::draw("Draw by repetition"))
        } else if self.bare_neurons() {
            Some(Outcome::draw("Only the Neurons are left"))
        } else {
            None
        }
    }

    fn is_search_draw(&self) -> bool {
        self.halfmove >= 100 || self.repetitions() >= 1 || self.bare_neurons()
    }

    fn move_text(&self, m: Move, dialect: Dialect) -> String {
        gen::move_text(self, m, dialect.rank_base, false)
    }

    fn parse_move(&self, text: &str, dialect: Dialect) -> Result<Move, MoveError> {
        let t = text.trim();
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        // Each move's own text first; then the other spelling of rigid moves (from the other
        // cell), which never overrides a move whose own text it is (a contraction).
        for alt in [false, true] {
            for &m in &list {
                if gen::move_text(self, m, dialect.rank_base, alt) == t {
                    return Ok(m);
                }
            }
        }
        if self.looks_like_move(t, dialect) {
            Err(MoveError::Illegal(text.to_string()))
        } else {
            Err(MoveError::Syntax(text.to_string()))
        }
    }

    fn looks_like_move(&self, text: &str, dialect: Dialect) -> bool {
        let b = text.as_bytes();
        if b.len() >= 4 && b[1] == b'@' {
            return GEOMETRY
                .parse_square_exact(&text[2..], dialect.rank_base)
                .is_some();
        }
        let Some((_, n1)) = GEOMETRY.parse_square(text, dialect.rank_base) else {
            return false;
        };
        let Some((_, n2)) = GEOMETRY.parse_square(&text[n1..], dialect.rank_base) else {
            return false;
        };
        let rest = &text[n1 + n2..];
        rest.is_empty() || (rest.len() == 1 && rest.chars().all(|c| c.is_ascii_lowercase()))
    }

    fn display(&self) -> String {
        fen::display(self)
    }

    fn describe(&self) -> crate::core::PositionView {
        fen::describe(self)
    }

    fn game_ply(&self) -> usize {
        self.history.len()
    }
}

mod fen;
pub use fen::{Attr, Setup};
