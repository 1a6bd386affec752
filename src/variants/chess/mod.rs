//! International chess on 8×8 (`chess`; XBoard `normal`), also the sub-game of Infinite
//! Recursion Chess (IR-3). Castling is generalised so a king on the d-file castles too (IR-2):
//! the king moves two squares towards its rook and the rook lands on the square it crossed.

mod fen;
mod gen;
mod make;
mod pieces;
mod tables;

pub use fen::{castling_text, parse_castling, piece_of_letter, Placement, Setup};
use pieces::{has, type_with};
pub use pieces::{BISHOP, KING, KNIGHT, LETTERS, PAWN, PIECES, QUEEN, ROOK, TYPES};
pub use tables::tables;

use crate::core::zobrist::{self, DOMAIN_CASTLE, DOMAIN_EP, DOMAIN_PIECE, DOMAIN_SIDE};
use crate::core::Powers;
use crate::core::{
    BitSet, Color, Dialect, FenError, Geometry, Move, MoveKind, MoveList, Outcome, PieceView,
    PositionView, RankBase, Square, SquareView, Variant,
};

// What the generator reads of the pieces' powers, as constants (no cost per move):
/// The piece whose safety is the game (check and mate are about it).
const ROYAL_TYPE: u8 = type_with(Powers::ROYAL);
/// The piece that castles, and the one it castles with.
const CASTLER: u8 = type_with(Powers::CASTLES);
const PARTNER: u8 = type_with(Powers::CASTLE_PARTNER);
/// Whether castling exists at all: the royal piece castles (with [`PARTNER`]).
const CASTLING: bool = has(ROYAL_TYPE, Powers::CASTLES);
/// Whether the pawn promotes on the last rank, and whether its double step may be taken en
/// passant.
const PAWN_PROMOTES: bool = has(PAWN, Powers::PROMOTES);
const PAWN_EN_PASSANT: bool = has(PAWN, Powers::EN_PASSANT);

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Castling right index: colour * 2 + side (0 = towards the h-file, 1 = towards the a-file).
#[inline(always)]
fn cr(color: Color, side: usize) -> usize {
    color.index() * 2 + side
}

/// A piece on the board: colour and type packed as `color * 8 + type + 1`; 0 is empty.
#[inline(always)]
fn code(color: Color, pt: u8) -> u8 {
    (color as u8) * 8 + pt + 1
}
#[inline(always)]
fn code_type(c: u8) -> u8 {
    (c - 1) & 7
}
#[inline(always)]
fn code_color(c: u8) -> Color {
    if c >= 9 {
        Color::Black
    } else {
        Color::White
    }
}

#[derive(Clone, Debug)]
struct Undo {
    mv: Move,
    captured: u8,
    castling: u8,
    ep: Option<Square>,
    halfmove: u16,
    hash: u64,
    marks: [Option<Mark>; 2],
}

/// A piece its variant gives powers beyond its type's: at most one per colour and board. The
/// mark moves with the piece (castling and promotion included) and is gone once the piece is
/// captured; the generator reads its powers ([`Powers::UNCAPTURABLE`], [`Powers::NO_CAPTURE`],
/// [`Powers::NO_MOVE`]) and the Zobrist key covers square and powers. Plain chess has none;
/// Infinite Recursion marks each side's mega-knight with its state's powers (IR-2, IR-4).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Mark {
    pub square: Square,
    pub powers: Powers,
}

/// A chess position with its history since it was set up.
#[derive(Clone, Debug)]
pub struct Chess {
    board: [u8; 64],
    by_type: [u64; 6],
    by_color: [u64; 2],
    stm: Color,
    /// Bit `cr(color, side)` set: that castling is still allowed.
    castling: u8,
    /// The rook square of each castling right.
    castle_rook: [Square; 4],
    /// For each square, the castling rights that survive a move from or to it.
    castle_keep: [u8; 64],
    ep: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    hash: u64,
    history: Vec<Undo>,
    /// Each colour's marked piece, if any ([`Mark`]).
    marks: [Option<Mark>; 2],
}

fn piece_key(color: Color, pt: u8, sq: Square) -> u64 {
    zobrist::key(DOMAIN_PIECE, color as u64, pt as u64, sq.0 as u64)
}

