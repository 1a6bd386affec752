#!/usr/bin/env python3
"""Tunes Microorganism Chess piece values (or a Bacterium's gift values, or the evaluation's
other terms) by games (SPSA, Spall 1998).

Each iteration perturbs every tuned value at once by +-c_k (a random sign each), plays the
plus-engine against the minus-engine from one random opening with both colours
(`cellmate match`, fixed nodes, so the two games are the same pair of players swapped),
and moves the values along the result: theta += a_k * (wins - losses) / (2 c_k delta), where
a_k and c_k shrink with k as Spall recommends (exponents 0.602 and 0.101, A = 10% of the run).
Values are centipawns; the red blood cell (the anchor, 100) and the Neuron (0) stay fixed.
`--tune gifts` tunes what a Bacterium gains per absorbed type instead (`--micro-gifts`; the
six types with a gift: White blood cell, Paramecium, Amoeba, Platelet, Virus, Prion), the
piece values staying the engine's own; `--tune terms` the eight other terms (`--micro-terms`:
expansion, wall, pending infection, rider, red blood cell advance, Neuron shelter, and the
ending's hunt and edge).

    python3 scripts/spsa.py ./cellmate --iterations 800 --nodes 500 --out /tmp/spsa

Writes one line per iteration to OUT/log.tsv (iteration, result, the values) and the
running values to OUT/theta.txt, so a run can be stopped at any time and resumed with
--resume. The values to try are the mean over the last iterations,

    python3 scripts/spsa.py --summarize /tmp/spsa --last 500

checked by an SPRT against the engine's own (docs/strength.md).

`--tune search` tunes the search's constants instead (`--search-params`,
src/engine/params.rs) in chess games from tests/data/openings/chess.epd (a random line each
pair, both engines without contempt), each constant perturbed by its own amount (SEARCH_C),
their names, defaults and ranges read from the binary (`cellmate search-params`):

    python3 scripts/spsa.py ./cellmate --tune search --iterations 4000 --nodes 25000 \
        --random-plies 2 --concurrency 2 --out /tmp/spsa-search
"""

import argparse
import os
import random
import re
import subprocess
import sys

NAMES = ["rbc", "neuron", "wbc", "paramecium", "bacterium", "amoeba", "platelet", "virus", "prion"]
# The starting guesses, where the session-7 run began (docs/strength.md); --start for others.
START = [100, 0, 500, 1100, 450, 650, 180, 350, 220]
TUNED = [2, 3, 4, 5, 6, 7, 8]  # indices tuned; rbc and neuron stay
# --tune gifts: the guesses the session-9 run began from (the engine's GIFT table before it,
# src/engine/eval/micro.rs) and the types that have a gift.
GIFT_START = [0, 0, 500, 550, 0, 350, 60, 200, 120]
GIFT_TUNED = [2, 3, 5, 6, 7, 8]
# --tune terms: the guesses the session-9 run began from (the engine's TERM table before it,
# same file) and session 31's ending terms as set by hand, all eight tuned.
TERM_NAMES = ["expand", "bond", "infect%", "ride%", "advance", "shelter", "hunt", "edge"]
TERM_START = [40, 25, 50, 33, 98, 48, 20, 50]
# --tune search: the search's constants (`--search-params`, src/engine/params.rs) in chess.
# Their names, defaults and ranges are the binary's own (`cellmate search-params`, read by
# `search_constants`); here only each one's perturbation at iteration 1 (about a tenth to a
# fifth of its default: the units differ). A constant the binary has and this table lacks
# stops the run.
SEARCH_C = {"rfp_margin": 12, "nmp_eval_div": 30, "see_capture": 15, "fut_base": 20,
            "fut_margin": 15, "lmr_base": 15, "lmr_div": 25, "lmr_hist_div": 1200,
            "se_margin": 6, "se_double": 8, "hist_mul": 25, "hist_sub": 40, "hist_max": 250,
            "asp_delta": 4}
MODES = {
    "values": ("--micro-values", NAMES, START, TUNED),
    "gifts": ("--micro-gifts", NAMES, GIFT_START, GIFT_TUNED),
    "terms": ("--micro-terms", TERM_NAMES, TERM_START, list(range(len(TERM_START)))),
    # Filled from the binary by `search_constants` (or from a log's header by `summarize`).
    "search": ("--search-params", [], [], []),
}


