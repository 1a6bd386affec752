//! `cellmate serve`: the browser board as a host for many players (docs/hosting.md).
//!
//! A protocol-level room like [`crate::gui`], whose pieces it shares: the page
//! ([`crate::gui::asset`]), who may connect ([`crate::gui::Access`]), one game's messages
//! ([`crate::gui::session::Session`]) and the one bounded search pool of all players
//! ([`crate::gui::pool::Pool`]). What it adds: HTTP and WebSockets by axum on tokio instead of
//! a thread per connection, `/healthz`, and games kept in a [`store::GameStore`] (SQLite,
//! [`sqlite::SqliteStore`], or PostgreSQL, [`postgres::PostgresStore`], shared by several
//! servers), each move written before the page is told it was played. A game
//! has a URL, `/game/<id>`, that reopens it, also after the server was restarted or killed.

pub mod clock;
pub mod limit;
pub mod postgres;
pub mod sqlite;
pub mod store;
pub mod threads;

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use hyper::body::Incoming;
use serde_json::{json, Value};
use tokio::sync::{watch, Notify};

use crate::core::{Color, Dialect, Move};
use crate::gui::pool::Pool;
use crate::gui::session::{self, Session};
use crate::gui::{Access, Config, MAX_HEAD, MAX_MESSAGE, POLL_EVERY, WRITE_TIMEOUT};
use crate::notation::Word;
use crate::variants::{AnyPos, VariantKind};
use clock::TimeControl;
use store::{GameId, GameStore, StoreResult, StoredGame, StoredMove};
use threads::StoreThreads;

/// What every request handler shares.
struct App {
    access: Access,
    pool: Arc<Pool>,
    /// The store, called on threads of its own.
    store: StoreThreads,
    /// Board pages (WebSockets) open now, and how many may be.
    sessions: AtomicUsize,
    max_sessions: usize,
    idle: Duration,
    /// Each client's message bucket and pages open (`--rate`, `--max-sessions-per-client`).
    clients: limit::Clients,
    /// The games a page plays now, each with its last state for the pages watching it.
    live: std::sync::Mutex<std::collections::HashMap<GameId, Live>>,
}

/// A game a page plays now.
struct Live {
    /// Its last state, for the pages watching it.
    tx: watch::Sender<Value>,
    /// The token of the page that plays it (`page=` in its socket's query), if it sent one.
    page: Option<String>,
    /// Tells the socket that plays it to let go: another socket of the same page takes over.
    evict: Arc<Notify>,
    /// While a new socket of the same page waits to take the game over: told when the old one
    /// has let go.
    taking: Option<Arc<Notify>>,
    /// False once the old socket has let go for a takeover, until the new one holds it.
    held: bool,
}

/// A page's hold on the game it plays: while it lasts, another page opening the game watches
/// it. Dropping it frees the game (its watchers are told), or hands it to a new socket of the
/// same page that waits for it (its watchers go on watching).
struct Hold {
    app: Arc<App>,
    id: GameId,
    tx: watch::Sender<Value>,
    /// Notified when a new socket of the same page takes the game over.
    evict: Arc<Notify>,
}

/// What a socket opening a game gets.
enum Claim {
    /// The game: no page played it.
    Hold(Hold),
    /// A watch of it: another page plays it.
    Watch(watch::Receiver<Value>),
    /// Its own page's older socket plays it and has been told to let go: wait for this, then
    /// [`App::taken_over`].
    Take(Arc<Notify>),
}

/// How long a page's new socket waits for its old one to let go of the game (it may be
/// storing a move, or sending to a slow page: [`WRITE_TIMEOUT`]); then it watches instead.
const TAKEOVER: Duration = Duration::from_secs(15);

/// The close code of a socket whose game was taken over by a newer socket of the same page.
pub const MOVED_CLOSE: (u16, &str) = (4001, "the page opened another socket on this game");

impl App {
    /// The game `id` for a page with the token `page`: a hold on it if no page plays it, a
    /// takeover if a socket of the same page plays it, else a watch of it.
    fn claim(self: &Arc<App>, id: &str, page: Option<&str>) -> Claim {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(g) = live.get_mut(id) {
            let same = page.is_some() && g.page.as_deref() == page;
            if same && g.held && g.taking.is_none() {
                let released = Arc::new(Notify::new());
                g.taking = Some(Arc::clone(&released));
                g.evict.notify_one();
                return Claim::Take(released);
            }
            return Claim::Watch(g.tx.subscribe());
        }
        Claim::Hold(self.hold_new(&mut live, id, page))
    }

