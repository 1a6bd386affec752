//! Static evaluation: one implementation per variant, reading positions through their public
//! accessors.

pub mod chess;
pub mod immune;
pub mod micro;
pub mod recursion;

use crate::core::{Move, Variant};

/// The evaluations' tunable parameters, a value the engine holds ([`crate::engine::Engine`]'s
/// `eval`) and every search passes to the evaluator. Only Microorganism Chess's are tunable
/// without rebuilding today; the default is the tuned tables of each evaluator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalParams {
    pub micro: micro::MicroParams,
}

impl EvalParams {
    /// Every evaluator's own tables.
    pub const DEFAULT: EvalParams = EvalParams {
        micro: micro::MicroParams::DEFAULT,
    };
}

/// A variant the engine can evaluate. Scores are centipawns from the side to move's view.
pub trait Evaluate: Variant {
    /// The evaluation with the given parameters (each evaluator reads its own part).
    fn evaluate_with(&self, params: &EvalParams) -> i32;

    /// The evaluation with the default parameters, [`EvalParams::DEFAULT`].
    fn evaluate(&self) -> i32 {
        self.evaluate_with(&EvalParams::DEFAULT)
    }

    /// Static exchange evaluation: whether `m` (usually a capture) wins at least `threshold`
    /// centipawns after the best sequence of recaptures on its square. Variants without an
    /// exchange evaluator answer `true` ("not known to lose"), which only costs some pruning.
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let _ = (m, threshold);
        true
    }
}
