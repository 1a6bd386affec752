//! `cellmate gui`: a board in the browser (see `docs/gui.md`).
//!
//! A protocol-level room like UCI and XBoard: it holds games as [`AnyPos`] (the variant
//! registry, [`crate::variants::registry`]), asks the rules for legal moves, move texts and the
//! structured picture of a position ([`crate::core::Variant::describe`]), and runs the
//! engine's search on the workers of one [`pool::Pool`] shared by every connection (one table,
//! a fixed number of search threads). The page (HTML, JavaScript, CSS, piece images) is built into the binary.
//! One thread per connection: plain HTTP for the page, a WebSocket at `/ws` for the game, each
//! WebSocket with its own [`session::Session`]. [`Config`] bounds what clients can take.
//!
//! [`AnyPos`]: crate::variants::AnyPos

pub mod guide;
pub mod pool;
pub mod session;

/// The plain-text bodies of the refusals both servers make (`403`, `503`, `431`).
pub const FORBIDDEN: &[u8] = b"forbidden: Host or Origin\n";
pub const BUSY: &[u8] = b"busy\n";
pub const TOO_LONG: &[u8] = b"request head over 16 KB\n";

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tungstenite::{Message, WebSocket};

use pool::Pool;
use session::Session;

/// The page's files: (path, content type, bytes).
const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_bytes!("page/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("page/app.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_bytes!("page/style.css"),
    ),
];

/// A piece image built into the binary, served as `/pieces/<variant>/<file>`.
pub struct PieceImage {
    /// The variant's name (`Variant::NAME`).
    pub variant: &'static str,
    /// The FEN letter it draws (upper case: White, lower case: Black).
    pub letter: char,
    /// The file name (XBoard's piece file names, see `assets/pieces/README.md`).
    pub file: &'static str,
    pub svg: &'static [u8],
}

const fn img(
    variant: &'static str,
    letter: char,
    file: &'static str,
    svg: &'static [u8],
) -> PieceImage {
    PieceImage {
        variant,
        letter,
        file,
        svg,
    }
}

