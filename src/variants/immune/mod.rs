//! Immune Chess (`immune`): the immune system (White) against the Invaders (Black), on a 10×10
//! board by default and on any size up to 16×16 by FEN (IM-1).
//!
//! The position is [`ImmuneBoard<B>`], generic over the width of its square sets; [`Immune`]
//! is a thin enum over the 128-square and the 256-square board that forwards every
//! [`Variant`] method, so the protocols see one type. Pieces are data ([`pieces`]): one
//! generator reads their atoms and powers; shooting (IM-5) is one mechanism driven by each
//! shooter's shot atoms. There is no royal piece and no check; the game ends by IM-6.
//!
//! FEN: `<board> <side> <dendritic counts> <halfmove> <fullmove>`, see `docs/rules/immune.md`.

mod fen;
pub use fen::Setup;
mod gen;
mod make;
pub mod pieces;
#[cfg(test)]
mod tests;

use std::sync::{Arc, OnceLock};

use crate::core::piece::slide_targets;
use crate::core::zobrist::{self, DOMAIN_PIECE, DOMAIN_SIDE, DOMAIN_STATE};
use crate::core::{
    Badge, BitSet, Color, Dialect, FenError, Geometry, Mode, Move, MoveError, MoveKind, MoveList,
    Outcome, PieceDef, PieceTables, PieceView, PositionView, Powers, RankBase, Square, SquareView,
    Variant, U256,
};

pub use pieces::{
    CellDef, BASOPHIL, B_CELL, CELLS, COMPLEMENT, DENDRITIC, DENDRITIC_LIMIT, EOSINOPHIL, HELPER_T,
    INVADER, KILLER_T, LETTERS, MACROPHAGE, MAST_CELL, MONOCYTE, NATURAL_KILLER, NEUTROPHIL,
    PIECES, TYPES,
};

/// The default setup (IM-2): seventy Invaders on ranks 3–9 in contact with White's capturing
/// cells on rank 2 (the Complement among them); the B-cells and the one-step cells, the
/// Monocytes and the Helper Ts behind on rank 1; Black moves first (IM-3). Chosen by measured
/// self-play balance and by the stronger side winning with either colour: see
/// `docs/rules/immune.md`.
pub const START_FEN: &str =
    "10/iiiiiiiiii/iiiiiiiiii/iiiiiiiiii/iiiiiiiiii/iiiiiiiiii/iiiiiiiiii/iiiiiiiiii/ATLMCDSLTA/BENHOOHNEB b - 0 1";

/// What one piece reaches ([`ImmuneBoard::reach`]), for evaluation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceReach<B> {
    /// The empty squares it can move to.
    pub moves: B,
    /// The squares its captures and shots (IM-5) hit: on each line every square up to and
    /// including the first piece of either side, so an own piece there is one it defends.
    pub attacks: B,
    /// The empty squares along its shot lines (shooters only).
    pub lines: B,
    /// The part of `attacks` hit by shots (IM-5): the shooter stays home, so a piece taken
    /// there cannot be recaptured and defending it does not help.
    pub shots: B,
}

/// The most squares a side may have (IM-1).
const MAX_SIDE: usize = 16;

// ----- Zobrist keys -----

struct Keys {
    /// [color][type][square]
    piece: Vec<u64>,
    /// [square][count]: a Dendritic cell on that square with that many captures (count ≥ 1).
    count: Vec<u64>,
    side: u64,
}

fn keys() -> &'static Keys {
    static K: OnceLock<Keys> = OnceLock::new();
    K.get_or_init(|| {
        let mut piece = vec![0; 2 * TYPES * 256];
        for c in 0..2 {
            for pt in 0..TYPES {
                for sq in 0..256 {
                    piece[(c * TYPES + pt) * 256 + sq] =
                        zobrist::key(DOMAIN_PIECE, c as u64, 0x1_0000 + pt as u64, sq as u64);
                }
            }
        }
        let mut count = vec![0; 256 * DENDRITIC_LIMIT as usize];
        for sq in 0..256 {
            for n in 1..DENDRITIC_LIMIT as usize {
                count[sq * DENDRITIC_LIMIT as usize + n] =
                    zobrist::key(DOMAIN_STATE, 0x1_0000, sq as u64, n as u64);
            }
        }
        Keys {
            piece,
            count,
            side: zobrist::key(DOMAIN_SIDE, 0x1_0000, 0, 0),
        }
    })
}

