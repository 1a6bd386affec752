//! Replays the GUI side of real protocol sessions against the binary.
//!
//! Every `*.fixture` file in `protocol-fixtures/` (format: `protocol-fixtures/README.md`) is
//! one recorded GUI session, turned into what the GUI sends and what it waits for. The harness
//! plays the GUI: it starts engines, sends their commands, answers `feature` lines the way the
//! GUI did, keeps the board (with this crate's own rules) and the clocks, relays the moves one
//! engine played to the other, and fails on anything a real GUI would choke on:
//!
//! - an answer that does not come within the timeout (a hang fails, never blocks);
//! - a move that is not legal on the GUI's board, or that comes after its side's clock ran out;
//! - a `move`/`bestmove` nobody asked for;
//! - any `Error …` or `Illegal move …` line (XBoard), or `info string Unknown …`/`Invalid …`/
//!   `Illegal …` (UCI): the engine refused something a real GUI sent;
//! - a `feature` line after `feature done=1`, an `option` line after `uciok`;
//! - a command the fixture sends that the real GUI would not have sent to this engine (e.g.
//!   `usermove` without `feature usermove=1`, `variant X` with X not in `variants=`, `setoption`
//!   of an option the engine never declared);
//! - an engine that does not exit after `quit`/end of input, exits with a failure, or panics.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use cellmate::core::{Color, Dialect, Move, MoveError, Outcome};
use cellmate::variants::{AnyPos, VariantKind};
use cellmate::xbwire;

/// How long one expected answer may take unless the fixture says otherwise (`timeout MS`):
/// generous, since a loaded machine slows the engines' start-up (not their clocks: a move
/// is checked against the clock separately).
const DEFAULT_WAIT: Duration = Duration::from_secs(30);
/// How long an engine may take to exit once its input is closed.
const EXIT_WAIT: Duration = Duration::from_secs(5);

type Res<T> = Result<T, String>;

// ---------------------------------------------------------------------------------------------
// The GUI's board: this crate's rules, with the XBoard side spelt as XBoard 4.9.1 hosts the
// variant (`xbwire`: zero-based ranks on 10 ranks and with `Rank Offset=1`, Immune Chess
// mirrored, XBoard's spellings of shots, hatches, bonds, kills…).

#[derive(Clone)]
struct Board {
    pos: AnyPos,
    /// The `Rank Offset` option sent to the XBoard engine(s).
    rank_offset: u8,
    /// The positions before each move played since the start or the last `setboard`, for
    /// XBoard's `undo`/`remove`.
    before: Vec<AnyPos>,
}

impl Board {
    fn xb(&self) -> Dialect {
        xbwire::dialect(&self.pos, self.rank_offset)
    }
    fn parse(&self, text: &str, proto: Proto) -> Result<Move, MoveError> {
        match proto {
            Proto::Xboard => xbwire::parse_move(&self.pos, text, self.xb()),
            Proto::Uci => self.pos.parse_move(text, Dialect::UCI),
        }
    }
    fn text(&self, m: Move, proto: Proto) -> String {
        match proto {
            Proto::Xboard => xbwire::move_text(&self.pos, m, self.xb()),
            Proto::Uci => self.pos.move_text(m, Dialect::UCI),
        }
    }
    fn play(&mut self, m: Move) {
        assert!(self.pos.is_legal(m), "playing an illegal move");
        self.before.push(self.pos.clone());
        self.pos.make_move(m);
    }
    /// Takes back `n` moves (XBoard's `undo` 1, `remove` 2); false when there are fewer.
    fn take_back(&mut self, n: usize) -> bool {
        if self.before.len() < n {
            return false;
        }
        for _ in 0..n {
            self.pos = self.before.pop().expect("a position before the move");
        }
        true
    }
    fn side(&self) -> Color {
        self.pos.side_to_move()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }
}