/// The piece images drawn for this project (`assets/pieces/`, the table of FEN letters in its
/// README, shared with XBoard's `-pieceImageDirectory`). Infinite Recursion's chess pieces use
/// the chess set (`assets/pieces/chess/`). A piece without an image is drawn as its letter in a
/// disk.
pub const PIECES: &[PieceImage] = &[
    img(
        "microorganism",
        'P',
        "WhitePawn.svg",
        include_bytes!("../../assets/pieces/microorganism/WhitePawn.svg"),
    ),
    img(
        "microorganism",
        'p',
        "BlackPawn.svg",
        include_bytes!("../../assets/pieces/microorganism/BlackPawn.svg"),
    ),
    img(
        "microorganism",
        'B',
        "WhiteKnight.svg",
        include_bytes!("../../assets/pieces/microorganism/WhiteKnight.svg"),
    ),
    img(
        "microorganism",
        'b',
        "BlackKnight.svg",
        include_bytes!("../../assets/pieces/microorganism/BlackKnight.svg"),
    ),
    img(
        "microorganism",
        'A',
        "WhiteBishop.svg",
        include_bytes!("../../assets/pieces/microorganism/WhiteBishop.svg"),
    ),
    img(
        "microorganism",
        'a',
        "BlackBishop.svg",
        include_bytes!("../../assets/pieces/microorganism/BlackBishop.svg"),
    ),
    img(
        "microorganism",
        'W',
        "WhiteQueen.svg",
        include_bytes!("../../assets/pieces/microorganism/WhiteQueen.svg"),
    ),
    img(
        "microorganism",
        'w',
        "BlackQueen.svg",
        include_bytes!("../../assets/pieces/microorganism/BlackQueen.svg"),
    ),
    img(
        "microorganism",
        'C',
        "WhiteMarshall.svg",
        include_bytes!("../../assets/pieces/microorganism/WhiteMarshall.svg"),
    ),
    img(
        "microorganism",
        'c',
        "BlackMarshall.svg",
        include_bytes!("../../assets/pieces/microorganism/BlackMarshall.svg"),
    ),
    img(
        "microorganism",
        'R',
        "WhiteHawk.svg",
        include_bytes!("../../assets/pieces/microorganism/WhiteHawk.svg"),
    ),
    img(
        "microorganism",
        'r',
        "BlackHawk.svg",
        include_bytes!("../../assets/pieces/microorganism/BlackHawk.svg"),
    ),
    img(
        "microorganism",
        'V',
        "WhiteCobra.svg",
        include_bytes!("../../assets/pieces/microorganism/WhiteCobra.svg"),
    ),
    img(
        "microorganism",
        'v',
        "BlackCobra.svg",
        include_bytes!("../../assets/pieces/microorganism/BlackCobra.svg"),
    ),
    img(
        "microorganism",
        'T',
        "WhiteTower.svg",
        include_bytes!("../../assets/pieces/microorganism/WhiteTower.svg"),
    ),
    img(
        "microorganism",
        't',
        "BlackTower.svg",
        include_bytes!("../../assets/pieces/microorganism/BlackTower.svg"),
    ),
    img(
        "microorganism",
        'N',
        "WhiteKing.svg",
        include_bytes!("../../assets/pieces/microorganism/WhiteKing.svg"),
    ),
    img(
        "microorganism",
        'n',
        "BlackKing.svg",
        include_bytes!("../../assets/pieces/microorganism/BlackKing.svg"),
    ),
    img(
        "immune",
        'C',
        "BlackQueen.svg",
        include_bytes!("../../assets/pieces/immune/BlackQueen.svg"),
    ),
    img(
        "immune",
        'M',
        "BlackMarshall.svg",
        include_bytes!("../../assets/pieces/immune/BlackMarshall.svg"),
    ),
    img(
        "immune",
        'H',
        "BlackRook.svg",
        include_bytes!("../../assets/pieces/immune/BlackRook.svg"),
    ),
    img(
        "immune",
        'B',
        "BlackTower.svg",
        include_bytes!("../../assets/pieces/immune/BlackTower.svg"),
    ),
    img(
        "immune",
        'T',
        "BlackCanon.svg",
        include_bytes!("../../assets/pieces/immune/BlackCanon.svg"),
    ),
    img(
        "immune",
        'A',
        "BlackGold.svg",
        include_bytes!("../../assets/pieces/immune/BlackGold.svg"),
    ),
    img(
        "immune",
        'E',
        "BlackElephant.svg",
        include_bytes!("../../assets/pieces/immune/BlackElephant.svg"),
    ),
    img(
        "immune",
        'N',
        "BlackCommoner.svg",
        include_bytes!("../../assets/pieces/immune/BlackCommoner.svg"),
    ),
    img(
        "immune",
        'S',
        "BlackArchbishop.svg",
        include_bytes!("../../assets/pieces/immune/BlackArchbishop.svg"),
    ),
    img(
        "immune",
        'O',
        "BlackAdvisor.svg",
        include_bytes!("../../assets/pieces/immune/BlackAdvisor.svg"),
    ),
    img(
        "immune",
        'D',
        "BlackDragon.svg",
        include_bytes!("../../assets/pieces/immune/BlackDragon.svg"),
    ),
    img(
        "immune",
        'L',
        "BlackCrownedRook.svg",
        include_bytes!("../../assets/pieces/immune/BlackCrownedRook.svg"),
    ),
    img(
        "immune",
        'i',
        "WhiteWolf.svg",
        include_bytes!("../../assets/pieces/immune/WhiteWolf.svg"),
    ),
    img(
        "recursion",
        'M',
        "WhiteNightrider.svg",
        include_bytes!("../../assets/pieces/recursion/WhiteNightrider.svg"),
    ),
    img(
        "recursion",
        'm',
        "BlackNightrider.svg",
        include_bytes!("../../assets/pieces/recursion/BlackNightrider.svg"),
    ),
    img(
        "chess",
        'P',
        "WhitePawn.svg",
        include_bytes!("../../assets/pieces/chess/WhitePawn.svg"),
    ),
    img(
        "chess",
        'p',
        "BlackPawn.svg",
        include_bytes!("../../assets/pieces/chess/BlackPawn.svg"),
    ),
    img(
        "chess",
        'N',
        "WhiteKnight.svg",
        include_bytes!("../../assets/pieces/chess/WhiteKnight.svg"),
    ),
    img(
        "chess",
        'n',
        "BlackKnight.svg",
        include_bytes!("../../assets/pieces/chess/BlackKnight.svg"),
    ),
    img(
        "chess",
        'B',
        "WhiteBishop.svg",
        include_bytes!("../../assets/pieces/chess/WhiteBishop.svg"),
    ),
    img(
        "chess",
        'b',
        "BlackBishop.svg",
        include_bytes!("../../assets/pieces/chess/BlackBishop.svg"),
    ),
    img(
        "chess",
        'R',
        "WhiteRook.svg",
        include_bytes!("../../assets/pieces/chess/WhiteRook.svg"),
    ),
    img(
        "chess",
        'r',
        "BlackRook.svg",
        include_bytes!("../../assets/pieces/chess/BlackRook.svg"),
    ),
    img(
        "chess",
        'Q',
        "WhiteQueen.svg",
        include_bytes!("../../assets/pieces/chess/WhiteQueen.svg"),
    ),
    img(
        "chess",
        'q',
        "BlackQueen.svg",
        include_bytes!("../../assets/pieces/chess/BlackQueen.svg"),
    ),
    img(
        "chess",
        'K',
        "WhiteKing.svg",
        include_bytes!("../../assets/pieces/chess/WhiteKing.svg"),
    ),
    img(
        "chess",
        'k',
        "BlackKing.svg",
        include_bytes!("../../assets/pieces/chess/BlackKing.svg"),
    ),
    img(
        "recursion",
        'P',
        "WhitePawn.svg",
        include_bytes!("../../assets/pieces/chess/WhitePawn.svg"),
    ),
    img(
        "recursion",
        'p',
        "BlackPawn.svg",
        include_bytes!("../../assets/pieces/chess/BlackPawn.svg"),
    ),
    img(
        "recursion",
        'N',
        "WhiteKnight.svg",
        include_bytes!("../../assets/pieces/chess/WhiteKnight.svg"),
    ),
    img(
        "recursion",
        'n',
        "BlackKnight.svg",
        include_bytes!("../../assets/pieces/chess/BlackKnight.svg"),
    ),
    img(
        "recursion",
        'B',
        "WhiteBishop.svg",
        include_bytes!("../../assets/pieces/chess/WhiteBishop.svg"),
    ),
    img(
        "recursion",
        'b',
        "BlackBishop.svg",
        include_bytes!("../../assets/pieces/chess/BlackBishop.svg"),
    ),
    img(
        "recursion",
        'R',
        "WhiteRook.svg",
        include_bytes!("../../assets/pieces/chess/WhiteRook.svg"),
    ),
    img(
        "recursion",
        'r',
        "BlackRook.svg",
        include_bytes!("../../assets/pieces/chess/BlackRook.svg"),
    ),
    img(
        "recursion",
        'Q',
        "WhiteQueen.svg",
        include_bytes!("../../assets/pieces/chess/WhiteQueen.svg"),
    ),
    img(
        "recursion",
        'q',
        "BlackQueen.svg",
        include_bytes!("../../assets/pieces/chess/BlackQueen.svg"),
    ),
    img(
        "recursion",
        'K',
        "WhiteKing.svg",
        include_bytes!("../../assets/pieces/chess/WhiteKing.svg"),
    ),
    img(
        "recursion",
        'k',
        "BlackKing.svg",
        include_bytes!("../../assets/pieces/chess/BlackKing.svg"),
    ),
];

