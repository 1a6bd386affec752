//! Static evaluation: one implementation per variant, reading positions through their public
//! accessors.

pub mod chess;
pub mod chess_params;
pub mod immune;
pub mod micro;
pub mod nnue;
pub mod recursion;
pub mod see;

use crate::core::{Move, Variant};
use crate::engine::time::ClockShape;

/// The evaluations' tunable parameters, a value the engine holds ([`crate::engine::Engine`]'s
/// `eval`) and every search passes to the evaluator: chess's (Infinite Recursion's boards
/// read them too) and Microorganism Chess's; the default is the tuned tables of each
/// evaluator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalParams {
    pub chess: chess_params::ChessParams,
    /// The network that corrects the table `chess` on chess positions ([`nnue`]), if any
    /// (Infinite Recursion's boards and chess endings of a lone king use the table alone).
    pub chess_net: ChessNet,
    pub micro: micro::MicroParams,
}

/// The network of chess's evaluation: the one built in (the default), none (`cellmate
/// --no-network`), or one read from a file to be tested by games (`cellmate --eval-file`;
/// docs/strength.md, "The chess network").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChessNet {
    /// None: the hand-made table alone.
    Off,
    /// The network built into the binary ([`nnue::builtin`]).
    Builtin,
    /// A network read from a file.
    File(&'static nnue::Network),
}

impl ChessNet {
    /// The network, if any.
    pub fn network(self) -> Option<&'static nnue::Network> {
        match self {
            ChessNet::Off => None,
            ChessNet::Builtin => Some(nnue::builtin()),
            ChessNet::File(n) => Some(n),
        }
    }
}

impl EvalParams {
    /// Every evaluator's own tables.
    pub const DEFAULT: EvalParams = EvalParams {
        chess: chess_params::ChessParams::DEFAULT,
        chess_net: ChessNet::Builtin,
        micro: micro::MicroParams::DEFAULT,
    };
}

impl Default for EvalParams {
    fn default() -> EvalParams {
        EvalParams::DEFAULT
    }
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
    /// centipawns after the best sequence of recaptures on its square. Chess and Infinite
    /// Recursion answer from chess's swap list, Microorganism and Immune Chess from
    /// [`see`]'s with their own kinds of taking (shots, infections, kills, double captures).
    /// A variant without an exchange evaluator answers `true` ("not known to lose"), which
    /// only costs some pruning.
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let _ = (m, threshold);
        true
    }

    /// Quiescence's delta margin, in centipawns, where the variant's [`Evaluate::see_ge`]
    /// counts every gain a tactical move makes: out of check, quiescence searches only the
    /// tactical moves whose exchange wins at least what lifts the standing evaluation to
    /// alpha less this margin. `None`: every move that does not lose by exchange (where a
    /// move's worth is more than its exchange: Microorganism's hatches, Immune's shots).
    const QS_DELTA: Option<i32> = None;

    /// How a sudden-death clock is spread over the variant's moves ([`ClockShape`]).
    const CLOCK: ClockShape = ClockShape::DEFAULT;

    /// [`Evaluate::CLOCK`], read from a position (for a dispatch over variants).
    fn clock_shape(&self) -> ClockShape {
        Self::CLOCK
    }

    /// How many piece types [`Evaluate::mover`] tells apart.
    const MOVERS: usize = 1;

    /// The type of the piece that makes `m`, below [`Evaluate::MOVERS`]: with the move's
    /// to-square it keys the move orderer's continuation tables. 0 where the variant does
    /// not say (the to-square alone then keys them).
    fn mover(&self, m: Move) -> u8 {
        let _ = m;
        0
    }
}

/// The features an evaluation is built on, for fitting their values to game results
/// (`cellmate tune`, [`crate::tune`]): each evaluator lists them once, beside the tables they
/// measure.
#[derive(Clone, Copy, Debug)]
pub struct FeatureList {
    /// The features' names, in the order of [`Features::features`].
    pub names: &'static [&'static str],
    /// The feature whose value is 100 centipawns.
    pub anchor: usize,
    /// Whether the anchor counts for Black (Immune Chess's Invader): its coefficient is
    /// negative, so centipawns are `-100·w/w_anchor`.
    pub anchor_black: bool,
    /// How many leading features count material; the rest (mobility) change with every move,
    /// so a position is quiet when these equal those of its neighbours.
    pub material: usize,
}

/// An evaluation's features: their list and a position's vector of them.
pub trait Features: Evaluate {
    const FEATURES: FeatureList;

    /// The position's features, in the order of [`Features::FEATURES`]'s names.
    fn features(&self) -> Vec<f64>;

    /// [`Features::FEATURES`], read from a position (for a dispatch over variants).
    fn feature_list(&self) -> &'static FeatureList {
        &Self::FEATURES
    }
}

/// The names of a feature table's rows (`(name, what it counts)`), for [`FeatureList::names`].
pub const fn feature_names<T: Copy, const N: usize>(
    table: &[(&'static str, T); N],
) -> [&'static str; N] {
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = table[i].0;
        i += 1;
    }
    names
}
