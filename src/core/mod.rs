//! The rules core shared by every variant: geometry, square sets, pieces as data, moves, keys
//! and the [`variant::Variant`] trait.

pub mod bitset;
pub mod color;
pub mod fen;
pub mod fen_error;
pub mod geometry;
pub mod moves;
pub mod piece;
pub mod rng;
pub mod variant;
pub mod view;
pub mod zobrist;

pub use bitset::{BitSet, U256};
pub use color::Color;
pub use fen_error::{BoardError, CountProblem, FenError, PositionError, StateError};
pub use geometry::{Geometry, RankBase, Square};
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use piece::{letters, Atom, Mode, PieceDef, PieceTables, Powers, Reach, Sym};
#[cfg(test)]
pub use variant::tactical_walk;
pub use variant::{
    perft, perft_divide, perft_until, Dialect, MoveError, Outcome, Protocol, Variant,
    MAX_PERFT_DEPTH,
};
pub use view::{Badge, HeldView, PieceView, PositionView, SquareView, SubBoardView};