fn mark_key(color: Color, mark: Mark) -> u64 {
    zobrist::key(
        zobrist::DOMAIN_STATE,
        color as u64,
        mark.square.0 as u64,
        mark.powers.0 as u64 + 100,
    )
}

struct Keys {
    piece: [[[u64; 64]; 6]; 2],
    castle: [u64; 16],
    ep: [u64; 8],
    side: u64,
}

fn keys() -> &'static Keys {
    static K: std::sync::OnceLock<Keys> = std::sync::OnceLock::new();
    K.get_or_init(|| {
        let mut k = Keys {
            piece: [[[0; 64]; 6]; 2],
            castle: [0; 16],
            ep: [0; 8],
            side: zobrist::key(DOMAIN_SIDE, 0, 0, 0),
        };
        for c in Color::BOTH {
            for pt in 0..6u8 {
                for sq in 0..64u8 {
                    k.piece[c.index()][pt as usize][sq as usize] = piece_key(c, pt, Square(sq));
                }
            }
        }
        for i in 0..4 {
            let bit = zobrist::key(DOMAIN_CASTLE, i, 0, 0);
            for (mask, v) in k.castle.iter_mut().enumerate() {
                if mask & (1 << i) != 0 {
                    *v ^= bit;
                }
            }
        }
        for (f, v) in k.ep.iter_mut().enumerate() {
            *v = zobrist::key(DOMAIN_EP, f as u64, 0, 0);
        }
        k
    })
}

const PROMO_PIECES: [u8; 4] = [QUEEN, KNIGHT, ROOK, BISHOP];

impl Chess {
    fn empty() -> Chess {
        Chess {
            board: [0; 64],
            by_type: [0; 6],
            by_color: [0; 2],
            stm: Color::White,
            castling: 0,
            castle_rook: [Square(7), Square(0), Square(63), Square(56)],
            castle_keep: [0xF; 64],
            ep: None,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            history: Vec::new(),
            marks: [None, None],
        }
    }

    // ----- narrow read interface (evaluation, protocols, other variants) -----

