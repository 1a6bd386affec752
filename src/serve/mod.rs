//! `cellmate serve`: the browser board as a host for many players (docs/hosting.md).
//!
//! A protocol-level room like [`crate::gui`], whose pieces it shares: the page
//! ([`crate::gui::asset`]), who may connect ([`crate::gui::Access`]), one game's messages
//! ([`crate::gui::session::Session`]) and the one bounded search pool of all players
//! ([`crate::gui::pool::Pool`]). What it adds: HTTP and WebSockets by axum on tokio instead of
//! a thread per connection, and `/healthz`.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};

use crate::gui::pool::Pool;
use crate::gui::session::{self, Session};
use crate::gui::{Access, Config, MAX_HEAD, MAX_MESSAGE, POLL_EVERY, WRITE_TIMEOUT};

/// What every request handler shares.
struct App {
    access: Access,
    pool: Arc<Pool>,
    /// Board pages (WebSockets) open now, and how many may be.
    sessions: AtomicUsize,
    max_sessions: usize,
    idle: Duration,
}

/// Binds `bind` and serves until the process ends. `config` is the local board's
/// ([`crate::gui::Config`]): its `max_connections` bounds the board pages open at once.
pub fn run(bind: SocketAddr, config: &Config) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("serve")
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(bind)
            .await
            .map_err(|e| format!("{bind}: {e}"))?;
        serve(listener, config).await
    })
}

/// Serves on a bound listener.
pub async fn serve(listener: tokio::net::TcpListener, config: &Config) -> Result<(), String> {
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let pool = Pool::with_eval(config.workers, config.hash_mb, config.eval)?;
    let app = Arc::new(App {
        access: Access::new(addr, &config.allow_origins),
        pool: Arc::new(pool),
        sessions: AtomicUsize::new(0),
        max_sessions: config.max_connections,
        idle: config.idle_timeout,
    });
    log::info!(
        "serve: {} search workers, {} MB table",
        config.workers,
        config.hash_mb
    );
    eprintln!("cellmate serve: listening on http://{addr}/ (Ctrl-C to stop)");
    let router = Router::new()
        .route("/healthz", get(healthz))
        .route("/ws", get(socket))
        .fallback(page)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            access,
        ))
        .with_state(app);
    axum::serve(listener, router)
        .await
        .map_err(|e| e.to_string())
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

/// Gives back a board page's place when its socket ends.
struct Seat(Arc<App>);

impl Drop for Seat {
    fn drop(&mut self) {
        self.0.sessions.fetch_sub(1, Ordering::SeqCst);
    }
}

/// `/ws`: a board page's socket.
async fn socket(State(app): State<Arc<App>>, upgrade: WebSocketUpgrade) -> Response {
    if app.sessions.fetch_add(1, Ordering::SeqCst) >= app.max_sessions {
        app.sessions.fetch_sub(1, Ordering::SeqCst);
        log::warn!(
            "serve: {} board pages open, one more refused",
            app.max_sessions
        );
        return plain(StatusCode::SERVICE_UNAVAILABLE, crate::gui::BUSY);
    }
    let seat = Seat(Arc::clone(&app));
    upgrade
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |ws| async move {
            board(ws, &seat.0).await;
            drop(seat);
        })
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

/// One board page: its session's messages and the engine's reports, until it closes or is
/// quiet (no message, no search) for the idle timeout.
async fn board(mut ws: WebSocket, app: &App) {
    let mut session = Session::with_pool(Arc::clone(&app.pool));
    if !send_all(&mut ws, vec![session.state()]).await {
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
        let out = match tokio::time::timeout(wait, ws.recv()).await {
            Err(_) if !session.is_thinking() => {
                log::info!("serve: a board page quiet for {:?} closed", app.idle);
                let _ = ws.send(Message::Close(None)).await;
                return;
            }
            Err(_) => Vec::new(),
            Ok(Some(Ok(Message::Text(t)))) => {
                heard = Instant::now();
                session.handle(t.as_str())
            }
            Ok(Some(Ok(Message::Binary(_)))) => {
                heard = Instant::now();
                vec![session::binary_refused()]
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
        if !send_all(&mut ws, out).await {
            return;
        }
    }
}