/// The start position of a variant named as in UCI or XBoard.
fn new_board(name: &str) -> Res<Board> {
    let kind = VariantKind::from_name(name).ok_or_else(|| format!("unknown variant {name:?}"))?;
    Ok(Board {
        pos: kind.startpos(),
        rank_offset: 0,
        before: Vec::new(),
    })
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Proto {
    Xboard,
    Uci,
}

// ---------------------------------------------------------------------------------------------
// Patterns: literal text, `*` (any text) and `{move}` (one move token, captured).

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Lit(String),
    Star,
    Move,
}

fn compile(pattern: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut rest = pattern;
    while let Some(c) = rest.chars().next() {
        let (piece, len) = if c == '*' {
            (Some(Piece::Star), 1)
        } else if rest.starts_with("{move}") {
            (Some(Piece::Move), "{move}".len())
        } else {
            lit.push(c);
            (None, c.len_utf8())
        };
        if let Some(p) = piece {
            if !lit.is_empty() {
                out.push(Piece::Lit(std::mem::take(&mut lit)));
            }
            out.push(p);
        }
        rest = &rest[len..];
    }
    if !lit.is_empty() {
        out.push(Piece::Lit(lit));
    }
    out
}

/// Matches a whole line; `Some(captured move)` (empty when the pattern has none) on a match.
fn matches(pieces: &[Piece], text: &str) -> Option<String> {
    match pieces.split_first() {
        None => text.is_empty().then(String::new),
        Some((Piece::Lit(l), rest)) => matches(rest, text.strip_prefix(l.as_str())?),
        Some((Piece::Star, rest)) => (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .find_map(|i| matches(rest, &text[i..])),
        Some((Piece::Move, rest)) => {
            let end = text.find(char::is_whitespace).unwrap_or(text.len());
            if end == 0 {
                return None;
            }
            let tail = matches(rest, &text[end..])?;
            Some(if tail.is_empty() {
                text[..end].to_string()
            } else {
                tail
            })
        }
    }
}

// ---------------------------------------------------------------------------------------------
// One engine process, seen from the GUI.

struct Engine {
    name: String,
    proto: Proto,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    stderr: Option<thread::JoinHandle<String>>,
    /// Features this GUI rejects (it accepts every other one).
    rejects: HashSet<String>,
    /// XBoard features as announced (`name` → value, quotes removed).
    features: HashMap<String, String>,
    done: bool,
    /// UCI options as declared (`name` → combo choices).
    options: HashMap<String, Vec<String>>,
    uciok: bool,
    /// The last lines read, for failure messages.
    recent: Vec<String>,
}

impl Engine {
    fn start(name: &str, proto: Proto, rejects: HashSet<String>) -> Res<Engine> {
        // FIXTURE_BIN replays the fixtures against another build (an older one, to see a
        // regression fixture fail there).
        let bin = std::env::var("FIXTURE_BIN").unwrap_or(env!("CARGO_BIN_EXE_cellmate").into());
        let mut child = Command::new(bin)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start cellmate: {e}"))?;
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send((Instant::now(), l)).is_err() {
                    break;
                }
            }
        });
        let mut stderr = child.stderr.take().unwrap();
        let err = thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        Ok(Engine {
            name: name.to_string(),
            proto,
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr: Some(err),
            rejects,
            features: HashMap::new(),
            done: false,
            options: HashMap::new(),
            uciok: false,
            recent: Vec::new(),
        })
    }

    fn write(&mut self, line: &str) -> Res<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| format!("{}: input already closed", self.name))?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("{}: cannot send {line:?}: {e}", self.name))
    }

    /// Checks a command against what the engine announced: the GUI would not send it otherwise.
    fn check_send(&self, line: &str) -> Res<()> {
        let mut words = line.split_whitespace();
        let cmd = words.next().unwrap_or("");
        let feature = |name: &str, default: &str| {
            self.features
                .get(name)
                .map(String::as_str)
                .unwrap_or(default)
                .to_string()
        };
        let need = |name: &str, default: &str| -> Res<()> {
            if feature(name, default) == "1" && !self.rejects.contains(name) {
                Ok(())
            } else {
                Err(format!(
                    "the GUI sends {line:?} only to engines with feature {name}=1"
                ))
            }
        };
        match (self.proto, cmd) {
            (Proto::Xboard, "usermove") => need("usermove", "0"),
            (Proto::Xboard, "ping") => need("ping", "0"),
            (Proto::Xboard, "memory") => need("memory", "0"),
            (Proto::Xboard, "cores") => need("smp", "0"),
            (Proto::Xboard, "setboard") => need("setboard", "0"),
            (Proto::Xboard, "time" | "otim") => need("time", "1"),
            (Proto::Xboard, "variant") => {
                let want = words.next().unwrap_or("");
                let list = feature("variants", "normal");
                if list.split(',').any(|v| v.trim() == want) {
                    Ok(())
                } else {
                    Err(format!("variant {want:?} is not in variants=\"{list}\""))
                }
            }
            (Proto::Uci, "setoption") => {
                let rest = line.trim_start_matches("setoption").trim();
                let rest = rest.strip_prefix("name ").unwrap_or(rest);
                let (name, value) = match rest.split_once(" value ") {
                    Some((n, v)) => (n.trim(), Some(v.trim())),
                    None => (rest.trim(), None),
                };
                let Some(choices) = self.options.get(name) else {
                    return Err(format!("option {name:?} was never declared"));
                };
                match value {
                    Some(v) if !choices.is_empty() && !choices.iter().any(|c| c == v) => {
                        Err(format!("{v:?} is not one of {choices:?}"))
                    }
                    _ => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    /// The next line within `wait`, after the checks every line gets; `Ok(None)` on timeout.
    fn next_line(&mut self, wait: Duration) -> Res<Option<(Instant, String)>> {
        let (at, line) = match self.lines.recv_timeout(wait) {
            Ok(x) => x,
            Err(RecvTimeoutError::Timeout) => return Ok(None),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(format!("{}: output ended (engine exited?)", self.name))
            }
        };
        self.recent.push(line.clone());
        if self.recent.len() > 12 {
            self.recent.remove(0);
        }
        self.check_line(&line)?;
        Ok(Some((at, line)))
    }

    fn check_line(&mut self, line: &str) -> Res<()> {
        let refused = match self.proto {
            Proto::Xboard => ["Error", "Illegal move"]
                .iter()
                .any(|p| line.starts_with(p)),
            Proto::Uci => ["Unknown", "Invalid", "Illegal"]
                .iter()
                .any(|p| line.starts_with(&format!("info string {p}"))),
        };
        if refused {
            return Err(format!("{} refused a GUI command: {line:?}", self.name));
        }
        match self.proto {
            Proto::Xboard if line.starts_with("feature ") => {
                if self.done {
                    return Err(format!("{}: feature after done=1: {line:?}", self.name));
                }
                for (name, value) in parse_features(&line["feature ".len()..])? {
                    let answer = if self.rejects.contains(&name) {
                        "rejected"
                    } else {
                        "accepted"
                    };
                    self.write(&format!("{answer} {name}"))?;
                    if name == "done" && value == "1" {
                        self.done = true;
                    }
                    self.features.insert(name, value);
                }
            }
            Proto::Uci if line.starts_with("option ") => {
                if self.uciok {
                    return Err(format!("{}: option after uciok: {line:?}", self.name));
                }
                let (name, choices) = parse_option(line)?;
                self.options.insert(name, choices);
            }
            Proto::Uci if line == "uciok" => self.uciok = true,
            _ => {}
        }
        Ok(())
    }

    /// Closes the input, waits for the exit, checks what came after and stderr.
    fn finish(mut self) -> Res<()> {
        drop(self.stdin.take());
        let deadline = Instant::now() + EXIT_WAIT;
        let status = loop {
            if let Some(s) = self.child.try_wait().map_err(|e| e.to_string())? {
                break s;
            }
            if Instant::now() > deadline {
                return Err(format!("{} did not exit at quit/end of input", self.name));
            }
            thread::sleep(Duration::from_millis(10));
        };
        // What it printed after the fixture's last wait gets the same checks.
        while let Ok((_, l)) = self.lines.recv_timeout(Duration::from_millis(500)) {
            self.check_line(&l)?;
            if is_move_line(&l) {
                return Err(format!("{}: unsolicited {l:?} at the end", self.name));
            }
        }
        let err = self.stderr.take().unwrap().join().unwrap_or_default();
        if err.contains("panicked") {
            return Err(format!("{} panicked: {err}", self.name));
        }
        if !status.success() {
            return Err(format!("{} exited with {status}: {err}", self.name));
        }
        Ok(())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_move_line(line: &str) -> bool {
    line.starts_with("move ") || line.starts_with("bestmove ")
}

/// `name=value` pairs of a `feature` line (values may be `"quoted with spaces"`).
fn parse_features(text: &str) -> Res<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let (name, after) = rest
            .split_once('=')
            .ok_or_else(|| format!("bad feature syntax: {text:?}"))?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(format!("bad feature name in {text:?}"));
        }
        let (value, tail) = if let Some(q) = after.strip_prefix('"') {
            let end = q
                .find('"')
                .ok_or_else(|| format!("unclosed quote in {text:?}"))?;
            (&q[..end], &q[end + 1..])
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (&after[..end], &after[end..])
        };
        out.push((name.to_string(), value.to_string()));
        rest = tail.trim_start();
    }
    Ok(out)
}

/// The name and combo choices of a UCI `option name N type T …` line.
fn parse_option(line: &str) -> Res<(String, Vec<String>)> {
    let rest = line
        .strip_prefix("option name ")
        .ok_or_else(|| format!("bad option line {line:?}"))?;
    let (name, spec) = rest
        .split_once(" type ")
        .ok_or_else(|| format!("option without type: {line:?}"))?;
    let mut choices = Vec::new();
    let mut words = spec.split_whitespace().peekable();
    if words.peek() == Some(&"combo") {
        while let Some(w) = words.next() {
            if w == "var" {
                if let Some(v) = words.next() {
                    choices.push(v.to_string());
                }
            }
        }
    }
    Ok((name.trim().to_string(), choices))
}

// ---------------------------------------------------------------------------------------------
// The GUI's clocks.

struct Clocks {
    left_ms: [i64; 2],
    inc_ms: i64,
    /// Since when the side to move's clock runs.
    running: Option<Instant>,
}

impl Clocks {
    /// What the side `c` has left now (the running clock counted down to this instant).
    fn left(&self, c: Color, to_move: Color) -> i64 {
        let mut ms = self.left_ms[c.index()];
        if c == to_move {
            if let Some(t) = self.running {
                ms -= t.elapsed().as_millis() as i64;
            }
        }
        ms.max(0)
    }
}

// ---------------------------------------------------------------------------------------------
// A fixture run.

struct Played {
    uci: String,
    xboard: String,
}

struct Gui {
    engines: Vec<Engine>,
    board: Option<Board>,
    played: Vec<Played>,
    clocks: Option<Clocks>,
    wait: Duration,
}

impl Gui {
    fn engine(&mut self, name: &str) -> Res<usize> {
        self.engines
            .iter()
            .position(|e| e.name == name)
            .ok_or_else(|| format!("no engine {name:?} (missing `start {name} …`?)"))
    }

    fn board(&self) -> Res<&Board> {
        self.board
            .as_ref()
            .ok_or_else(|| "no board (missing `board VARIANT`)".to_string())
    }

    fn clocks(&self) -> Res<&Clocks> {
        self.clocks
            .as_ref()
            .ok_or_else(|| "no clocks (missing `clock BASE_MS INC_MS`)".to_string())
    }

    /// Replaces the `{…}` placeholders of a command for engine `e`.
    fn expand(&self, e: usize, text: &str) -> Res<String> {
        let mut out = text.to_string();
        if out.contains("{last}") {
            let last = self
                .played
                .last()
                .ok_or("{last} before any move was played")?;
            let spelled = match self.engines[e].proto {
                Proto::Xboard => &last.xboard,
                Proto::Uci => &last.uci,
            };
            out = out.replace("{last}", spelled);
        }
        if out.contains("{position}") {
            let mut pos = "startpos".to_string();
            if !self.played.is_empty() {
                pos.push_str(" moves");
                for p in &self.played {
                    pos.push(' ');
                    pos.push_str(&p.uci);
                }
            }
            out = out.replace("{position}", &pos);
        }
        for (key, color, per_ms) in [
            ("{wcs}", Color::White, 10),
            ("{bcs}", Color::Black, 10),
            ("{wms}", Color::White, 1),
            ("{bms}", Color::Black, 1),
        ] {
            if out.contains(key) {
                let to_move = self.board()?.side();
                let v = self.clocks()?.left(color, to_move) / per_ms;
                out = out.replace(key, &v.to_string());
            }
        }
        // Anything else in braces with no space is a misspelt placeholder (a result comment
        // such as `{xboard exit}` has spaces, or is sent as is).
        if let Some(bad) = out.split('{').skip(1).find_map(|t| {
            let word = t.split('}').next()?;
            (t.contains('}') && !word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase()))
                .then_some(word)
        }) {
            return Err(format!("unknown placeholder {{{bad}}} in {text:?}"));
        }
        Ok(out)
    }

    fn send(&mut self, e: usize, text: &str) -> Res<()> {
        let line = self.expand(e, text)?;
        self.engines[e].check_send(&line)?;
        if self.engines[e].proto == Proto::Xboard {
            self.follow_xboard(text, &line)?;
        }
        self.engines[e].write(&line)
    }

    /// What an XBoard command does to the GUI's board: `option Rank Offset=N` changes the
    /// spelling, `setboard FEN` (XBoard's view) replaces the position, `new` restarts it,
    /// `undo`/`remove` take back one/two moves, and a person's move (a literal `usermove`,
    /// not a `{last}` relay) is played on it and must be legal.
    fn follow_xboard(&mut self, raw: &str, line: &str) -> Res<()> {
        let Some(board) = self.board.as_mut() else {
            return Ok(());
        };
        let offset = line
            .strip_prefix("option Rank_Offset=")
            .or(line.strip_prefix("option Rank Offset="));
        if let Some(v) = offset {
            board.rank_offset = v.parse().map_err(|_| format!("bad option {line:?}"))?;
        } else if let Some(fen) = line.strip_prefix("setboard ") {
            let kind = board.pos.kind();
            board.pos = kind
                .from_fen(&xbwire::fen_from_xboard(kind, fen))
                .map_err(|e| format!("{line:?}: the GUI cannot read it ({e})"))?;
            board.before.clear();
            self.played.clear();
        } else if line == "new" {
            board.pos = board.pos.kind().startpos();
            board.before.clear();
            self.played.clear();
        } else if line == "undo" || line == "remove" {
            let n = if line == "undo" { 1 } else { 2 };
            if !board.take_back(n) {
                return Err(format!("{line:?} with fewer than {n} moves played"));
            }
            let left = self.played.len().saturating_sub(n);
            self.played.truncate(left);
        } else if let Some(text) = line.strip_prefix("usermove ") {
            if !raw.contains('{') {
                let m = board
                    .parse(text, Proto::Xboard)
                    .map_err(|e| format!("{line:?}: the person's move is not legal ({e})"))?;
                self.play(m);
            }
        }
        Ok(())
    }

    /// Reads engine `e`'s lines until one matches `pattern`.
    fn expect(&mut self, e: usize, pattern: &str) -> Res<()> {
        let pieces = compile(pattern);
        let deadline = Instant::now() + self.wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some((at, line)) = self.engines[e].next_line(left)? else {
                let over = self
                    .board
                    .as_ref()
                    .and_then(|b| b.outcome())
                    .map(|o| format!(" (the game is over: {o:?})"))
                    .unwrap_or_default();
                return Err(format!(
                    "{}: no line matching {pattern:?} within {:?}{over}; last lines: {:#?}",
                    self.engines[e].name, self.wait, self.engines[e].recent
                ));
            };
            match matches(&pieces, &line) {
                Some(mv) if pieces.contains(&Piece::Move) => {
                    return self.engine_moved(e, at, &mv, &line)
                }
                Some(_) => return Ok(()),
                None if is_move_line(&line) => {
                    return Err(format!(
                        "{}: unsolicited {line:?} while waiting for {pattern:?}",
                        self.engines[e].name
                    ))
                }
                None => {}
            }
        }
    }

    /// Engine `e` played `text` (in its own spelling) at `at`: check it, charge the clock, play
    /// it on the board.
    fn engine_moved(&mut self, e: usize, at: Instant, text: &str, line: &str) -> Res<()> {
        let name = self.engines[e].name.clone();
        let board = self.board()?;
        let proto = self.engines[e].proto;
        let m = board
            .parse(text, proto)
            .map_err(|err| format!("{name}: {line:?}: not a legal move here ({err})"))?;
        // A ponder move must be legal after the move.
        if let Some(p) = line
            .split_whitespace()
            .skip_while(|w| *w != "ponder")
            .nth(1)
        {
            let mut after = board.clone();
            after.play(m);
            after
                .parse(p, proto)
                .map_err(|err| format!("{name}: {line:?}: illegal ponder move ({err})"))?;
        }
        let mover = board.side();
        if let Some(c) = self.clocks.as_mut() {
            if let Some(since) = c.running {
                let used = at.saturating_duration_since(since).as_millis() as i64;
                let left = c.left_ms[mover.index()] - used;
                if left < 0 {
                    return Err(format!(
                        "{name} lost on time: {line:?} took {used} ms with {} ms left",
                        c.left_ms[mover.index()]
                    ));
                }
                c.left_ms[mover.index()] = left + c.inc_ms;
                c.running = Some(at);
            }
        }
        self.play(m);
        Ok(())
    }

    fn play(&mut self, m: Move) {
        let board = self.board.as_mut().expect("board");
        let uci = board.text(m, Proto::Uci);
        let xboard = board.text(m, Proto::Xboard);
        board.play(m);
        self.played.push(Played { uci, xboard });
    }

    fn directive(&mut self, line: &str) -> Res<()> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["start", name, proto, rest @ ..] => {
                if self.engines.iter().any(|e| e.name == *name) {
                    return Err(format!("engine {name} started twice"));
                }
                let proto = match *proto {
                    "xboard" => Proto::Xboard,
                    "uci" => Proto::Uci,
                    p => return Err(format!("unknown protocol {p:?}")),
                };
                let rejects = match rest {
                    [] => HashSet::new(),
                    ["reject", list] => list.split(',').map(str::to_string).collect(),
                    _ => return Err(format!("bad start line {line:?}")),
                };
                self.engines.push(Engine::start(name, proto, rejects)?);
            }
            ["board", variant] => {
                self.board = Some(new_board(variant)?);
                self.played.clear();
            }
            ["clock", "run"] => {
                let c = self
                    .clocks
                    .as_mut()
                    .ok_or("`clock run` before `clock BASE_MS INC_MS`")?;
                c.running = Some(Instant::now());
            }
            ["clock", base, inc] => {
                let base: i64 = base.parse().map_err(|_| format!("bad clock {line:?}"))?;
                let inc: i64 = inc.parse().map_err(|_| format!("bad clock {line:?}"))?;
                self.clocks = Some(Clocks {
                    left_ms: [base, base],
                    inc_ms: inc,
                    running: None,
                });
            }
            ["timeout", ms] => {
                let ms: u64 = ms.parse().map_err(|_| format!("bad timeout {line:?}"))?;
                self.wait = Duration::from_millis(ms);
            }
            _ => return Err(format!("unknown directive {line:?}")),
        }
        Ok(())
    }

    fn step(&mut self, line: &str) -> Res<()> {
        let send = line.find("> ").filter(|&i| !line[..i].contains(' '));
        let recv = line.find("< ").filter(|&i| !line[..i].contains(' '));
        match (send, recv) {
            (Some(i), _) if recv.is_none_or(|j| i < j) => {
                let e = self.engine(&line[..i])?;
                self.send(e, &line[i + 2..])
            }
            (_, Some(j)) => {
                let e = self.engine(&line[..j])?;
                self.expect(e, &line[j + 2..])
            }
            _ => self.directive(line),
        }
    }
}