#[inline(always)]
fn piece_key(color: Color, pt: u8, sq: Square) -> u64 {
    keys().piece[(color.index() * TYPES + pt as usize) * 256 + sq.index()]
}

#[inline(always)]
fn count_key(sq: Square, n: u8) -> u64 {
    if n == 0 {
        0
    } else {
        keys().count[sq.index() * DENDRITIC_LIMIT as usize + n as usize]
    }
}

// ----- the rules of one board size -----

/// Everything that depends only on the board size: piece data and their tables.
#[derive(Debug)]
pub struct Rules<B: BitSet> {
    pub geo: Geometry,
    pub cells: &'static [CellDef; TYPES],
    /// Movement tables per type.
    tables: Vec<PieceTables<B>>,
    /// Shot tables per type (built from its shot atoms; empty for non-shooters).
    shots: Vec<PieceTables<B>>,
    /// [color] the promotion zone of that colour: its last two ranks.
    zone: [B; 2],
    /// Every square of the board.
    all: B,
    /// The squares of each rank, the first rank first.
    pub ranks: Vec<B>,
}

impl<B: BitSet> Rules<B> {
    fn new(geo: Geometry) -> Rules<B> {
        let cells = &CELLS;
        let tables = cells
            .iter()
            .map(|c| PieceTables::build(&c.def, geo))
            .collect();
        let shots = cells
            .iter()
            .map(|c| {
                let def = PieceDef {
                    name: c.def.name,
                    letter: c.def.letter,
                    atoms: c.shots,
                    powers: Powers::NONE,
                    initial_push: 1,
                };
                PieceTables::build(&def, geo)
            })
            .collect();
        let mut zone = [B::EMPTY; 2];
        let mut all = B::EMPTY;
        let mut ranks = vec![B::EMPTY; geo.height as usize];
        for i in 0..geo.squares() {
            let sq = Square(i as u8);
            all.insert(sq);
            ranks[geo.rank(sq) as usize].insert(sq);
            let r = geo.rank(sq) as i32;
            if r >= geo.height as i32 - 2 {
                zone[Color::White.index()].insert(sq);
            }
            if r <= 1 {
                zone[Color::Black.index()].insert(sq);
            }
        }
        Rules {
            geo,
            cells,
            tables,
            shots,
            zone,
            all,
            ranks,
        }
    }
}

// ----- the position -----

/// A piece on a square: `color * 16 + type + 1`; 0 is empty.
#[inline(always)]
fn code(color: Color, pt: u8) -> u8 {
    (color as u8) * 16 + pt + 1
}
#[inline(always)]
fn code_type(c: u8) -> u8 {
    (c - 1) & 15
}
#[inline(always)]
fn code_color(c: u8) -> Color {
    if c > 16 {
        Color::Black
    } else {
        Color::White
    }
}

#[derive(Clone, Debug)]
struct Undo {
    mv: Move,
    /// The moving piece's code and capture count (0 for a shot or a pass).
    mover: u8,
    mover_count: u8,
    /// The removed piece's code and capture count (0: none).
    captured: u8,
    captured_count: u8,
    halfmove: u16,
    hash: u64,
}

/// An Immune Chess position on a board whose squares fit in `B`.
#[derive(Clone, Debug)]
pub struct ImmuneBoard<B: BitSet> {
    rules: Arc<Rules<B>>,
    board: Vec<u8>,
    by_type: [B; TYPES],
    by_color: [B; 2],
    /// The capture count of the Dendritic cell on each square (0 elsewhere).
    counts: Vec<u8>,
    stm: Color,
    halfmove: u16,
    fullmove: u16,
    hash: u64,
    history: Vec<Undo>,
}

impl<B: BitSet> ImmuneBoard<B> {
    // ----- read interface -----

    pub fn rules(&self) -> &Rules<B> {
        &self.rules
    }
    /// The piece on a square: (colour, type).
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<(Color, u8)> {
        let c = self.board[sq.index()];
        (c != 0).then(|| (code_color(c), code_type(c)))
    }
    /// The capture count of the Dendritic cell on `sq` (0 if none stands there).
    pub fn dendritic_count(&self, sq: Square) -> u8 {
        self.counts[sq.index()]
    }
    pub fn pieces(&self, color: Color, pt: u8) -> B {
        self.by_color[color.index()] & self.by_type[pt as usize]
    }
    pub fn color_set(&self, color: Color) -> B {
        self.by_color[color.index()]
    }
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// Pieces that can never be captured or shot (Complements).
    #[inline(always)]
    fn uncapturable(&self) -> B {
        let mut s = B::EMPTY;
        for (pt, cell) in self.rules.cells.iter().enumerate() {
            if cell.def.powers.has(Powers::UNCAPTURABLE) {
                s |= self.by_type[pt];
            }
        }
        s
    }