    /// The piece on a square: (colour, type).
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<(Color, u8)> {
        let c = self.board[sq.index()];
        if c == 0 {
            None
        } else {
            Some((code_color(c), code_type(c)))
        }
    }
    /// The set of pieces of a colour and type.
    #[inline(always)]
    pub fn pieces(&self, color: Color, pt: u8) -> u64 {
        self.by_color[color.index()] & self.by_type[pt as usize]
    }
    #[inline(always)]
    pub fn color_set(&self, color: Color) -> u64 {
        self.by_color[color.index()]
    }
    #[inline(always)]
    pub fn type_set(&self, pt: u8) -> u64 {
        self.by_type[pt as usize]
    }
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, ROYAL_TYPE).lsb()
    }
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }
    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }
    /// The type captured by the last move made, if any.
    pub fn last_captured(&self) -> Option<u8> {
        self.history.last().and_then(|u| {
            if u.captured == 0 {
                None
            } else {
                Some(code_type(u.captured))
            }
        })
    }

    /// The occupied squares as a picture shows them, the board's file `f` drawn at file
    /// `f + file_offset` of the whole (Infinite Recursion puts board B at offset 8).
    pub fn square_views(&self, file_offset: u8) -> Vec<SquareView> {
        let names: Vec<&'static str> = PIECES.iter().map(|d| d.name).collect();
        let mut out = Vec::new();
        for i in 0..64u8 {
            let sq = Square(i);
            let Some((color, pt)) = self.piece_at(sq) else {
                continue;
            };
            let (file, rank) = (i % 8 + file_offset, i / 8);
            let letter = LETTERS[pt as usize];
            let letter = if color == Color::White {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            out.push(SquareView {
                square: format!("{}{}", (b'a' + file) as char, rank + 1),
                file,
                rank,
                piece: PieceView {
                    letter,
                    color,
                    name: names[pt as usize],
                },
                badges: Vec::new(),
            });
        }
        out
    }

    /// `color`'s marked piece, if it has one on this board.
    pub fn mark(&self, color: Color) -> Option<Mark> {
        self.marks[color.index()]
    }
    /// Marks `color`'s piece on `mark.square` with `mark.powers` (replacing any earlier mark of
    /// that colour), or removes the mark with `None`.
    pub fn set_mark(&mut self, color: Color, mark: Option<Mark>) -> Result<(), FenError> {
        if let Some(m) = mark {
            if self.piece_at(m.square).map(|(c, _)| c) != Some(color) {
                return Err(crate::core::PositionError::NoPieceToMark {
                    color,
                    square: Self::square_name(m.square, RankBase::ONE),
                }
                .into());
            }
        }
        self.replace_mark(color, mark);
        Ok(())
    }
    /// Gives `color`'s marked piece new powers (nothing happens if it has none, e.g. once it
    /// was captured).
    pub fn set_mark_powers(&mut self, color: Color, powers: Powers) {
        if let Some(m) = self.marks[color.index()] {
            self.replace_mark(color, Some(Mark { powers, ..m }));
        }
    }
    /// Sets `color`'s mark, keeping the key up to date.
    #[inline(always)]
    fn replace_mark(&mut self, color: Color, mark: Option<Mark>) {
        if let Some(old) = self.marks[color.index()] {
            self.hash ^= mark_key(color, old);
        }
        self.marks[color.index()] = mark;
        if let Some(new) = mark {
            self.hash ^= mark_key(color, new);
        }
    }
    /// Squares of `color`'s pieces that cannot be captured: a mark with
    /// [`Powers::UNCAPTURABLE`].
    #[inline(always)]
    fn uncapturable(&self, color: Color) -> u64 {
        match self.marks[color.index()] {
            Some(m) if m.powers.has(Powers::UNCAPTURABLE) => 1u64 << m.square.0,
            _ => 0,
        }
    }

    // ----- board editing -----

    #[inline(always)]
    fn put(&mut self, color: Color, pt: u8, sq: Square) {
        let b = 1u64 << sq.0;
        self.board[sq.index()] = code(color, pt);
        self.by_type[pt as usize] |= b;
        self.by_color[color.index()] |= b;
        self.hash ^= keys().piece[color.index()][pt as usize][sq.index()];
    }

    #[inline(always)]
    fn take(&mut self, sq: Square) -> u8 {
        let c = self.board[sq.index()];
        if c != 0 {
            let b = 1u64 << sq.0;
            let (color, pt) = (code_color(c), code_type(c));
            self.board[sq.index()] = 0;
            self.by_type[pt as usize] ^= b;
            self.by_color[color.index()] ^= b;
            self.hash ^= keys().piece[color.index()][pt as usize][sq.index()];
        }
        c
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let k = keys();
        let mut h = 0;
        for sq in 0..64u8 {
            if let Some((c, pt)) = self.piece_at(Square(sq)) {
                h ^= k.piece[c.index()][pt as usize][sq as usize];
            }
        }
        h ^= k.castle[self.castling as usize];
        if let Some(ep) = self.ep {
            h ^= k.ep[(ep.0 % 8) as usize];
        }
        if self.stm == Color::Black {
            h ^= k.side;
        }
        for c in Color::BOTH {
            if let Some(m) = self.marks[c.index()] {
                h ^= mark_key(c, m);
            }
        }
        h
    }

    /// Times the current position occurred before (same side, rights and en passant), looking
    /// back only over reversible moves.
    pub fn repetitions(&self) -> usize {
        let n = self.history.len();
        let back = (self.halfmove as usize).min(n);
        let mut count = 0;
        let mut i = 2;
        while i <= back {
            if self.history[n - i].hash == self.hash {
                count += 1;
            }
            i += 2;
        }
        count
    }

    /// No sequence of legal moves can mate: K v K, K+minor v K, bishops all on one colour.
    pub fn insufficient_material(&self) -> bool {
        if self.by_type[PAWN as usize] | self.by_type[ROOK as usize] | self.by_type[QUEEN as usize]
            != 0
        {
            return false;
        }
        let minors = self.by_type[KNIGHT as usize] | self.by_type[BISHOP as usize];
        if minors.count_ones() <= 1 {
            return true;
        }
        const DARK: u64 = 0xAA55_AA55_AA55_AA55;
        let bishops = self.by_type[BISHOP as usize];
        self.by_type[KNIGHT as usize] == 0 && (bishops & DARK == 0 || bishops & !DARK == 0)
    }

    /// The square of the rook a castling move `m` of `us` castles with.
    #[inline(always)]
    fn castling_rook(&self, us: Color, m: Move) -> Square {
        let side = if m.to().0 > m.from().0 { 0 } else { 1 };
        self.castle_rook[cr(us, side)]
    }

    fn square_name(sq: Square, base: RankBase) -> String {
        Geometry::CHESS.name(sq, base)
    }
}

