#!/usr/bin/env python3
"""Measures how fast cellmate answers `stop` (UCI) and `?` (XBoard) during a search.

For each variant: N searches from the start position, each stopped after a random 50-400 ms;
the latency is the time from writing `stop`/`?` to reading `bestmove`/`move`. Prints max,
99th percentile and median per variant and protocol. With `--deep`, each search is instead
from a position deep in a real game (a random ply from 40 plies on of games the engine plays
against itself at depth 1, made first with `cellmate match`) and runs a random 50-2000 ms, so
the stop arrives at every depth the search reaches in a middlegame.
A benchmark, not a test: the machine's load shows in the figures.

Usage: scripts/latency.py [path/to/cellmate] [N] [--deep]
"""
import os
import random
import re
import subprocess
import sys
import tempfile
import time

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
DEEP = "--deep" in sys.argv
BIN = ARGS[0] if ARGS else "target/release/cellmate"
N = int(ARGS[1]) if len(ARGS) > 1 else 100
VARIANTS = os.environ.get("LATENCY_VARIANTS", "chess recursion microorganism immune").split()
# Search threads (UCI `Threads`, XBoard `cores`); `max` is the most the engine offers.
THREADS = os.environ.get("LATENCY_THREADS", "1")
MAX_S = 2.0 if DEEP else 0.4


def xboard_text(variant, move):
    """A UCI move text in cellmate's XBoard spelling: a pass is `@@@@`; Immune Chess is shown
    mirrored with its 10 ranks numbered 0..9 (docs/xboard.md), so rank r is written 10 - r."""
    if move == "0000":
        return "@@@@"
    if variant == "immune":
        return re.sub(r"([a-p])(\d+)", lambda m: m.group(1) + str(10 - int(m.group(2))), move)
    return move


def games(variant):
    """Move lists (UCI spelling, XBoard spelling) of 6 games of BIN against itself at depth 1."""
    with tempfile.TemporaryDirectory() as d:
        pgn = os.path.join(d, "g.pgn")
        subprocess.run([BIN, "match", "--engine", f"cmd={BIN},depth=1",
                        "--engine", f"cmd={BIN},depth=1", "--variant", variant, "--games", "6",
                        "--random-plies", "8", "--seed", "5", "--max-plies", "400", "--quiet",
                        "--pgn", pgn], check=True, stdout=subprocess.DEVNULL)
        text = open(pgn).read()
    out = []
    for game in text.split("[Event ")[1:]:
        uci = subprocess.run([BIN, "notation", "--variant", variant, "--to", "coords"],
                             input="[Event " + game, capture_output=True, text=True,
                             check=True).stdout.split()
        if len(uci) > 41:
            out.append((uci, [xboard_text(variant, m) for m in uci]))
    return out


def pick(rng, deep_games):
    """The moves before a search: none, or a deep game's first 40 or more."""
    if not deep_games:
        return [], []
    uci, xb = rng.choice(deep_games)
    k = rng.randint(40, len(uci) - 1)
    return uci[:k], xb[:k]


class Engine:
    def __init__(self):
        self.p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, pred):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            line = line.strip()
            if pred(line):
                return line

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def stats(xs):
    xs = sorted(xs)
    return xs[-1], xs[int(0.99 * (len(xs) - 1))], xs[len(xs) // 2]


def threads():
    """LATENCY_THREADS, with `max` read from the engine's own `Threads` option."""
    if THREADS != "max":
        return int(THREADS)
    out = subprocess.run([BIN], input="uci\nquit\n", capture_output=True, text=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("option name Threads "))
    return int(line.split()[-1])


def uci(variant, rng, deep_games):
    e = Engine()
    e.send("uci")
    e.until(lambda l: l == "uciok")
    e.send(f"setoption name UCI_Variant value {variant}")
    e.send(f"setoption name Threads value {threads()}")
    lat = []
    for _ in range(N):
        e.send("ucinewgame")
        moves, _ = pick(rng, deep_games)
        e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        e.send("isready")
        e.until(lambda l: l == "readyok")
        lat.append(interrupt(e, rng, "go infinite", "stop", "bestmove"))
    e.close()
    return lat


def interrupt(e, rng, go, stop, answer):
    """Starts a search with `go`, lets it run a random while, sends `stop` and returns the ms
    until the line starting with `answer`."""
    e.send(go)
    time.sleep(rng.uniform(0.05, MAX_S))
    t = time.perf_counter()
    e.send(stop)
    e.until(lambda l: l.startswith(answer))
    return (time.perf_counter() - t) * 1000


def xboard(variant, rng, deep_games):
    e = Engine()
    e.send("xboard")
    e.send("protover 2")
    e.until(lambda l: l == "feature done=1")
    e.send(f"cores {threads()}")
    lat = []
    for i in range(N):
        e.send("new")
        if variant != "chess":
            e.send(f"variant {variant}")
        e.send("level 0 10 0")
        e.send("post")
        _, moves = pick(rng, deep_games)
        if moves:
            e.send("force")
            for m in moves:
                e.send(m)
        e.send(f"ping {i}")
        line = e.until(lambda l: l == f"pong {i}" or l.startswith(("Illegal", "Error")))
        if line != f"pong {i}":
            raise RuntimeError(f"{variant}: {line}")
        lat.append(interrupt(e, rng, "go", "?", "move "))
        e.send("force")
    e.close()
    return lat


def main():
    rng = random.Random(2026)
    print(f"{'variant':<14} {'protocol':<8} {'n':>4} {'max ms':>8} {'p99 ms':>8} {'median ms':>10}")
    worst = 0.0
    for v in VARIANTS:
        deep_games = games(v) if DEEP else []
        for name, f in [("uci", uci), ("xboard", xboard)]:
            lat = f(v, rng, deep_games)
            mx, p99, med = stats(lat)
            worst = max(worst, mx)
            print(f"{v:<14} {name:<8} {len(lat):>4} {mx:>8.1f} {p99:>8.1f} {med:>10.1f}")
    print(f"worst: {worst:.1f} ms")


if __name__ == "__main__":
    main()
