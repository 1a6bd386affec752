//! Players: engines run as child processes (UCI or XBoard) and the built-in random mover.
//!
//! A player only relays text: the referee decides what every move means
//! ([`super::notation`]) and when the game ends. Each process has a reader thread that time
//! stamps every line the moment it arrives, so thinking time is measured from the `go` to the
//! arrival of the move.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use super::adjudicate::Report;
use super::notation::engine_move_text;
use super::openings::Rng;
use super::spec::{EngineSpec, Limit};
use crate::core::{Color, Protocol};
use crate::variants::{AnyPos, VariantKind};

/// How long an engine may take to start (`uciok`, `feature done=1`) or to answer `isready` /
/// `ping`.
pub const INIT_TIMEOUT: Duration = Duration::from_secs(15);
/// How long an XBoard engine that never says `feature done=0` gets to send its features
/// (XBoard's own wait).
const FEATURE_WAIT: Duration = Duration::from_secs(2);
/// How long an XBoard engine that has said nothing at all yet gets to say its first line: one
/// still starting (an interpreter on a loaded machine) is waited for, as cutechess-cli waits
/// 8 s; an engine of protocol 1, which never answers `protover`, costs this once.
const FIRST_LINE_WAIT: Duration = Duration::from_secs(8);

/// What a player answered when asked for a move (or said unasked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A move text, the time from the request to its arrival, and the last score (and its
    /// depth) the engine reported while it thought, from its own view
    /// ([`super::adjudicate::reported`]).
    Move {
        text: String,
        elapsed: Duration,
        report: Option<Report>,
    },
    /// XBoard `resign`.
    Resign,
    /// An XBoard result claim (`1-0 {White mates}`), the whole line.
    Claim(String),
    /// The engine refused a move the referee sent (XBoard `Illegal move: …`; `Error …` lines
    /// are only logged).
    Refused(String),
    /// No move before the deadline.
    Timeout,
    /// The engine exited, closed its output or could not be written to.
    Gone(String),
}

impl Answer {
    /// A time-out or an exit: the player must be restarted before its next game.
    pub fn loses_player(&self) -> bool {
        matches!(self, Answer::Timeout | Answer::Gone(_))
    }
}

/// How a game starts, as a player needs to know it.
#[derive(Clone, Debug)]
pub struct GameStart<'a> {
    pub variant: VariantKind,
    /// `None`: the variant's start position.
    pub fen: Option<&'a str>,
    pub limit: Limit,
    /// For the built-in random mover.
    pub seed: u64,
}

/// A request for a move.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    pub pos: &'a AnyPos,
    /// Every move since the start position, in this player's protocol.
    pub moves: &'a [String],
    pub side: Color,
    pub limit: Limit,
    /// Clock times left (White, Black), in milliseconds (with [`Limit::Clock`]).
    pub clock_ms: [u64; 2],
    /// How long the referee waits for the answer.
    pub wait: Duration,
}

/// One side of a game.
pub trait Player: Send {
    fn name(&self) -> &str;
    fn protocol(&self) -> Protocol;
    /// Gets ready for a new game; an error means the player cannot play it.
    fn new_game(&mut self, start: &GameStart) -> Result<(), String>;
    /// Asks for a move.
    fn play(&mut self, req: &Request) -> Answer;
    /// Something the player said while it was not its turn (a claim, resignation, or exit).
    fn poll(&mut self) -> Option<Answer>;
    /// The game ended.
    fn game_over(&mut self, result: &str, reason: &str);
    /// `false` after a time-out or exit: the player must be restarted before the next game.
    fn healthy(&self) -> bool;
    /// The longest time the player said nothing during its last [`Player::play`]: from the
    /// request to its first line, between lines, and from its last line to the answer (or to
    /// the deadline when none came). A stall is one longer than the match's stall gap.
    fn longest_silence(&self) -> Duration {
        Duration::ZERO
    }
    /// Ends the player (`quit`, then a kill if it lingers). `Some(why)` when its process had
    /// already exited abnormally (a non-zero status or a signal) — a crash the games may not
    /// have seen. A process the referee had to kill is not a crash.
    fn close(&mut self) -> Option<String> {
        None
    }
}

