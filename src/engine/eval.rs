//! Static evaluation: one implementation per variant, reading positions through their public
//! accessors.

use crate::core::Variant;

/// A variant the engine can evaluate. Scores are centipawns from the side to move's view.
pub trait Evaluate: Variant {
    fn evaluate(&self) -> i32;
}
