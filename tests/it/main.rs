//! The integration tests, as one test crate: one binary to compile and link instead of one per
//! file. A former `tests/NAME.rs` is the module `NAME` (`tests/it/NAME.rs`), and its tests are
//! named `NAME::test`: `cargo test --test it fuzz::` runs the fuzzers,
//! `cargo test --release --test it perft_suite:: -- --ignored` the full perft suite.
//!
//! The tests of every module run side by side in one process (two at a time on two cores, as
//! each file's tests did in its own binary). Nothing here changes the process's environment,
//! working directory or signal handling; what counts memory or connections does so in a child
//! process or a server of its own, and the tests that start a GUI server take
//! `gui_session::one_server_at_a_time`. The one process-wide thing is the fuzzers' panic hook,
//! which counts panics of search threads whichever test started them (`fuzz::count_panics`).

mod protocol_support;

mod describe;
mod fen_data;
mod fuzz;
mod gui_session;
mod match_runner;
mod match_stats;
mod memory;
mod notation;
mod openings_files;
mod perft_edge_cases;
mod perft_suite;
mod playouts;
mod powers;
mod protocol_bad_input;
mod protocol_cli;
mod protocol_fixtures;
mod protocol_uci;
mod protocol_xboard;
mod search;
mod search_micro;
mod search_recursion;
mod serve;
mod symmetry;
mod xboard_variants;
