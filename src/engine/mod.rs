//! The engine room: search, evaluation, transposition table, time and threads.
//!
//! Doors: protocols call [`Engine::search`] with a position of any [`Variant`] that has an
//! [`eval::Evaluate`] implementation; the engine reads positions only through the `Variant`
//! trait and the evaluator's narrow accessors. It never prints: it reports through a callback.
//! Every search thread, the protocols' and the GUI's too, is started by [`spawn_search`].

pub mod bench;
pub mod eval;
pub mod params;
pub mod picker;
pub mod score;
pub mod search;
pub mod thread;
pub mod time;
pub mod tt;

pub use thread::{spawn_search, SEARCH_STACK};

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::RwLock;
use std::time::Instant;

use crate::core::Move;

/// The contempt the engine plays its games with unless told otherwise: the `Contempt`
/// option's default and the browser board's. A draw then scores −0.50 for the side to move at
/// the root, so the engine plays on in positions up to about half a pawn worse than even
/// rather than take a repetition: what a player against humans and weaker programs wants
/// (against the depth-1 copy, Microorganism drew 8.8 % of its balanced openings with 0, 1.7 %
/// with 50; docs/strength.md, "Converting won games"). Against a stronger engine a host sets 0
/// (Stockfish's ladder does). [`Engine::new`] keeps 0: bench, self-play data and tuning score a
/// draw as a draw.
pub const PLAY_CONTEMPT: i32 = 50;

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
    /// Soft and hard budgets (ms) set by [`Control::ponderhit_with`], replacing those computed
    /// from the limits the search started with; `u64::MAX`: not set, `u64::MAX - 1`: none.
    soft_ms: AtomicU64,
    hard_ms: AtomicU64,
    /// The searched variant's clock shape, for the budget of a ponder hit.
    clock: time::ClockShape,
}

const BUDGET_UNSET: u64 = u64::MAX;
const BUDGET_NONE: u64 = u64::MAX - 1;

fn budget_to_raw(b: Option<u64>) -> u64 {
    b.map_or(BUDGET_NONE, |ms| ms.min(BUDGET_NONE - 1))
}

impl Default for Control {
    fn default() -> Self {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            started: std::sync::Mutex::new(Instant::now()),
            soft_ms: AtomicU64::new(BUDGET_UNSET),
            hard_ms: AtomicU64::new(BUDGET_UNSET),
            clock: time::ClockShape::DEFAULT,
        }
    }
}

impl Control {
    pub fn new(pondering: bool) -> Control {
        Control::with_clock(pondering, time::ClockShape::DEFAULT)
    }
    /// The control of a search of a variant whose clock has the shape `clock` (its
    /// [`eval::Evaluate::CLOCK`]): a ponder hit budgets with it.
    pub fn with_clock(pondering: bool, clock: time::ClockShape) -> Control {
        let c = Control {
            clock,
            ..Control::default()
        };
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
        self.restart_clock();
        self.pondering.store(false, Ordering::SeqCst);
    }
    /// The clock of this search starts now (a queued search, when a worker takes it).
    pub fn restart_clock(&self) {
        *self.started.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }
    /// A ponder hit with the clock as it is now: the time budget is computed afresh from
    /// `limits` (the limits a ponder search started with describe the clock before the
    /// engine's previous move, which has been spent since).
    pub fn ponderhit_with(&self, limits: &Limits) {
        let b = time::TimeBudget::new(limits, self.clock);
        self.soft_ms.store(budget_to_raw(b.soft), Ordering::SeqCst);
        self.hard_ms.store(budget_to_raw(b.hard), Ordering::SeqCst);
        self.ponderhit();
    }
    /// The budget set by [`Control::ponderhit_with`], if any.
    pub fn budget_override(&self) -> Option<time::TimeBudget> {
        let raw = |a: &AtomicU64| match a.load(Ordering::Relaxed) {
            BUDGET_NONE => Some(None),
            BUDGET_UNSET => None,
            ms => Some(Some(ms)),
        };
        Some(time::TimeBudget {
            soft: raw(&self.soft_ms)?,
            hard: raw(&self.hard_ms)?,
        })
    }
    /// When the clock for this search started (reset by [`Control::ponderhit`]).
    pub fn started(&self) -> Instant {
        *self.started.lock().unwrap()
    }
}

