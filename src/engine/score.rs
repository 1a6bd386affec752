//! Scores: the search's bounds and mate scores, and how an internal score reads as a protocol
//! score. Below the search and the transposition table, which both use them.

use super::Score;

/// Above every score the search can return.
pub const INF: i32 = 32_000;
/// Mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// The deepest ply a search reaches.
pub const MAX_PLY: usize = 128;
/// Scores at least this far from zero are mates.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;

/// An internal score as a protocol score.
pub fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        Score::Mate(-(MATE + s) / 2)
    } else {
        Score::Cp(s)
    }
}