def search_constants(binary):
    """The search's constants as the binary lists them (`cellmate search-params`: one
    `name default lo hi` a line): names, defaults and ranges."""
    out = subprocess.run([binary, "search-params"], capture_output=True, text=True,
                         check=True).stdout
    rows = [l.split() for l in out.splitlines() if l.strip()]
    return [r[0] for r in rows], [int(r[1]) for r in rows], [(int(r[2]), int(r[3])) for r in rows]


def flag_value(flag, names, values):
    """The engine's argument for these values: `name=v:…` for the search's constants,
    `v:v:…` for Microorganism's tables."""
    if flag == "--search-params":
        return ":".join(f"{n}={v}" for n, v in zip(names, values))
    return ":".join(map(str, values))


def count_openings(path):
    return sum(1 for l in open(path) if l.strip() and not l.startswith("#"))


def play(binary, flag, names, plus, minus, nodes, seed, plies, concurrency, openings=None,
         start=1):
    """One game pair, plus against minus, colours swapped: plus's wins less its losses.
    The search's constants are tuned in chess (from `openings`, the pair's line `start`,
    both engines without contempt); the rest in Microorganism Chess."""
    chess = flag == "--search-params"
    extra = ",option.Contempt=0" if chess else ""
    spec = lambda v, n: f"cmd={binary},arg={flag}={flag_value(flag, names, v)},name={n}{extra}"
    cmd = [binary, "match", "--engine", spec(plus, "plus"), "--engine", spec(minus, "minus"),
           "--variant", "chess" if chess else "microorganism", "--nodes", str(nodes),
           "--games", "2", "--random-plies", str(plies), "--seed", str(seed),
           "--concurrency", str(concurrency)]
    if openings:
        cmd += ["--openings", openings, "--openings-start", str(start)]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    m = re.search(r"^Score of plus vs minus: (\d+) (\d+) (\d+)", out, re.M)
    if not m:
        raise RuntimeError("no result from match:\n" + out)
    w, l, _d = map(int, m.groups())
    return w - l


def log_mode(lines):
    """What a run's log tuned: its `#tune` header line (logs without one tuned the values)."""
    for mode in MODES:
        if "#tune " + mode in lines:
            return mode
    return "values"


def read_log(path):
    """A run's log: what it tuned (`log_mode`), the names and starting values its header gives
    (None where it has no such line) and its iterations' rows, split at tabs."""
    lines = open(path).read().split("\n")
    names = start = None
    for l in lines:
        if l.startswith("#iter\t"):
            names = l.split("\t")[2:]
        if l.startswith("#start\t"):
            start = [int(v) for v in l.split("\t")[1:]]
    rows = [l.split("\t") for l in lines if l.strip() and l[0] != "#"]
    return log_mode(lines), names, start, rows


