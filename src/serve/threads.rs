//! The store's own threads: `cellmate serve` calls its [`GameStore`] on a small fixed set of
//! threads instead of the runtime's (docs/hosting.md, "Load"). A call is a job sent to them
//! through a channel; the task that asked waits for its answer through a oneshot channel, so a
//! move is still written and committed before its page is told of it, while the runtime's
//! threads go on serving the other pages. There are as many threads as the store can use at
//! once ([`GameStore::parallel`]: SQLite's one connection, PostgreSQL's pool), so the thread
//! count does not grow with the load; jobs beyond them wait in the channel, at most one per
//! board page (a page waits for its store call before its next message) and one per HTTP
//! request that reads a game.

use std::panic::AssertUnwindSafe;
use std::sync::{mpsc, Arc, Mutex};

use super::store::{GameStore, StoreError, StoreResult};

type Job = Box<dyn FnOnce(&dyn GameStore) + Send>;

/// The threads that call one store.
pub struct StoreThreads {
    jobs: Mutex<mpsc::Sender<Job>>,
    threads: usize,
}

impl StoreThreads {
    /// Starts [`GameStore::parallel`] threads (at least one) calling `store`.
    pub fn start(store: Arc<dyn GameStore>) -> std::io::Result<StoreThreads> {
        let threads = store.parallel().max(1);
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads {
            let rx = Arc::clone(&rx);
            let store = Arc::clone(&store);
            std::thread::Builder::new()
                .name(format!("store-{i}"))
                .spawn(move || loop {
                    let job = match rx.lock().unwrap_or_else(|e| e.into_inner()).recv() {
                        Ok(job) => job,
                        Err(_) => return,
                    };
                    // A job that panics ends its own call (its caller is told), not the thread.
                    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| job(store.as_ref())));
                })?;
        }
        Ok(StoreThreads {
            jobs: Mutex::new(tx),
            threads,
        })
    }

    /// How many threads call the store.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `f` on one of the store's threads and waits for its answer without holding a
    /// runtime thread.
    pub async fn call<R: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn GameStore) -> StoreResult<R> + Send + 'static,
    ) -> StoreResult<R> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |store| {
            let _ = tx.send(f(store));
        });
        let sent = (self.jobs.lock().unwrap_or_else(|e| e.into_inner())).send(job);
        if sent.is_err() {
            return Err(StoreError("the store's threads have ended".into()));
        }
        rx.await
            .unwrap_or_else(|_| Err(StoreError("a store call failed (panicked)".into())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::sqlite::SqliteStore;

    /// Calls run on the store's one thread (SQLite: one connection), in turn; a call that
    /// panics is an error for its caller, and the thread goes on with the next.
    #[test]
    fn calls_run_on_the_stores_threads_and_survive_a_panic() {
        let store: Arc<dyn GameStore> = Arc::new(SqliteStore::open(":memory:").unwrap());
        let threads = StoreThreads::start(store).unwrap();
        assert_eq!(threads.threads(), 1);
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(async {
            let name = threads
                .call(|_| Ok(std::thread::current().name().map(str::to_string)))
                .await
                .unwrap();
            assert_eq!(name.as_deref(), Some("store-0"));
            let id = threads
                .call(|s| {
                    s.create(&crate::serve::store::NewGame {
                        variant: "chess",
                        start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                        engine: "{}",
                        clock: None,
                    })
                })
                .await
                .unwrap();
            let panicked = threads
                .call(|_| -> StoreResult<()> { panic!("a bug") })
                .await;
            assert!(panicked.is_err());
            let listed = threads.call(|s| s.list()).await.unwrap();
            assert_eq!(listed.len(), 1);
            assert_eq!(listed[0].id, id);
        });
    }
}