    /// A hold on the game `id`, which no page plays.
    fn hold_new(
        self: &Arc<App>,
        live: &mut std::collections::HashMap<GameId, Live>,
        id: &str,
        page: Option<&str>,
    ) -> Hold {
        let (tx, _) = watch::channel(Value::Null);
        let evict = Arc::new(Notify::new());
        live.insert(
            id.to_string(),
            Live {
                tx: tx.clone(),
                page: page.map(str::to_string),
                evict: Arc::clone(&evict),
                taking: None,
                held: true,
            },
        );
        Hold {
            app: Arc::clone(self),
            id: id.to_string(),
            tx,
            evict,
        }
    }

    /// The game `id` once its old socket has let go ([`Claim::Take`]): a hold on it, with the
    /// same watchers; a watch if the old socket did not let go in time.
    fn taken_over(self: &Arc<App>, id: &str, page: Option<&str>, released: &Arc<Notify>) -> Claim {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        let Some(g) = live.get_mut(id) else {
            return Claim::Hold(self.hold_new(&mut live, id, page));
        };
        let ours = g.taking.as_ref().is_some_and(|t| Arc::ptr_eq(t, released));
        if ours {
            g.taking = None;
        }
        if !ours || g.held {
            return Claim::Watch(g.tx.subscribe());
        }
        let evict = Arc::new(Notify::new());
        g.held = true;
        g.page = page.map(str::to_string);
        g.evict = Arc::clone(&evict);
        Claim::Hold(Hold {
            app: Arc::clone(self),
            id: id.to_string(),
            tx: g.tx.clone(),
            evict,
        })
    }

    /// [`App::claim`], waiting for a takeover to end.
    async fn open_game(
        self: &Arc<App>,
        id: &str,
        page: Option<&str>,
    ) -> Result<Hold, watch::Receiver<Value>> {
        let claim = match self.claim(id, page) {
            Claim::Take(released) => {
                log::info!("serve: game {id} moves to a new socket of its page");
                let _ = tokio::time::timeout(TAKEOVER, released.notified()).await;
                self.taken_over(id, page, &released)
            }
            c => c,
        };
        match claim {
            Claim::Hold(h) => Ok(h),
            Claim::Watch(rx) => Err(rx),
            Claim::Take(_) => unreachable!("taken_over never asks to wait again"),
        }
    }
}

impl Hold {
    /// Shows the states among `out` to the game's watchers: as the player sees them, but
    /// without legal moves, marked `watching` and not replies to anything of theirs.
    fn publish(&self, out: &[Value]) {
        for v in out.iter().filter(|v| v["type"] == "state") {
            let mut w = v.clone();
            if let Some(o) = w.as_object_mut() {
                o.remove("reply");
                o.insert("legal".into(), json!([]));
                o.insert("watching".into(), json!(true));
            }
            self.tx.send_replace(w);
        }
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut live = (self.app.live.lock()).unwrap_or_else(|e| e.into_inner());
        let Some(g) = live.get_mut(&self.id) else {
            return;
        };
        if !Arc::ptr_eq(&g.evict, &self.evict) {
            return;
        }
        match &g.taking {
            Some(released) => {
                g.held = false;
                released.notify_one();
            }
            None => {
                live.remove(&self.id);
            }
        }
    }
}

/// What `cellmate serve` adds to the local board's [`Config`].
#[derive(Clone, Debug)]
pub struct Settings {
    /// Where the games are kept: a PostgreSQL URL (`postgres://…`, `postgresql://…`), else the
    /// path of a SQLite database (`:memory:` keeps nothing).
    pub db: String,
    /// A request head not read whole within this time ends its connection.
    pub head_timeout: Duration,
    /// The per-client limits: messages a second, pages open, trusted proxies.
    pub limits: limit::Limits,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            db: "cellmate.db".into(),
            head_timeout: HEAD_TIMEOUT,
            limits: limit::Limits::default(),
        }
    }
}

/// Opens the store at `settings.db`, binds `bind` and serves until the process ends. `config` is the
/// local board's ([`crate::gui::Config`]): its `max_connections` bounds the board pages open
/// at once.
pub fn run(bind: SocketAddr, config: &Config, settings: &Settings) -> Result<(), String> {
    let store = open_store(&settings.db)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("serve")
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(bind)
            .await
            .map_err(|e| format!("{bind}: {e}"))?;
        serve(listener, config, settings, store).await
    })
}

/// The store `db` names: a PostgreSQL database if it is a URL `postgres://…` or
/// `postgresql://…` ([`postgres::is_url`]), else a SQLite file (created if missing).
pub fn open_store(db: &str) -> Result<Arc<dyn GameStore>, String> {
    if postgres::is_url(db) {
        let store = postgres::PostgresStore::open(db).map_err(|e| e.to_string())?;
        log::info!("serve: games in PostgreSQL at {}", store.place());
        Ok(Arc::new(store))
    } else {
        let store = sqlite::SqliteStore::open(db).map_err(|e| format!("{db}: {e}"))?;
        Ok(Arc::new(store))
    }
}

