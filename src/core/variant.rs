//! The one trait every variant implements, and the types at its doors.
//!
//! The rules room knows nothing of search or protocols: a protocol asks for move text in its
//! [`Dialect`], the searcher asks for legal moves, make/unmake, hashes and outcomes.

use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use thiserror::Error;

use super::color::Color;
pub use super::fen_error::FenError;
use super::geometry::{Geometry, RankBase};
use super::moves::{Move, MoveList};

/// Which protocol a move is written for.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Protocol {
    Xboard,
    Uci,
}

/// How moves are spelled for one protocol: pass spelling, rank numbering.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Dialect {
    pub protocol: Protocol,
    pub rank_base: RankBase,
}

impl Dialect {
    pub const UCI: Dialect = Dialect {
        protocol: Protocol::Uci,
        rank_base: RankBase::ONE,
    };
    pub const XBOARD: Dialect = Dialect {
        protocol: Protocol::Xboard,
        rank_base: RankBase::ONE,
    };

    /// The spelling of a pass (IR-5): `@@@@` in XBoard, `0000` in UCI.
    pub fn pass(self) -> &'static str {
        match self.protocol {
            Protocol::Xboard => "@@@@",
            Protocol::Uci => "0000",
        }
    }
}

/// How a game ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    Win { winner: Color, reason: String },
    Draw { reason: String },
}

impl Outcome {
    /// The end when the side to move has no legal move, in games with a royal piece:
    /// checkmate if it is in check, stalemate (a draw) if not.
    pub fn no_moves(in_check: bool, side_to_move: Color) -> Outcome {
        if in_check {
            let winner = !side_to_move;
            Outcome::Win {
                winner,
                reason: format!("{} mates", winner.name()),
            }
        } else {
            Outcome::draw("Stalemate")
        }
    }

    pub fn draw(reason: &str) -> Outcome {
        Outcome::Draw {
            reason: reason.to_string(),
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn score(&self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::White,
                ..
            } => "1-0",
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }
    pub fn reason(&self) -> &str {
        match self {
            Outcome::Win { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }
}

/// Why a move text was refused.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum MoveError {
    #[error("cannot read move {0:?}")]
    Syntax(String),
    #[error("illegal move {0:?}")]
    Illegal(String),
}

/// A game variant's rules over one position.
///
/// Make/unmake keep their own undo stack (and the history of position keys that repetition
/// needs), so callers only ever say `make_move(m)` / `unmake_move()`.
pub trait Variant: Clone + Send + Sync + 'static {
    /// The name in both protocols (`chess`, `recursion`, `microorganism`, `immune`).
    const NAME: &'static str;
    /// The side that moves first in a game, whose move opens a numbered pair (`1. x y`).
    const FIRST_MOVER: Color = Color::White;
    /// Whether the variant has a notation of its own besides coordinates (its inventor's).
    const OWN_NOTATION: bool = false;
    /// Whether the variant has castling, and so a castling field in its standard FEN.
    const CASTLING: bool = false;

    /// The castling rights as `KQkq` bits (K = bit 0, Q = 1, k = 2, q = 3); for a variant of
    /// several boards, the rights any of its boards has. None without castling.
    fn castling_rights(&self) -> u8 {
        0
    }

    /// A legal move in the variant's own notation, if it has one.
    fn own_text(&self, _m: Move) -> Option<String> {
        None
    }
    /// The legal moves a text in the variant's own notation names (`None`: the text is not in
    /// that notation, or the variant has none).
    fn own_matches(&self, _text: &str) -> Option<Vec<Move>> {
        None
    }

    /// The start position.
    fn startpos() -> Self;
    /// A position from FEN (validated; typed errors).
    fn from_fen(fen: &str) -> Result<Self, FenError>;
    /// The FEN of the position, every bit of state included.
    fn fen(&self) -> String;
    fn geometry(&self) -> Geometry;
    fn side_to_move(&self) -> Color;

    /// All legal moves.
    fn legal_moves(&self, out: &mut MoveList);
    fn make_move(&mut self, m: Move);
    /// Undoes the last [`Variant::make_move`] (or null move).
    fn unmake_move(&mut self);

    /// Whether a null move is sound here (no zugzwang danger, not in check). Variants where a
    /// pass changes the game (or zugzwang is common) answer `false`.
    fn null_move_ok(&self) -> bool;
    /// Passes the turn for search purposes (only when [`Variant::null_move_ok`]).
    fn make_null_move(&mut self);

    /// The Zobrist key of the whole state, hidden state included.
    fn hash(&self) -> u64;
    /// Whether the side to move's royal piece is attacked.
    fn in_check(&self) -> bool;
    /// Whether the legal move `m` gives check (the opponent's [`Variant::in_check`] once it is
    /// made), if the variant can tell without making it; `None`: make it to see. Search skips
    /// late quiet moves that answer `Some(false)` without making them.
    fn gives_check(&self, _m: Move) -> Option<bool> {
        None
    }
    /// Captures and promotions: the moves quiescence search looks at.
    fn is_tactical(&self, m: Move) -> bool;
    /// The legal moves that are [`Variant::is_tactical`], in the order of
    /// [`Variant::legal_moves`] (quiescence out of check asks for these alone). A variant
    /// whose generator can leave the quiet moves out overrides this; the default filters.
    fn tactical_moves(&self, out: &mut MoveList) {
        let start = out.len();
        self.legal_moves(out);
        let mut i = 0;
        out.retain(|m| {
            i += 1;
            i <= start || self.is_tactical(*m)
        });
    }
    /// An ordering score for tactical moves (most valuable victim, least valuable attacker).
    fn tactical_order(&self, m: Move) -> i32;

    /// The game's end by its rules (mate, stalemate, repetition, move rule, material), if ended.
    fn outcome(&self) -> Option<Outcome>;
    /// A draw the searcher may score at once: any repetition, the move rule, dead material.
    fn is_search_draw(&self) -> bool;

    /// The text of a legal move in a protocol dialect.
    fn move_text(&self, m: Move, dialect: Dialect) -> String;
    /// Reads a move text and returns the legal move it names.
    fn parse_move(&self, text: &str, dialect: Dialect) -> Result<Move, MoveError> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        for &m in &list {
            if self.move_text(m, dialect) == text {
                return Ok(m);
            }
        }
        if self.looks_like_move(text, dialect) {
            Err(MoveError::Illegal(text.to_string()))
        } else {
            Err(MoveError::Syntax(text.to_string()))
        }
    }
    /// Whether a text has the form of a move of this variant (for the error message).
    fn looks_like_move(&self, text: &str, dialect: Dialect) -> bool;