/// The pawn an en-passant capture by `us` landing on `to` removes.
#[inline(always)]
fn ep_victim(us: Color, to: Square) -> Square {
    Square(if us == Color::White {
        to.0 - 8
    } else {
        to.0 + 8
    })
}

/// Where king and rook land: the king two squares towards the rook, the rook on the square the
/// king crossed. `None` if the king is not two or more files from the rook.
fn castle_squares(ksq: Square, rsq: Square) -> Option<(Square, Square)> {
    let kf = (ksq.0 % 8) as i32;
    let rf = (rsq.0 % 8) as i32;
    let dir = (rf - kf).signum();
    if dir == 0 || (rf - kf).abs() < 2 {
        return None;
    }
    let rank = ksq.0 / 8;
    let kto = Square(rank * 8 + (kf + 2 * dir) as u8);
    let rto = Square(rank * 8 + (kf + dir) as u8);
    Some((kto, rto))
}

impl Variant for Chess {
    const NAME: &'static str = "chess";
    const CASTLING: bool = true;

    fn castling_rights(&self) -> u8 {
        self.castling
    }

    fn startpos() -> Chess {
        Chess::from_fen(START_FEN).expect("start FEN")
    }

    fn from_fen(fen: &str) -> Result<Chess, FenError> {
        fen::parse(fen)
    }

    fn fen(&self) -> String {
        fen::write(self)
    }

    fn geometry(&self) -> Geometry {
        Geometry::CHESS
    }

    fn side_to_move(&self) -> Color {
        self.stm
    }

    fn legal_moves(&self, out: &mut MoveList) {
        self.generate(out);
    }

    fn tactical_moves(&self, out: &mut MoveList) {
        self.generate_tactical(out);
    }

    fn make_move(&mut self, m: Move) {
        self.do_move(m);
    }

    fn unmake_move(&mut self) {
        self.undo_move();
    }

    fn null_move_ok(&self) -> bool {
        // Zugzwang is common when only king and pawns remain: no null move there.
        let us = self.stm;
        let non_pawn = self.color_set(us) & !self.pieces(us, PAWN) & !self.pieces(us, KING);
        non_pawn != 0 && self.checkers() == 0
    }