/// Tracks the silences of one engine while it thinks.
#[derive(Clone, Copy, Debug)]
struct Silence {
    last: Instant,
    longest: Duration,
}

impl Silence {
    fn start(now: Instant) -> Silence {
        Silence {
            last: now,
            longest: Duration::ZERO,
        }
    }

    /// A line arrived at `t` (or the wait ended at `t`).
    fn mark(&mut self, t: Instant) {
        self.longest = self.longest.max(t.saturating_duration_since(self.last));
        self.last = self.last.max(t);
    }
}

/// Starts a player from its spec.
pub fn start(spec: &EngineSpec) -> Result<Box<dyn Player>, String> {
    if spec.builtin.is_some() {
        return Ok(Box::new(RandomPlayer::new(spec.default_name())));
    }
    match spec.protocol {
        Protocol::Uci => Ok(Box::new(UciEngine::start(spec)?)),
        Protocol::Xboard => Ok(Box::new(XboardEngine::start(spec)?)),
    }
}

// ------------------------------------------------------------------------------------------
// Child processes

enum Recv {
    Line(String, Instant),
    Timeout,
    Eof,
}

struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<(String, Instant)>,
    label: String,
    eof: bool,
    closed: bool,
}

impl Proc {
    fn spawn(spec: &EngineSpec) -> Result<Proc, String> {
        let cmd = spec.cmd.as_ref().ok_or("no command")?;
        let mut c = Command::new(cmd);
        c.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = &spec.dir {
            c.current_dir(d);
        }
        let mut child = c
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", cmd.display()))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((line, Instant::now())).is_err() {
                    break;
                }
            }
        });
        Ok(Proc {
            stdin: child.stdin.take(),
            child,
            rx,
            label: spec.default_name(),
            eof: false,
            closed: false,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        log::debug!("{} < {line}", self.label);
        let stdin = self.stdin.as_mut().ok_or("input closed")?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot write to the engine: {e}"))
    }

    fn got(&self, line: &str) {
        log::debug!("{} > {line}", self.label);
    }

    /// The next line before `deadline`.
    fn recv(&mut self, deadline: Instant) -> Recv {
        if self.eof {
            return Recv::Eof;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok((l, t)) => {
                self.got(&l);
                Recv::Line(l, t)
            }
            Err(RecvTimeoutError::Timeout) => Recv::Timeout,
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                Recv::Eof
            }
        }
    }

    /// A line already received, if any (`Recv::Timeout` when none is waiting).
    fn try_recv(&mut self) -> Recv {
        if self.eof {
            return Recv::Eof;
        }
        match self.rx.try_recv() {
            Ok((l, t)) => {
                self.got(&l);
                Recv::Line(l, t)
            }
            Err(TryRecvError::Empty) => Recv::Timeout,
            Err(TryRecvError::Disconnected) => {
                self.eof = true;
                Recv::Eof
            }
        }
    }

    /// Waits up to `wait` for the engine's move: the line starting with `keyword` (`bestmove`,
    /// `move`), or a line to which `meaning` gives another answer (a resignation, a claim, a
    /// refusal). At the deadline `stop` is sent (`stop`, `?`) and the answer is a time-out.
    /// Returns the answer and the longest silence while waiting. `start` is the instant
    /// before the turn's commands were written (both protocols): an engine may read them and
    /// begin its silence before `send` returns, so the clock and the silence count from there.
    fn await_move(
        &mut self,
        start: Instant,
        wait: Duration,
        keyword: &str,
        stop: &str,
        meaning: impl Fn(&str) -> Option<Answer>,
    ) -> (Answer, Duration) {
        let deadline = start + wait;
        let mut silence = Silence::start(start);
        let mut report = None;
        let answer = loop {
            match self.recv(deadline) {
                Recv::Line(l, t) => {
                    silence.mark(t);
                    let mut words = l.split_whitespace();
                    if words.next() == Some(keyword) {
                        break Answer::Move {
                            text: words.next().unwrap_or("").to_string(),
                            elapsed: t.saturating_duration_since(start),
                            report,
                        };
                    }
                    if let Some(r) = super::adjudicate::reported(&l) {
                        report = Some(r);
                    }
                    if let Some(a) = meaning(&l) {
                        break a;
                    }
                }
                Recv::Timeout => {
                    silence.mark(Instant::now());
                    let _ = self.send(stop);
                    break Answer::Timeout;
                }
                Recv::Eof => break Answer::Gone("the engine exited".into()),
            }
        };
        (answer, silence.longest)
    }

    /// An answer among the lines already received (to which `meaning` gives one), or the
    /// engine's exit; `None` when neither.
    fn poll(&mut self, meaning: impl Fn(&str) -> Option<Answer>) -> Option<Answer> {
        loop {
            match self.try_recv() {
                Recv::Line(l, _) => {
                    if let Some(a) = meaning(&l) {
                        return Some(a);
                    }
                }
                Recv::Timeout => return None,
                Recv::Eof => return Some(Answer::Gone("the engine exited".into())),
            }
        }
    }

    /// Reads until a line for which `done` says yes; other lines are dropped.
    fn wait_for(&mut self, what: &str, mut done: impl FnMut(&str) -> bool) -> Result<(), String> {
        let deadline = Instant::now() + INIT_TIMEOUT;
        loop {
            match self.recv(deadline) {
                Recv::Line(l, _) if done(l.trim()) => return Ok(()),
                Recv::Line(..) => {}
                Recv::Timeout => return Err(format!("no {what} within {INIT_TIMEOUT:?}")),
                Recv::Eof => return Err(format!("exited while waiting for {what}")),
            }
        }
    }
}