    /// `color`'s pieces of types that can capture (IM-6).
    pub fn capturers(&self, color: Color) -> B {
        let mut s = B::EMPTY;
        for (pt, cell) in self.rules.cells.iter().enumerate() {
            if cell.def.can_capture() {
                s |= self.by_type[pt];
            }
        }
        s & self.by_color[color.index()]
    }

    /// What the piece on `from` reaches, for evaluation (from the same tables as the move
    /// generator, ignoring whose turn it is): see [`PieceReach`].
    pub fn reach(&self, from: Square) -> PieceReach<B> {
        let mut out = PieceReach {
            moves: B::EMPTY,
            attacks: B::EMPTY,
            lines: B::EMPTY,
            shots: B::EMPTY,
        };
        let Some((color, pt)) = self.piece_at(from) else {
            return out;
        };
        let r = &*self.rules;
        let (c, i, pt) = (color.index(), from.index(), pt as usize);
        let occ = self.by_color[0] | self.by_color[1];
        let empty = r.all & !occ;
        let t = &r.tables[pt];
        out.moves = t.leap_move[c][i] & empty;
        out.attacks = t.leap_capture[c][i];
        for &(dx, dy, range, mode) in &t.slides[c] {
            let ray: B = slide_targets(r.geo, from, dx, dy, range, occ);
            if mode != Mode::CaptureOnly {
                out.moves |= ray & empty;
            }
            if mode != Mode::MoveOnly {
                out.attacks |= ray;
            }
        }
        if r.cells[pt].def.powers.has(Powers::SHOOT) {
            let s = &r.shots[pt];
            out.shots |= s.leap_capture[c][i];
            for &(dx, dy, range, _) in &s.slides[c] {
                let ray: B = slide_targets(r.geo, from, dx, dy, range, occ);
                out.shots |= ray;
                out.lines |= ray & empty;
            }
            out.attacks |= out.shots;
        }
        out
    }

    /// The pieces of `color` and type `pt` that could take a piece standing on `sq`, by a
    /// capture (IM-4) or a shot (IM-5), if `occ` were the occupied squares: for a static
    /// exchange, which takes pieces off one by one and looks through them. Found from `sq`
    /// with the other colour's vectors (the reverse of each line and leap), from the same
    /// tables as the generator.
    pub fn takers(&self, sq: Square, color: Color, pt: u8, occ: B) -> B {
        let (r, pt) = (&*self.rules, pt as usize);
        let (c, i) = (color.index(), sq.index());
        let mine = self.by_type[pt] & self.by_color[c] & occ;
        if mine.is_empty() {
            return mine;
        }
        let back = 1 - c;
        let mut from = B::EMPTY;
        let shots = r.cells[pt].def.powers.has(Powers::SHOOT);
        for t in [Some(&r.tables[pt]), shots.then(|| &r.shots[pt])]
            .into_iter()
            .flatten()
        {
            from |= t.leap_capture[back][i];
            for &(dx, dy, range, mode) in &t.slides[back] {
                if mode != Mode::MoveOnly && (from & mine) != mine {
                    from |= slide_targets::<B>(r.geo, sq, dx, dy, range, occ);
                }
            }
        }
        from & mine
    }

    /// The type a piece of type `pt` and colour `color` is once it arrives on `to`: a
    /// Monocyte in its promotion zone becomes a Macrophage (IM-4).
    pub fn arrives_as(&self, pt: u8, color: Color, to: Square) -> u8 {
        let cell = &self.rules.cells[pt as usize];
        match cell.promotes_to {
            Some(p)
                if cell.def.powers.has(Powers::ZONE_PROMOTES)
                    && self.rules.zone[color.index()].contains(to) =>
            {
                p
            }
            _ => pt,
        }
    }