    fn make_null_move(&mut self) {
        let k = keys();
        let undo = Undo {
            mv: Move::pass(),
            captured: 0,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            hash: self.hash,
            marks: self.marks,
        };
        if let Some(ep) = self.ep {
            self.hash ^= k.ep[(ep.0 % 8) as usize];
        }
        self.ep = None;
        self.halfmove += 1;
        if self.stm == Color::Black {
            self.fullmove += 1;
        }
        self.stm = !self.stm;
        self.hash ^= k.side;
        self.history.push(undo);
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn in_check(&self) -> bool {
        self.checkers() != 0
    }

    fn gives_check(&self, m: Move) -> Option<bool> {
        Some(self.move_gives_check(m))
    }

    fn is_tactical(&self, m: Move) -> bool {
        matches!(m.kind(), MoveKind::EnPassant | MoveKind::Promotion)
            || self.board[m.to().index()] != 0 && m.kind() != MoveKind::Castle
    }

    fn tactical_order(&self, m: Move) -> i32 {
        const V: [i32; 6] = [100, 320, 330, 500, 900, 2000];
        let victim = match m.kind() {
            MoveKind::EnPassant => 100,
            MoveKind::Castle => 0,
            _ => {
                let c = self.board[m.to().index()];
                if c == 0 {
                    0
                } else {
                    V[code_type(c) as usize]
                }
            }
        };
        let promo = m.piece().map(|p| V[p as usize] - 100).unwrap_or(0);
        let attacker = self.board[m.from().index()];
        let a = if attacker == 0 {
            0
        } else {
            V[code_type(attacker) as usize]
        };
        victim * 16 + promo * 16 - a / 10
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut list = MoveList::new();
        self.generate(&mut list);
        if list.is_empty() {
            Some(Outcome::no_moves(self.in_check(), self.stm))
        } else if self.halfmove >= 100 {
            Some(Outcome::draw("50-move rule"))
        } else if self.repetitions() >= 2 {
            Some(Outcome::draw("Draw by repetition"))
        } else if self.insufficient_material() {
            Some(Outcome::draw("Insufficient material"))
        } else {
            None
        }
    }

    fn is_search_draw(&self) -> bool {
        self.halfmove >= 100 || self.repetitions() >= 1 || self.insufficient_material()
    }

    fn move_text(&self, m: Move, dialect: Dialect) -> String {
        if m.kind() == MoveKind::Pass {
            return dialect.pass().to_string();
        }
        let mut s = Self::square_name(m.from(), dialect.rank_base);
        s.push_str(&Self::square_name(m.to(), dialect.rank_base));
        if let Some(p) = m.piece() {
            s.push(LETTERS[p as usize].to_ascii_lowercase());
        }
        s
    }

    fn parse_move(&self, text: &str, dialect: Dialect) -> Result<Move, crate::core::MoveError> {
        let mut list = MoveList::new();
        self.generate(&mut list);
        let lower = text.to_ascii_lowercase();
        let want = match lower.as_str() {
            "o-o" | "0-0" => Some(0),
            "o-o-o" | "0-0-0" => Some(1),
            _ => None,
        };
        for &m in &list {
            if let Some(side) = want {
                if m.kind() == MoveKind::Castle && ((m.to().0 > m.from().0) == (side == 0)) {
                    return Ok(m);
                }
                continue;
            }
            if self.move_text(m, dialect) == lower {
                return Ok(m);
            }
        }
        // Castling written as king-takes-rook (Chess960 style): accept it too.
        if lower.len() == 4 && lower.is_ascii() {
            if let (Some(f), Some(t)) = (
                Geometry::CHESS.parse_square_exact(&lower[0..2], dialect.rank_base),
                Geometry::CHESS.parse_square_exact(&lower[2..4], dialect.rank_base),
            ) {
                for &m in &list {
                    if m.kind() == MoveKind::Castle && m.from() == f {
                        let side = if m.to().0 > m.from().0 { 0 } else { 1 };
                        if self.castle_rook[cr(self.stm, side)] == t {
                            return Ok(m);
                        }
                    }
                }
            }
        }
        if want.is_some() || self.looks_like_move(text, dialect) {
            Err(crate::core::MoveError::Illegal(text.to_string()))
        } else {
            Err(crate::core::MoveError::Syntax(text.to_string()))
        }
    }

    fn looks_like_move(&self, text: &str, dialect: Dialect) -> bool {
        let g = Geometry::CHESS;
        let Some((_, n1)) = g.parse_square(text, dialect.rank_base) else {
            return false;
        };
        let Some((_, n2)) = g.parse_square(&text[n1..], dialect.rank_base) else {
            return false;
        };
        let rest = &text[n1 + n2..];
        rest.is_empty() || (rest.len() == 1 && "qrbnQRBN".contains(rest))
    }

    fn display(&self) -> String {
        let mut s = String::new();
        s.push_str("   +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8u8).rev() {
            s.push_str(&format!(" {} |", rank + 1));
            for file in 0..8u8 {
                let c = match self.piece_at(Square(rank * 8 + file)) {
                    None => ' ',
                    Some((Color::White, pt)) => LETTERS[pt as usize],
                    Some((Color::Black, pt)) => LETTERS[pt as usize].to_ascii_lowercase(),
                };
                s.push_str(&format!(" {c} |"));
            }
            s.push_str("\n   +---+---+---+---+---+---+---+---+\n");
        }
        s.push_str("     a   b   c   d   e   f   g   h\n\n");
        s.push_str(&format!(
            "Variant: {}\nFen: {}\nKey: {:016X}\n",
            Self::NAME,
            self.fen(),
            self.hash
        ));
        let checkers: Vec<String> = self
            .checkers()
            .squares()
            .map(|sq| Self::square_name(sq, RankBase::ONE))
            .collect();
        s.push_str(&format!("Checkers: {}\n", checkers.join(" ")));
        s
    }

    fn describe(&self) -> PositionView {
        let mut squares = self.square_views(0);
        squares.sort_by_key(|s| (s.rank, s.file));
        PositionView {
            width: 8,
            height: 8,
            side_to_move: self.side_to_move(),
            squares,
            held: Vec::new(),
            boards: Vec::new(),
            notes: Vec::new(),
        }
    }

    fn game_ply(&self) -> usize {
        self.history.len()
    }
}

#[cfg(test)]
mod tests;
