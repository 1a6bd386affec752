//! The shared store: games in a PostgreSQL database, so that several `cellmate serve`
//! processes (on one machine or several) keep their games in one place (docs/hosting.md,
//! "Several servers on PostgreSQL"). Chosen by `--db postgres://…` or `postgresql://…`.
//!
//! The synchronous `postgres` crate with a small `r2d2` pool of its connections
//! (`r2d2_postgres`): the [`GameStore`] calls are synchronous, and several requests do not wait
//! for one connection. Each `postgres::Client` runs its own small tokio runtime, which may not
//! be entered from a thread that is running `cellmate serve`'s runtime: every call here goes
//! through [`off_runtime`] (directly on the server's store threads, `block_in_place` on a
//! multi-threaded runtime's thread, a thread of its own on a current-thread runtime), also the
//! pool's drop.
//!
//! The schema is the SQLite store's (`games`, `moves` with the clock columns), plus a sequence
//! number that orders the games as they were created across processes. It is created if missing
//! under an advisory lock, so that two servers started at once on an empty database do not race.
//! The connections are without TLS: a local socket, a loopback or a private network.

use std::time::Duration;

use r2d2_postgres::postgres::{self, IsolationLevel, NoTls};
use r2d2_postgres::r2d2;
use r2d2_postgres::PostgresConnectionManager;

use super::store::{
    GameStore, GameSummary, NewGame, StoreError, StoreResult, StoredGame, StoredMove,
};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    engine TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    clock TEXT,
    seq BIGINT GENERATED ALWAYS AS IDENTITY
);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    text TEXT NOT NULL,
    played_ms BIGINT NOT NULL,
    clock_ms BIGINT,
    PRIMARY KEY (game, ply)
);
";

/// The advisory lock held while the schema is created: "cellmate" in ASCII.
const SCHEMA_LOCK: i64 = 0x6365_6c6c_6d61_7465;

/// How long connecting may take (unless the URL says `connect_timeout`), and how long a call
/// waits for a connection of the pool.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Connections of one server process at most (PostgreSQL allows 100 by default, all clients
/// together).
pub const POOL_SIZE: u32 = 8;

type Pool = r2d2::Pool<PostgresConnectionManager<NoTls>>;

/// Whether `--db` names a PostgreSQL database (a URL `postgres://…` or `postgresql://…`)
/// rather than a SQLite file.
pub fn is_url(db: &str) -> bool {
    let lower = db.trim_start().to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// Games in one PostgreSQL database.
pub struct PostgresStore {
    /// `None` only while being dropped (the pool is dropped off the runtime).
    pool: Option<Pool>,
    /// Where the database is, `user@host:port/dbname` (never the password), for messages.
    place: String,
}

/// Runs `f`, which may block on a `postgres::Client`, where that is allowed: through
/// `block_in_place` on a multi-threaded tokio runtime's thread or outside any runtime, on a
/// thread of its own on a current-thread runtime (where `block_in_place` panics).
fn off_runtime<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current().map(|h| h.runtime_flavor()) {
        Err(_) | Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(f),
        Ok(_) => std::thread::scope(|s| {
            s.spawn(f)
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p))
        }),
    }
}

/// An error and its causes on one line (the `postgres` crate keeps the cause, such as
/// "Connection refused" or the server's message, apart from its "error connecting to server").
fn text(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let more = c.to_string();
        if !out.contains(&more) {
            out = format!("{out}: {more}");
        }
        cause = c.source();
    }
    out
}

fn err(e: postgres::Error) -> StoreError {
    StoreError(format!("PostgreSQL: {}", text(&e)))
}