def summarize(out, last):
    """Mean and spread of each value over the last iterations of a run's log."""
    mode, logged_names, logged_start, rows = read_log(os.path.join(out, "log.tsv"))
    flag, names, start, _ = MODES[mode]
    names = logged_names or names
    start = logged_start or start
    if len(start) != len(names):  # a search log from before the header kept its starts
        start = ["-"] * len(names)
    rows = rows[-last:]
    print(f"iterations {rows[0][0]}-{rows[-1][0]} ({len(rows)}), result sum "
          f"{sum(int(r[1]) for r in rows)}")
    means = []
    for i, name in enumerate(names):
        xs = [float(r[2 + i]) for r in rows]
        m = sum(xs) / len(xs)
        sd = (sum((x - m) ** 2 for x in xs) / len(xs)) ** 0.5
        means.append(round(m))
        print(f"{name:11} start {start[i]:5}  mean {m:7.1f}  sd {sd:5.1f}")
    print(flag + " " + flag_value(flag, names, means))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--summarize":
        sm = argparse.ArgumentParser()
        sm.add_argument("--summarize", metavar="OUT", required=True)
        sm.add_argument("--last", type=int, default=500)
        a = sm.parse_args()
        return summarize(a.summarize, a.last)
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--iterations", type=int, default=800)
    ap.add_argument("--nodes", type=int, default=500)
    ap.add_argument("--random-plies", type=int, default=8)
    ap.add_argument("--c", type=float, default=60.0, help="perturbation at iteration 1 (cp); "
                    "--tune search has one for each constant (SEARCH_C), scaled by --c / 60")
    ap.add_argument("--openings", help="start positions (EPD), one pair each in turn, from a "
                    "line chosen by the iteration (--tune search: tests/data/openings/chess.epd)")
    ap.add_argument("--step", type=float, default=3.0,
                    help="cp a value moves at iteration 1 for a result of +1 (a game pair won)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=1, help="the pair's two games at once (2)")
    ap.add_argument("--out", default="/tmp/spsa")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--start", help="values to start from, integers with ':' between")
    ap.add_argument("--tune", choices=sorted(MODES), default="values",
                    help="piece values (--micro-values), a Bacterium's gifts (--micro-gifts), "
                    "the other terms (--micro-terms) or the search's constants in chess "
                    "(--search-params)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    flag, names, default_start, tuned = MODES[args.tune]
    search = args.tune == "search"
    if search:
        names, default_start, ranges = search_constants(args.binary)
        tuned = list(range(len(names)))
        missing = [n for n in names if n not in SEARCH_C]
        if missing:
            ap.error(f"no perturbation in SEARCH_C for {', '.join(missing)}")
    start = [int(v) for v in args.start.split(":")] if args.start else default_start
    if len(start) != len(names):
        ap.error(f"--start needs {len(names)} values")
    theta = [float(v) for v in start]
    first = 0
    log_path = os.path.join(args.out, "log.tsv")
    if args.resume and os.path.exists(log_path):
        mode, logged_names, _, rows = read_log(log_path)
        if mode != args.tune:
            ap.error(f"{log_path} tuned the {mode}: resume it with --tune {mode}")
        if logged_names and logged_names != names:
            ap.error(f"{log_path} tuned {', '.join(logged_names)}: not this binary's constants")
        if rows:
            first = int(rows[-1][0])
            theta = [float(x) for x in rows[-1][2:]]
    else:
        with open(log_path, "w") as f:
            f.write(f"#tune {args.tune}\n#start\t" + "\t".join(map(str, start)) +
                    "\n#iter\tresult\t" + "\t".join(names) + "\n")
    # Each constant's perturbation at iteration 1 (its step for a result of +1 scales alike).
    cs = [SEARCH_C[n] * args.c / 60.0 for n in names] if search else [args.c] * len(names)
    # A result of +1 moves a value by `step` at iteration 1: --step itself for Microorganism's
    # centipawns, the same share of each constant's perturbation (--step / 60) for the search.
    steps = [args.step * c / 60.0 for c in cs] if search else [args.step] * len(names)
    openings = args.openings
    if search and not openings:
        openings = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "data", "openings", "chess.epd")
    n_openings = count_openings(openings) if openings else 0
    big_a = 0.1 * args.iterations
    alpha, gamma = 0.602, 0.101
    a1 = [2 * c * st * (1 + big_a) ** alpha for c, st in zip(cs, steps)]
    rng = random.Random(args.seed * 1_000_003 + first)
    for k in range(first + 1, args.iterations + 1):
        scale = 1 / k ** gamma
        a_k = [a / (k + big_a) ** alpha for a in a1]
        delta = [rng.choice((-1, 1)) for _ in tuned]
        plus, minus = list(map(round, theta)), list(map(round, theta))
        for d, i in zip(delta, tuned):
            plus[i] = round(theta[i] + cs[i] * scale * d)
            minus[i] = round(theta[i] - cs[i] * scale * d)
            if search:
                lo, hi = ranges[i]
                plus[i], minus[i] = min(hi, max(lo, plus[i])), min(hi, max(lo, minus[i]))
        start = (rng.randrange(n_openings) + 1) if n_openings else 1
        result = play(args.binary, flag, names, plus, minus, args.nodes,
                      args.seed * 100_000 + k, args.random_plies, args.concurrency, openings,
                      start)
        for d, i in zip(delta, tuned):
            t = theta[i] + a_k[i] * result / (2 * cs[i] * scale * d)
            lo, hi = ranges[i] if search else (0, float("inf"))
            theta[i] = min(float(hi), max(float(lo), t))
        with open(log_path, "a") as f:
            f.write(f"{k}\t{result}\t" + "\t".join(f"{t:.1f}" for t in theta) + "\n")
        with open(os.path.join(args.out, "theta.txt"), "w") as f:
            f.write(":".join(str(round(t)) for t in theta) + "\n")
        print(k, result, " ".join(f"{n}={round(t)}" for n, t in zip(names, theta)), flush=True)


if __name__ == "__main__":
    sys.exit(main())