/// The searcher: transposition table, thread count and options. Shared with search threads
/// behind an `Arc`; options change only between searches.
///
/// The table is sized from `hash_mb` when the engine is built. To change the hash size, call
/// [`Engine::resize`] before sharing the engine (or set `hash_mb`: a search whose `hash_mb` no
/// longer matches the table reallocates it first; either way the old table is freed before
/// the new one is allocated). `threads`, `multipv`, `contempt`, `eval` and `search` are read at the
/// start of each search.
pub struct Engine {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    /// Centipawns a draw costs the side to move at the root (0: a draw scores 0).
    pub contempt: i32,
    /// The evaluation's parameters (default: each evaluator's tuned tables).
    pub eval: eval::EvalParams,
    /// The search's constants (default: [`params::SearchParams::DEFAULT`]).
    pub search: params::SearchParams,
    tt: RwLock<tt::TranspositionTable>,
    /// The move-ordering tables (history) of earlier searches, kept for the next ones.
    order: std::sync::Mutex<Vec<picker::OrderTables>>,
}

impl Engine {
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        Engine {
            hash_mb,
            threads,
            multipv: 1,
            contempt: 0,
            eval: eval::EvalParams::DEFAULT,
            search: params::SearchParams::DEFAULT,
            tt: RwLock::new(tt::TranspositionTable::new(hash_mb)),
            order: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// Sets the hash size, reallocating the table now if it changed. The old table is freed
    /// before the new one is filled, so the peak is one table, not two. A size the system
    /// refuses leaves the table and `hash_mb` as they were and says why.
    pub fn resize(&mut self, hash_mb: usize) -> Result<(), String> {
        let t = self.tt.get_mut().unwrap_or_else(|e| e.into_inner());
        if t.size_mb() != hash_mb {
            tt::TranspositionTable::replace(t, hash_mb).map_err(|e| {
                log::warn!("hash table of {hash_mb} MB: {e}");
                format!(
                    "Hash {hash_mb} MB refused by the system, {} MB kept",
                    t.size_mb()
                )
            })?;
        }
        self.hash_mb = hash_mb;
        Ok(())
    }

    /// Forgets everything learned (new game).
    pub fn clear(&self) {
        self.tt.read().unwrap_or_else(|e| e.into_inner()).clear();
        self.order.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// Permille of the transposition table used by the last search (sampled).
    pub fn hashfull(&self) -> u32 {
        self.tt.read().unwrap_or_else(|e| e.into_inner()).hashfull()
    }

    /// Searches `pos` within `limits` until done or `control` says stop, calling `report` with
    /// progress. Blocks; run it on its own thread. Searches run on threads of their own with
    /// big stacks, so the caller's stack size does not matter.
    pub fn search<V: eval::Evaluate>(
        &self,
        pos: &V,
        limits: &Limits,
        control: &Control,
        report: &(dyn Fn(&Info) + Sync),
    ) -> SearchResult {
        let stale = self
            .tt
            .read()
            .map(|t| t.size_mb() != self.hash_mb)
            .unwrap_or(true);
        if stale {
            let mut t = self.tt.write().unwrap_or_else(|e| e.into_inner());
            if t.size_mb() != self.hash_mb {
                if let Err(e) = tt::TranspositionTable::replace(&mut t, self.hash_mb) {
                    log::warn!(
                        "hash table of {} MB refused ({e}): the old one is kept",
                        self.hash_mb
                    );
                }
            }
        }
        let tt = self.tt.read().unwrap_or_else(|e| e.into_inner());
        search::run(
            pos,
            &tt,
            &self.order,
            search::Settings {
                threads: self.threads,
                multipv: self.multipv,
                contempt: self.contempt,
                eval: self.eval,
                search: self.search,
            },
            limits,
            control,
            report,
        )
    }
}
