//! Where `cellmate serve` keeps its games: one small trait, [`GameStore`], with two stores: the
//! embedded SQLite one ([`super::sqlite::SqliteStore`]) and one on a PostgreSQL server that
//! several `serve` processes share ([`super::postgres::PostgresStore`], docs/hosting.md). Both
//! keep the one contract checked by `tests/it/serve/store.rs`.
//!
//! A game is its variant, its start position, its moves in UCI coordinates with the time each
//! was played, and the engine's settings (which sides it plays, how long it thinks). The server
//! writes a move before it tells the page the move was played, so a game acknowledged to a
//! player survives the process being killed.

use std::fmt;

/// A game's id: 16 hex digits, chosen at random by the store (a game's URL is `/game/<id>`,
/// and an id cannot be guessed from another).
pub type GameId = String;

/// One move as stored: its UCI text, when it was played (milliseconds since 1970, UTC) and, in
/// a timed game, its mover's time left after it (milliseconds, the increment added).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    pub text: String,
    pub played_ms: i64,
    pub clock_ms: Option<i64>,
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub id: GameId,
    /// The variant's name (`VariantKind::name`).
    pub variant: String,
    pub start_fen: String,
    /// The engine's settings as a JSON object (the page's `engine` message).
    pub engine: String,
    /// The time control as a JSON object (`{"base_ms":..,"inc_ms":..}`), `None` if untimed.
    pub clock: Option<String>,
    pub created_ms: i64,
    pub moves: Vec<StoredMove>,
}

/// What [`GameStore::create`] stores of a new game.
pub struct NewGame<'a> {
    pub variant: &'a str,
    pub start_fen: &'a str,
    /// The engine's settings as a JSON object.
    pub engine: &'a str,
    /// The time control as a JSON object, `None` if untimed.
    pub clock: Option<&'a str>,
}

/// A line of [`GameStore::list`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub id: GameId,
    pub variant: String,
    pub plies: usize,
}

/// Why the store could not do what was asked.
#[derive(Debug)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game store: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

pub type StoreResult<T> = Result<T, StoreError>;

/// The games of a server. Every call is one transaction: it is written whole or not at all.
pub trait GameStore: Send + Sync {
    /// A new game without moves; returns its id.
    fn create(&self, game: &NewGame) -> StoreResult<GameId>;
    /// The game's moves from ply `from` on become `moves` (a take-back stores fewer moves than
    /// were there, a move one more), and its engine settings `engine`.
    fn append(&self, id: &str, from: usize, moves: &[StoredMove], engine: &str) -> StoreResult<()>;
    /// The game, or `None` if there is none with this id.
    fn load(&self, id: &str) -> StoreResult<Option<StoredGame>>;
    /// Every game, the oldest first.
    fn list(&self) -> StoreResult<Vec<GameSummary>>;
    /// How many calls it can serve at once (its connections): `cellmate serve` calls it from
    /// that many threads ([`super::threads::StoreThreads`]).
    fn parallel(&self) -> usize {
        1
    }
}

/// Now, in milliseconds since 1970 (UTC).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