/// The images of a variant's pieces: (FEN letter, URL).
pub fn piece_images(variant: &str) -> Vec<(char, String)> {
    PIECES
        .iter()
        .filter(|p| p.variant == variant)
        .map(|p| (p.letter, format!("/pieces/{}/{}", p.variant, p.file)))
        .collect()
}

/// The longest HTTP request head read.
pub const MAX_HEAD: usize = 16 * 1024;

/// What the server lets its clients take.
#[derive(Clone, Debug)]
pub struct Config {
    /// Page origins of a deployment (`https://chess.example.org`) accepted besides the
    /// page's own.
    pub allow_origins: Vec<String>,
    /// Connections served at once; one more is answered `503 Service Unavailable`.
    pub max_connections: usize,
    /// A board page that sends nothing for this long while no search runs is closed.
    pub idle_timeout: Duration,
    /// Searches run at once (the pool's threads); more wait in a queue.
    pub workers: usize,
    /// The one hash table of all searches, in MB.
    pub hash_mb: usize,
    /// The evaluation's parameters (the command line's `--micro-values` and the like).
    pub eval: crate::engine::eval::EvalParams,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            allow_origins: Vec::new(),
            max_connections: MAX_CONNECTIONS,
            idle_timeout: IDLE_TIMEOUT,
            workers: crate::engine::thread::max_threads(),
            hash_mb: HASH_MB,
            eval: crate::engine::eval::EvalParams::DEFAULT,
        }
    }
}

