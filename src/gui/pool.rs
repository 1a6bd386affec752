//! The browser board's searches: a fixed number of worker threads sharing one engine (one
//! transposition table, one memory budget) for every connection.
//!
//! A connection does not own an engine or a search thread: it queues a [`Job`] and the first
//! free worker runs it. So memory and threads are bounded by the pool, not by the number of
//! pages open: `workers` search threads (started by the engine's [`spawn_search`], 64 MiB
//! stacks) and one `hash_mb` table, allocated when the pool is built, whatever the number of
//! connections. A job stopped while it waits is dropped unsearched; a job's clock (`movetime`)
//! starts when a worker takes it, not when it was queued.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};

use crate::engine::eval::EvalParams;
use crate::engine::{spawn_search, Control, Engine, Info, Limits, SearchResult, PLAY_CONTEMPT};
use crate::variants::{with_pos, AnyPos};

/// One search asked for by a connection.
pub struct Job {
    pub pos: AnyPos,
    pub limits: Limits,
    pub control: Arc<Control>,
    /// Progress reports, called on the worker's thread.
    pub report: Box<dyn Fn(&Info) + Send + Sync>,
    /// The result; not called for a job stopped before a worker took it.
    pub done: Box<dyn FnOnce(SearchResult) + Send>,
}

struct Queue {
    jobs: VecDeque<Job>,
    /// Jobs being searched now.
    busy: usize,
    closed: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
}

/// The workers and their queue. Dropping the pool lets the workers finish the jobs they have
/// and end; queued jobs are dropped.
pub struct Pool {
    shared: Arc<Shared>,
    workers: usize,
    hash_mb: usize,
}

impl Pool {
    /// `workers` threads (at least one) sharing one table of `hash_mb` MB. Fails when the
    /// system refuses the table or a thread.
    pub fn new(workers: usize, hash_mb: usize) -> Result<Pool, String> {
        Pool::with_eval(workers, hash_mb, EvalParams::DEFAULT)
    }

    /// [`Pool::new`] whose searches evaluate with `eval` (the command line's parameters).
    pub fn with_eval(workers: usize, hash_mb: usize, eval: EvalParams) -> Result<Pool, String> {
        let workers = workers.max(1);
        let mut engine = Engine::new(1, 1);
        engine.eval = eval;
        // The board's games are against people: the engine plays on rather than repeat.
        engine.contempt = PLAY_CONTEMPT;
        engine
            .resize(hash_mb)
            .map_err(|e| format!("the board's hash table: {e}"))?;
        let engine = Arc::new(engine);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                jobs: VecDeque::new(),
                busy: 0,
                closed: false,
            }),
            ready: Condvar::new(),
        });
        for i in 0..workers {
            let shared = Arc::clone(&shared);
            let engine = Arc::clone(&engine);
            spawn_search(format!("gui-search-{i}"), move || work(&shared, &engine))
                .map_err(|e| format!("cannot start a search thread: {e}"))?;
        }
        Ok(Pool {
            shared,
            workers,
            hash_mb,
        })
    }

    pub fn workers(&self) -> usize {
        self.workers
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Queues a job; returns how many jobs wait before it (0: a worker is free or will take
    /// it next).
    pub fn submit(&self, job: Job) -> usize {
        let mut q = self.lock();
        q.jobs.retain(|j| !j.control.stopped());
        let ahead = (q.jobs.len() + q.busy).saturating_sub(self.workers - 1);
        q.jobs.push_back(job);
        drop(q);
        self.shared.ready.notify_one();
        ahead
    }

    /// Hurries the job searched under `control` if it still waits: it keeps its place in the
    /// queue and searches to depth 1 when a worker takes it (a page's `stop` before its search
    /// began gets a move, where stopping the job would drop it unanswered). False if no job
    /// of `control` waits (it runs, or ran): stop that one instead.
    pub fn hurry(&self, control: &Arc<Control>) -> bool {
        let mut q = self.lock();
        let waiting = q
            .jobs
            .iter_mut()
            .find(|j| Arc::ptr_eq(&j.control, control) && !j.control.stopped());
        match waiting {
            Some(j) => {
                j.limits = Limits {
                    depth: Some(1),
                    ..Limits::default()
                };
                true
            }
            None => false,
        }
    }

    /// The place in the queue of the job searched under `control`: 1 if it is the next one a
    /// worker takes, `None` if no job of `control` waits behind busy workers (it runs, ran, was stopped, or a
    /// worker is free to take it now). Jobs
    /// are taken in the order they came, whoever asked for them.
    pub fn place(&self, control: &Arc<Control>) -> Option<usize> {
        let q = self.lock();
        if q.busy < self.workers {
            return None; // a free worker takes it now
        }
        let mut live = q.jobs.iter().filter(|j| !j.control.stopped());
        live.position(|j| Arc::ptr_eq(&j.control, control))
            .map(|i| i + 1)
    }

    /// Jobs queued and not yet taken by a worker, stopped ones not counted.
    pub fn waiting(&self) -> usize {
        self.lock()
            .jobs
            .iter()
            .filter(|j| !j.control.stopped())
            .count()
    }

    /// Jobs being searched now.
    pub fn busy(&self) -> usize {
        self.lock().busy
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.shared.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let mut q = self.lock();
        q.closed = true;
        q.jobs.clear();
        drop(q);
        self.shared.ready.notify_all();
    }
}

fn work(shared: &Shared, engine: &Engine) {
    loop {
        let job = {
            let mut q = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if q.closed {
                    return;
                }
                match q.jobs.pop_front() {
                    Some(j) if j.control.stopped() => continue,
                    Some(j) => {
                        q.busy += 1;
                        break j;
                    }
                    None => q = shared.ready.wait(q).unwrap_or_else(|e| e.into_inner()),
                }
            }
        };
        job.control.restart_clock();
        let result = with_pos!(&job.pos, |p| engine.search(
            p,
            &job.limits,
            &job.control,
            &*job.report
        ));
        shared.queue.lock().unwrap_or_else(|e| e.into_inner()).busy -= 1;
        (job.done)(result);
    }
}