/// Serves on a bound listener with games in `store`.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: &Config,
    settings: &Settings,
    store: Arc<dyn GameStore>,
) -> Result<(), String> {
    let head_timeout = settings.head_timeout;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let store = StoreThreads::start(store).map_err(|e| format!("game store threads: {e}"))?;
    let games = (store.call(|s| s.list()).await).map_err(|e| e.to_string())?;
    let pool = Pool::with_eval(config.workers, config.hash_mb, config.eval)?;
    let app = Arc::new(App {
        access: Access::new(addr, &config.allow_origins),
        pool: Arc::new(pool),
        store,
        sessions: AtomicUsize::new(0),
        max_sessions: config.max_connections,
        idle: config.idle_timeout,
        clients: limit::Clients::new(settings.limits.clone()),
        live: Default::default(),
    });
    log::info!(
        "serve: {} stored games, each at /game/<id>; {} search workers, {} MB table, {} store \
         threads",
        games.len(),
        config.workers,
        config.hash_mb,
        app.store.threads()
    );
    let limits = &settings.limits;
    log::info!(
        "serve: per client at most {} messages a second ({} at once), {} pages open{}",
        limits.rate,
        limits.burst,
        limits.max_sessions,
        if limits.trusted_proxies.is_empty() {
            String::new()
        } else {
            format!(
                "; X-Forwarded-For trusted from {:?}",
                limits.trusted_proxies
            )
        }
    );
    eprintln!("cellmate serve: listening on http://{addr}/ (Ctrl-C to stop)");
    let router = Router::new()
        .route("/healthz", get(healthz))
        .route("/ws", get(socket))
        .route("/game/{id}", get(game_page))
        .route("/game/{id}/json", get(game_json))
        .fallback(page)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            access,
        ))
        .with_state(app);
    accept(listener, router, head_timeout).await
}

/// How long a client may take to send a request head by default (the local board's read
/// timeout): one that sends it byte by byte, or opens a connection and sends nothing, is
/// dropped then.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves each connection of `listener` on a task of its own: HTTP/1.1 by hyper with its
/// timer, so that a request head not read whole within `head_timeout` (also the first one,
/// and the next one of a kept-alive connection) ends the connection. `axum::serve` sets no
/// timer, and without one hyper waits for a head forever.
async fn accept(
    listener: tokio::net::TcpListener,
    router: Router,
    head_timeout: Duration,
) -> Result<(), String> {
    loop {
        let (tcp, remote) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // Out of file descriptors and the like: wait a little rather than spin.
                log::warn!("serve: accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(remote));
            tower_service::Service::call(&mut router.clone(), req.map(axum::body::Body::new))
        });
        tokio::spawn(async move {
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(head_timeout)
                .serve_connection(hyper_util::rt::TokioIo::new(tcp), service)
                .with_upgrades();
            if let Err(e) = conn.await {
                log::debug!("serve: connection from {remote}: {e}");
            }
        });
    }
}

/// The Host and Origin checks of [`Access`], and the local board's limit on a request head's
/// size, on every request.
async fn access(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let head: usize = (req.headers().iter())
        .map(|(k, v)| k.as_str().len() + v.len() + 4)
        .sum::<usize>()
        + req.uri().to_string().len();
    if head > MAX_HEAD {
        return plain(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            crate::gui::TOO_LONG,
        );
    }
    let allowed = {
        let text = |name| req.headers().get(name).and_then(|v| v.to_str().ok());
        let websocket = req.uri().path() == "/ws";
        app.access
            .allows_headers(text(header::HOST), text(header::ORIGIN), websocket)
    };
    if allowed {
        next.run(req).await
    } else {
        log::info!(
            "serve: refused a request for {:?} (Host or Origin not allowed)",
            req.uri().path()
        );
        plain(StatusCode::FORBIDDEN, crate::gui::FORBIDDEN)
    }
}

fn plain(status: StatusCode, body: &'static [u8]) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain")], body).into_response()
}