/// `user@host:port/dbname` of a connection's settings, without the password.
fn place(config: &postgres::Config) -> String {
    use postgres::config::Host;
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(h)) => h.clone(),
        #[cfg(unix)]
        Some(Host::Unix(p)) => p.display().to_string(),
        None => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let user = config.get_user().unwrap_or("(the login name)");
    let db = config.get_dbname().unwrap_or(user);
    format!("{user}@{host}:{port}/{db}")
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://user@host:port/dbname`, the options of
    /// libpq's URLs that the `postgres` crate reads), creates the tables if missing, and opens
    /// a pool of at most [`POOL_SIZE`] connections. A bad URL or a server that cannot be
    /// reached is an error that says which.
    pub fn open(url: &str) -> StoreResult<PostgresStore> {
        let mut config: postgres::Config = url
            .trim()
            .parse()
            .map_err(|e| StoreError(format!("not a PostgreSQL URL ({})", text(&e))))?;
        let place = place(&config);
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("cellmate serve");
        }
        let at = |e: String| StoreError(format!("PostgreSQL at {place}: {e}"));
        let pool = off_runtime(|| {
            let mut client = config.connect(NoTls).map_err(|e| at(text(&e)))?;
            let mut tx = client.transaction().map_err(|e| at(text(&e)))?;
            // (Without the notices "relation ... already exists, skipping" at each start.)
            tx.batch_execute("SET LOCAL client_min_messages = warning")
                .and_then(|_| tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK]))
                .and_then(|_| tx.batch_execute(SCHEMA))
                .map_err(|e| at(format!("creating the tables: {}", text(&e))))?;
            tx.commit().map_err(|e| at(text(&e)))?;
            drop(client);
            r2d2::Pool::builder()
                .max_size(POOL_SIZE)
                .min_idle(Some(1))
                .connection_timeout(CONNECT_TIMEOUT)
                .build(PostgresConnectionManager::new(config.clone(), NoTls))
                .map_err(|e| at(text(&e)))
        })?;
        Ok(PostgresStore {
            pool: Some(pool),
            place,
        })
    }

    /// Where the database is: `user@host:port/dbname`.
    pub fn place(&self) -> &str {
        &self.place
    }

    /// Runs `f` on a connection of the pool (see [`off_runtime`]).
    fn with<R: Send>(
        &self,
        f: impl FnOnce(&mut postgres::Client) -> StoreResult<R> + Send,
    ) -> StoreResult<R> {
        let pool = self
            .pool
            .as_ref()
            .expect("the pool lives as long as the store");
        off_runtime(|| {
            let mut client = pool
                .get()
                .map_err(|e| StoreError(format!("PostgreSQL at {}: {e}", self.place)))?;
            f(&mut client)
        })
    }
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        // Closing a connection blocks on its runtime: not on a thread running another one.
        if let Some(pool) = self.pool.take() {
            off_runtime(move || drop(pool));
        }
    }
}

impl GameStore for PostgresStore {
    fn parallel(&self) -> usize {
        POOL_SIZE as usize
    }

    fn create(&self, g: &NewGame) -> StoreResult<String> {
        self.with(|c| {
            // 16 hex digits of a random UUID's hash (gen_random_uuid draws 122 bits from the
            // server's strong random source; nothing to install).
            let row = c
                .query_one(
                    "INSERT INTO games (id, variant, start_fen, engine, created_ms, clock)
                     VALUES (left(md5(gen_random_uuid()::text), 16), $1, $2, $3, $4, $5)
                     RETURNING id",
                    &[
                        &g.variant,
                        &g.start_fen,
                        &g.engine,
                        &super::store::now_ms(),
                        &g.clock,
                    ],
                )
                .map_err(err)?;
            Ok(row.get(0))
        })
    }

    fn append(&self, id: &str, from: usize, moves: &[StoredMove], engine: &str) -> StoreResult<()> {
        let from = i32::try_from(from).map_err(|_| StoreError(format!("ply {from} too large")))?;
        let plies: Vec<i32> = (from..).take(moves.len()).collect();
        let texts: Vec<&str> = moves.iter().map(|m| m.text.as_str()).collect();
        let played: Vec<i64> = moves.iter().map(|m| m.played_ms).collect();
        let clocks: Vec<Option<i64>> = moves.iter().map(|m| m.clock_ms).collect();
        self.with(|c| {
            let mut tx = c.transaction().map_err(err)?;
            let changed = tx
                .execute(
                    "UPDATE games SET engine = $2 WHERE id = $1",
                    &[&id, &engine],
                )
                .map_err(err)?;
            if changed == 0 {
                return Err(StoreError(format!("no game {id:?}")));
            }
            tx.execute(
                "DELETE FROM moves WHERE game = $1 AND ply >= $2",
                &[&id, &from],
            )
            .map_err(err)?;
            if !moves.is_empty() {
                tx.execute(
                    "INSERT INTO moves (game, ply, text, played_ms, clock_ms)
                     SELECT $1, * FROM unnest($2::int[], $3::text[], $4::bigint[], $5::bigint[])",
                    &[&id, &plies, &texts, &played, &clocks],
                )
                .map_err(err)?;
            }
            tx.commit().map_err(err)
        })
    }