impl Proc {
    /// Ends the process: `quit`, up to 1 s to exit, then a kill. `Some(why)` when it exited
    /// abnormally (a non-zero status or a signal), before or at `quit`; a process that had to
    /// be killed is not counted. Once: later calls say `None`.
    fn close(&mut self) -> Option<String> {
        if self.closed {
            return None;
        }
        self.closed = true;
        let label = self.label.clone();
        let abnormal = |status: std::process::ExitStatus, when: &str| {
            (!status.success()).then(|| format!("{label} {when}: {status}"))
        };
        if let Ok(Some(status)) = self.child.try_wait() {
            return abnormal(status, "had exited");
        }
        let _ = self.send("quit");
        self.stdin = None;
        let end = Instant::now() + Duration::from_secs(1);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return abnormal(status, "at quit"),
                Ok(None) if Instant::now() < end => thread::sleep(Duration::from_millis(5)),
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return None;
                }
            }
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.close();
    }
}

fn is_claim(line: &str) -> bool {
    ["1-0", "0-1", "1/2-1/2"]
        .iter()
        .any(|r| line == *r || line.starts_with(&format!("{r} ")))
}

// ------------------------------------------------------------------------------------------
// UCI

struct UciEngine {
    p: Proc,
    name: String,
    healthy: bool,
    silence: Duration,
    fen: Option<String>,
    has_variant_option: bool,
}

impl UciEngine {
    fn start(spec: &EngineSpec) -> Result<UciEngine, String> {
        let mut p = Proc::spawn(spec)?;
        p.send("uci")?;
        let mut name = None;
        let mut has_variant_option = false;
        p.wait_for("uciok", |l| {
            if let Some(n) = l.strip_prefix("id name ") {
                name = Some(n.trim().to_string());
            }
            if l.starts_with("option name UCI_Variant ") {
                has_variant_option = true;
            }
            l == "uciok"
        })?;
        for (k, v) in &spec.options {
            p.send(&format!("setoption name {k} value {v}"))?;
        }
        let mut e = UciEngine {
            name: spec
                .name
                .clone()
                .or(name)
                .unwrap_or_else(|| spec.default_name()),
            p,
            healthy: true,
            silence: Duration::ZERO,
            fen: None,
            has_variant_option,
        };
        e.sync()?;
        Ok(e)
    }

    fn sync(&mut self) -> Result<(), String> {
        self.p.send("isready")?;
        self.p.wait_for("readyok", |l| l == "readyok")
    }
}

impl Player for UciEngine {
    fn name(&self) -> &str {
        &self.name
    }
    fn protocol(&self) -> Protocol {
        Protocol::Uci
    }

    fn new_game(&mut self, start: &GameStart) -> Result<(), String> {
        self.p.send("ucinewgame")?;
        if start.variant != VariantKind::Chess || self.has_variant_option {
            if !self.has_variant_option {
                log::warn!("{} has no UCI_Variant option", self.name);
            }
            self.p.send(&format!(
                "setoption name UCI_Variant value {}",
                start.variant.name()
            ))?;
        }
        self.fen = start.fen.map(str::to_string);
        self.sync()
    }

