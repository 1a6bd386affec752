//! Search threads: every thread that runs a search or a perft is started here, named, with a
//! stack deep enough for the recursion of any variant ([`SEARCH_STACK`]).

use std::io;
use std::thread::{Builder, JoinHandle, Scope, ScopedJoinHandle};

/// The cap of [`max_threads`] on any machine.
pub const MAX_THREADS: usize = 256;

/// The most search threads one search may use: one per logical CPU of this machine, and never
/// more than 256. More threads than CPUs gain nothing, and with them `stop` waited for every
/// thread to be scheduled again (256 threads on 2 cores: 5.1 s; issue 23).
pub fn max_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_THREADS)
}

/// Stack size of a search thread.
pub const SEARCH_STACK: usize = 64 << 20;

fn builder(name: String) -> Builder {
    Builder::new().name(name).stack_size(SEARCH_STACK)
}

/// Starts a thread called `name` with a [`SEARCH_STACK`] stack, running `f`. Fails when the
/// system refuses the thread.
pub fn spawn_search<T, F>(name: impl Into<String>, f: F) -> io::Result<JoinHandle<T>>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    builder(name.into()).spawn(f)
}

/// [`spawn_search`] inside a [`std::thread::scope`], for threads that borrow from the caller
/// (the search's own lazy-SMP threads).
pub fn spawn_search_scoped<'scope, T, F>(
    scope: &'scope Scope<'scope, '_>,
    name: impl Into<String>,
    f: F,
) -> io::Result<ScopedJoinHandle<'scope, T>>
where
    F: FnOnce() -> T + Send + 'scope,
    T: Send + 'scope,
{
    builder(name.into()).spawn_scoped(scope, f)
}
