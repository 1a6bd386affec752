#!/usr/bin/env python3
"""How the search scales with threads (issue 25, item 4): nodes per second.

For each variant and each thread count, cellmate searches every position of a small set for a
fixed time over UCI (`setoption name Threads`, `go movetime`), a fresh table each time; the
figure is the sum of nodes over the sum of time, from each search's last `info` line. The
ratio of each thread count to one thread is printed beside it. Run it on an otherwise idle
machine: the threads share the cores with anything else that runs.

Usage: scripts/threads.py [path/to/cellmate]
Environment: THREADS_COUNTS (default "1 2"), THREADS_MS (movetime per position, default 5000),
THREADS_VARIANTS (default "chess recursion microorganism immune"), THREADS_HASH (MB, 64).
"""
import os
import re
import subprocess
import sys

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/cellmate")
COUNTS = [int(t) for t in os.environ.get("THREADS_COUNTS", "1 2").split()]
MS = int(os.environ.get("THREADS_MS", "5000"))
VARIANTS = os.environ.get("THREADS_VARIANTS", "chess recursion microorganism immune").split()
HASH = int(os.environ.get("THREADS_HASH", "64"))

# A few positions per variant: the start and positions a few moves into a game.
POSITIONS = {
    "chess": [
        "startpos",
        "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 1 8",
        "fen 8/5pk1/6p1/8/3R4/6P1/5PKP/3r4 w - - 0 40",
    ],
    "recursion": ["startpos", "startpos moves e2e4 e7e5 g1f3"],
    "microorganism": ["startpos", "startpos moves g2g4 d7d5"],
    "immune": ["startpos"],
}


def search(variant, threads, position):
    """(nodes, ms) of one search."""
    lines = [
        "uci",
        f"setoption name UCI_Variant value {variant}",
        f"setoption name Threads value {threads}",
        f"setoption name Hash value {HASH}",
        "isready",
        "ucinewgame",
        f"position {position}",
        f"go movetime {MS}",
    ]
    p = subprocess.Popen(
        [BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    p.stdin.write("\n".join(lines) + "\n")
    p.stdin.flush()
    nodes = ms = 0
    for line in p.stdout:
        if line.startswith("info") and " nodes " in line and " time " in line:
            n = int(re.search(r" nodes (\d+)", line).group(1))
            t = int(re.search(r" time (\d+)", line).group(1))
            nodes, ms = n, t
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return nodes, ms


def main():
    print(f"# {BIN}, {MS} ms a position, Hash {HASH} MB")
    for variant in VARIANTS:
        base = None
        for threads in COUNTS:
            nodes = ms = 0
            for pos in POSITIONS[variant]:
                n, t = search(variant, threads, pos)
                nodes += n
                ms += t
            nps = nodes * 1000 // max(ms, 1)
            base = base or nps
            print(f"{variant:14} threads {threads}: {nps:>9} nodes/s  ({nps / base:.2f}x)")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
