//! `cellmate bench`: a fixed-depth search of the start position, for speed comparisons.
// replaced by the search branch (same API: `DEFAULT_DEPTH`, `bench(depth)`).

use std::time::Instant;

use crate::core::Variant;
use crate::engine::{Control, Engine, Limits};
use crate::variants::chess::Chess;

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 8;

/// Searches the chess start position to `depth` with a fresh 16 MB, one-thread engine.
/// Returns `(nodes, nodes per second)`.
pub fn bench(depth: u32) -> (u64, u64) {
    let engine = Engine::new(16, 1);
    let control = Control::new(false);
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let pos = Chess::startpos();
    let start = Instant::now();
    let result = engine.search(&pos, &limits, &control, &|_| {});
    let ms = (start.elapsed().as_millis() as u64).max(1);
    (result.nodes, result.nodes.saturating_mul(1000) / ms)
}

/// [`bench`] at `depth`, or at [`DEFAULT_DEPTH`].
pub fn run(depth: Option<u32>) -> (u64, u64) {
    bench(depth.unwrap_or(DEFAULT_DEPTH))
}
