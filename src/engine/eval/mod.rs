//! Static evaluation: one implementation per variant, reading positions through their public
//! accessors.

pub mod chess;
pub mod immune;
pub mod micro;
pub mod recursion;

use crate::core::{Move, Variant};

/// A variant the engine can evaluate. Scores are centipawns from the side to move's view.
pub trait Evaluate: Variant {
    fn evaluate(&self) -> i32;

    /// Static exchange evaluation: whether `m` (usually a capture) wins at least `threshold`
    /// centipawns after the best sequence of recaptures on its square. Variants without an
    /// exchange evaluator answer `true` ("not known to lose"), which only costs some pruning.
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let _ = (m, threshold);
        true
    }
}