fn no_store(ctype: &'static str, body: impl IntoResponse) -> Response {
    (
        [
            (header::CONTENT_TYPE, ctype),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// The page's files ([`crate::gui::asset`]).
async fn page(method: Method, uri: axum::http::Uri) -> Response {
    if method != Method::GET {
        return plain(StatusCode::METHOD_NOT_ALLOWED, b"GET only\n");
    }
    match crate::gui::asset(uri.path()) {
        Some((ctype, body)) => no_store(ctype, body),
        None => plain(StatusCode::NOT_FOUND, b"not found\n"),
    }
}

async fn healthz(State(app): State<Arc<App>>) -> Response {
    let v = json!({
        "status": "ok",
        "sessions": app.sessions.load(Ordering::SeqCst),
        "max_sessions": app.max_sessions,
        "workers": app.pool.workers(),
        "searching": app.pool.busy(),
        "waiting": app.pool.waiting(),
    });
    no_store("application/json", v.to_string())
}

/// The stored game `id`, or the answer that there is none (404) or the store failed (500).
async fn stored(app: &App, id: &str) -> Result<StoredGame, (StatusCode, &'static [u8])> {
    match load(app, id).await {
        Ok(Some(g)) => Ok(g),
        Ok(None) => Err((StatusCode::NOT_FOUND, b"no such game\n")),
        Err(e) => {
            log::error!("serve: {e}");
            Err((StatusCode::INTERNAL_SERVER_ERROR, b"game store error\n"))
        }
    }
}

/// The stored game `id`, loaded on the store's threads.
async fn load(app: &App, id: &str) -> StoreResult<Option<StoredGame>> {
    let id = id.to_string();
    app.store.call(move |store| store.load(&id)).await
}

/// `/game/<id>`: the page, which then opens the socket on that game.
async fn game_page(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    match stored(&app, &id).await {
        Ok(_) => page(Method::GET, axum::http::Uri::from_static("/")).await,
        Err((status, body)) => plain(status, body),
    }
}

/// `/game/<id>/json`: the game as stored, and its position now.
async fn game_json(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let g = match stored(&app, &id).await {
        Ok(g) => g,
        Err((status, body)) => return plain(status, body),
    };
    let fen = replay(&g).map(|(mut pos, moves)| {
        for m in moves {
            pos.make_move(m);
        }
        pos.fen()
    });
    let v = json!({
        "id": g.id,
        "variant": g.variant,
        "start_fen": g.start_fen,
        "fen": fen.ok(),
        "engine": serde_json::from_str::<Value>(&g.engine).unwrap_or(Value::Null),
        "created_ms": g.created_ms,
        "clock": g.clock.as_deref().and_then(|c| serde_json::from_str::<Value>(c).ok()),
        "moves": g.moves.iter().map(|m| json!({"move": m.text, "played_ms": m.played_ms, "clock_ms": m.clock_ms})).collect::<Vec<_>>(),
    });
    no_store("application/json", v.to_string())
}

/// A stored game's start and its moves, checked by the rules.
fn replay(g: &StoredGame) -> Result<(AnyPos, Vec<Move>), String> {
    let kind = VariantKind::from_name(&g.variant)
        .ok_or_else(|| format!("unknown variant {:?}", g.variant))?;
    let start = kind.from_fen(&g.start_fen).map_err(|e| e.to_string())?;
    let words: Vec<Word> = (g.moves.iter().enumerate())
        .map(|(i, m)| Word {
            line: i + 1,
            text: m.text.clone(),
        })
        .collect();
    let moves = crate::notation::read(&start, &words, Dialect::UCI).map_err(|e| e.to_string())?;
    Ok((start, moves))
}

/// Gives back a board page's place, among all pages and among its client's, when its socket
/// ends.
struct Seat {
    app: Arc<App>,
    client: IpAddr,
}

impl Drop for Seat {
    fn drop(&mut self) {
        self.app.sessions.fetch_sub(1, Ordering::SeqCst);
        self.app.clients.close(self.client);
    }
}

/// The answer to a board page over `--max-sessions-per-client`.
pub const TOO_MANY_PAGES: &[u8] = b"too many board pages open from your address\n";

/// `/ws[?game=<id>]`: a board page's socket, on a new game or a stored one.
async fn socket(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    uri: axum::http::Uri,
    upgrade: WebSocketUpgrade,
) -> Response {
    let forwarded = (headers.get_all("x-forwarded-for").iter()).filter_map(|v| v.to_str().ok());
    let client = app.clients.client(peer.ip(), forwarded);
    if !app.clients.open(client, Instant::now()) {
        log::warn!(
            "serve: {client} has {} board pages open, one more refused",
            app.clients.limits().max_sessions
        );
        return plain(StatusCode::TOO_MANY_REQUESTS, TOO_MANY_PAGES);
    }
    if app.sessions.fetch_add(1, Ordering::SeqCst) >= app.max_sessions {
        app.sessions.fetch_sub(1, Ordering::SeqCst);
        app.clients.close(client);
        log::warn!(
            "serve: {} board pages open, one more refused",
            app.max_sessions
        );
        return plain(StatusCode::SERVICE_UNAVAILABLE, crate::gui::BUSY);
    }
    let seat = Seat {
        app: Arc::clone(&app),
        client,
    };
    let param = |name: &str| {
        let query = uri.query().unwrap_or_default();
        (query.split('&'))
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
            .map(str::to_string)
    };
    let game = param("game");
    let page = param("page").filter(|t| page_token(t));
    upgrade
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |ws| async move {
            board(ws, &seat.app, client, game, page).await;
            drop(seat);
        })
}

/// Whether `t` may be a page's token (`page=` in its socket's query): the page's random name
/// for itself, so that its new socket on its game takes the game over from its old one
/// ([`Claim::Take`]). 8 to 64 letters, digits, `-` or `_`.
fn page_token(t: &str) -> bool {
    (8..=64).contains(&t.len())
        && (t.bytes()).all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// What of a session's game is in the store, so that only what changed is written, and the
/// game's clocks.
struct Recorder {
    id: Option<GameId>,
    /// The session's [`Session::game_number`] of the stored game.
    game: u64,
    moves: Vec<String>,
    engine: String,
    /// The stored game's time control (`None`: untimed), and the next game's.
    tc: Option<TimeControl>,
    next_tc: Option<TimeControl>,
    /// Each stored move's mover's time left after it.
    left: Vec<Option<i64>>,
    /// When the clock of the side to move started: the last move's time, or a take-back's.
    since: Option<i64>,
}

/// The side that played each of the session's moves.
fn movers(s: &Session) -> Vec<Color> {
    let mut pos = s.start().clone();
    (s.moves().iter())
        .map(|&m| {
            let c = pos.side_to_move();
            pos.make_move(m);
            c
        })
        .collect()
}

impl Recorder {
    fn new() -> Recorder {
        Recorder {
            id: None,
            game: 0,
            moves: Vec::new(),
            engine: String::new(),
            tc: Some(TimeControl::DEFAULT),
            next_tc: Some(TimeControl::DEFAULT),
            left: Vec::new(),
            since: None,
        }
    }

    /// Takes the stored game `g`, just put into session `s`.
    fn reopened(&mut self, g: StoredGame, s: &Session) {
        self.id = Some(g.id);
        self.game = s.game_number();
        self.engine = g.engine;
        self.tc = g.clock.as_deref().and_then(TimeControl::from_stored);
        self.since = g.moves.last().map(|m| m.played_ms);
        self.left = g.moves.iter().map(|m| m.clock_ms).collect();
        self.moves = g.moves.into_iter().map(|m| m.text).collect();
    }

    /// What to write of the session's game since the last write, if anything changed. A game
    /// is stored from its first move on; a new game or an import is stored as a new game, with
    /// a new id. Once written, [`Recorder::written`].
    fn changes(&mut self, s: &Session) -> Option<Write> {
        let moves = s.move_texts();
        let engine = s.engine_json().to_string();
        if self.id.is_none() || s.game_number() != self.game {
            self.id = None;
            self.game = s.game_number();
            self.moves.clear();
            self.left.clear();
            self.since = None;
            self.tc = self.next_tc;
            if moves.is_empty() {
                return None;
            }
        }
        let create = self.id.is_none().then(|| NewGameOwned {
            variant: s.pos().kind().name().to_string(),
            start_fen: s.start().fen(),
            engine: engine.clone(),
            clock: self.tc.map(|tc| tc.to_json().to_string()),
        });
        let keep = self
            .moves
            .iter()
            .zip(&moves)
            .take_while(|(a, b)| a == b)
            .count();
        if keep == self.moves.len() && keep == moves.len() && engine == self.engine {
            return None;
        }
        let now = store::now_ms();
        if keep < self.moves.len() {
            // A take-back: the clock of the side to move starts again now.
            self.since = Some(now);
        }
        self.left.truncate(keep);
        let movers = movers(s);
        let mut new = Vec::new();
        for (i, text) in moves.iter().enumerate().skip(keep) {
            let left = self.tc.map(|tc| {
                let before = tc.left(&movers[..i], &self.left)[movers[i].index()];
                tc.after_move(before, self.since.filter(|_| i > 0), now)
            });
            self.left.push(left);
            self.since = Some(now);
            new.push(StoredMove {
                text: text.clone(),
                played_ms: now,
                clock_ms: left,
            });
        }
        Some(Write {
            create,
            id: self.id.clone(),
            keep,
            new,
            engine,
            moves,
        })
    }

    /// Takes what `w` wrote, as the game `id`.
    fn written(&mut self, w: Write, id: GameId) {
        if let Some(g) = &w.create {
            log::info!("serve: game {id} ({}) stored", g.variant);
        }
        self.id = Some(id);
        self.moves = w.moves;
        self.engine = w.engine;
    }

    /// The state's `clock` now (null in an untimed game): the stored game's, or before its
    /// first move the time control it will have, both clocks full.
    fn clock_json(&self, s: &Session) -> Value {
        self.clock_json_at(s, None)
    }

    /// [`Recorder::clock_json`] of the state after the game's first `plies` moves (`None`: all
    /// of them). A batch of states written together (the player's move, and the engine's
    /// answer that came at once) has one clock each, as it was after its own move: the
    /// player's state does not show the player's clock already running again.
    fn clock_json_at(&self, s: &Session, plies: Option<usize>) -> Value {
        let stored = self.id.is_some() && s.game_number() == self.game;
        let Some(tc) = (if stored { self.tc } else { self.next_tc }) else {
            return Value::Null;
        };
        if !stored {
            return clock::state_json(tc, [tc.base_ms; 2], None, None, store::now_ms());
        }
        let movers = movers(s);
        let n = plies.map_or(movers.len(), |p| p.min(movers.len()));
        let left = tc.left(&movers[..n], &self.left[..n.min(self.left.len())]);
        let running = if n == 0 {
            None
        } else if n < movers.len() {
            Some(movers[n])
        } else {
            s.pos().outcome().is_none().then(|| s.pos().side_to_move())
        };
        clock::state_json(tc, left, running, self.since, store::now_ms())
    }

    /// The side to move if its time is up (its moves are refused).
    fn flagged(&self, s: &Session) -> Option<Color> {
        let side = s.pos().side_to_move();
        let clock = self.clock_json(s);
        let name = ["white", "black"][side.index()];
        (clock["running"] == name && clock["flag"] == name).then_some(side)
    }
}

/// A new game to create, owned, so that it can go to the store's threads.
struct NewGameOwned {
    variant: String,
    start_fen: String,
    engine: String,
    clock: Option<String>,
}

/// What of a game [`Recorder::changes`] has to write: the game itself if new, its moves from
/// ply `keep` on, its engine settings. One [`GameStore::create`] if new, then one
/// [`GameStore::append`].
struct Write {
    create: Option<NewGameOwned>,
    id: Option<GameId>,
    keep: usize,
    new: Vec<StoredMove>,
    engine: String,
    /// The game's moves once written.
    moves: Vec<String>,
}

impl Write {
    /// Writes it; returns the game's id.
    fn run(&self, store: &dyn GameStore) -> StoreResult<GameId> {
        let id = match (&self.create, &self.id) {
            (Some(g), _) => store.create(&store::NewGame {
                variant: &g.variant,
                start_fen: &g.start_fen,
                engine: &g.engine,
                clock: g.clock.as_deref(),
            })?,
            (None, Some(id)) => id.clone(),
            (None, None) => return Err(store::StoreError("a game without an id".into())),
        };
        store.append(&id, self.keep, &self.new, &self.engine)?;
        Ok(id)
    }
}

/// Writes what changed in the game on the store's threads and waits for it to be committed
/// (`session` is `&mut` only because a [`Session`] is not `Sync` and this future must be
/// `Send`).
async fn sync(app: &App, rec: &mut Recorder, session: &mut Session) -> StoreResult<()> {
    let Some(w) = rec.changes(session) else {
        return Ok(());
    };
    let (w, id) = app
        .store
        .call(move |store| {
            let id = w.run(store)?;
            Ok((w, id))
        })
        .await?;
    rec.written(w, id);
    Ok(())
}

/// Stores what changed in the game, then returns `out` to send (each state with the game's
/// id), and whether the socket goes on. If the store fails nothing is acknowledged: the page
/// gets an error and the socket closes.
async fn stored_first(
    app: &App,
    rec: &mut Recorder,
    session: &mut Session,
    out: Vec<Value>,
) -> (Vec<Value>, bool) {
    if out.is_empty() {
        return (out, true);
    }
    if let Err(e) = sync(app, rec, session).await {
        log::error!("serve: {e}");
        let reply = out.iter().any(|v| v["reply"] == true);
        let message = format!("the game could not be stored ({e}); reload the page");
        return (
            vec![json!({"type": "error", "message": message, "reply": reply})],
            false,
        );
    }
    let mut out = out;
    for v in &mut out {
        if v["type"] == "state" {
            v["game"] = json!(rec.id);
            let plies = v["history"].as_array().map(|h| h.len());
            v["clock"] = rec.clock_json_at(session, plies);
        }
    }
    (out, true)
}

/// Sends `out`; false if the socket is gone, or the page did not take a message within
/// [`WRITE_TIMEOUT`].
async fn send_all(ws: &mut WebSocket, out: Vec<Value>) -> bool {
    for v in out {
        let sent =
            tokio::time::timeout(WRITE_TIMEOUT, ws.send(Message::Text(v.to_string().into())));
        if !matches!(sent.await, Ok(Ok(()))) {
            return false;
        }
    }
    true
}

/// A socket's messages against its client's bucket ([`limit::Clients::take`]).
struct Gate {
    client: IpAddr,
    /// Messages refused since the last one taken.
    refused: u64,
}

/// What becomes of one message of a page.
enum Admit {
    /// Executed.
    Take,
    /// Not executed: the page gets this error.
    Refuse(Value),
    /// Not executed, and the socket is closed: it has been refused too many in a row.
    Close,
}

impl Gate {
    fn new(client: IpAddr) -> Gate {
        Gate { client, refused: 0 }
    }

    fn admit(&mut self, app: &App) -> Admit {
        if app.clients.take(self.client, Instant::now()) {
            self.refused = 0;
            return Admit::Take;
        }
        self.refused += 1;
        let limits = app.clients.limits();
        if self.refused > limits.close_after() {
            log::warn!(
                "serve: a page of {} closed: {} messages refused in a row",
                self.client,
                limits.close_after()
            );
            return Admit::Close;
        }
        if self.refused == 1 {
            log::info!("serve: messages of {} refused (rate limit)", self.client);
        }
        Admit::Refuse(json!({"type": "error", "message": limits.refusal(), "reply": true}))
    }
}

/// Closes a socket that kept sending while refused: close code 1008 (policy violation).
async fn close_flooded(ws: &mut WebSocket) {
    let frame = axum::extract::ws::CloseFrame {
        code: axum::extract::ws::close_code::POLICY,
        reason: "too many messages".into(),
    };
    let _ = tokio::time::timeout(WRITE_TIMEOUT, ws.send(Message::Close(Some(frame)))).await;
}

/// One board page: its session's messages and the engine's reports, until it closes or is
/// quiet (no message, no search) for the idle timeout.
/// `page` is the page's token: a newer socket of the same page on the same game takes the game
/// over, this one is then closed ([`MOVED_CLOSE`]).
async fn board(
    mut ws: WebSocket,
    app: &Arc<App>,
    client: IpAddr,
    game: Option<String>,
    page: Option<String>,
) {
    let mut gate = Gate::new(client);
    let mut hold = None;
    if let Some(id) = &game {
        match app.open_game(id, page.as_deref()).await {
            Ok(h) => hold = Some(h),
            Err(rx) => return watch_game(ws, app, gate, id, rx).await,
        }
    }
    let mut session = Session::with_pool(Arc::clone(&app.pool));
    let mut rec = Recorder::new();
    let mut hello = Vec::new();
    if let Some(id) = game {
        match reopen(app, &id, &mut session).await {
            Ok(g) => {
                log::info!("serve: game {id} reopened at ply {}", g.moves.len());
                rec.reopened(g, &session);
            }
            Err(e) => {
                hold = None;
                hello.push(json!({"type": "error", "message": e}));
            }
        }
    }
    hello.push(session.state());
    let (hello, go_on) = stored_first(app, &mut rec, &mut session, hello).await;
    if let Some(h) = &hold {
        h.publish(&hello);
    }
    if !send_all(&mut ws, hello).await || !go_on {
        return;
    }
    let mut heard = Instant::now();
    loop {
        let wait = if session.is_thinking() {
            heard = Instant::now();
            POLL_EVERY
        } else {
            app.idle.saturating_sub(heard.elapsed())
        };
        let evict = hold.as_ref().map(|h| Arc::clone(&h.evict));
        let got = tokio::select! {
            got = tokio::time::timeout(wait, ws.recv()) => got,
            () = async {
                match &evict {
                    Some(e) => e.notified().await,
                    None => std::future::pending().await,
                }
            } => {
                // The page's new socket takes its game over: everything of this one is stored.
                let (code, reason) = MOVED_CLOSE;
                let frame = axum::extract::ws::CloseFrame { code, reason: reason.into() };
                let _ = tokio::time::timeout(WRITE_TIMEOUT, ws.send(Message::Close(Some(frame)))).await;
                return;
            }
        };
        let out = match got {
            Err(_) if !session.is_thinking() => {
                log::info!("serve: a board page quiet for {:?} closed", app.idle);
                let _ = ws.send(idle_close()).await;
                return;
            }
            Err(_) => Vec::new(),
            Ok(Some(Ok(m @ (Message::Text(_) | Message::Binary(_))))) => {
                heard = Instant::now();
                match (gate.admit(app), m) {
                    (Admit::Take, Message::Text(t)) => hosted(&mut rec, &mut session, t.as_str()),
                    (Admit::Take, _) => vec![session::binary_refused()],
                    (Admit::Refuse(v), _) => vec![v],
                    (Admit::Close, _) => return close_flooded(&mut ws).await,
                }
            }
            Ok(Some(Ok(Message::Close(_))) | None) => return,
            Ok(Some(Ok(_))) => Vec::new(),
            Ok(Some(Err(e))) => {
                log::debug!("serve: socket: {e}");
                return;
            }
        };
        let mut out = out;
        out.extend(session.poll());
        let (out, go_on) = stored_first(app, &mut rec, &mut session, out).await;
        if hold.as_ref().map(|h| &h.id) != rec.id.as_ref() {
            // A new game (or an import) is stored under a new id: its watchers are not this
            // game's; nobody can hold a new id yet.
            hold = match rec.id.as_deref().map(|id| app.claim(id, page.as_deref())) {
                Some(Claim::Hold(h)) => Some(h),
                _ => None,
            };
        }
        if let Some(h) = &hold {
            h.publish(&out);
        }
        if !send_all(&mut ws, out).await || !go_on {
            return;
        }
    }
}

/// The reply of a watching page to any message but `state`.
const WATCHING: &str = "this game is played on another page: this one watches it (its moves \
     appear as they are played) and cannot move";

/// A page that opened game `id` while another page plays it: it gets each state the player's
/// page gets (no legal moves, `watching: true`) and cannot change the game. When the player's
/// page leaves, it is told so, and reloading it takes the game over.
async fn watch_game(
    mut ws: WebSocket,
    app: &App,
    mut gate: Gate,
    id: &str,
    mut rx: watch::Receiver<Value>,
) {
    log::info!("serve: a page watches game {id}");
    let mut last = rx.borrow_and_update().clone();
    let mut playing = true;
    if !last.is_null() {
        clock::age(&mut last, store::now_ms());
        if !send_all(&mut ws, vec![last.clone()]).await {
            return;
        }
    }
    let mut heard = Instant::now();
    loop {
        let wait = app.idle.saturating_sub(heard.elapsed());
        let out = tokio::select! {
            changed = rx.changed(), if playing => match changed {
                Ok(()) => {
                    heard = Instant::now();
                    last = rx.borrow_and_update().clone();
                    vec![last.clone()]
                }
                Err(_) => {
                    playing = false;
                    let message = "the player's page has left this game; reload to play it";
                    vec![json!({"type": "error", "message": message})]
                }
            },
            got = tokio::time::timeout(wait, ws.recv()) => match got {
                Err(_) => {
                    let _ = ws.send(idle_close()).await;
                    return;
                }
                Ok(Some(Ok(m @ (Message::Text(_) | Message::Binary(_))))) => {
                    heard = Instant::now();
                    match (gate.admit(app), m) {
                        (Admit::Take, Message::Text(t)) => watcher_reply(&last, t.as_str()),
                        (Admit::Take, _) => vec![session::binary_refused()],
                        (Admit::Refuse(v), _) => vec![v],
                        (Admit::Close, _) => return close_flooded(&mut ws).await,
                    }
                }
                Ok(Some(Ok(Message::Close(_))) | None) | Ok(Some(Err(_))) => return,
                Ok(Some(Ok(_))) => Vec::new(),
            },
        };
        if !send_all(&mut ws, out).await {
            return;
        }
    }
}

/// The reply to a watching page's message: the state it asked for, else an error.
fn watcher_reply(last: &Value, text: &str) -> Vec<Value> {
    let asked: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    if asked["type"] == "state" && !last.is_null() {
        let mut v = last.clone();
        clock::age(&mut v, store::now_ms());
        v["reply"] = json!(true);
        vec![v]
    } else {
        vec![json!({"type": "error", "message": WATCHING, "reply": true})]
    }
}

/// A page's message to the session, or to the server: `clock` (a time control, for the game
/// if it has no move yet, else for the next one), and a move refused when its side's time is
/// up.
fn hosted(rec: &mut Recorder, session: &mut Session, text: &str) -> Vec<Value> {
    let msg: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    let refuse =
        |message: String| vec![json!({"type": "error", "message": message, "reply": true})];
    if msg["type"] == "clock" {
        return match TimeControl::from_message(&msg) {
            Ok(tc) => {
                rec.next_tc = tc;
                let mut state = session.state();
                state["reply"] = json!(true);
                vec![state]
            }
            Err(e) => refuse(e),
        };
    }
    if msg["type"] == "move" {
        if let Some(side) = rec.flagged(session) {
            let side = ["White", "Black"][side.index()];
            return refuse(format!("{side}'s time is up: {side} has lost on time"));
        }
    }
    session.handle(text)
}

/// The close frame of a page closed for being quiet ([`crate::gui::IDLE_CLOSE`]).
fn idle_close() -> Message {
    let (code, reason) = crate::gui::IDLE_CLOSE;
    Message::Close(Some(axum::extract::ws::CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// Puts the stored game `id` into the session.
async fn reopen(app: &App, id: &str, session: &mut Session) -> Result<StoredGame, String> {
    let g = load(app, id)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no game {id:?}: a new game instead"))?;
    let (start, moves) = replay(&g)?;
    let engine: Value = serde_json::from_str(&g.engine).map_err(|e| e.to_string())?;
    session.resume(start, moves, &engine)?;
    Ok(g)
}
