//! International chess on 8×8 (`chess`; XBoard `normal`), also the sub-game of Infinite
//! Recursion Chess (IR-3). Castling is generalised so a king on the d-file castles too (IR-2):
//! the king moves two squares towards its rook and the rook lands on the square it crossed.

mod pieces;
mod tables;

pub use pieces::{chess_pieces, BISHOP, KING, KNIGHT, LETTERS, PAWN, QUEEN, ROOK};
use pieces::{has, type_with};
pub use tables::tables;

use crate::core::zobrist::{self, DOMAIN_CASTLE, DOMAIN_EP, DOMAIN_PIECE, DOMAIN_SIDE};
use crate::core::Powers;
use crate::core::{
    Badge, BitSet, Color, Dialect, FenError, Geometry, Move, MoveKind, MoveList, Outcome,
    PieceView, PositionView, RankBase, Square, SquareView, Variant,
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
    mega: [Option<Square>; 2],
}

/// The state of a mega-knight (IR-4): what its own sub-game's result allows it.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum MegaState {
    /// Its sub-game is still going: moves without capturing, cannot be captured.
    Neutral,
    /// Its owner won its sub-game: a normal knight.
    Armed,
    /// Its sub-game was drawn: moves without capturing, can be captured.
    Disarmed,
    /// Its owner lost its sub-game: cannot move, can be captured.
    Frozen,
}

impl MegaState {
    pub const ALL: [MegaState; 4] = [
        MegaState::Neutral,
        MegaState::Armed,
        MegaState::Disarmed,
        MegaState::Frozen,
    ];
    /// The FEN letter: `n`, `a`, `d`, `f`.
    pub fn letter(self) -> char {
        match self {
            MegaState::Neutral => 'n',
            MegaState::Armed => 'a',
            MegaState::Disarmed => 'd',
            MegaState::Frozen => 'f',
        }
    }
    pub fn from_letter(c: char) -> Option<MegaState> {
        MegaState::ALL.into_iter().find(|s| s.letter() == c)
    }
    pub fn name(self) -> &'static str {
        match self {
            MegaState::Neutral => "Neutral",
            MegaState::Armed => "Armed",
            MegaState::Disarmed => "Disarmed",
            MegaState::Frozen => "Frozen",
        }
    }
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
    /// Where each colour's mega-knight stands (Infinite Recursion only; `None` in chess).
    mega: [Option<Square>; 2],
    mega_state: [MegaState; 2],
}

fn piece_key(color: Color, pt: u8, sq: Square) -> u64 {
    zobrist::key(DOMAIN_PIECE, color as u64, pt as u64, sq.0 as u64)
}

