//! Memory against `Hash` through the binary (Linux: reads /proc/PID/status). The full table
//! per variant, Hash and Threads is `make memory` (scripts/memory.py, docs/reliability.md).
//!
//! The table is allocated when `Hash` is set (so `isready` is answered after it, and the
//! first `go` does not pay for it on the clock), the old table is freed before a new one is
//! allocated (the peak is one table, not two), and a new thread count keeps the table.

use crate::protocol_support::Engine;

#[test]
fn hash_is_allocated_at_setoption_and_never_twice() {
    if !std::path::Path::new("/proc/self/status").exists() {
        return;
    }
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    let idle = e.status_mb("VmHWM");
    assert!(idle < 64.0, "idle {idle} MB");

    // Allocated (and every page touched) before readyok, with no search yet.
    e.send("setoption name Hash value 128");
    e.uci_sync();
    let rss = e.status_mb("VmRSS");
    assert!(rss >= 128.0, "after Hash 128: VmRSS {rss} MB");

    // A new thread count keeps the table: no second table.
    e.send("setoption name Threads value 2");
    e.uci_sync();
    let hwm = e.status_mb("VmHWM");
    assert!(hwm < 128.0 + 64.0, "after Threads 2: VmHWM {hwm} MB");

    // A new size frees the old table first: the peak is 192 + overhead, not 128 + 192.
    e.send("setoption name Hash value 192");
    e.uci_sync();
    let hwm = e.status_mb("VmHWM");
    assert!(hwm < 192.0 + 64.0, "after Hash 192: VmHWM {hwm} MB");
    assert!(e.status_mb("VmRSS") >= 192.0);

    // Searching does not reallocate.
    e.send("position startpos");
    e.send("go depth 6");
    e.read_until(|l| l.starts_with("bestmove"));
    let hwm = e.status_mb("VmHWM");
    assert!(hwm < 192.0 + 64.0, "after a search: VmHWM {hwm} MB");

    // Shrinking frees the memory.
    e.send("setoption name Hash value 1");
    e.uci_sync();
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
    e.xb_sync(1);
    let rss = e.status_mb("VmRSS");
    assert!(rss >= 150.0, "after memory 160: VmRSS {rss} MB");
    e.send("memory 1");
    e.xb_sync(2);
    let rss = e.status_mb("VmRSS");
    assert!(rss < 64.0, "after memory 1: VmRSS {rss} MB");
}