    fn load(&self, id: &str) -> StoreResult<Option<StoredGame>> {
        self.with(|c| {
            // One snapshot: the game and its moves as one commit left them.
            let mut tx = (c.build_transaction())
                .isolation_level(IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .map_err(err)?;
            let Some(row) = tx
                .query_opt(
                    "SELECT id, variant, start_fen, engine, created_ms, clock
                     FROM games WHERE id = $1",
                    &[&id],
                )
                .map_err(err)?
            else {
                return Ok(None);
            };
            let moves = tx
                .query(
                    "SELECT text, played_ms, clock_ms FROM moves WHERE game = $1 ORDER BY ply",
                    &[&id],
                )
                .map_err(err)?
                .iter()
                .map(|m| StoredMove {
                    text: m.get(0),
                    played_ms: m.get(1),
                    clock_ms: m.get(2),
                })
                .collect();
            tx.commit().map_err(err)?;
            Ok(Some(StoredGame {
                id: row.get(0),
                variant: row.get(1),
                start_fen: row.get(2),
                engine: row.get(3),
                created_ms: row.get(4),
                clock: row.get(5),
                moves,
            }))
        })
    }

    fn list(&self) -> StoreResult<Vec<GameSummary>> {
        self.with(|c| {
            let rows = c
                .query(
                    "SELECT g.id, g.variant, (SELECT count(*) FROM moves m WHERE m.game = g.id)
                     FROM games g ORDER BY g.created_ms, g.seq",
                    &[],
                )
                .map_err(err)?;
            Ok(rows
                .iter()
                .map(|r| GameSummary {
                    id: r.get(0),
                    variant: r.get(1),
                    plies: r.get::<_, i64>(2) as usize,
                })
                .collect())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_postgres_urls_are_postgres() {
        assert!(is_url("postgres://u@h/db"));
        assert!(is_url("postgresql://u@h:5432/db"));
        assert!(is_url("PostgreSQL://h/db"));
        for sqlite in [
            "cellmate.db",
            ":memory:",
            "/var/lib/postgres/x.db",
            "postgres.db",
        ] {
            assert!(!is_url(sqlite), "{sqlite}");
        }
    }

    #[test]
    fn a_place_never_shows_the_password() {
        let c: postgres::Config = "postgres://me:secret@db.example:6543/games"
            .parse()
            .unwrap();
        assert_eq!(place(&c), "me@db.example:6543/games");
    }

    #[test]
    fn a_bad_url_or_no_server_is_a_clear_error() {
        let bad = PostgresStore::open("postgres://u@h:notaport/db")
            .err()
            .unwrap();
        assert!(bad.to_string().contains("not a PostgreSQL URL"), "{bad}");
        // A port nobody listens on (bound, then closed): connection refused, at once.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let gone = PostgresStore::open(&format!("postgres://u:pw@127.0.0.1:{port}/db"))
            .err()
            .unwrap()
            .to_string();
        assert!(
            gone.contains(&format!("PostgreSQL at u@127.0.0.1:{port}/db")),
            "{gone}"
        );
        assert!(!gone.contains("pw"), "{gone}");
    }

    /// Inside a current-thread runtime, where `block_in_place` would panic, a call still works
    /// (it fails here only because no server listens).
    #[test]
    fn a_call_on_a_current_thread_runtime_does_not_panic() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let e = rt.block_on(async { PostgresStore::open("postgres://u@127.0.0.1:1/db").err() });
        assert!(e.is_some());
    }
}