fn mega_key(color: Color, sq: Square, state: MegaState) -> u64 {
    zobrist::key(
        zobrist::DOMAIN_STATE,
        color as u64,
        sq.0 as u64,
        state as u64 + 100,
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
            mega: [None, None],
            mega_state: [MegaState::Neutral; 2],
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
    /// The castling rights as `KQkq` bits (K = bit 0, Q = 1, k = 2, q = 3).
    pub fn castling_rights(&self) -> u8 {
        self.castling
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
    /// `f + file_offset` of the whole (Infinite Recursion puts board B at offset 8). A
    /// mega-knight (IR-2) is shown as `M` with its state (IR-4).
    pub fn square_views(&self, file_offset: u8) -> Vec<SquareView> {
        let names: Vec<&'static str> = chess_pieces().iter().map(|d| d.name).collect();
        let mut out = Vec::new();
        for i in 0..64u8 {
            let sq = Square(i);
            let Some((color, pt)) = self.piece_at(sq) else {
                continue;
            };
            let (file, rank) = (i % 8 + file_offset, i / 8);
            let mega = self.mega_square(color) == Some(sq);
            let (letter, name) = if mega {
                ('M', "Mega-knight")
            } else {
                (LETTERS[pt as usize], names[pt as usize])
            };
            let letter = if color == Color::White {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            let mut badges = Vec::new();
            if mega {
                badges.push(Badge::Mega {
                    state: self.mega_state(color).name(),
                });
            }
            out.push(SquareView {
                square: format!("{}{}", (b'a' + file) as char, rank + 1),
                file,
                rank,
                piece: PieceView {
                    letter,
                    color,
                    name,
                },
                badges,
            });
        }
        out
    }

    /// Where `color`'s mega-knight stands, if it has one on this board (IR-2).
    pub fn mega_square(&self, color: Color) -> Option<Square> {
        self.mega[color.index()]
    }
    pub fn mega_state(&self, color: Color) -> MegaState {
        self.mega_state[color.index()]
    }
    /// Marks the knight on `sq` as `color`'s mega-knight (or removes the mark with `None`).
    pub fn set_mega_square(&mut self, color: Color, sq: Option<Square>) -> Result<(), FenError> {
        if let Some(s) = sq {
            if self.piece_at(s) != Some((color, KNIGHT)) {
                return Err(FenError::Impossible(format!(
                    "no {} knight to be a mega-knight",
                    color.name()
                )));
            }
        }
        self.toggle_mega_key(color);
        self.mega[color.index()] = sq;
        self.toggle_mega_key(color);
        Ok(())
    }
    /// Sets the state of `color`'s mega-knight (IR-4, IR-6).
    pub fn set_mega_state(&mut self, color: Color, state: MegaState) {
        self.toggle_mega_key(color);
        self.mega_state[color.index()] = state;
        self.toggle_mega_key(color);
    }
    #[inline(always)]
    fn toggle_mega_key(&mut self, color: Color) {
        if let Some(sq) = self.mega[color.index()] {
            self.hash ^= mega_key(color, sq, self.mega_state[color.index()]);
        }
    }
    /// Squares of pieces that cannot be captured: a Neutral mega-knight (IR-4).
    #[inline(always)]
    fn uncapturable(&self, color: Color) -> u64 {
        match self.mega[color.index()] {
            Some(sq) if self.mega_state[color.index()] == MegaState::Neutral => 1u64 << sq.0,
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

    // ----- attacks -----

    /// Pieces of either colour attacking `sq` with the given occupancy.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occ: u64) -> u64 {
        let t = tables();
        let i = sq.index();
        (t.pawn_attacks[1][i] & self.pieces(Color::White, PAWN))
            | (t.pawn_attacks[0][i] & self.pieces(Color::Black, PAWN))
            | (t.knight[i] & self.by_type[KNIGHT as usize])
            | (t.king[i] & self.by_type[KING as usize])
            | (t.rook_attacks(sq, occ)
                & (self.by_type[ROOK as usize] | self.by_type[QUEEN as usize]))
            | (t.bishop_attacks(sq, occ)
                & (self.by_type[BISHOP as usize] | self.by_type[QUEEN as usize]))
    }

    /// Whether `by` attacks `sq` with the given occupancy.
    #[inline(always)]
    pub fn attacked_by(&self, sq: Square, by: Color, occ: u64) -> bool {
        let t = tables();
        let i = sq.index();
        let them = self.by_color[by.index()];
        if t.pawn_attacks[(!by).index()][i] & self.by_type[PAWN as usize] & them != 0 {
            return true;
        }
        if t.knight[i] & self.by_type[KNIGHT as usize] & them != 0 {
            return true;
        }
        if t.king[i] & self.by_type[KING as usize] & them != 0 {
            return true;
        }
        let rq = (self.by_type[ROOK as usize] | self.by_type[QUEEN as usize]) & them;
        if rq != 0 && t.rook_attacks(sq, occ) & rq != 0 {
            return true;
        }
        let bq = (self.by_type[BISHOP as usize] | self.by_type[QUEEN as usize]) & them;
        bq != 0 && t.bishop_attacks(sq, occ) & bq != 0
    }

    /// The enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> u64 {
        let k = self.king_square(self.stm);
        self.attackers_to(k, self.occupied()) & self.by_color[(!self.stm).index()]
    }

    /// Own pieces that are the only piece between the own king and an enemy slider.
    fn pinned(&self) -> u64 {
        let t = tables();
        let us = self.stm;
        let ksq = self.king_square(us);
        let them = self.by_color[(!us).index()];
        let occ = self.occupied();
        let mut snipers = ((t.rook_empty[ksq.index()]
            & (self.by_type[ROOK as usize] | self.by_type[QUEEN as usize]))
            | (t.bishop_empty[ksq.index()]
                & (self.by_type[BISHOP as usize] | self.by_type[QUEEN as usize])))
            & them;
        let mut pinned = 0;
        while snipers != 0 {
            let s = snipers.trailing_zeros() as usize;
            snipers &= snipers - 1;
            let b = t.between[ksq.index()][s] & occ;
            if b != 0 && b & (b - 1) == 0 {
                pinned |= b & self.by_color[us.index()];
            }
        }
        pinned
    }

    // ----- move generation -----

    #[inline(always)]
    fn push_targets(list: &mut MoveList, from: Square, mut targets: u64) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            list.push(Move::new(from, Square(to), MoveKind::Normal));
        }
    }

    #[inline(always)]
    fn push_pawn_moves(list: &mut MoveList, from: Square, to: Square, promo: bool) {
        if promo {
            for p in PROMO_PIECES {
                list.push(Move::with_piece(from, to, MoveKind::Promotion, p));
            }
        } else {
            list.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    fn generate(&self, list: &mut MoveList) {
        let t = tables();
        let us = self.stm;
        let them = !us;
        let own = self.by_color[us.index()];
        let enemy = self.by_color[them.index()];
        let occ = own | enemy;
        let ksq = self.king_square(us);
        let checkers = self.attackers_to(ksq, occ) & enemy;

        // King moves: never onto an attacked square (the king itself removed from the board).
        let occ_no_king = occ ^ (1u64 << ksq.0);
        let immune = self.uncapturable(them);
        let mut kt = t.king[ksq.index()] & !own & !immune;
        while kt != 0 {
            let to = Square(kt.trailing_zeros() as u8);
            kt &= kt - 1;
            if !self.attacked_by(to, them, occ_no_king) {
                list.push(Move::new(ksq, to, MoveKind::Normal));
            }
        }
        if checkers.count_ones() > 1 {
            return; // double check: only the king moves
        }
        let target = if checkers != 0 {
            let c = checkers.trailing_zeros() as usize;
            t.between[ksq.index()][c] | checkers
        } else {
            !own
        } & !immune;
        let pinned = self.pinned();

        // Knights (a pinned knight never moves).
        let mut kn = self.pieces(us, KNIGHT) & !pinned;
        while kn != 0 {
            let from = Square(kn.trailing_zeros() as u8);
            kn &= kn - 1;
            let mut tg = t.knight[from.index()] & target;
            if self.mega[us.index()] == Some(from) {
                match self.mega_state[us.index()] {
                    MegaState::Armed => {}
                    MegaState::Neutral | MegaState::Disarmed => tg &= !enemy,
                    MegaState::Frozen => tg = 0,
                }
            }
            Self::push_targets(list, from, tg);
        }
        // Sliders.
        let mut diag = (self.pieces(us, BISHOP) | self.pieces(us, QUEEN)) & own;
        while diag != 0 {
            let from = Square(diag.trailing_zeros() as u8);
            diag &= diag - 1;
            let mut tg = t.bishop_attacks(from, occ) & target;
            if pinned & (1u64 << from.0) != 0 {
                tg &= t.line[ksq.index()][from.index()];
            }
            Self::push_targets(list, from, tg);
        }
        let mut orth = (self.pieces(us, ROOK) | self.pieces(us, QUEEN)) & own;
        while orth != 0 {
            let from = Square(orth.trailing_zeros() as u8);
            orth &= orth - 1;
            let mut tg = t.rook_attacks(from, occ) & target;
            if pinned & (1u64 << from.0) != 0 {
                tg &= t.line[ksq.index()][from.index()];
            }
            Self::push_targets(list, from, tg);
        }

        // Pawns.
        let (up, start_rank, promo_rank): (i32, u8, u8) = match us {
            Color::White => (8, 1, 7),
            Color::Black => (-8, 6, 0),
        };
        let mut pawns = self.pieces(us, PAWN);
        while pawns != 0 {
            let from = Square(pawns.trailing_zeros() as u8);
            pawns &= pawns - 1;
            let pin_line = if pinned & (1u64 << from.0) != 0 {
                t.line[ksq.index()][from.index()]
            } else {
                !0u64
            };
            let one = Square((from.0 as i32 + up) as u8);
            if occ & (1u64 << one.0) == 0 {
                let promo = PAWN_PROMOTES && one.0 / 8 == promo_rank;
                if target & pin_line & (1u64 << one.0) != 0 {
                    Self::push_pawn_moves(list, from, one, promo);
                }
                if from.0 / 8 == start_rank {
                    let two = Square((one.0 as i32 + up) as u8);
                    if occ & (1u64 << two.0) == 0 && target & pin_line & (1u64 << two.0) != 0 {
                        list.push(Move::new(from, two, MoveKind::PawnPush));
                    }
                }
            }
            let mut caps = t.pawn_attacks[us.index()][from.index()] & enemy & target & pin_line;
            while caps != 0 {
                let to = Square(caps.trailing_zeros() as u8);
                caps &= caps - 1;
                Self::push_pawn_moves(list, from, to, PAWN_PROMOTES && to.0 / 8 == promo_rank);
            }
            if let Some(ep) = self.ep.filter(|_| PAWN_EN_PASSANT) {
                if t.pawn_attacks[us.index()][from.index()] & (1u64 << ep.0) != 0 {
                    let victim = Square((ep.0 as i32 - up) as u8);
                    // Full test: the capture removes two pawns from their squares at once, which
                    // may uncover a slider along the rank; it may also capture a checker.
                    let occ2 = (occ ^ (1u64 << from.0) ^ (1u64 << victim.0)) | (1u64 << ep.0);
                    let enemy_after = enemy & !(1u64 << victim.0);
                    let safe = self.attackers_to(ksq, occ2) & enemy_after == 0;
                    if safe {
                        list.push(Move::new(from, ep, MoveKind::EnPassant));
                    }
                }
            }
        }

        // Castling.
        if CASTLING && checkers == 0 {
            for side in 0..2 {
                if self.castling & (1 << cr(us, side)) == 0 {
                    continue;
                }
                let rsq = self.castle_rook[cr(us, side)];
                if let Some((kto, rto)) = castle_squares(ksq, rsq) {
                    let must_be_empty =
                        (t.between[ksq.index()][rsq.index()] | (1u64 << kto.0) | (1u64 << rto.0))
                            & !(1u64 << ksq.0)
                            & !(1u64 << rsq.0);
                    if occ & must_be_empty != 0 {
                        continue;
                    }
                    let occ_after = occ ^ (1u64 << rsq.0);
                    let mut path = t.between[ksq.index()][kto.index()] | (1u64 << kto.0);
                    let mut ok = true;
                    while path != 0 {
                        let s = Square(path.trailing_zeros() as u8);
                        path &= path - 1;
                        if self.attacked_by(s, them, occ_after) {
                            ok = false;
                            break;
                        }
                    }
                    if ok {
                        list.push(Move::new(ksq, kto, MoveKind::Castle));
                    }
                }
            }
        }
    }

    // ----- make / unmake -----

    fn do_move(&mut self, m: Move) {
        let k = keys();
        let us = self.stm;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let mut undo = Undo {
            mv: m,
            captured: 0,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            hash: self.hash,
            mega: self.mega,
        };
        if let Some(ep) = self.ep {
            self.hash ^= k.ep[(ep.0 % 8) as usize];
        }
        self.ep = None;
        self.halfmove += 1;
        if self.mega != [None, None] {
            self.track_mega(us, from, to);
        }
        match m.kind() {
            MoveKind::Castle => {
                let side = if to.0 > from.0 { 0 } else { 1 };
                let rsq = self.castle_rook[cr(us, side)];
                let (kto, rto) = castle_squares(from, rsq).expect("castle squares");
                self.take(from);
                self.take(rsq);
                self.put(us, CASTLER, kto);
                self.put(us, PARTNER, rto);
            }
            MoveKind::EnPassant => {
                let victim = Square(if us == Color::White {
                    to.0 - 8
                } else {
                    to.0 + 8
                });
                undo.captured = self.take(victim);
                self.take(from);
                self.put(us, PAWN, to);
                self.halfmove = 0;
            }
            kind => {
                let mover = self.take(from);
                undo.captured = self.take(to);
                let pt = if kind == MoveKind::Promotion {
                    m.piece().unwrap_or(QUEEN)
                } else {
                    code_type(mover)
                };
                self.put(us, pt, to);
                if undo.captured != 0 || code_type(mover) == PAWN {
                    self.halfmove = 0;
                }
                if kind == MoveKind::PawnPush {
                    let ep = Square(((from.0 as u16 + to.0 as u16) / 2) as u8);
                    // Only record a target an enemy pawn could actually capture on.
                    if tables().pawn_attacks[us.index()][ep.index()] & self.pieces(them, PAWN) != 0
                    {
                        self.ep = Some(ep);
                        self.hash ^= k.ep[(ep.0 % 8) as usize];
                    }
                }
            }
        }
        let new_castling =
            self.castling & self.castle_keep[from.index()] & self.castle_keep[to.index()];
        if new_castling != self.castling {
            self.hash ^= k.castle[self.castling as usize] ^ k.castle[new_castling as usize];
            self.castling = new_castling;
        }
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.stm = them;
        self.hash ^= k.side;
        self.history.push(undo);
    }

    /// Moves the mega-knight marks along with a move (before the board changes): the mover's
    /// mark follows it, a captured mega-knight loses its mark.
    fn track_mega(&mut self, us: Color, from: Square, to: Square) {
        let them = !us;
        if self.mega[them.index()] == Some(to) {
            self.toggle_mega_key(them);
            self.mega[them.index()] = None;
        }
        if self.mega[us.index()] == Some(from) {
            self.toggle_mega_key(us);
            self.mega[us.index()] = Some(to);
            self.toggle_mega_key(us);
        }
    }

    fn undo_move(&mut self) {
        let Some(u) = self.history.pop() else {
            return;
        };
        self.stm = !self.stm;
        let us = self.stm;
        if us == Color::Black {
            self.fullmove -= 1;
        }
        let m = u.mv;
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Pass => {}
            MoveKind::Castle => {
                let side = if to.0 > from.0 { 0 } else { 1 };
                let rsq = self.castle_rook[cr(us, side)];
                let (kto, rto) = castle_squares(from, rsq).expect("castle squares");
                self.take(kto);
                self.take(rto);
                self.put(us, CASTLER, from);
                self.put(us, PARTNER, rsq);
            }
            MoveKind::EnPassant => {
                let victim = Square(if us == Color::White {
                    to.0 - 8
                } else {
                    to.0 + 8
                });
                self.take(to);
                self.put(us, PAWN, from);
                self.put(!us, PAWN, victim);
            }
            kind => {
                let moved = self.take(to);
                let pt = if kind == MoveKind::Promotion {
                    PAWN
                } else {
                    code_type(moved)
                };
                self.put(us, pt, from);
                if u.captured != 0 {
                    self.put(code_color(u.captured), code_type(u.captured), to);
                }
            }
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
        self.mega = u.mega;
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
            if let Some(sq) = self.mega[c.index()] {
                h ^= mega_key(c, sq, self.mega_state[c.index()]);
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

    fn square_name(sq: Square, base: RankBase) -> String {
        Geometry::CHESS.name(sq, base)
    }

    /// Sets up castling bookkeeping: which rook each right uses and which squares void which
    /// rights.
    fn init_castling(&mut self) {
        self.castle_keep = [0xF; 64];
        for color in Color::BOTH {
            for side in 0..2 {
                let i = cr(color, side);
                if self.castling & (1 << i) != 0 {
                    let ksq = self.king_square(color);
                    self.castle_keep[ksq.index()] &=
                        !((1u8 << cr(color, 0)) | (1u8 << cr(color, 1)));
                    self.castle_keep[self.castle_rook[i].index()] &= !(1u8 << i);
                }
            }
        }
    }

    /// The castling rook square for a right given the king's square, following X-FEN: the
    /// outermost rook on that side.
    fn find_castle_rook(&self, color: Color, side: usize) -> Option<Square> {
        let ksq = self.pieces(color, KING);
        if ksq.count_ones() != 1 {
            return None;
        }
        let ksq = Square(ksq.trailing_zeros() as u8);
        let rank = ksq.0 / 8;
        let home = if color == Color::White { 0 } else { 7 };
        if rank != home {
            return None;
        }
        let files: Vec<u8> = if side == 0 {
            ((ksq.0 % 8 + 1)..8).rev().collect()
        } else {
            (0..ksq.0 % 8).collect()
        };
        files
            .into_iter()
            .map(|f| Square(rank * 8 + f))
            .find(|&s| self.piece_at(s) == Some((color, ROOK)))
    }
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

    fn startpos() -> Chess {
        Chess::from_fen(START_FEN).expect("start FEN")
    }

    fn from_fen(fen: &str) -> Result<Chess, FenError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let mut pos = Chess::empty();
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::Board(format!(
                "{} ranks, expected 8",
                ranks.len()
            )));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            let mut digits = 0u32;
            for ch in rank_text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    digits = digits.saturating_mul(10).saturating_add(d);
                    continue;
                }
                file = file.saturating_add(digits as u8);
                digits = 0;
                let pt = LETTERS
                    .iter()
                    .position(|&l| l == ch.to_ascii_uppercase())
                    .ok_or_else(|| FenError::Board(format!("unknown piece {ch:?}")))?
                    as u8;
                if file >= 8 {
                    return Err(FenError::Board(format!("rank {} too long", rank + 1)));
                }
                let color = if ch.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                pos.put(color, pt, Square(rank * 8 + file));
                file += 1;
            }
            file = file.saturating_add(digits.min(255) as u8);
            if file != 8 || digits > 8 {
                return Err(FenError::Board(format!(
                    "rank {} has {} squares, expected 8",
                    rank + 1,
                    file
                )));
            }
        }
        let side = fields.next().unwrap_or("w");
        pos.stm = match side {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Side(other.to_string())),
        };
        for color in Color::BOTH {
            let n = pos.pieces(color, KING).count_ones();
            if n != 1 {
                return Err(FenError::Impossible(format!(
                    "{} has {} kings",
                    color.name(),
                    n
                )));
            }
        }
        if pos.by_type[PAWN as usize] & 0xFF00_0000_0000_00FF != 0 {
            return Err(FenError::Impossible(
                "pawn on the first or last rank".into(),
            ));
        }
        for color in Color::BOTH {
            if pos.pieces(color, PAWN).count_ones() > 8 || pos.color_set(color).count_ones() > 16 {
                return Err(FenError::Impossible(format!(
                    "too many {} pieces",
                    color.name()
                )));
            }
        }
        // The side not to move must not be in check.
        let them = !pos.stm;
        if pos.attacked_by(pos.king_square(them), pos.stm, pos.occupied()) {
            return Err(FenError::Impossible(format!(
                "{} is in check but it is {}'s move",
                them.name(),
                pos.stm.name()
            )));
        }
        let castling = fields.next().unwrap_or("-");
        if castling != "-" {
            for ch in castling.chars() {
                let (color, side) = match ch {
                    'K' => (Color::White, 0),
                    'Q' => (Color::White, 1),
                    'k' => (Color::Black, 0),
                    'q' => (Color::Black, 1),
                    _ => return Err(FenError::Castling(castling.to_string())),
                };
                let rsq = pos
                    .find_castle_rook(color, side)
                    .ok_or_else(|| FenError::Castling(castling.to_string()))?;
                let ksq = pos.king_square(color);
                if castle_squares(ksq, rsq).is_none() {
                    return Err(FenError::Castling(castling.to_string()));
                }
                pos.castling |= 1 << cr(color, side);
                pos.castle_rook[cr(color, side)] = rsq;
            }
        }
        pos.init_castling();
        pos.hash ^= keys().castle[pos.castling as usize];
        let ep = fields.next().unwrap_or("-");
        if ep != "-" {
            let sq = Geometry::CHESS
                .parse_square_exact(ep, RankBase::ONE)
                .ok_or_else(|| FenError::EnPassant(ep.to_string()))?;
            let (ep_rank, victim, start) = match pos.stm {
                Color::White => (5, sq.0.wrapping_sub(8), sq.0 + 8),
                Color::Black => (2, sq.0 + 8, sq.0.wrapping_sub(8)),
            };
            if sq.0 / 8 != ep_rank
                || pos.piece_at(Square(victim)) != Some((them, PAWN))
                || pos.piece_at(sq).is_some()
                || pos.piece_at(Square(start)).is_some()
            {
                return Err(FenError::EnPassant(ep.to_string()));
            }
            if tables().pawn_attacks[them.index()][sq.index()] & pos.pieces(pos.stm, PAWN) != 0 {
                pos.ep = Some(sq);
                pos.hash ^= keys().ep[(sq.0 % 8) as usize];
            }
        }
        let hm = fields.next().unwrap_or("0");
        pos.halfmove = hm
            .parse::<u16>()
            .ok()
            .filter(|&h| h <= 10_000)
            .ok_or_else(|| FenError::Counter(hm.to_string()))?;
        let fm = fields.next().unwrap_or("1");
        pos.fullmove = fm
            .parse::<u16>()
            .ok()
            .filter(|f| (1..=10_000).contains(f))
            .ok_or_else(|| FenError::Counter(fm.to_string()))?;
        if let Some(extra) = fields.next() {
            return Err(FenError::Other(format!("unexpected {extra:?}")));
        }
        if pos.stm == Color::Black {
            pos.hash ^= keys().side;
        }
        if pos.checkers().count_ones() > 2 {
            return Err(FenError::Impossible("more than two checkers".into()));
        }
        Ok(pos)
    }

    fn fen(&self) -> String {
        let mut s = crate::core::fen::write_placement(8, 8, |file, rank| {
            self.piece_at(Square(rank * 8 + file)).map(|(c, pt)| {
                let l = LETTERS[pt as usize];
                if c == Color::White {
                    l
                } else {
                    l.to_ascii_lowercase()
                }
            })
        });
        s.push(' ');
        s.push(self.stm.fen_char());
        s.push(' ');
        if self.castling == 0 {
            s.push('-');
        } else {
            for (i, l) in ['K', 'Q', 'k', 'q'].iter().enumerate() {
                if self.castling & (1 << i) != 0 {
                    s.push(*l);
                }
            }
        }
        s.push(' ');
        match self.ep {
            Some(ep) => s.push_str(&Self::square_name(ep, RankBase::ONE)),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
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
            mega: self.mega,
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
