//! The engine room: search, evaluation, transposition table, time and threads.
//!
//! Doors: protocols call [`Engine::search`] with a position of any [`Variant`] that has an
//! [`eval::Evaluate`] implementation; the engine reads positions only through the `Variant`
//! trait and the evaluator's narrow accessors. It never prints: it reports through a callback.

pub mod bench;
pub mod eval;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::core::Move;

/// What limits a search. Times are milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Fixed depth in plies.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Exact time for this move.
    pub movetime: Option<u64>,
    /// Time left on the mover's clock.
    pub time_left: Option<u64>,
    /// Increment per move.
    pub increment: u64,
    /// Moves until the next time control (`None`: sudden death).
    pub moves_to_go: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Time kept back for transmission lag.
    pub move_overhead: u64,
}

/// A score from the side to move's view.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (positive: the side to move mates; negative: is mated).
    Mate(i32),
}

/// One progress report.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
}

/// Shared flags between the protocol and a running search.
#[derive(Debug)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    started: std::sync::Mutex<Instant>,
}

impl Default for Control {
    fn default() -> Self {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            started: std::sync::Mutex::new(Instant::now()),
        }
    }
}

impl Control {
    pub fn new(pondering: bool) -> Control {
        let c = Control::default();
        c.pondering.store(pondering, Ordering::SeqCst);
        c
    }
    /// Asks the search to stop as soon as it can and answer.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// While pondering, time limits do not apply and the search does not end by itself.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
    /// The opponent played the expected move: from now on the clock runs.
    pub fn ponderhit(&self) {
        *self.started.lock().unwrap() = Instant::now();
        self.pondering.store(false, Ordering::SeqCst);
    }
    /// When the clock for this search started (reset by [`Control::ponderhit`]).
    pub fn started(&self) -> Instant {
        *self.started.lock().unwrap()
    }
}

/// The searcher: transposition table, thread count and options. Shared with search threads
/// behind an `Arc`; options change only between searches.
///
/// (Interface fixed for the protocol room; the search itself lives in `search.rs`.)
pub struct Engine {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
}

impl Engine {
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        Engine {
            hash_mb,
            threads,
            multipv: 1,
        }
    }

    /// Forgets everything learned (new game).
    pub fn clear(&self) {}

    /// Searches `pos` within `limits` until done or `control` says stop, calling `report` with
    /// progress. Blocks; run it on its own thread.
    pub fn search<V: eval::Evaluate>(
        &self,
        pos: &V,
        limits: &Limits,
        control: &Control,
        report: &(dyn Fn(&Info) + Sync),
    ) -> SearchResult {
        // Placeholder until the searcher lands: the first legal move.
        let _ = (limits, control, report);
        let mut list = crate::core::MoveList::new();
        pos.legal_moves(&mut list);
        SearchResult {
            best: list.first().copied(),
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
        }
    }
}
