//! Memory against `Hash` through the binary (Linux: reads /proc/PID/status). The full table
//! per variant, Hash and Threads is `make memory` (scripts/memory.py, docs/reliability.md).
//!
//! The table is allocated when `Hash` is set (so `isready` is answered after it, and the
//! first `go` does not pay for it on the clock), the old table is freed before a new one is
//! allocated (the peak is one table, not two), and a new thread count keeps the table.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_cellmate");

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn wait_for(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "EOF before {prefix}"
            );
            if line.starts_with(prefix) {
                return line;
            }
        }
    }

    fn ready(&mut self) {
        self.send("isready");
        self.wait_for("readyok");
    }

    /// A field of /proc/PID/status in MB.
    fn status_mb(&self, key: &str) -> f64 {
        let text = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{key}:")))
            .unwrap();
        let kb: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        kb / 1024.0
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

#[test]
fn hash_is_allocated_at_setoption_and_never_twice() {
    if !std::path::Path::new("/proc/self/status").exists() {
        return;
    }
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for("uciok");
    let idle = e.status_mb("VmHWM");
    assert!(idle < 64.0, "idle {idle} MB");

    // Allocated (and every page touched) before readyok, with no search yet.
    e.send("setoption name Hash value 128");
    e.ready();
    let rss = e.status_mb("VmRSS");
    assert!(rss >= 128.0, "after Hash 128: VmRSS {rss} MB");

    // A new thread count keeps the table: no second table.
    e.send("setoption name Threads value 2");
    e.ready();
    let hwm = e.status_mb("VmHWM");
    assert!(hwm < 128.0 + 64.0, "after Threads 2: VmHWM {hwm} MB");

    // A new size frees the old table first: the peak is 192 + overhead, not 128 + 192.
    e.send("setoption name Hash value 192");
    e.ready();
    let hwm = e.status_mb("VmHWM");
    assert!(hwm < 192.0 + 64.0, "after Hash 192: VmHWM {hwm} MB");
    assert!(e.status_mb("VmRSS") >= 192.0);

    // Searching does not reallocate.
    e.send("position startpos");
    e.send("go depth 6");
    e.wait_for("bestmove");
    let hwm = e.status_mb("VmHWM");
    assert!(hwm < 192.0 + 64.0, "after a search: VmHWM {hwm} MB");

    // Shrinking frees the memory.
    e.send("setoption name Hash value 1");
    e.ready();
    let rss = e.status_mb("VmRSS");
    assert!(rss < 64.0, "after Hash 1: VmRSS {rss} MB");
}

/// XBoard's `memory` (MB for everything) sets the hash size the same way.
#[test]
fn xboard_memory_allocates_at_once() {
    if !std::path::Path::new("/proc/self/status").exists() {
        return;
    }
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.send("memory 160");
    e.send("ping 1");
    e.wait_for("pong 1");
    let rss = e.status_mb("VmRSS");
    assert!(rss >= 150.0, "after memory 160: VmRSS {rss} MB");
    e.send("memory 1");
    e.send("ping 2");
    e.wait_for("pong 2");
    let rss = e.status_mb("VmRSS");
    assert!(rss < 64.0, "after memory 1: VmRSS {rss} MB");
}