    fn play(&mut self, req: &Request) -> Answer {
        let mut cmd = match &self.fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        if !req.moves.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&req.moves.join(" "));
        }
        let go = match req.limit {
            Limit::Clock { inc_ms, .. } => format!(
                "go wtime {} btime {} winc {inc_ms} binc {inc_ms}",
                req.clock_ms[0], req.clock_ms[1]
            ),
            Limit::Depth(d) => format!("go depth {d}"),
            Limit::Nodes(n) => format!("go nodes {n}"),
            Limit::MoveTime { ms } => format!("go movetime {ms}"),
        };
        let start = Instant::now();
        if let Err(e) = self.p.send(&cmd).and_then(|_| self.p.send(&go)) {
            self.healthy = false;
            return Answer::Gone(e);
        }
        let (answer, silence) = self
            .p
            .await_move(start, req.wait, "bestmove", "stop", |_| None);
        self.silence = silence;
        self.healthy &= !answer.loses_player();
        answer
    }

    fn poll(&mut self) -> Option<Answer> {
        let answer = self.p.poll(|_| None);
        self.healthy &= !answer.as_ref().is_some_and(Answer::loses_player);
        answer
    }

    fn game_over(&mut self, _result: &str, _reason: &str) {}

    fn healthy(&self) -> bool {
        self.healthy && !self.p.eof
    }

    fn longest_silence(&self) -> Duration {
        self.silence
    }

    fn close(&mut self) -> Option<String> {
        self.p.close()
    }
}

// ------------------------------------------------------------------------------------------
// XBoard

/// Features the referee accepts; others are rejected.
const ACCEPTED: &[&str] = &[
    "ping",
    "setboard",
    "usermove",
    "time",
    "draw",
    "sigint",
    "sigterm",
    "reuse",
    "analyze",
    "myname",
    "variants",
    "colors",
    "name",
    "nps",
    "done",
    "memory",
    "smp",
    "debug",
    "pause",
    "exclude",
    "setscore",
    "highlight",
    "option",
    "playother",
    "ics",
];

/// Reads `feature a=1 b="x y" …` into pairs.
fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line.trim_start_matches("feature").trim_start();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        rest = &rest[eq + 1..];
        let value;
        if let Some(r) = rest.strip_prefix('"') {
            let end = r.find('"').unwrap_or(r.len());
            value = r[..end].to_string();
            rest = r.get(end + 1..).unwrap_or("");
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            value = rest[..end].to_string();
            rest = &rest[end..];
        }
        out.push((key, value));
        rest = rest.trim_start();
    }
    out
}

struct XboardEngine {
    p: Proc,
    name: String,
    healthy: bool,
    silence: Duration,
    usermove: bool,
    setboard: bool,
    ping: bool,
    variants: Option<Vec<String>>,
    ping_n: u32,
    /// How many moves of the game the engine has been sent or has played.
    known: usize,
    /// `go` was sent this game (the engine is out of force mode after its move).
    thinking: bool,
}

