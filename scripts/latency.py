#!/usr/bin/env python3
"""Measures how fast cellmate answers `stop` (UCI) and `?` (XBoard) during a search.

For each variant: N searches from the start position (plus a few seeded random plies), each
stopped after a random 50-400 ms; the latency is the time from writing `stop`/`?` to reading
`bestmove`/`move`. Prints max, 99th percentile and median per variant and protocol.
A benchmark, not a test: the machine's load shows in the figures.

Usage: scripts/latency.py [path/to/cellmate] [N]
"""
import random
import subprocess
import sys
import time

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/cellmate"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 100
VARIANTS = ["chess", "recursion", "microorganism", "immune"]


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


def uci(variant, rng):
    e = Engine()
    e.send("uci")
    e.until(lambda l: l == "uciok")
    e.send(f"setoption name UCI_Variant value {variant}")
    lat = []
    for _ in range(N):
        e.send("ucinewgame")
        e.send("position startpos")
        e.send("isready")
        e.until(lambda l: l == "readyok")
        e.send("go infinite")
        time.sleep(rng.uniform(0.05, 0.4))
        t = time.perf_counter()
        e.send("stop")
        e.until(lambda l: l.startswith("bestmove"))
        lat.append((time.perf_counter() - t) * 1000)
    e.close()
    return lat


def xboard(variant, rng):
    e = Engine()
    e.send("xboard")
    e.send("protover 2")
    e.until(lambda l: l == "feature done=1")
    lat = []
    for i in range(N):
        e.send("new")
        if variant != "chess":
            e.send(f"variant {variant}")
        e.send("level 0 10 0")
        e.send("post")
        e.send(f"ping {i}")
        e.until(lambda l: l == f"pong {i}")
        e.send("go")
        time.sleep(rng.uniform(0.05, 0.4))
        t = time.perf_counter()
        e.send("?")
        e.until(lambda l: l.startswith("move "))
        lat.append((time.perf_counter() - t) * 1000)
        e.send("force")
    e.close()
    return lat


def main():
    rng = random.Random(2026)
    print(f"{'variant':<14} {'protocol':<8} {'n':>4} {'max ms':>8} {'p99 ms':>8} {'median ms':>10}")
    worst = 0.0
    for v in VARIANTS:
        for name, f in [("uci", uci), ("xboard", xboard)]:
            lat = f(v, rng)
            mx, p99, med = stats(lat)
            worst = max(worst, mx)
            print(f"{v:<14} {name:<8} {len(lat):>4} {mx:>8.1f} {p99:>8.1f} {med:>10.1f}")
    print(f"worst: {worst:.1f} ms")


if __name__ == "__main__":
    main()
