//! `cellmate serve` (src/serve/): the binary on a free loopback port, its `/healthz`, its
//! Host and Origin checks, a game played over its WebSocket, and the game still there, with its
//! moves, after the server was killed with SIGKILL (in the middle of a search) and started
//! again on the same database. `store` checks the one contract of every game store on SQLite,
//! `postgres` the PostgreSQL store and `cellmate serve --db postgres://…` on a throwaway
//! PostgreSQL cluster.

mod postgres;
mod store;

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

use serde_json::Value;

use crate::gui_session::{request, ws_head, ws_status};

/// A `cellmate serve` child process on 127.0.0.1 and a port of its own choosing; killed
/// (SIGKILL) when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    /// `cellmate serve` with one search worker, a 4 MB table, and `more` options.
    fn start(more: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cellmate"))
            .args([
                "serve",
                "--bind",
                "127.0.0.1:0",
                "--workers",
                "1",
                "--hash",
                "4",
            ])
            .args(more)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, rx) = channel();
        let stderr = child.stderr.take().unwrap();
        // Reads the log to its end, so that the server never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.split("listening on http://127.0.0.1:").nth(1) {
                    let port: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    let _ = tx.send(port.parse::<u16>().unwrap());
                }
            }
        });
        let port = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("cellmate serve did not say where it listens within 20 s");
        Server { child, port }
    }

    /// GETs `path` (the connection closed after the answer); returns status line and body.
    fn get(&self, path: &str) -> (String, String) {
        let head = format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            self.port
        );
        let answer = request(self.port, &head);
        let status = answer.lines().next().unwrap_or("").to_string();
        let body = answer
            .split_once("\r\n\r\n")
            .map_or("", |b| b.1)
            .to_string();
        (status, body)
    }

    fn json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, "HTTP/1.1 200 OK", "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    /// A board page's socket, on a new game or on the stored game `game`.
    fn board(&self, game: Option<&str>) -> Board {
        let query = game.map_or(String::new(), |g| format!("?game={g}"));
        self.board_at(&query)
    }

    /// A board page's socket at `/ws<query>`.
    fn board_at(&self, query: &str) -> Board {
        let url = format!("ws://127.0.0.1:{}/ws{query}", self.port);
        let (ws, _) = tungstenite::connect(&url).unwrap();
        if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        }
        Board(ws)
    }

    /// A board page's socket from the loopback address `source` (Linux routes all of
    /// 127.0.0.0/8 to the loopback device).
    fn board_from(&self, source: [u8; 4]) -> Board {
        let tcp = connect_from(source, self.port);
        tcp.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let url = format!("ws://127.0.0.1:{}/ws", self.port);
        let plain = tungstenite::stream::MaybeTlsStream::Plain(tcp);
        match tungstenite::client(url.as_str(), plain) {
            Ok((ws, _)) => Board(ws),
            Err(e) => panic!("a page from {source:?}: {e}"),
        }
    }

    /// A board page on a new game, the engine playing Black at depth 1.
    fn against_depth_1(&self) -> Board {
        let mut page = self.board(None);
        page.state_at(0);
        page.send(r#"{"type":"engine","white":false,"black":true,"depth":1}"#);
        page.state_at(0);
        page
    }

    /// SIGKILL: nothing of the server runs after it.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A TCP connection to `port` of 127.0.0.1 from the address `source`.
fn connect_from(source: [u8; 4], port: u16) -> std::net::TcpStream {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .unwrap();
    let tcp = rt.block_on(async {
        let s = tokio::net::TcpSocket::new_v4().unwrap();
        s.bind((std::net::Ipv4Addr::from(source), 0).into())
            .unwrap();
        s.connect(([127, 0, 0, 1], port).into()).await.unwrap()
    });
    let tcp = tcp.into_std().unwrap();
    tcp.set_nonblocking(false).unwrap();
    tcp
}

/// The status line of the answer to a WebSocket request from `source` with these extra
/// header lines, and the connection (an accepted WebSocket stays open while it is kept).
fn ws_status_from(source: [u8; 4], port: u16, headers: &str) -> (String, BufReader<TcpStream>) {
    use std::io::Write;
    let mut s = connect_from(source, port);
    let head = ws_head(&format!("127.0.0.1:{port}"), None);
    let head = head.replacen("\r\n", &format!("\r\n{headers}"), 1);
    s.write_all(head.as_bytes()).unwrap();
    let mut line = String::new();
    let mut s = BufReader::new(s);
    s.read_line(&mut line).unwrap();
    (line.trim_end().to_string(), s)
}

struct Board(tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>);

impl Board {
    fn send(&mut self, msg: &str) {
        self.0.send(tungstenite::Message::text(msg)).unwrap();
    }

    fn next(&mut self) -> Value {
        loop {
            if let tungstenite::Message::Text(t) = self.0.read().unwrap() {
                return serde_json::from_str(t.as_str()).unwrap();
            }
        }
    }

    /// Reads messages up to a state with `plies` moves played.
    fn state_at(&mut self, plies: usize) -> Value {
        loop {
            let v = self.next();
            assert_ne!(v["type"], "error", "{v}");
            if v["type"] == "state" && v["history"].as_array().unwrap().len() == plies {
                return v;
            }
        }
    }
}

/// A database file of its own in the temporary directory, removed when dropped.
struct Db(std::path::PathBuf);

impl Db {
    fn new(name: &str) -> Db {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!(
            "cellmate-serve-{name}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Db(dir)
    }
    /// The options of a server on this database.
    fn options(&self) -> [String; 2] {
        let path = self.0.join("games.db");
        ["--db".into(), path.to_str().unwrap().into()]
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn moves(game: &Value) -> Vec<String> {
    game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

/// `/healthz`; the page; a WebSocket of another origin, or a request whose Host is another
/// name (DNS rebinding), refused with 403 as by `cellmate gui`; a head over 16 KB refused with
/// 431; past `--max-sessions` board pages one more refused with 503.
#[test]
fn serve_answers_healthz_and_refuses_other_origins_hosts_and_one_page_too_many() {
    let db = Db::new("access");
    let [db, path] = db.options();
    let server = Server::start(&[&db, &path, "--max-sessions", "1"]);
    let port = server.port;
    let health = server.json("/healthz");
    assert_eq!(health["status"], "ok");
    assert_eq!(health["workers"], 1);
    let (status, page) = server.get("/");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(page.contains("<title>cellmate</title>"));
    assert!(server.get("/nope").0.starts_with("HTTP/1.1 404"));
    assert!(server
        .get("/game/0123456789abcdef")
        .0
        .starts_with("HTTP/1.1 404"));
    let own = format!("127.0.0.1:{port}");
    let forbidden = "HTTP/1.1 403 Forbidden";
    assert_eq!(
        ws_status(port, &own, Some("https://evil.example")),
        forbidden
    );
    assert_eq!(ws_status(port, &own, Some("null")), forbidden);
    assert_eq!(
        ws_status(port, &format!("evil.example:{port}"), None),
        forbidden
    );
    let rebind =
        format!("GET / HTTP/1.1\r\nHost: rebind.example:{port}\r\nConnection: close\r\n\r\n");
    assert!(request(port, &rebind).starts_with(forbidden));
    let big = format!(
        "GET / HTTP/1.1\r\nHost: {own}\r\nX-Pad: {}\r\nConnection: close\r\n\r\n",
        "a".repeat(20_000)
    );
    assert!(request(port, &big).starts_with("HTTP/1.1 431"));
    assert_eq!(
        ws_status(port, &own, Some(&format!("http://{own}"))),
        "HTTP/1.1 101 Switching Protocols"
    );
    // That page has gone: its place is free again within a few seconds.
    let free = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        server.json("/healthz")["sessions"] == 0
    });
    assert!(free, "a closed page still counted after 5 s");
    let mut first = server.board(None);
    first.state_at(0);
    assert_eq!(
        ws_status(port, &own, None),
        "HTTP/1.1 503 Service Unavailable"
    );
}

/// Issue 26, item 3: a move is stored before the page hears of it. The server is killed with
/// SIGKILL while the engine thinks about its answer; started again on the same database, the
/// game is at its URL with its moves, its page's socket reopens it, and the engine resumes
/// thinking and plays.
#[test]
fn a_game_survives_kill_9_in_the_middle_of_a_search() {
    let db = Db::new("restart");
    let [db, path] = db.options();
    kill_9_journey(&[&db, &path]);
}

/// The journey of [`a_game_survives_kill_9_in_the_middle_of_a_search`] on the database that
/// the options `db` name (SQLite or PostgreSQL); returns the game's id.
fn kill_9_journey(db: &[&str]) -> String {
    let server = Server::start(db);
    let mut page = server.board(None);
    let hello = page.state_at(0);
    assert_eq!(hello["game"], Value::Null, "no game stored before a move");
    page.send(r#"{"type":"engine","white":false,"black":true,"depth":1}"#);
    page.state_at(0);
    page.send(r#"{"type":"move","move":"e2e4"}"#);
    let played = page.state_at(1);
    let id = played["game"]
        .as_str()
        .expect("a stored game's id")
        .to_string();
    let answered = page.state_at(2);
    assert_eq!(answered["game"], id.as_str());
    let black = answered["history"][1]["text"].as_str().unwrap().to_string();
    // Now the engine thinks for 20 s: the server is killed in the middle of that search.
    page.send(r#"{"type":"engine","black":true,"movetime":20000}"#);
    page.state_at(2);
    page.send(r#"{"type":"move","move":"d2d4"}"#);
    let thinking = page.state_at(3);
    assert_eq!(thinking["thinking"], true);
    server.kill();

    let server = Server::start(db);
    let game = server.json(&format!("/game/{id}/json"));
    assert_eq!(moves(&game), ["e2e4", black.as_str(), "d2d4"]);
    assert_eq!(game["variant"], "chess");
    assert_eq!(game["engine"]["movetime"], 20000);
    let (status, body) = server.get(&format!("/game/{id}"));
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(body.contains("<title>cellmate</title>"));
    let mut page = server.board(Some(&id));
    let reopened = page.state_at(3);
    assert_eq!(reopened["game"], id.as_str());
    assert_eq!(reopened["fen"], thinking["fen"]);
    assert_eq!(reopened["thinking"], true, "the engine thinks again");
    page.send(r#"{"type":"stop"}"#);
    let done = page.state_at(4);
    assert_eq!(done["game"], id.as_str());
    let game = server.json(&format!("/game/{id}/json"));
    assert_eq!(moves(&game).len(), 4);
    assert_eq!(server.json("/healthz")["sessions"], 1);
    id
}

/// A game over the socket: the page's move, the engine's answer, a take-back.
#[test]
fn serve_plays_a_game_over_its_websocket() {
    let server = Server::start(&["--db", ":memory:"]);
    let mut page = server.against_depth_1();
    page.send(r#"{"type":"move","move":"e2e4"}"#);
    assert_eq!(page.state_at(1)["history"][0]["text"], "e2e4");
    let answered = page.state_at(2);
    assert_eq!(answered["thinking"], false);
    page.send(r#"{"type":"undo"}"#);
    page.state_at(0);
    page.send(r#"{"type":"move","move":"e2e5"}"#);
    assert_eq!(page.next()["type"], "error");
}

/// Issue 26, item 1: a client that sends its request head byte by byte (a slow-loris), or
/// opens a connection and sends nothing, is dropped once `--head-timeout` has passed, while
/// other clients are served.
#[test]
fn a_request_head_sent_too_slowly_is_dropped() {
    use std::io::{Read, Write};
    let server = Server::start(&["--db", ":memory:", "--head-timeout", "1"]);
    let slow = |first: &str| {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        let t = std::time::Instant::now();
        s.write_all(first.as_bytes()).unwrap();
        // One byte of a header every 100 ms, for at most 10 s.
        while t.elapsed() < Duration::from_secs(10) {
            if !first.is_empty() && s.write_all(b"x").is_err() {
                break;
            }
            match s.read(&mut [0u8; 64]) {
                Ok(0) => break,
                Ok(_) => panic!("an answer to a head never finished"),
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
                Err(_) => {} // the read timeout: the connection is still open
            }
        }
        t.elapsed()
    };
    let head = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nX-Slow: ",
        server.port
    );
    let took = slow(&head);
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(4),
        "a byte-by-byte head dropped after {took:?}"
    );
    let took = slow("");
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(4),
        "a silent connection dropped after {took:?}"
    );
    assert_eq!(server.json("/healthz")["status"], "ok");
}

/// Issue 26, item 3: a second page opening a game's URL while its player's page is open
/// watches it: it sees each move as it is played, without legal moves, and its own moves are
/// refused. When the player's page closes, the watcher is told, and the next page to open the
/// game plays it.
#[test]
fn a_second_page_on_a_game_watches_it_live_and_cannot_move() {
    let server = Server::start(&["--db", ":memory:"]);
    let mut player = server.against_depth_1();
    player.send(r#"{"type":"move","move":"e2e4"}"#);
    let id = player.state_at(1)["game"].as_str().unwrap().to_string();
    player.state_at(2);

    let mut watcher = server.board(Some(&id));
    let seen = watcher.state_at(2);
    assert_eq!(seen["watching"], true);
    assert_eq!(seen["game"], id.as_str());
    assert_eq!(seen["legal"].as_array().unwrap().len(), 0);
    player.send(r#"{"type":"move","move":"d2d4"}"#);
    let mine = player.state_at(4);
    let theirs = watcher.state_at(4);
    assert_eq!(
        theirs["history"], mine["history"],
        "the watcher sees the moves played"
    );
    assert_eq!(theirs["watching"], true);
    assert_ne!(mine["watching"], true);

    // The watcher cannot move, nor change the engine or start a new game.
    for msg in [
        r#"{"type":"move","move":"g1f3"}"#,
        r#"{"type":"new","variant":"chess"}"#,
        r#"{"type":"engine","white":true}"#,
    ] {
        watcher.send(msg);
        let v = watcher.next();
        assert_eq!(v["type"], "error", "{v}");
        assert_eq!(v["reply"], true);
        assert!(v["message"].as_str().unwrap().contains("watches"), "{v}");
    }
    watcher.send(r#"{"type":"state"}"#);
    let asked = watcher.next();
    assert_eq!(
        (asked["type"].as_str(), asked["reply"].as_bool()),
        (Some("state"), Some(true))
    );
    let game = server.json(&format!("/game/{id}/json"));
    assert_eq!(moves(&game).len(), 4, "the watcher's moves changed nothing");

    // The player leaves: the watcher is told; the next page on the game plays it.
    drop(player);
    let told = watcher.next();
    assert_eq!(told["type"], "error");
    assert!(told["message"].as_str().unwrap().contains("left"), "{told}");
    let mut next = server.board(Some(&id));
    let plays = next.state_at(4);
    assert_ne!(plays["watching"], true);
    assert!(!plays["legal"].as_array().unwrap().is_empty());
    next.send(r#"{"type":"move","move":"g1f3"}"#);
    next.state_at(5);
}

/// Issue 26, item 3: a new game's page moves its socket to its game's URL once the game has
/// an id (`/ws?game=<id>&page=<token>`, so that a proxy routing by game id sends it where its
/// watchers go), and stays the player: its new socket opened right after the old one was
/// closed — the server may not have seen that close yet — and one opened while the old one is
/// still open both take the game over (the old socket is then closed, code 4001), not watch
/// it. A watcher goes on seeing the moves across the takeover; another page's token, or none,
/// only watches.
#[test]
fn a_pages_new_socket_on_its_game_takes_it_over() {
    let server = Server::start(&["--db", ":memory:"]);
    let token = "page-0123456789abcdef";
    let mut first = server.board_at(&format!("?page={token}"));
    first.state_at(0);
    first.send(r#"{"type":"engine","white":false,"black":true,"depth":1}"#);
    first.state_at(0);
    first.send(r#"{"type":"move","move":"e2e4"}"#);
    let id = first.state_at(1)["game"].as_str().unwrap().to_string();
    first.state_at(2);
    let url = format!("?game={id}&page={token}");

    // Closed, and the new socket opened at once (without waiting for the close's answer).
    first.0.close(None).unwrap();
    let _ = first.0.flush();
    let mut second = server.board_at(&url);
    let st = second.state_at(2);
    assert_ne!(st["watching"], true, "the page's new socket watches: {st}");
    assert_eq!(st["game"], id.as_str());
    assert!(!st["legal"].as_array().unwrap().is_empty());
    let mut watcher = server.board(Some(&id));
    assert_eq!(watcher.state_at(2)["watching"], true);
    second.send(r#"{"type":"move","move":"d2d4"}"#);
    second.state_at(4);
    assert_eq!(watcher.state_at(4)["watching"], true);

    // A socket of another page, or of none, watches.
    let mut other = server.board_at(&format!("?game={id}&page=another-page-token"));
    assert_eq!(other.state_at(4)["watching"], true);
    drop(other);

    // The new socket opened while the old one is still open: the old one is closed, the new
    // one plays, and the watcher is not told that the player left.
    let mut third = server.board_at(&url);
    let st = third.state_at(4);
    assert_ne!(st["watching"], true, "the page's new socket watches: {st}");
    assert!(!st["legal"].as_array().unwrap().is_empty());
    let closed = loop {
        match second.0.read() {
            Ok(tungstenite::Message::Close(frame)) => break frame,
            Ok(_) => continue,
            Err(e) => panic!("the old socket ended without a close frame: {e}"),
        }
    };
    assert_eq!(closed.map(|f| u16::from(f.code)), Some(4001));
    third.send(r#"{"type":"move","move":"g1f3"}"#);
    third.state_at(6);
    loop {
        let v = watcher.next();
        assert_ne!(v["type"], "error", "the watcher was told: {v}");
        if v["type"] == "state" && v["history"].as_array().unwrap().len() == 6 {
            assert_eq!(v["watching"], true);
            break;
        }
    }
    let game = server.json(&format!("/game/{id}/json"));
    assert_eq!(moves(&game).len(), 6);
    assert_eq!(moves(&game)[4], "g1f3");
}

/// Issue 26, item 3: each side's clock, the time control chosen by the page, kept by the
/// server from the moves' times, stored with each move and back after a restart; a side whose
/// time is up cannot move. A new game is stored as another game.
#[test]
fn clocks_are_kept_stored_and_restored() {
    let db = Db::new("clocks");
    let [db, path] = db.options();
    let server = Server::start(&[&db, &path]);
    let mut page = server.against_depth_1();
    page.send(r#"{"type":"clock","base_ms":60000,"inc_ms":1000}"#);
    let chosen = page.state_at(0);
    assert_eq!(chosen["clock"]["white_ms"], 60_000);
    assert_eq!(chosen["clock"]["running"], Value::Null);
    page.send(r#"{"type":"move","move":"e2e4"}"#);
    let first = page.state_at(1);
    assert_eq!(first["clock"]["white_ms"], 61_000, "the first move is free");
    assert_eq!(first["clock"]["running"], "black");
    let answered = page.state_at(2);
    let black = answered["clock"]["black_ms"].as_i64().unwrap();
    assert!((56_000..=61_000).contains(&black), "black {black}");
    assert_eq!(answered["clock"]["running"], "white");
    std::thread::sleep(Duration::from_millis(300));
    page.send(r#"{"type":"move","move":"d2d4"}"#);
    let white = page.state_at(3)["clock"]["white_ms"].as_i64().unwrap();
    assert!(
        (58_000..=61_700).contains(&white),
        "white {white} after 300 ms"
    );
    page.state_at(4);
    let id = answered["game"].as_str().unwrap().to_string();
    let game = server.json(&format!("/game/{id}/json"));
    assert_eq!(game["clock"]["base_ms"], 60_000);
    let stored: Vec<i64> = (game["moves"].as_array().unwrap().iter())
        .map(|m| m["clock_ms"].as_i64().unwrap())
        .collect();
    assert_eq!(&stored[..3], &[61_000, black, white]);

    // A new game is another stored game; the first keeps its moves.
    page.send(r#"{"type":"new","variant":"chess"}"#);
    assert_eq!(page.state_at(0)["game"], Value::Null);
    page.send(r#"{"type":"move","move":"g1f3"}"#);
    let other = page.state_at(1)["game"].as_str().unwrap().to_string();
    assert_ne!(other, id);
    assert_eq!(moves(&server.json(&format!("/game/{id}/json"))).len(), 4);
    server.kill();

    let server = Server::start(&[&db, &path]);
    let mut page = server.board(Some(&id));
    let back = page.state_at(4);
    assert_eq!(
        back["clock"]["black_ms"], stored[3],
        "Black's clock as stored"
    );
    let white = back["clock"]["white_ms"].as_i64().unwrap();
    assert!(
        white <= stored[2] && white > stored[2] - 5_000,
        "White's runs on: {white}"
    );
    assert_eq!(back["clock"]["base_ms"], 60_000);
    assert_eq!(back["clock"]["running"], "white");
    drop(page);

    // 200 ms a side, no increment: White's time is up before its second move.
    let mut page = server.board(None);
    let default = &page.state_at(0)["clock"];
    let tc = (default["base_ms"].as_i64(), default["inc_ms"].as_i64());
    assert_eq!(
        tc,
        (Some(900_000), Some(10_000)),
        "15 minutes and 10 s a move"
    );
    page.send(r#"{"type":"engine","white":false,"black":false}"#);
    page.state_at(0);
    page.send(r#"{"type":"clock","base_ms":200}"#);
    page.state_at(0);
    page.send(r#"{"type":"move","move":"e2e4"}"#);
    page.state_at(1);
    page.send(r#"{"type":"move","move":"e7e5"}"#);
    page.state_at(2);
    std::thread::sleep(Duration::from_millis(400));
    page.send(r#"{"type":"state"}"#);
    assert_eq!(page.state_at(2)["clock"]["flag"], "white");
    page.send(r#"{"type":"move","move":"d2d4"}"#);
    let refused = page.next();
    assert_eq!(refused["type"], "error");
    assert!(
        refused["message"].as_str().unwrap().contains("time is up"),
        "{refused}"
    );
}

/// Issue 26, item 2: with one worker busy, searches asked for by other pages wait in the order
/// they came, and each waiting page is told its place, again when it moves up, and when its
/// search starts.
#[test]
fn waiting_searches_are_served_in_order_and_told_their_place() {
    let server = Server::start(&["--db", ":memory:"]);
    let mut pages: Vec<Board> = (0..3).map(|_| server.against_depth_1()).collect();
    for page in &mut pages {
        page.send(r#"{"type":"engine","black":true,"movetime":20000}"#);
        page.state_at(0);
        page.send(r#"{"type":"move","move":"e2e4"}"#);
        page.state_at(1);
    }
    let place = |page: &mut Board| loop {
        let v = page.next();
        if v["type"] == "queue" {
            return v["place"].as_u64();
        }
    };
    assert_eq!(place(&mut pages[1]), Some(1));
    assert_eq!(place(&mut pages[2]), Some(2));
    assert_eq!(server.json("/healthz")["waiting"], 2);
    // The first page's search ends: the second one's starts, the third moves up.
    pages[0].send(r#"{"type":"stop"}"#);
    pages[0].state_at(2);
    assert_eq!(place(&mut pages[1]), None);
    assert_eq!(place(&mut pages[2]), Some(1));
    pages[1].send(r#"{"type":"stop"}"#);
    pages[1].state_at(2);
    assert_eq!(place(&mut pages[2]), None);
    pages[2].send(r#"{"type":"stop"}"#);
    pages[2].state_at(2);
}

/// `cellmate serve` run with `db` (a PostgreSQL URL where no server listens) as `--db`, or as
/// `CELLMATE_DB` when `from_env`: exit status 1 and one error line naming the server as `at`
/// (never a password), no panic. Returns that line.
fn unreachable_store(db: &str, from_env: bool, at: &str) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cellmate"));
    cmd.args(["serve", "--bind", "127.0.0.1:0"]);
    if from_env {
        cmd.env("CELLMATE_DB", db);
    } else {
        cmd.args(["--db", db]);
    }
    let out = cmd.stdin(Stdio::null()).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("PostgreSQL at {at}")) && err.contains("error connecting to server"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// The store's URL may come from the environment (`CELLMATE_DB`), keeping a password out of the
/// process list; an unreachable PostgreSQL there ends `serve` with one line that names the
/// server without the password, exit status 1.
#[test]
fn the_store_url_comes_from_the_environment() {
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = free.local_addr().unwrap().port();
    drop(free);
    let url = format!("postgres://host:s3cret@127.0.0.1:{port}/games");
    let err = unreachable_store(&url, true, &format!("host@127.0.0.1:{port}/games"));
    assert!(!err.contains("s3cret"), "{err}");
}

/// The error a message over `--rate 0.1 --burst 5` gets.
const REFUSED: &str = "too many messages from your address (more than 0.1 a second, 5 at once): \
     this one was not executed; wait a few seconds";

/// Issue 26, item 2: a client's messages over its rate are each answered by one error and
/// not executed (the game is unchanged); one that keeps sending while refused is closed
/// (close code 1008); another client (127.0.0.2) meanwhile plays normally; a client's pages
/// past `--max-sessions-per-client` are refused with 429, another client's are not.
#[test]
fn a_client_flooding_messages_is_refused_then_closed_while_another_plays() {
    let server = Server::start(&[
        "--db",
        ":memory:",
        "--rate",
        "0.1",
        "--burst",
        "5",
        "--max-sessions-per-client",
        "2",
    ]);
    let port = server.port;
    let mut flood = server.board(None);
    flood.state_at(0);
    let mut other = server.board_from([127, 0, 0, 2]);
    other.state_at(0);

    // A burst of 5 is taken: each message answered by its state.
    flood.send(r#"{"type":"engine","white":false,"black":false}"#);
    assert_eq!(flood.next()["type"], "state");
    flood.send(r#"{"type":"move","move":"e2e4"}"#);
    let played = flood.next();
    assert_eq!(played["history"].as_array().unwrap().len(), 1);
    let id = played["game"].as_str().unwrap().to_string();
    for _ in 0..3 {
        flood.send(r#"{"type":"state"}"#);
        assert_eq!(flood.next()["type"], "state");
    }
    // Then 30 more at once: each refused, nothing executed.
    let flood_of = [
        r#"{"type":"move","move":"e7e5"}"#,
        r#"{"type":"undo"}"#,
        r#"{"type":"new","variant":"chess"}"#,
        r#"{"type":"engine","white":true,"black":true,"depth":1}"#,
        r#"{"type":"state"}"#,
        "not even JSON",
    ];
    for msg in flood_of.iter().cycle().take(30) {
        flood.send(msg);
    }
    let refused = serde_json::json!({"type": "error", "message": REFUSED, "reply": true});
    for i in 0..30 {
        assert_eq!(flood.next(), refused, "reply {i} to the flood");
    }
    let game = server.json(&format!("/game/{id}/json"));
    assert_eq!(moves(&game), ["e2e4"], "the flood changed the game");
    assert_eq!(game["engine"]["white"], false);
    assert_eq!(game["engine"]["black"], false);

    // Meanwhile another client plays: its messages are taken, the engine answers.
    other.send(r#"{"type":"engine","white":false,"black":true,"depth":1}"#);
    other.state_at(0);
    other.send(r#"{"type":"move","move":"d2d4"}"#);
    other.state_at(1);
    let answered = other.state_at(2);
    assert_eq!(answered["thinking"], false);

    // Pages: the flooding client has one open, may open a second, not a third; 127.0.0.2 may.
    let _second = server.board(None);
    let own = format!("127.0.0.1:{port}");
    assert_eq!(
        ws_status(port, &own, None),
        "HTTP/1.1 429 Too Many Requests"
    );
    let _third = server.board_from([127, 0, 0, 2]);
    assert_eq!(server.json("/healthz")["sessions"], 4);

    // 50 refused in a row (ten bursts) are answered; the 51st closes the socket.
    for msg in flood_of.iter().cycle().take(21) {
        flood.send(msg);
    }
    for i in 0..20 {
        assert_eq!(flood.next(), refused, "reply {} to the flood", 31 + i);
    }
    match flood.0.read() {
        Ok(tungstenite::Message::Close(Some(frame))) => {
            assert_eq!(
                frame.code,
                tungstenite::protocol::frame::coding::CloseCode::Policy
            );
            assert_eq!(frame.reason.as_str(), "too many messages");
        }
        got => panic!("not closed for the flood: {got:?}"),
    }
    assert_eq!(
        moves(&server.json(&format!("/game/{id}/json"))),
        ["e2e4"],
        "the second flood changed the game"
    );
    // Its place is given back: the client may open a page again (its messages still wait
    // for the bucket to fill).
    let free = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        server.json("/healthz")["sessions"] == 3
    });
    assert!(free, "the closed page still counted after 5 s");
    let mut again = server.board(None);
    again.state_at(0);
    again.send(r#"{"type":"state"}"#);
    assert_eq!(again.next(), refused);
}

/// Behind a reverse proxy given by `--trust-proxy`, the client is the address the proxy
/// names in X-Forwarded-For; from any other address the header is not believed.
#[test]
fn x_forwarded_for_is_believed_only_from_a_trusted_proxy() {
    let server = Server::start(&[
        "--db",
        ":memory:",
        "--max-sessions-per-client",
        "1",
        "--trust-proxy",
        "127.0.0.1",
    ]);
    let port = server.port;
    let open = "HTTP/1.1 101 Switching Protocols";
    let too_many = "HTTP/1.1 429 Too Many Requests";
    let mut kept = Vec::new();
    let mut via = |source, xff: &str| {
        let s = format!("X-Forwarded-For: {xff}\r\n");
        let (status, connection) = ws_status_from(source, port, &s);
        kept.push(connection);
        status
    };
    // The proxy's clients, each its own.
    assert_eq!(via([127, 0, 0, 1], "203.0.113.7"), open);
    assert_eq!(via([127, 0, 0, 1], "203.0.113.7"), too_many);
    assert_eq!(via([127, 0, 0, 1], "198.51.100.1, 203.0.113.8"), open);
    assert_eq!(via([127, 0, 0, 1], "203.0.113.9, 203.0.113.8"), too_many);
    // Not the proxy: the header is the client's word, not taken; it is 127.0.0.3.
    assert_eq!(via([127, 0, 0, 3], "203.0.113.10"), open);
    assert_eq!(via([127, 0, 0, 3], "203.0.113.11"), too_many);
}