    /// The shot lines of the shooter on `from` seen through enemy pieces (IM-5): every square
    /// up to, not including, the first own or uncapturable piece. The enemies on them are the
    /// ones it can shoot one after another without moving; empty for a non-shooter.
    pub fn shot_lanes(&self, from: Square) -> B {
        let Some((color, pt)) = self.piece_at(from) else {
            return B::EMPTY;
        };
        let r = &*self.rules;
        let pt = pt as usize;
        if !r.cells[pt].def.powers.has(Powers::SHOOT) {
            return B::EMPTY;
        }
        let (c, i) = (color.index(), from.index());
        let walls = self.by_color[c] | self.uncapturable();
        let s = &r.shots[pt];
        let mut lanes = s.leap_capture[c][i];
        for &(dx, dy, range, _) in &s.slides[c] {
            lanes |= slide_targets::<B>(r.geo, from, dx, dy, range, walls);
        }
        lanes & !walls
    }

    // ----- board editing -----

    #[inline(always)]
    fn put(&mut self, color: Color, pt: u8, sq: Square) {
        self.board[sq.index()] = code(color, pt);
        self.by_type[pt as usize].insert(sq);
        self.by_color[color.index()].insert(sq);
        self.hash ^= piece_key(color, pt, sq);
    }

    /// Empties a square; returns its code and capture count.
    #[inline(always)]
    fn take(&mut self, sq: Square) -> (u8, u8) {
        let c = self.board[sq.index()];
        let n = self.counts[sq.index()];
        if c != 0 {
            let (color, pt) = (code_color(c), code_type(c));
            self.board[sq.index()] = 0;
            self.by_type[pt as usize].remove(sq);
            self.by_color[color.index()].remove(sq);
            self.hash ^= piece_key(color, pt, sq);
            self.set_count(sq, 0);
        }
        (c, n)
    }

    #[inline(always)]
    fn set_count(&mut self, sq: Square, n: u8) {
        let old = self.counts[sq.index()];
        self.hash ^= count_key(sq, old) ^ count_key(sq, n);
        self.counts[sq.index()] = n;
    }

    // ----- endings (IM-6) -----

    /// The ending by material, if the game has one: no Invader left, or no White piece left
    /// that can capture, or both (the Dendritic draw).
    pub fn material_outcome(&self) -> Option<Outcome> {
        let no_invader = self.by_color[Color::Black.index()].is_empty();
        let no_capturer = self.capturers(Color::White).is_empty();
        match (no_invader, no_capturer) {
            (true, true) => Some(Outcome::Draw {
                reason: "The last Invader and White's last capturing piece left together".into(),
            }),
            (true, false) => Some(Outcome::Win {
                winner: Color::White,
                reason: "White destroyed every Invader".into(),
            }),
            (false, true) => Some(Outcome::Win {
                winner: Color::Black,
                reason: "White has no piece left that can capture".into(),
            }),
            (false, false) => None,
        }
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for i in 0..self.board.len() {
            let sq = Square(i as u8);
            if let Some((c, pt)) = self.piece_at(sq) {
                h ^= piece_key(c, pt, sq) ^ count_key(sq, self.counts[i]);
            }
        }
        if self.stm == Color::White {
            h ^= keys().side;
        }
        h
    }

    /// How often the current position occurred before (same side, same counts), looking back
    /// over reversible plies only.
    pub fn repetitions(&self) -> usize {
        let n = self.history.len();
        let back = (self.halfmove as usize).min(n);
        (2..=back)
            .step_by(2)
            .filter(|&i| self.history[n - i].hash == self.hash)
            .count()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.material_outcome() {
            return Some(o);
        }
        let mut list = MoveList::new();
        self.generate(&mut list);
        if list.is_empty() {
            let winner = !self.stm;
            return Some(Outcome::Win {
                winner,
                reason: format!("{} has no legal move", self.stm.name()),
            });
        }
        if self.halfmove >= 100 {
            return Some(Outcome::Draw {
                reason: "100 plies without capture or promotion".into(),
            });
        }
        if self.repetitions() >= 2 {
            return Some(Outcome::Draw {
                reason: "Threefold repetition".into(),
            });
        }
        None
    }

    pub fn is_search_draw(&self) -> bool {
        self.halfmove >= 100 || self.repetitions() >= 1
    }