impl XboardEngine {
    fn start(spec: &EngineSpec) -> Result<XboardEngine, String> {
        let mut p = Proc::spawn(spec)?;
        p.send("xboard")?;
        p.send("protover 2")?;
        let mut e = XboardEngine {
            p,
            name: spec.default_name(),
            healthy: true,
            silence: Duration::ZERO,
            usermove: false,
            setboard: false,
            ping: false,
            variants: None,
            ping_n: 0,
            known: 0,
            thinking: false,
        };
        let mut myname = None;
        let started = Instant::now();
        let mut deadline = started + FEATURE_WAIT;
        let mut spoke = false;
        'features: loop {
            match e.p.recv(deadline) {
                Recv::Line(l, _) => {
                    spoke = true;
                    if !l.starts_with("feature ") {
                        continue;
                    }
                    for (k, v) in parse_features(&l) {
                        match k.as_str() {
                            "usermove" => e.usermove = v == "1",
                            "setboard" => e.setboard = v == "1",
                            "ping" => e.ping = v == "1",
                            "myname" => myname = Some(v.clone()),
                            "variants" => {
                                e.variants =
                                    Some(v.split(',').map(|s| s.trim().to_string()).collect())
                            }
                            _ => {}
                        }
                        let verdict = if ACCEPTED.contains(&k.as_str()) {
                            "accepted"
                        } else {
                            "rejected"
                        };
                        e.p.send(&format!("{verdict} {k}"))?;
                        if k == "done" {
                            if v == "1" {
                                break 'features;
                            }
                            deadline = Instant::now() + INIT_TIMEOUT;
                        }
                    }
                }
                Recv::Timeout if !spoke && deadline < started + FIRST_LINE_WAIT => {
                    deadline = started + FIRST_LINE_WAIT;
                }
                Recv::Timeout => break,
                Recv::Eof => return Err("exited during the feature exchange".into()),
            }
        }
        for (k, v) in &spec.options {
            e.p.send(&format!("option {k}={v}"))?;
        }
        e.name = spec.name.clone().or(myname).unwrap_or(e.name);
        e.sync()?;
        Ok(e)
    }

    /// `ping`/`pong` (when the engine has them): drops every line sent before.
    fn sync(&mut self) -> Result<(), String> {
        if !self.ping {
            while let Recv::Line(..) = self.p.try_recv() {}
            return Ok(());
        }
        self.ping_n += 1;
        let n = self.ping_n;
        self.p.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        self.p.wait_for(&want.clone(), |l| l == want)
    }

    fn usermove(&mut self, m: &str) -> Result<(), String> {
        if self.usermove {
            self.p.send(&format!("usermove {m}"))
        } else {
            self.p.send(m)
        }
    }

    fn send_turn(&mut self, req: &Request) -> Result<(), String> {
        let unsent: Vec<String> = req.moves[self.known.min(req.moves.len())..].to_vec();
        let clock = |e: &mut XboardEngine| -> Result<(), String> {
            if let Limit::Clock { .. } = req.limit {
                let own = req.clock_ms[req.side.index()];
                let opp = req.clock_ms[(!req.side).index()];
                e.p.send(&format!("time {}", own / 10))?;
                e.p.send(&format!("otim {}", opp / 10))?;
            }
            Ok(())
        };
        if self.thinking && unsent.len() == 1 {
            clock(self)?;
            self.usermove(&unsent[0])?;
        } else {
            if self.thinking {
                self.p.send("force")?;
            }
            for m in &unsent {
                self.usermove(m)?;
            }
            clock(self)?;
            self.p.send("go")?;
            self.thinking = true;
        }
        self.known = req.moves.len();
        Ok(())
    }

    /// What a line means, if anything, to the referee.
    fn meaning(line: &str) -> Option<Answer> {
        let line = line.trim();
        if line == "resign" {
            Some(Answer::Resign)
        } else if is_claim(line) {
            Some(Answer::Claim(line.to_string()))
        } else if line.starts_with("Illegal move") {
            Some(Answer::Refused(line.to_string()))
        } else {
            None
        }
    }
}

impl Player for XboardEngine {
    fn name(&self) -> &str {
        &self.name
    }
    fn protocol(&self) -> Protocol {
        Protocol::Xboard
    }

    fn new_game(&mut self, start: &GameStart) -> Result<(), String> {
        self.p.send("new")?;
        if start.variant != VariantKind::Chess {
            let name = start.variant.xboard_name();
            if let Some(v) = &self.variants {
                if !v.iter().any(|x| x == name) {
                    return Err(format!("{} does not play variant {name}", self.name));
                }
            }
            self.p.send(&format!("variant {name}"))?;
        }
        self.p.send("force")?;
        if let Some(fen) = start.fen {
            if !self.setboard {
                return Err(format!(
                    "{} lacks setboard: cannot start from a FEN",
                    self.name
                ));
            }
            let fen = super::notation::engine_fen(start.variant, fen, Protocol::Xboard);
            self.p.send(&format!("setboard {fen}"))?;
        }
        match start.limit {
            Limit::Clock { base_ms, inc_ms } => {
                let base = if base_ms.is_multiple_of(1000) {
                    format!("{}:{:02}", base_ms / 60_000, (base_ms / 1000) % 60)
                } else {
                    format!("{}", base_ms as f64 / 60_000.0)
                };
                self.p
                    .send(&format!("level 0 {base} {}", inc_ms as f64 / 1000.0))?;
            }
            Limit::Depth(d) => self.p.send(&format!("sd {d}"))?,
            Limit::MoveTime { ms } => self.p.send(&format!("st {}", ms as f64 / 1000.0))?,
            Limit::Nodes(_) => {
                return Err("XBoard has no fixed-node limit: use tc, depth or st".into())
            }
        }
        self.p.send("easy")?;
        // Thinking output: lines while it thinks, so a silence means a stall, not a search.
        self.p.send("post")?;
        self.known = 0;
        self.thinking = false;
        self.sync()
    }