/// Runs fixture text; `Err` names the failing line.
fn run_fixture(text: &str) -> Res<()> {
    let mut gui = Gui {
        engines: Vec::new(),
        board: None,
        played: Vec::new(),
        clocks: None,
        wait: DEFAULT_WAIT,
    };
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        gui.step(line)
            .map_err(|e| format!("line {}: {line}\n  {e}", n + 1))?;
    }
    let mut errors = Vec::new();
    for e in gui.engines.drain(..) {
        if let Err(err) = e.finish() {
            errors.push(err);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("at the end: {}", errors.join("\n  ")))
    }
}

fn fixture_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-fixtures");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "fixture"))
        .collect();
    files.sort();
    files
}

/// Every fixture, each on its own thread (they wait on the engines' clocks, not on the CPU).
#[test]
fn replay_every_fixture() {
    let mut files = fixture_files();
    assert!(files.len() >= 15, "fixtures missing: {files:?}");
    // `FIXTURE=word cargo test --test it protocol_fixtures::` replays only the files naming `word`.
    if let Ok(only) = std::env::var("FIXTURE") {
        files.retain(|p| p.to_string_lossy().contains(&only));
        assert!(!files.is_empty(), "no fixture matches FIXTURE={only}");
    }
    let runs: Vec<_> = files
        .into_iter()
        .map(|path| {
            thread::spawn(move || {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let text = std::fs::read_to_string(&path).unwrap();
                let t = Instant::now();
                let res = run_fixture(&text);
                eprintln!("{name}: {:?} in {:?}", res.is_ok(), t.elapsed());
                (name, res)
            })
        })
        .collect();
    let failures: Vec<String> = runs
        .into_iter()
        .filter_map(|h| match h.join().unwrap() {
            (_, Ok(())) => None,
            (name, Err(e)) => Some(format!("{name}: {e}")),
        })
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

// ---------------------------------------------------------------------------------------------
// The harness itself can fail.

#[test]
fn patterns() {
    let p = compile("move {move}");
    assert_eq!(matches(&p, "move e2e4"), Some("e2e4".into()));
    assert_eq!(matches(&p, "move e2e7,e7e2"), Some("e2e7,e7e2".into()));
    assert_eq!(matches(&p, "move "), None);
    assert_eq!(matches(&p, "move e2e4 x"), None);
    assert_eq!(matches(&p, "Illegal move: e2e4"), None);
    let p = compile("bestmove {move}*");
    assert_eq!(
        matches(&p, "bestmove g8f6 ponder d2d4"),
        Some("g8f6".into())
    );
    assert_eq!(matches(&p, "bestmove 0000"), Some("0000".into()));
    let p = compile("feature *done=1*");
    assert!(matches(&p, "feature done=1").is_some());
    assert!(matches(&p, "feature ping=1 done=1 x=2").is_some());
    assert!(matches(&p, "feature done=0").is_none());
    assert_eq!(matches(&compile("pong 1"), "pong 1"), Some(String::new()));
    assert_eq!(matches(&compile("pong 1"), "pong 12"), None);
}

#[test]
fn feature_and_option_lines() {
    let f =
        parse_features(r#"ping=1 myname="cellmate 0.1" variants="normal,immune" done=0"#).unwrap();
    assert_eq!(
        f,
        [
            ("ping", "1"),
            ("myname", "cellmate 0.1"),
            ("variants", "normal,immune"),
            ("done", "0")
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    assert!(parse_features(r#"myname="open"#).is_err());
    let (name, vars) =
        parse_option("option name UCI_Variant type combo default chess var chess var immune")
            .unwrap();
    assert_eq!(
        (name.as_str(), vars),
        ("UCI_Variant", vec!["chess".into(), "immune".into()])
    );
    let (name, vars) = parse_option("option name Move Overhead type spin default 30").unwrap();
    assert_eq!((name.as_str(), vars.len()), ("Move Overhead", 0));
}

#[test]
fn illegal_engine_moves_are_caught() {
    let board = new_board("chess").unwrap();
    assert!(board.parse("e2e4", Proto::Xboard).is_ok());
    assert!(board.parse("e2e5", Proto::Xboard).is_err());
    assert!(board.parse("@@@@", Proto::Xboard).is_err());
    assert!(new_board("shogi").is_err());
}

/// Sessions that must fail: the checks are live.
#[test]
fn broken_sessions_fail() {
    let cases = [
        // A command the engine does not know: an `Error` line.
        (
            "start e xboard\ne> xboard\ne> protover 2\ne< feature *done=1*\ne> frobnicate\ne> ping 1\ne< pong 1\n",
            "refused",
        ),
        // An answer that never comes.
        (
            "timeout 300\nstart e xboard\ne> xboard\ne> protover 2\ne< feature *done=1*\ne> ping 1\ne< pong 2\n",
            "no line matching",
        ),
        // An option the engine never declared.
        (
            "start e uci\ne> uci\ne< uciok\ne> setoption name UCI_Elo value 1350\n",
            "never declared",
        ),
        // A variant the engine does not list.
        (
            "start e xboard\ne> xboard\ne> protover 2\ne< feature *done=1*\ne> variant shogi\n",
            "not in variants",
        ),
        // `usermove` to an engine whose `usermove` feature the GUI rejected.
        (
            "start e xboard reject usermove\ne> xboard\ne> protover 2\ne< feature *done=1*\n\
             e> usermove e2e4\n",
            "feature usermove=1",
        ),
        // A move on a board of another variant: the engine plays chess, the GUI Immune.
        (
            "board immune\nstart e uci\ne> uci\ne< uciok\ne> position startpos\n\
             e> go depth 1\ne< bestmove {move}*\n",
            "not a legal move",
        ),
        // A refusal nobody waited for still counts.
        (
            "start e xboard\ne> xboard\ne> protover 2\ne< feature *done=1*\ne> frobnicate\n\
             e> quit\n",
            "refused",
        ),
        // A move nobody asked for.
        (
            "start e uci\ne> uci\ne< uciok\ne> position startpos\ne> go depth 1\n\
             e> isready\ne< readyok\ne< readyok\n",
            "unsolicited",
        ),
        // An engine move while its clock has run out.
        (
            "board chess\nclock 0 0\nstart e uci\ne> uci\ne< uciok\nclock run\n\
             e> position startpos\ne> go movetime 50\ne< bestmove {move}*\n",
            "lost on time",
        ),
    ];
    for (text, want) in cases {
        match run_fixture(text) {
            Ok(()) => panic!("passed:\n{text}"),
            Err(e) => assert!(e.contains(want), "{text}\nfailed with {e:?}, not {want:?}"),
        }
    }
}