/// Connections served at once by default.
pub const MAX_CONNECTIONS: usize = 256;
/// How long a quiet board page stays open by default.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30 * 60);
/// The default size of the one hash table of all searches, in MB.
pub const HASH_MB: usize = 64;
/// The WebSocket close code and reason of a page closed for being quiet: the page then says so
/// and does not reconnect by itself, as it does when the connection is lost (a server restart).
pub const IDLE_CLOSE: (u16, &str) = (4000, "idle");

/// Serves the page on `addr` until the process ends.
pub fn serve(addr: SocketAddr, config: &Config) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr)?;
    eprintln!(
        "cellmate gui: open http://{}/ in a browser (Ctrl-C to stop)",
        listener.local_addr()?
    );
    serve_with(listener, config)
}

/// Serves on a bound listener with the default [`Config`] (tests bind port 0 and read the
/// port back).
pub fn serve_on(listener: TcpListener) -> std::io::Result<()> {
    serve_with(listener, &Config::default())
}

/// Who may use the board: requests whose `Host` is the bound address, `localhost` or the
/// host of an allowed origin, on the bound port (a DNS-rebinding name is none of these), and
/// WebSockets whose `Origin`, when a browser sends one, is the page's own origin or an allowed
/// one (another web page the user visits cannot open it). Others get `403 Forbidden`.
#[derive(Clone, Debug)]
pub struct Access {
    hosts: Vec<String>,
    origins: Vec<String>,
}

impl Access {
    pub fn new(bound: SocketAddr, allow_origins: &[String]) -> Access {
        let port = bound.port();
        let mut names = vec!["localhost".to_string(), "127.0.0.1".into(), "[::1]".into()];
        if !bound.ip().is_unspecified() {
            names.push(match bound.ip() {
                std::net::IpAddr::V6(ip) => format!("[{ip}]"),
                ip => ip.to_string(),
            });
        }
        let mut hosts: Vec<String> = names.iter().map(|n| format!("{n}:{port}")).collect();
        if port == 80 {
            hosts.extend(names.iter().cloned());
        }
        let mut origins: Vec<String> = hosts.iter().map(|h| format!("http://{h}")).collect();
        for o in allow_origins {
            let o = o.trim_end_matches('/').to_ascii_lowercase();
            if let Some((_, host)) = o.split_once("://") {
                hosts.push(host.to_string());
            }
            origins.push(o);
        }
        Access { hosts, origins }
    }

    /// Whether a request with this head may be served.
    pub fn allows(&self, head: &str, websocket: bool) -> bool {
        let header = |name: &str| {
            head.lines().skip(1).find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.trim()
                    .eq_ignore_ascii_case(name)
                    .then(|| v.trim().to_ascii_lowercase())
            })
        };
        self.allows_headers(
            header("host").as_deref(),
            header("origin").as_deref(),
            websocket,
        )
    }

    /// Whether a request with this `Host` and `Origin` header (absent: `None`) may be served.
    pub fn allows_headers(
        &self,
        host: Option<&str>,
        origin: Option<&str>,
        websocket: bool,
    ) -> bool {
        let host_ok = host.is_some_and(|h| self.hosts.contains(&h.trim().to_ascii_lowercase()));
        let origin_ok = !websocket
            || origin.is_none_or(|o| self.origins.contains(&o.trim().to_ascii_lowercase()));
        host_ok && origin_ok
    }
}

