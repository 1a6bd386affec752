//! `bench`: a fixed-depth search over fixed positions, one thread, fresh 16 MB table. The node
//! count is a fingerprint of the search: identical on every run and machine.

use std::time::Instant;

use crate::core::Variant;
use crate::variants::chess::Chess;

use super::{Control, Engine, Limits};

/// The depth `cellmate bench` uses by default.
pub const DEFAULT_DEPTH: u32 = 16;

/// Positions: the start, kiwipete, middlegames and endgames.
pub const POSITIONS: [&str; 10] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 1 8",
    "r2q1rk1/1b2bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP2PPP/R2Q1RK1 w - - 0 12",
    "2r2rk1/pp1bqpp1/2n1p2p/3pP3/3P4/P1PB1N2/5PPP/R2QR1K1 b - - 3 17",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/5pk1/6p1/8/3R4/6P1/5PKP/3r4 w - - 0 40",
    "6k1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 1",
    "8/8/4k3/8/2p5/8/1P3K2/8 w - - 0 1",
];

/// Searches every bench position to `depth`; returns (total nodes, nodes per second).
pub fn bench(depth: u32) -> (u64, u64) {
    let engine = Engine::new(16, 1);
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    // Parsing builds the attack tables: keep that out of the clock.
    let positions: Vec<Chess> = POSITIONS
        .iter()
        .map(|fen| Chess::from_fen(fen).expect("bench FEN"))
        .collect();
    let start = Instant::now();
    let mut nodes = 0;
    for pos in positions {
        let control = Control::new(false);
        nodes += engine.search(&pos, &limits, &control, &|_| {}).nodes;
    }
    let ms = start.elapsed().as_millis() as u64;
    (nodes, nodes * 1000 / ms.max(1))
}
