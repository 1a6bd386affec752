//! Drives the real `cellmate` binary over pipes, with timeouts: a hang fails the test.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use cellmate::core::{Dialect, Variant};
use cellmate::variants::chess::Chess;

/// How long any expected answer may take.
pub const TIMEOUT: Duration = Duration::from_secs(20);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<thread::JoinHandle<String>>,
    /// Everything the engine printed so far (for failure messages).
    pub seen: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_logging("warn")
    }

    /// Starts the engine with `RUST_LOG` set to `level` (its log goes to stderr, which
    /// [`Engine::finish_with_log`] returns).
    pub fn start_logging(level: &str) -> Engine {
        Engine::start_with(level, &[])
    }

    /// Starts the engine with command-line `args` (e.g. `--micro-values …`).
    pub fn start_with_args(args: &[&str]) -> Engine {
        Engine::start_with("warn", args)
    }

    /// Starts the engine with its address space limited to `mb` megabytes (`ulimit -v`), as a
    /// machine's memory limits it: allocations past it fail instead of succeeding lazily.
    pub fn start_with_address_limit(mb: u64) -> Engine {
        Engine::spawn(
            Command::new("sh").args([
                "-c",
                &format!("ulimit -v {} && exec \"$0\"", mb * 1024),
                env!("CARGO_BIN_EXE_cellmate"),
            ]),
            "warn",
        )
    }

    fn start_with(level: &str, args: &[&str]) -> Engine {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cellmate"));
        cmd.args(args);
        Engine::spawn(&mut cmd, level)
    }

    fn spawn(cmd: &mut Command, level: &str) -> Engine {
        let mut child = cmd
            .env("RUST_LOG", level)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start cellmate");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let mut stderr = child.stderr.take().unwrap();
        let err = thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr: Some(err),
            seen: Vec::new(),
        }
    }

    /// A memory field of the engine's `/proc/PID/status` (`VmHWM`, `VmRSS`: kB).
    pub fn status_kb(&self, key: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
            .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("no {key} in /proc status"))
    }

    /// [`Engine::status_kb`] in MB.
    pub fn status_mb(&self, key: &str) -> f64 {
        self.status_kb(key) as f64 / 1024.0
    }

    /// The engine's peak resident memory so far (`VmHWM`, kB).
    pub fn peak_rss_kb(&self) -> u64 {
        self.status_kb("VmHWM")
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin closed");
        writeln!(stdin, "{line}").expect("engine stdin closed");
        stdin.flush().unwrap();
    }

    /// The next line, or `None` after `wait` with nothing (or at end of output).
    pub fn recv(&mut self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(l) => {
                self.seen.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one matching `pred`; panics after [`TIMEOUT`].
    pub fn read_until(&mut self, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(l) => {
                    let done = pred(&l);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                None => panic!("timed out (or output ended); got so far: {got:#?}"),
            }
        }
    }

    /// Sends `isready` and returns the lines before `readyok`.
    pub fn uci_sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut l = self.read_until(|l| l == "readyok");
        l.pop();
        l
    }

    /// Sends `ping N` and returns the lines before `pong N`.
    pub fn xb_sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let want = format!("pong {n}");
        let mut l = self.read_until(|l| l == want);
        l.pop();
        l
    }

    /// The FEN of the current position via UCI `d`.
    pub fn uci_fen(&mut self) -> String {
        self.send("d");
        let lines = self.uci_sync();
        let fen = lines.iter().find_map(|l| l.strip_prefix("Fen: "));
        fen.unwrap_or_else(|| panic!("no Fen line in {lines:#?}"))
            .to_string()
    }

    /// The FEN of the current position via the XBoard debug command `fen`.
    pub fn xb_fen(&mut self) -> String {
        self.send("fen");
        let lines = self.xb_sync(9999);
        assert_eq!(lines.len(), 1, "{lines:#?}");
        lines[0]
            .strip_prefix("# ")
            .unwrap_or_else(|| panic!("not a FEN comment: {}", lines[0]))
            .to_string()
    }

    /// Closes stdin, waits for the exit (it must come within [`TIMEOUT`]) and checks that
    /// nothing panicked. Returns the remaining output.
    pub fn finish(self) -> Vec<String> {
        self.finish_with_log().0
    }

    /// Like [`Engine::finish`], also returning what the engine wrote to stderr.
    pub fn finish_with_log(mut self) -> (Vec<String>, String) {
        drop(self.stdin.take());
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "engine exited with {status}");
                break;
            }
            assert!(
                Instant::now() < deadline,
                "engine did not exit at end of input"
            );
            thread::sleep(Duration::from_millis(10));
        }
        let mut rest = Vec::new();
        while let Some(l) = self.recv(Duration::from_millis(200)) {
            rest.push(l);
        }
        let err = self.stderr.take().unwrap().join().unwrap();
        assert!(!err.contains("panicked"), "engine panicked: {err}");
        (rest, err)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Plays `moves` (UCI spelling) from the start position or `fen`.
pub fn chess_after(fen: Option<&str>, moves: &[&str]) -> Chess {
    let mut pos = match fen {
        Some(f) => Chess::from_fen(f).unwrap(),
        None => Chess::startpos(),
    };
    for m in moves {
        let mv = pos.parse_move(m, Dialect::UCI).unwrap();
        pos.make_move(mv);
    }
    pos
}

/// Whether `text` is a legal move in `pos`.
pub fn is_legal(pos: &Chess, text: &str, dialect: Dialect) -> bool {
    pos.parse_move(text, dialect).is_ok()
}