    /// A board picture with all state, for the `d` command.
    fn display(&self) -> String;
    /// The position as structured data, hidden state included (see [`super::view`]): what a
    /// graphical board shows.
    fn describe(&self) -> super::view::PositionView;

    /// Plies made since the position was set up (the depth of the undo stack).
    fn game_ply(&self) -> usize;
}

/// The deepest perft a protocol or the command line asks for. Far beyond what can be counted
/// (perft 15 of chess is 2·10^21 leaves), it bounds the recursion: each ply holds a move list
/// on the stack, and `go perft 100000` overflowed the perft thread's stack and aborted.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Counts leaf nodes to `depth` (at most [`MAX_PERFT_DEPTH`]), counting the last ply without
/// making its moves.
pub fn perft<V: Variant>(pos: &mut V, depth: u32) -> u64 {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if depth <= 1 {
        return if depth == 0 { 1 } else { list.len() as u64 };
    }
    let mut n = 0;
    for &m in &list {
        pos.make_move(m);
        n += perft(pos, depth - 1);
        pos.unmake_move();
    }
    n
}

/// Counts the tactical moves at ply `depth` (every node's for `all_plies`), asserting at each
/// node that [`Variant::tactical_moves`] gives exactly the legal moves that are
/// [`Variant::is_tactical`], in [`Variant::legal_moves`]'s order (the variants' tests).
#[cfg(test)]
pub fn tactical_walk<V: Variant>(pos: &mut V, depth: u32, all_plies: bool) -> u64 {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut tactical = MoveList::new();
    pos.tactical_moves(&mut tactical);
    let filtered: Vec<Move> = list
        .iter()
        .copied()
        .filter(|&m| pos.is_tactical(m))
        .collect();
    assert_eq!(tactical.to_vec(), filtered, "{}", pos.fen());
    let mut n = if all_plies || depth <= 1 {
        tactical.len() as u64
    } else {
        0
    };
    if depth > 1 {
        for &m in &list {
            pos.make_move(m);
            n += tactical_walk(pos, depth - 1, all_plies);
            pos.unmake_move();
        }
    }
    n
}

/// [`perft`] that gives up (`None`) soon after `stop` is set: it is read at every node.
pub fn perft_until<V: Variant>(pos: &mut V, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(AtomicOrdering::Relaxed) {
        return None;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if depth <= 1 {
        return Some(if depth == 0 { 1 } else { list.len() as u64 });
    }
    let mut n = 0;
    for &m in &list {
        pos.make_move(m);
        let sub = perft_until(pos, depth - 1, stop);
        pos.unmake_move();
        n += sub?;
    }
    Some(n)
}

/// Perft of each root move: `(move, count)` in generation order.
pub fn perft_divide<V: Variant>(pos: &mut V, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut out = Vec::with_capacity(list.len());
    for &m in &list {
        pos.make_move(m);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.unmake_move();
        out.push((m, n));
    }
    out
}