/// Serves on a bound listener until the process ends.
pub fn serve_with(listener: TcpListener, config: &Config) -> std::io::Result<()> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let access = Arc::new(Access::new(listener.local_addr()?, &config.allow_origins));
    let pool = Arc::new(
        Pool::with_eval(config.workers, config.hash_mb, config.eval)
            .map_err(std::io::Error::other)?,
    );
    let active = Arc::new(AtomicUsize::new(0));
    let (limit, idle) = (config.max_connections, config.idle_timeout);
    for stream in listener.incoming() {
        match stream {
            Ok(s) => {
                if active.fetch_add(1, Ordering::SeqCst) >= limit {
                    active.fetch_sub(1, Ordering::SeqCst);
                    log::warn!("gui: {limit} connections open, one more refused");
                    let _ = s.set_write_timeout(Some(Duration::from_secs(2)));
                    let _ = respond(s, "503 Service Unavailable", "text/plain", BUSY);
                    continue;
                }
                let access = Arc::clone(&access);
                let count = Arc::clone(&active);
                let pool = Arc::clone(&pool);
                let spawned =
                    std::thread::Builder::new()
                        .name("gui-conn".into())
                        .spawn(move || {
                            if let Err(e) = connection(s, &access, pool, idle) {
                                log::debug!("gui connection: {e}");
                            }
                            count.fetch_sub(1, Ordering::SeqCst);
                            give_back_memory();
                        });
                if let Err(e) = spawned {
                    active.fetch_sub(1, Ordering::SeqCst);
                    log::error!("cannot start a connection thread: {e}");
                }
            }
            Err(e) => log::warn!("accept: {e}"),
        }
    }
    Ok(())
}

/// Returns the heap's free pages to the system after a connection closed. glibc keeps what a
/// thread freed in that thread's arena, so without this the memory of a few hundred closed
/// pages stayed with the process (`scripts/gui_load.py`: 121 MB after all left, 68 MB idle).
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: malloc_trim only releases free heap pages; it takes the allocator's locks.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// Why a request head could not be read.
enum Head {
    /// The head, and its length in bytes with the blank line that ends it.
    Read(String, usize),
    /// Over [`MAX_HEAD`] bytes: `431`.
    TooLong,
}