    pub fn is_tactical(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::Shot | MoveKind::Promotion => true,
            MoveKind::Normal => self.board[m.to().index()] != 0,
            _ => false,
        }
    }

    pub fn tactical_order(&self, m: Move) -> i32 {
        let value = |sq: Square| -> i32 {
            self.piece_at(sq)
                .map(|(_, pt)| self.rules.cells[pt as usize].value)
                .unwrap_or(0)
        };
        let victim = if m.kind() == MoveKind::Pass {
            0
        } else {
            value(m.to())
        };
        let promo = m
            .piece()
            .map(|p| {
                let new = self.rules.cells[p as usize].value;
                new - value(m.from())
            })
            .unwrap_or(0);
        // A shot risks nothing: the shooter stays home.
        let attacker = if m.kind() == MoveKind::Shot {
            0
        } else {
            value(m.from())
        };
        victim * 16 + promo * 16 - attacker / 10
    }

    // ----- text -----

    pub fn move_text(&self, m: Move, dialect: Dialect) -> String {
        let geo = self.rules.geo;
        if m.kind() == MoveKind::Pass {
            return dialect.pass().to_string();
        }
        let f = geo.name(m.from(), dialect.rank_base);
        let t = geo.name(m.to(), dialect.rank_base);
        match m.kind() {
            MoveKind::Shot => format!("{f}{t},{t}{f}"),
            _ => match m.piece() {
                Some(p) => format!("{f}{t}{}", LETTERS[p as usize].to_ascii_lowercase()),
                None => format!("{f}{t}"),
            },
        }
    }

    /// Whether `m` is the capture with which its mover reaches its capture limit and leaves
    /// the board (the Dendritic cell's 10th capture, IM-4): the seed's `*`.
    pub fn is_last_capture(&self, m: Move) -> bool {
        if m.kind() == MoveKind::Shot || m.kind() == MoveKind::Pass {
            return false;
        }
        let Some((_, pt)) = self.piece_at(m.from()) else {
            return false;
        };
        let cell = &self.rules.cells[pt as usize];
        self.board[m.to().index()] != 0
            && cell.def.powers.has(Powers::CAPTURE_LIMIT)
            && self.counts[m.from().index()] + 1 >= cell.capture_limit
    }

    /// The move in the seed's notation (IM-7): the piece's abbreviation, then `-` (move), `[`
    /// (capture) or `+` (shot), then the square; `^` after a promotion, `*` after the
    /// Dendritic cell's 10th capture: `M-e4`, `M[e5`, `B+e9`, `MO-e9^`, `D[f6*`.
    ///
    /// "When two pieces in the same kind can control a square, and one of it moves to the
    /// square, we write Piece-Column-Square. But if these pieces are in the same column, we
    /// write Piece-Row-Square": when another piece of the mover's type has a legal move of the
    /// same kind to the same square, the mover's file follows the abbreviation (`Mc-e4`); if a
    /// rival stands on the mover's file, its rank instead (`M3-e4`); if rivals share both its
    /// file and its rank (three or more pieces), both (`Mc3-e4`). The Invader, which the seed
    /// does not name, is written `I`.
    pub fn seed_text(&self, m: Move) -> String {
        let geo = self.rules.geo;
        if m.kind() == MoveKind::Pass {
            return "--".into();
        }
        let Some((_, pt)) = self.piece_at(m.from()) else {
            return "?".into();
        };
        let cell = &self.rules.cells[pt as usize];
        let mut s = cell.abbrev.to_string();
        // Disambiguation.
        let mut list = MoveList::new();
        self.generate(&mut list);
        let rivals: Vec<Square> = list
            .iter()
            .filter(|o| {
                o.to() == m.to()
                    && o.from() != m.from()
                    && o.kind() == m.kind()
                    && self.piece_at(o.from()).map(|x| x.1) == Some(pt)
            })
            .map(|o| o.from())
            .collect();
        if !rivals.is_empty() {
            let file = geo.file(m.from());
            let rank = geo.rank(m.from());
            let file_unique = rivals.iter().all(|&o| geo.file(o) != file);
            let rank_unique = rivals.iter().all(|&o| geo.rank(o) != rank);
            if file_unique || !rank_unique {
                s.push((b'a' + file) as char);
            }
            if !file_unique {
                s.push_str(&(rank as u32 + 1).to_string());
            }
        }
        let capture = self.board[m.to().index()] != 0;
        s.push(match m.kind() {
            MoveKind::Shot => '+',
            _ if capture => '[',
            _ => '-',
        });
        s.push_str(&geo.name(m.to(), RankBase::ONE));
        if m.kind() == MoveKind::Promotion {
            s.push('^');
        } else if self.is_last_capture(m) {
            s.push('*');
        }
        s
    }

    /// The legal moves a text in the seed's notation (IM-7) can name: `None` if the text is
    /// not in that form, else every legal move it fits (one when the text is right; none when
    /// it names no legal move; several when it lacks a needed file or rank).
    ///
    /// Read: the abbreviation (upper case; an Invader's may be left out, `-e7`, `e8-e7`, when
    /// Black is to move, since Black has no other piece), an optional file and rank of the
    /// mover (more than needed is fine), `-` / `[` / `+`, the square (ranks from 1), then `^`
    /// or `*`. Both suffixes may be left out (the promotion and the removal are forced), but
    /// one that is written must be true.
    pub fn seed_matches(&self, text: &str) -> Option<Vec<Move>> {
        let geo = self.rules.geo;
        let text = text.trim();
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() && b[i].is_ascii_uppercase() {
            i += 1;
        }
        let pt = if i == 0 {
            if self.stm != Color::Black {
                return None;
            }
            INVADER
        } else {
            let abbrev = &text[..i];
            self.rules.cells.iter().position(|c| c.abbrev == abbrev)? as u8
        };
        let mut file = None;
        let mut rank = None;
        if i < b.len() && b[i].is_ascii_lowercase() {
            file = Some(b[i] - b'a');
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i > start {
            rank = Some(text[start..i].parse::<u32>().ok()?.checked_sub(1)?);
        }
        let sep = *b.get(i)?;
        if !b"-[+".contains(&sep) {
            return None;
        }
        i += 1;
        let mut tail = &text[i..];
        let mut suffix = None;
        if let Some(last) = tail.chars().last() {
            if last == '^' || last == '*' {
                suffix = Some(last);
                tail = &tail[..tail.len() - 1];
            }
        }
        let to = geo.parse_square_exact(tail, RankBase::ONE)?;
        let mut list = MoveList::new();
        self.generate(&mut list);
        Some(
            list.iter()
                .copied()
                .filter(|&m| {
                    let kind_ok = match sep {
                        b'+' => m.kind() == MoveKind::Shot,
                        b'[' => m.kind() != MoveKind::Shot && self.board[m.to().index()] != 0,
                        _ => m.kind() != MoveKind::Shot && self.board[m.to().index()] == 0,
                    };
                    let suffix_ok = match suffix {
                        Some('^') => m.kind() == MoveKind::Promotion,
                        Some(_) => self.is_last_capture(m),
                        None => true,
                    };
                    kind_ok
                        && suffix_ok
                        && m.to() == to
                        && self.piece_at(m.from()).map(|x| x.1) == Some(pt)
                        && file.is_none_or(|f| geo.file(m.from()) == f)
                        && rank.is_none_or(|r| geo.rank(m.from()) as u32 == r)
                })
                .collect(),
        )
    }

    /// Reads the seed's notation (IM-7); `None` if the text is not in that form.
    fn parse_seed(&self, text: &str) -> Option<Result<Move, MoveError>> {
        let found = self.seed_matches(text)?;
        Some(if found.len() == 1 {
            Ok(found[0])
        } else {
            Err(MoveError::Illegal(text.to_string()))
        })
    }

    pub fn parse_move(&self, text: &str, dialect: Dialect) -> Result<Move, MoveError> {
        let mut list = MoveList::new();
        self.generate(&mut list);
        let text = text.trim();
        let lower = text.to_ascii_lowercase();
        for &m in &list {
            if self.move_text(m, dialect) == lower {
                return Ok(m);
            }
        }
        // Aliases: a promotion without its suffix (it is forced), a shot written as one leg.
        for &m in &list {
            let full = self.move_text(m, dialect);
            let short = match m.kind() {
                MoveKind::Promotion => full[..full.len() - 1].to_string(),
                MoveKind::Shot => full.split(',').next().unwrap_or("").to_string(),
                _ => continue,
            };
            if short == lower {
                return Ok(m);
            }
        }
        if let Some(r) = self.parse_seed(text) {
            return r;
        }
        if self.looks_like_move(text, dialect) {
            Err(MoveError::Illegal(text.to_string()))
        } else {
            Err(MoveError::Syntax(text.to_string()))
        }
    }

    pub fn looks_like_move(&self, text: &str, dialect: Dialect) -> bool {
        let geo = self.rules.geo;
        let two = |t: &str| -> Option<usize> {
            let (_, n1) = geo.parse_square(t, dialect.rank_base)?;
            let (_, n2) = geo.parse_square(&t[n1..], dialect.rank_base)?;
            Some(n1 + n2)
        };
        let lower = text.to_ascii_lowercase();
        let Some(n) = two(&lower) else {
            return false;
        };
        let rest = &lower[n..];
        if rest.is_empty() {
            return true;
        }
        if let Some(leg) = rest.strip_prefix(',') {
            return two(leg) == Some(leg.len());
        }
        rest.len() == 1 && pieces::type_of_letter(rest.chars().next().unwrap_or(' ')).is_some()
    }

    pub fn display(&self) -> String {
        let geo = self.rules.geo;
        let w = geo.width as usize;
        let line = format!("    +{}\n", "---+".repeat(w));
        let mut s = line.clone();
        for rank in (0..geo.height).rev() {
            s.push_str(&format!(" {:>2} |", rank + 1));
            for file in 0..geo.width {
                let sq = geo.square(file as i32, rank as i32).expect("on board");
                let ch = match self.piece_at(sq) {
                    None => ' ',
                    Some((Color::White, pt)) => LETTERS[pt as usize],
                    Some((Color::Black, pt)) => LETTERS[pt as usize].to_ascii_lowercase(),
                };
                s.push_str(&format!(" {ch} |"));
            }
            s.push('\n');
            s.push_str(&line);
        }
        s.push_str("     ");
        for file in 0..geo.width {
            s.push_str(&format!(" {}  ", (b'a' + file) as char));
        }
        s.push_str("\n\n");
        s.push_str(&format!(
            "Variant: {} ({})\nSide to move: {}\nFen: {}\nKey: {:016X}\n",
            Immune::NAME,
            geo,
            self.stm.name(),
            self.fen(),
            self.hash
        ));
        let dendritic: Vec<String> = self.by_type[DENDRITIC as usize]
            .squares()
            .map(|sq| {
                format!(
                    "{} {}/{}",
                    geo.name(sq, RankBase::ONE),
                    self.counts[sq.index()],
                    DENDRITIC_LIMIT
                )
            })
            .collect();
        s.push_str(&format!(
            "Dendritic captures: {}\n",
            if dendritic.is_empty() {
                "-".to_string()
            } else {
                dendritic.join(" ")
            }
        ));
        s.push_str(&format!(
            "Invaders: {}  White capturers: {}\n",
            self.by_color[Color::Black.index()].count(),
            self.capturers(Color::White).count()
        ));
        s
    }
}

