//! The embedded store: one SQLite file (the `bundled` library of `rusqlite`, so nothing is
//! needed on the host). Write-ahead log with `synchronous=FULL`: a committed move is on disk
//! before the server acknowledges it, whatever happens to the process or the machine after.

use std::sync::{Mutex, MutexGuard};

use rusqlite::{params, Connection, OptionalExtension};

use super::store::{
    GameStore, GameSummary, NewGame, StoreError, StoreResult, StoredGame, StoredMove,
};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    engine TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    clock TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    text TEXT NOT NULL,
    played_ms INTEGER NOT NULL,
    clock_ms INTEGER,
    PRIMARY KEY (game, ply)
);
";

/// Columns added since the first schema, added to a database made before them.
const ADDED: &[(&str, &str, &str)] =
    &[("games", "clock", "TEXT"), ("moves", "clock_ms", "INTEGER")];

/// Games in one SQLite database (a file, or `:memory:` for a server that keeps nothing).
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

fn err(e: rusqlite::Error) -> StoreError {
    StoreError(e.to_string())
}

impl SqliteStore {
    /// Opens (or creates) the database at `path`.
    pub fn open(path: &str) -> StoreResult<SqliteStore> {
        let conn = Connection::open(path).map_err(err)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(err)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(err)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(err)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(err)?;
        conn.execute_batch(SCHEMA).map_err(err)?;
        for (table, column, kind) in ADDED {
            let has: bool = conn
                .query_row(
                    &format!("SELECT count(*) FROM pragma_table_info('{table}') WHERE name = ?1"),
                    params![column],
                    |r| r.get::<_, i64>(0).map(|n| n > 0),
                )
                .map_err(err)?;
            if !has {
                conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {kind}"))
                    .map_err(err)?;
            }
        }
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl GameStore for SqliteStore {
    fn create(&self, g: &NewGame) -> StoreResult<String> {
        self.conn()
            .query_row(
                "INSERT INTO games (id, variant, start_fen, engine, created_ms, clock)
                 VALUES (lower(hex(randomblob(8))), ?1, ?2, ?3, ?4, ?5) RETURNING id",
                params![
                    g.variant,
                    g.start_fen,
                    g.engine,
                    super::store::now_ms(),
                    g.clock
                ],
                |r| r.get(0),
            )
            .map_err(err)
    }

    fn append(&self, id: &str, from: usize, moves: &[StoredMove], engine: &str) -> StoreResult<()> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(err)?;
        let changed = tx
            .execute(
                "UPDATE games SET engine = ?2 WHERE id = ?1",
                params![id, engine],
            )
            .map_err(err)?;
        if changed == 0 {
            return Err(StoreError(format!("no game {id:?}")));
        }
        tx.execute(
            "DELETE FROM moves WHERE game = ?1 AND ply >= ?2",
            params![id, from as i64],
        )
        .map_err(err)?;
        {
            let mut add = tx
                .prepare(
                    "INSERT INTO moves (game, ply, text, played_ms, clock_ms)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(err)?;
            for (i, m) in moves.iter().enumerate() {
                add.execute(params![
                    id,
                    (from + i) as i64,
                    m.text,
                    m.played_ms,
                    m.clock_ms
                ])
                .map_err(err)?;
            }
        }
        tx.commit().map_err(err)
    }

    fn load(&self, id: &str) -> StoreResult<Option<StoredGame>> {
        let conn = self.conn();
        let game = conn
            .query_row(
                "SELECT id, variant, start_fen, engine, created_ms, clock FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok(StoredGame {
                        id: r.get(0)?,
                        variant: r.get(1)?,
                        start_fen: r.get(2)?,
                        engine: r.get(3)?,
                        created_ms: r.get(4)?,
                        clock: r.get(5)?,
                        moves: Vec::new(),
                    })
                },
            )
            .optional()
            .map_err(err)?;
        let Some(mut game) = game else {
            return Ok(None);
        };
        let mut q = conn
            .prepare("SELECT text, played_ms, clock_ms FROM moves WHERE game = ?1 ORDER BY ply")
            .map_err(err)?;
        game.moves = q
            .query_map(params![id], |r| {
                Ok(StoredMove {
                    text: r.get(0)?,
                    played_ms: r.get(1)?,
                    clock_ms: r.get(2)?,
                })
            })
            .map_err(err)?
            .collect::<Result<_, _>>()
            .map_err(err)?;
        Ok(Some(game))
    }

    fn list(&self) -> StoreResult<Vec<GameSummary>> {
        let conn = self.conn();
        let mut q = conn
            .prepare(
                "SELECT g.id, g.variant, (SELECT count(*) FROM moves m WHERE m.game = g.id)
                 FROM games g ORDER BY g.created_ms, g.rowid",
            )
            .map_err(err)?;
        let rows = q
            .query_map([], |r| {
                Ok(GameSummary {
                    id: r.get(0)?,
                    variant: r.get(1)?,
                    plies: r.get::<_, i64>(2)? as usize,
                })
            })
            .map_err(err)?
            .collect::<Result<_, _>>()
            .map_err(err)?;
        Ok(rows)
    }
}