/// Peeks at the request head (without consuming it, so the WebSocket handshake can read it).
/// It ends with a blank line, `\r\n\r\n` or bare `\n\n`; bytes that are not UTF-8 are read
/// lossily (the request is then refused by its content, not left unanswered).
fn peek_head(s: &TcpStream) -> std::io::Result<Head> {
    let mut buf = vec![0u8; MAX_HEAD];
    for _ in 0..200 {
        let n = s.peek(&mut buf)?;
        if n == 0 {
            return Err(std::io::Error::other("closed before a request"));
        }
        let crlf = buf[..n].windows(4).position(|w| w == b"\r\n\r\n");
        let lf = buf[..n].windows(2).position(|w| w == b"\n\n");
        let end = match (crlf, lf) {
            (Some(a), Some(b)) if b + 1 < a => Some((b, 2)),
            (Some(a), _) => Some((a, 4)),
            (None, Some(b)) => Some((b, 2)),
            (None, None) => None,
        };
        if let Some((end, blank)) = end {
            let text = String::from_utf8_lossy(&buf[..end]).replace("\r\n", "\n");
            return Ok(Head::Read(text, end + blank));
        }
        if n == MAX_HEAD {
            return Ok(Head::TooLong);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Err(std::io::Error::other("request head incomplete"))
}

fn respond(mut s: TcpStream, status: &str, ctype: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())?;
    s.write_all(body)?;
    s.flush()
}

/// The body of a GET for `path`, if there is one.
pub fn asset(path: &str) -> Option<(&'static str, &'static [u8])> {
    let path = path.split('?').next().unwrap_or(path);
    let path = if path == "/index.html" { "/" } else { path };
    if let Some(a) = ASSETS.iter().find(|a| a.0 == path) {
        return Some((a.1, a.2));
    }
    let (variant, file) = path.strip_prefix("/pieces/")?.split_once('/')?;
    PIECES
        .iter()
        .find(|p| p.variant == variant && p.file == file)
        .map(|p| ("image/svg+xml", p.svg))
}

/// How long a client that stops reading may hold a reply before its connection is cut.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

fn connection(
    s: TcpStream,
    access: &Access,
    pool: Arc<Pool>,
    idle: Duration,
) -> std::io::Result<()> {
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    // A client that stops reading cannot hold its thread for ever.
    s.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let (head, len) = match peek_head(&s)? {
        Head::Read(h, n) => (h, n),
        Head::TooLong => {
            return respond(
                s,
                "431 Request Header Fields Too Large",
                "text/plain",
                TOO_LONG,
            )
        }
    };
    let mut words = head.split_whitespace();
    let (method, path) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let ws = method == "GET" && path.split('?').next() == Some("/ws");
    if ws && access.allows(&head, true) {
        return websocket(s, pool, idle);
    }
    // Consume the request head.
    let mut rest = vec![0u8; len];
    let mut reader = &s;
    reader.read_exact(&mut rest)?;
    if !access.allows(&head, ws) {
        log::info!("gui: refused a request for {path:?} (Host or Origin not allowed)");
        return respond(s, "403 Forbidden", "text/plain", FORBIDDEN);
    }
    if method != "GET" {
        return respond(s, "405 Method Not Allowed", "text/plain", b"GET only\n");
    }
    match asset(path) {
        Some((ctype, body)) => respond(s, "200 OK", ctype, body),
        None => respond(s, "404 Not Found", "text/plain", b"not found\n"),
    }
}

fn send(ws: &mut WebSocket<TcpStream>, v: &serde_json::Value) -> std::io::Result<()> {
    ws.send(Message::text(v.to_string()))
        .map_err(std::io::Error::other)
}

/// How often a board page's socket is looked at for the engine's reports while the page is quiet.
pub const POLL_EVERY: Duration = Duration::from_millis(20);

/// The longest message a page may send (a long game's PGN fits many times over).
pub const MAX_MESSAGE: usize = 1 << 20;

/// Small buffers (tungstenite's default is 128 KiB each way per connection, 80 MB for a
/// few hundred pages) and a message limit far below its default of 64 MiB.
fn ws_config() -> tungstenite::protocol::WebSocketConfig {
    tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
}

fn websocket(s: TcpStream, pool: Arc<Pool>, idle: Duration) -> std::io::Result<()> {
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut ws = tungstenite::accept_with_config(s.try_clone()?, Some(ws_config()))
        .map_err(std::io::Error::other)?;
    // From now on reads wake up often so engine reports go out while the page is quiet.
    s.set_read_timeout(Some(POLL_EVERY))?;
    let mut session = Session::with_pool(pool);
    let hello = session.state();
    send(&mut ws, &hello)?;
    let mut heard = Instant::now();
    loop {
        if session.is_thinking() {
            heard = Instant::now();
        } else if heard.elapsed() >= idle {
            log::info!("gui: a board page quiet for {idle:?} closed");
            let _ = ws.close(Some(tungstenite::protocol::CloseFrame {
                code: IDLE_CLOSE.0.into(),
                reason: IDLE_CLOSE.1.into(),
            }));
            let _ = ws.flush();
            return Ok(());
        }
        let read = ws.read();
        if matches!(read, Ok(Message::Text(_) | Message::Binary(_))) {
            heard = Instant::now();
        }
        match read {
            Ok(Message::Text(t)) => {
                for reply in session.handle(t.as_str()) {
                    send(&mut ws, &reply)?;
                }
            }
            Ok(Message::Binary(_)) => {
                send(&mut ws, &session::binary_refused())?;
            }
            Ok(Message::Close(_)) => {
                // Sends the close reply tungstenite queued (else the page sees 1006).
                let _ = ws.flush();
                return Ok(());
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => {
                return Ok(())
            }
            Err(e) => return Err(std::io::Error::other(e)),
        }
        for ev in session.poll() {
            send(&mut ws, &ev)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_organism_and_cell_has_an_image_served_as_svg() {
        // Microorganism: nine organisms, both colours; Immune: twelve cells and the Invader;
        // Recursion: the mega-knight of each side.
        assert_eq!(piece_images("microorganism").len(), 18);
        assert_eq!(piece_images("immune").len(), 13);
        assert_eq!(piece_images("recursion").len(), 14);
        assert_eq!(piece_images("chess").len(), 12);
        for p in PIECES {
            let (kind, body) = asset(&format!("/pieces/{}/{}", p.variant, p.file)).unwrap();
            assert_eq!(kind, "image/svg+xml");
            assert!(body.starts_with(b"<svg"), "{} {}", p.variant, p.file);
        }
        let letters: Vec<char> = piece_images("microorganism").iter().map(|p| p.0).collect();
        assert_eq!(
            letters.iter().collect::<String>(),
            "PpBbAaWwCcRrVvTtNn",
            "one image per FEN letter"
        );
        assert!(asset("/pieces/microorganism/Nope.svg").is_none());
    }
}