// ----- the one type the protocols see -----

/// An Immune Chess position: boards of up to 128 squares use 128-bit sets, larger ones 256-bit.
// Both variants are a few hundred bytes (the square sets inline); a position is cloned once per
// search, not per node, so boxing the larger one would only add an indirection to every call.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Immune {
    Small(ImmuneBoard<u128>),
    Large(ImmuneBoard<U256>),
}

macro_rules! with_board {
    ($self:expr, $p:ident => $e:expr) => {
        match $self {
            Immune::Small($p) => $e,
            Immune::Large($p) => $e,
        }
    };
}

impl Immune {
    /// The piece on a square: (colour, type).
    pub fn piece_at(&self, sq: Square) -> Option<(Color, u8)> {
        with_board!(self, p => p.piece_at(sq))
    }
    /// The capture count of the Dendritic cell on `sq` (0 if none).
    pub fn dendritic_count(&self, sq: Square) -> u8 {
        with_board!(self, p => p.dendritic_count(sq))
    }
    /// The move in the seed's notation (IM-7), see [`ImmuneBoard::seed_text`].
    pub fn seed_text(&self, m: Move) -> String {
        with_board!(self, p => p.seed_text(m))
    }
    /// The legal moves a text in the seed's notation names, see
    /// [`ImmuneBoard::seed_matches`]; `None` if the text is not in that form.
    pub fn seed_matches(&self, text: &str) -> Option<Vec<Move>> {
        with_board!(self, p => p.seed_matches(text))
    }
    /// Whether `m` is a capture after which its mover leaves the board (the seed's `*`).
    pub fn is_last_capture(&self, m: Move) -> bool {
        with_board!(self, p => p.is_last_capture(m))
    }
    /// The key computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        with_board!(self, p => p.compute_hash())
    }
    pub fn halfmove_clock(&self) -> u16 {
        with_board!(self, p => p.halfmove_clock())
    }
    /// The squares of `color`'s pieces of type `pt`, lowest first.
    pub fn squares_of(&self, color: Color, pt: u8) -> Vec<Square> {
        with_board!(self, p => p.pieces(color, pt).squares().collect())
    }
    /// How many pieces `color` has.
    pub fn count(&self, color: Color) -> u32 {
        with_board!(self, p => p.color_set(color).count())
    }
}

