//! Runs [`Engine::search`] on its own thread ([`spawn_search`]) and hands the result back.
//!
//! The search thread returns its [`SearchResult`] through its join handle and then sends its
//! id over the done channel; the session's loop joins the thread when that id arrives (or
//! earlier, when a command must stop a search and wait for it). A stale id (a search already
//! joined) is ignored. Results are checked against the root: an illegal best move is replaced
//! by the first legal one, an illegal ponder move dropped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use tokio::sync::mpsc::UnboundedSender;

use super::format;
use super::options::Settings;
use super::Output;
use crate::core::{Move, MoveList, Variant};
use crate::engine::eval::Evaluate;
use crate::engine::{spawn_search, Control, Engine, Info, Limits, Score, SearchResult};
use crate::variants::{with_pos, AnyPos};

/// Where progress reports go.
#[derive(Clone, Debug)]
pub enum InfoSink {
    /// `info …` lines.
    Uci,
    /// Thinking lines, while `post` is on (it may change during the search), PV moves in
    /// XBoard's spelling of the variant (`xbwire`).
    Xboard {
        post: Arc<AtomicBool>,
        rank_offset: u8,
    },
}

impl InfoSink {
    fn line<V: Variant>(&self, any: &AnyPos, root: &V, info: &Info) -> Option<String> {
        match self {
            InfoSink::Uci => Some(format::uci_info(root, info)),
            InfoSink::Xboard { post, rank_offset } => post.load(Ordering::Relaxed).then(|| {
                let pv = crate::xbwire::pv_texts(any, &info.pv, *rank_offset);
                format::xboard_thinking_line(info, &pv)
            }),
        }
    }
}

/// The latest report of the running search (for XBoard's `.`).
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub depth: u32,
    pub nodes: u64,
}

/// A search that has ended, with its root.
#[derive(Debug)]
pub struct Finished {
    pub id: u64,
    pub root: AnyPos,
    pub result: SearchResult,
    pub control: Arc<Control>,
}

struct Running {
    id: u64,
    root: AnyPos,
    control: Arc<Control>,
    handle: Option<JoinHandle<SearchResult>>,
    started: Instant,
    progress: Arc<Mutex<Progress>>,
}