    fn play(&mut self, req: &Request) -> Answer {
        let start = Instant::now();
        if let Err(e) = self.send_turn(req) {
            self.healthy = false;
            return Answer::Gone(e);
        }
        let (answer, silence) = self
            .p
            .await_move(start, req.wait, "move", "?", Self::meaning);
        if matches!(answer, Answer::Move { .. }) {
            self.known += 1;
        }
        self.silence = silence;
        self.healthy &= !answer.loses_player();
        answer
    }

    fn poll(&mut self) -> Option<Answer> {
        let answer = self.p.poll(Self::meaning);
        self.healthy &= !answer.as_ref().is_some_and(Answer::loses_player);
        answer
    }

    fn game_over(&mut self, result: &str, reason: &str) {
        let _ = self.p.send(&format!("result {result} {{{reason}}}"));
        let _ = self.p.send("force");
    }

    fn healthy(&self) -> bool {
        self.healthy && !self.p.eof
    }

    fn longest_silence(&self) -> Duration {
        self.silence
    }

    fn close(&mut self) -> Option<String> {
        self.p.close()
    }
}

// ------------------------------------------------------------------------------------------
// The built-in random mover

/// Plays a uniformly random legal move, from a seed the referee gives each game.
pub struct RandomPlayer {
    name: String,
    rng: Rng,
}

impl RandomPlayer {
    pub fn new(name: String) -> RandomPlayer {
        RandomPlayer {
            name,
            rng: Rng::new(0),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }
    fn protocol(&self) -> Protocol {
        Protocol::Uci
    }
    fn new_game(&mut self, start: &GameStart) -> Result<(), String> {
        self.rng = Rng::new(start.seed);
        Ok(())
    }
    fn play(&mut self, req: &Request) -> Answer {
        let list = req.pos.legal_moves();
        if list.is_empty() {
            return Answer::Move {
                text: "(none)".into(),
                elapsed: Duration::ZERO,
                report: None,
            };
        }
        let m = list[self.rng.below(list.len() as u64) as usize];
        Answer::Move {
            text: engine_move_text(req.pos, m, Protocol::Uci),
            elapsed: Duration::ZERO,
            report: None,
        }
    }
    fn poll(&mut self) -> Option<Answer> {
        None
    }
    fn game_over(&mut self, _result: &str, _reason: &str) {}
    fn healthy(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_read() {
        let f = parse_features(
            "feature ping=1 myname=\"Fairy Max 5\" variants=\"normal,recursion\" done=0",
        );
        assert_eq!(
            f,
            vec![
                ("ping".to_string(), "1".to_string()),
                ("myname".to_string(), "Fairy Max 5".to_string()),
                ("variants".to_string(), "normal,recursion".to_string()),
                ("done".to_string(), "0".to_string()),
            ]
        );
    }

    #[test]
    fn claims_are_recognised() {
        assert!(is_claim("1-0 {White mates}"));
        assert!(is_claim("1/2-1/2 {Stalemate}"));
        assert!(is_claim("0-1"));
        assert!(!is_claim("1-0x"));
        assert!(!is_claim("move e2e4"));
        assert_eq!(XboardEngine::meaning("resign"), Some(Answer::Resign));
        assert_eq!(
            XboardEngine::meaning("Illegal move: e2e4"),
            Some(Answer::Refused("Illegal move: e2e4".into()))
        );
        assert_eq!(XboardEngine::meaning("setup (PNBRQ) 8x8+0_fairy"), None);
        assert_eq!(XboardEngine::meaning("piece N& N"), None);
    }
}