impl Variant for Immune {
    const NAME: &'static str = "immune";
    /// IM-3: the Invaders (Black) move first, and a numbered pair is `1. Invader cells`.
    const FIRST_MOVER: Color = Color::Black;
    /// IM-7: the seed's own notation (`M3-e4`, `I-e7`).
    const OWN_NOTATION: bool = true;

    fn own_text(&self, m: Move) -> Option<String> {
        Some(self.seed_text(m))
    }
    fn own_matches(&self, text: &str) -> Option<Vec<Move>> {
        self.seed_matches(text)
    }

    fn startpos() -> Self {
        Immune::from_fen(START_FEN).expect("start FEN")
    }

    fn from_fen(fen: &str) -> Result<Self, FenError> {
        fen::Setup::parse(fen)?.validate()
    }

    fn fen(&self) -> String {
        with_board!(self, p => p.fen())
    }
    fn geometry(&self) -> Geometry {
        with_board!(self, p => p.rules.geo)
    }
    fn side_to_move(&self) -> Color {
        with_board!(self, p => p.stm)
    }
    fn legal_moves(&self, out: &mut MoveList) {
        with_board!(self, p => p.generate(out))
    }
    fn make_move(&mut self, m: Move) {
        with_board!(self, p => p.make_move(m))
    }
    fn unmake_move(&mut self) {
        with_board!(self, p => p.unmake_move())
    }
    /// Never: the side without a move loses (IM-6), so a pass is not a safe lower bound.
    fn null_move_ok(&self) -> bool {
        false
    }
    fn make_null_move(&mut self) {
        with_board!(self, p => p.make_null_move())
    }
    fn hash(&self) -> u64 {
        with_board!(self, p => p.hash)
    }
    /// No piece is royal: nothing is ever in check.
    fn in_check(&self) -> bool {
        false
    }
    /// Nor does any move give check.
    fn gives_check(&self, _m: Move) -> Option<bool> {
        Some(false)
    }
    fn is_tactical(&self, m: Move) -> bool {
        with_board!(self, p => p.is_tactical(m))
    }
    fn tactical_order(&self, m: Move) -> i32 {
        with_board!(self, p => p.tactical_order(m))
    }
    fn outcome(&self) -> Option<Outcome> {
        with_board!(self, p => p.outcome())
    }
    fn is_search_draw(&self) -> bool {
        with_board!(self, p => p.is_search_draw())
    }
    fn move_text(&self, m: Move, dialect: Dialect) -> String {
        with_board!(self, p => p.move_text(m, dialect))
    }
    fn parse_move(&self, text: &str, dialect: Dialect) -> Result<Move, MoveError> {
        with_board!(self, p => p.parse_move(text, dialect))
    }
    fn looks_like_move(&self, text: &str, dialect: Dialect) -> bool {
        with_board!(self, p => p.looks_like_move(text, dialect))
    }
    fn display(&self) -> String {
        with_board!(self, p => p.display())
    }
    fn describe(&self) -> PositionView {
        let geo = self.geometry();
        let mut squares = Vec::new();
        for rank in 0..geo.height {
            for file in 0..geo.width {
                let sq = geo.square(file as i32, rank as i32).expect("on board");
                let Some((color, pt)) = self.piece_at(sq) else {
                    continue;
                };
                let l = LETTERS[pt as usize];
                let mut badges = Vec::new();
                if pt == DENDRITIC {
                    // IM-4: the Dendritic cell leaves the board at its 10th capture.
                    badges.push(Badge::Captures {
                        count: self.dendritic_count(sq),
                        limit: DENDRITIC_LIMIT,
                    });
                }
                squares.push(SquareView {
                    square: geo.name(sq, RankBase::ONE),
                    file,
                    rank,
                    piece: PieceView {
                        letter: if color == Color::White {
                            l
                        } else {
                            l.to_ascii_lowercase()
                        },
                        color,
                        name: PIECES[pt as usize].name,
                    },
                    badges,
                });
            }
        }
        PositionView {
            width: geo.width,
            height: geo.height,
            side_to_move: self.side_to_move(),
            squares,
            held: Vec::new(),
            boards: Vec::new(),
            notes: vec![format!(
                "Invaders: {}, White capturers: {}",
                self.count(Color::Black),
                with_board!(self, p => p.capturers(Color::White).count())
            )],
        }
    }

    fn game_ply(&self) -> usize {
        with_board!(self, p => p.history.len())
    }
}