/// Owns the engine and at most one running search.
pub struct Searcher {
    engine: Arc<Engine>,
    out: Output,
    done_tx: UnboundedSender<u64>,
    next_id: u64,
    running: Option<Running>,
    clear_pending: bool,
    /// The hash size last refused at the start of a search (said once, not at every `go`).
    refused_mb: Option<usize>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the engine reads from the settings at each search (the hash size is applied apart:
/// it reallocates the table).
fn read_settings(engine: &mut Engine, settings: &Settings) {
    engine.threads = settings.threads;
    engine.multipv = settings.multipv;
    engine.contempt = settings.contempt;
    engine.eval = settings.eval;
    engine.search = settings.search;
}

fn new_engine(settings: &Settings) -> Engine {
    let mut engine = Engine::new(settings.hash_mb, settings.threads);
    read_settings(&mut engine, settings);
    engine
}

/// The first legal move, as a last resort.
fn first_legal(root: &AnyPos) -> Option<Move> {
    root.legal_moves().first().copied()
}

impl Searcher {
    pub fn new(settings: &Settings, out: Output, done_tx: UnboundedSender<u64>) -> Searcher {
        Searcher {
            engine: Arc::new(new_engine(settings)),
            out,
            done_tx,
            next_id: 1,
            running: None,
            clear_pending: false,
            refused_mb: None,
        }
    }

    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The id of the running search.
    pub fn running_id(&self) -> Option<u64> {
        self.running.as_ref().map(|r| r.id)
    }

    /// The running search's control flags.
    pub fn control(&self) -> Option<&Arc<Control>> {
        self.running.as_ref().map(|r| &r.control)
    }

    /// Elapsed time and latest progress of the running search.
    pub fn progress(&self) -> Option<(u64, Progress)> {
        self.running.as_ref().map(|r| {
            (
                r.started.elapsed().as_millis() as u64,
                lock(&r.progress).clone(),
            )
        })
    }

    /// Forgets the transposition table (at once when idle, else before the next search).
    pub fn clear_hash(&mut self) {
        if self.running.is_some() {
            self.clear_pending = true;
        } else {
            self.engine.clear();
        }
    }

    /// Brings the engine in line with the settings now, unless a search runs (then the next
    /// search does it first). Called when a protocol changes Hash or Threads, so a new table is
    /// allocated at `setoption` / `memory` (and `isready` / `ping` answered after it), not
    /// inside the next `go` on the clock.
    /// Applies the settings now when no search runs. A hash size the system refuses is an
    /// error: the table stays as it was, and `settings.hash_mb` is set back to its size.
    pub fn apply_settings(&mut self, settings: &mut Settings) -> Result<(), String> {
        if self.running.is_some() {
            return Ok(());
        }
        let r = self.configure(settings);
        if r.is_err() {
            settings.hash_mb = self.engine.hash_mb;
        }
        r
    }

    /// Brings the engine in line with the settings. Only between searches: the table is
    /// reallocated (the old one freed first) only when the hash size changed; a new thread
    /// count is read by the next search.
    fn configure(&mut self, settings: &Settings) -> Result<(), String> {
        let mut result = Ok(());
        match Arc::get_mut(&mut self.engine) {
            Some(engine) => {
                if engine.hash_mb != settings.hash_mb {
                    result = engine.resize(settings.hash_mb);
                    if result.is_ok() {
                        self.clear_pending = false;
                    }
                }
                read_settings(engine, settings);
            }
            None => {
                // Should not happen (searches are joined before the next starts).
                self.engine = Arc::new(new_engine(settings));
                self.clear_pending = false;
            }
        }
        if self.clear_pending {
            self.engine.clear();
            self.clear_pending = false;
        }
        result
    }

    /// Applies the settings a search will read, before it starts. A hash size set during the
    /// last search that cannot be allocated comes back as the reason, once per size (not at
    /// every `go`), for the protocol to say in its own form, as it would have been said had
    /// the size come between searches.
    pub fn prepare(&mut self, settings: &Settings) -> Option<String> {
        if self.running.is_some() {
            log::warn!("search started while another runs: the old one is dropped");
            self.stop_and_join();
        }
        match self.configure(settings) {
            Ok(()) => None,
            Err(e) => {
                log::warn!("{e}");
                (self.refused_mb.replace(settings.hash_mb) != Some(settings.hash_mb)).then_some(e)
            }
        }
    }

    /// Starts a search of `root` with the settings `prepare` applied. Any running search must have been finished first; if one is
    /// still running it is stopped and its result dropped.
    pub fn start(
        &mut self,
        root: AnyPos,
        limits: Limits,
        pondering: bool,
        sink: InfoSink,
        settings: &Settings,
    ) -> u64 {
        if self.running.is_some() {
            log::warn!("search started while another runs: the old one is dropped");
            self.stop_and_join();
        }
        if let Err(e) = self.configure(settings) {
            log::warn!("{e}");
        }
        let id = self.next_id;
        self.next_id += 1;
        let clock = with_pos!(&root, |p| p.clock_shape());
        let control = Arc::new(Control::with_clock(pondering, clock));
        let progress = Arc::new(Mutex::new(Progress::default()));
        log::debug!("search {id} starts: {limits:?} pondering={pondering} clock={clock:?}");

        let spawned = {
            let engine = Arc::clone(&self.engine);
            let control = Arc::clone(&control);
            let progress = Arc::clone(&progress);
            let out = self.out.clone();
            let done_tx = self.done_tx.clone();
            let pos = root.clone();
            spawn_search(format!("search-{id}"), move || {
                let result = with_pos!(&pos, |p| {
                    let report = |info: &Info| {
                        {
                            let mut pr = lock(&progress);
                            pr.depth = info.depth;
                            pr.nodes = info.nodes;
                        }
                        if let Some(line) = sink.line(&pos, p, info) {
                            out.line(&line);
                        }
                    };
                    engine.search(p, &limits, &control, &report)
                });
                let _ = done_tx.send(id);
                result
            })
        };
        let handle = match spawned {
            Ok(h) => Some(h),
            Err(e) => {
                log::warn!("cannot start a search thread ({e}): playing the first legal move");
                let _ = self.done_tx.send(id);
                None
            }
        };
        self.running = Some(Running {
            id,
            root,
            control,
            handle,
            started: Instant::now(),
            progress,
        });
        id
    }

    /// Asks the running search to stop (its result arrives through the done channel).
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.control.stop();
        }
    }

    /// Stops the running search and waits for it.
    pub fn stop_and_join(&mut self) -> Option<Finished> {
        self.stop();
        self.join()
    }

    /// Joins the search whose done message carried `id`; `None` for a stale id.
    pub fn take_done(&mut self, id: u64) -> Option<Finished> {
        if self.running_id() == Some(id) {
            self.join()
        } else {
            log::debug!("stale search-done {id} ignored");
            None
        }
    }

    fn join(&mut self) -> Option<Finished> {
        let r = self.running.take()?;
        let result = match r.handle.map(|h| h.join()) {
            Some(Ok(result)) => result,
            Some(Err(_)) => {
                log::error!("search {} panicked; playing the first legal move", r.id);
                fallback(&r.root)
            }
            None => fallback(&r.root),
        };
        let result = sanitize(&r.root, result);
        log::debug!("search {} done: {result:?}", r.id);
        Some(Finished {
            id: r.id,
            root: r.root,
            result,
            control: r.control,
        })
    }
}

fn fallback(root: &AnyPos) -> SearchResult {
    SearchResult {
        best: first_legal(root),
        ponder: None,
        score: Score::Cp(0),
        depth: 0,
        nodes: 0,
    }
}

/// Makes sure the best move is legal in the root and the ponder move legal after it.
fn sanitize(root: &AnyPos, mut result: SearchResult) -> SearchResult {
    let legal: MoveList = root.legal_moves();
    match result.best {
        Some(m) if legal.contains(&m) => {}
        Some(m) => {
            log::error!("search returned illegal best move {m:?}; using the first legal move");
            result.best = legal.first().copied();
            result.ponder = None;
        }
        None if !legal.is_empty() => {
            log::error!("search returned no move but moves exist; using the first legal move");
            result.best = legal.first().copied();
            result.ponder = None;
        }
        None => result.ponder = None,
    }
    if let (Some(best), Some(ponder)) = (result.best, result.ponder) {
        let mut after = root.clone();
        after.make_move(best);
        if !after.is_legal(ponder) {
            log::warn!("ponder move {ponder:?} is not legal; dropped");
            result.ponder = None;
        }
    }
    result
}
