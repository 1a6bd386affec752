//! Static evaluation: one implementation per variant, reading positions through their public
//! accessors.

use crate::core::Variant;

/// A variant the engine can evaluate. Scores are centipawns from the side to move's view.
pub trait Evaluate: Variant {
    fn evaluate(&self) -> i32;
}

// TEMPORARY until the search branch lands: a trivial evaluation so the protocol room compiles.
impl Evaluate for crate::variants::chess::Chess {
    fn evaluate(&self) -> i32 {
        0
    }
}
