#!/usr/bin/env python3
"""Self-play soak (docs/reliability.md, `make soak`).

usage: soak.py BIN [--games N] [--tc TC] [--concurrency C] [--variants a,b]
                   [--out DIR] [--time-margin MS] [--random-plies K] [--seed S]

For every variant, `BIN match` plays BIN against itself: the first engine speaks UCI, the
second XBoard, so both protocols are soaked in every game. Each match's summary ends with a
machine-readable line

    Faults: illegal=0 forfeit=0 stall=0 crash=0 infraction=0

(illegal moves, time forfeits, stalls — a silence over 2 s while an engine's clock runs —,
crashes, false claims / refused moves). The script prints one row per variant and exits 1 when
any count is non-zero or a match fails. PGNs, stall reports and each match's output go to DIR.
"""
import argparse
import os
import re
import subprocess
import sys
import time

VARIANTS = ["chess", "recursion", "microorganism", "immune"]
FAULT_KEYS = ["illegal", "forfeit", "stall", "crash", "infraction"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--out", default="/tmp/cellmate-soak")
    ap.add_argument("--time-margin", type=int, default=100)
    ap.add_argument("--random-plies", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    binary = os.path.abspath(a.bin)
    os.makedirs(a.out, exist_ok=True)
    print(
        f"soak: {binary}, {a.games} games per variant, tc {a.tc}, concurrency "
        f"{a.concurrency}, time margin {a.time_margin} ms, {a.random_plies} random plies, "
        f"seed {a.seed}; load average at start {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    rows, failed = [], False
    for v in a.variants.split(","):
        for f in ("pgn", "stalls.txt", "out.txt"):
            p = os.path.join(a.out, f"{v}.{f}")
            if os.path.exists(p):
                os.remove(p)
        cmd = [
            binary, "match",
            "--engine", f"cmd={binary},proto=uci,name=cellmate-uci",
            "--engine", f"cmd={binary},proto=xboard,name=cellmate-xboard",
            "--variant", v,
            "--games", str(a.games),
            "--tc", a.tc,
            "--concurrency", str(a.concurrency),
            "--time-margin", str(a.time_margin),
            "--random-plies", str(a.random_plies),
            "--seed", str(a.seed),
            "--pgn", os.path.join(a.out, f"{v}.pgn"),
            "--stall-report", os.path.join(a.out, f"{v}.stalls.txt"),
            "--quiet",
        ]
        load0 = os.getloadavg()[0]
        t0 = time.time()
        r = subprocess.run(cmd, capture_output=True, text=True)
        secs = time.time() - t0
        load1 = os.getloadavg()[0]
        with open(os.path.join(a.out, f"{v}.out.txt"), "w") as f:
            f.write(r.stdout + r.stderr)
        m = re.search(r"^Faults: (.*)$", r.stdout, re.M)
        games = re.search(r"\((\w+), (\d+) games played\)", r.stdout)
        terms = re.search(r"^Terminations: (.*)$", r.stdout, re.M)
        silence = re.search(r"longest ([\d.]+) s\)", r.stdout)
        closest = re.search(r"^Closest call: (\d+) ms", r.stdout, re.M)
        if r.returncode != 0 or not m or not games:
            failed = True
            print(f"{v}: match failed (exit {r.returncode}): {r.stderr.strip()[-500:]}")
            continue
        counts = dict(kv.split("=") for kv in m.group(1).split())
        n = int(games.group(2))
        if any(int(counts.get(k, "1")) for k in FAULT_KEYS) or n != a.games:
            failed = True
        rows.append((v, n, counts, terms.group(1) if terms else "?",
                     silence.group(1) if silence else "?",
                     closest.group(1) if closest else "-", secs, load0, load1))
        print(f"{v}: {n} games, {m.group(1)}, longest silence "
              f"{rows[-1][4]} s, closest call {rows[-1][5]} ms, {secs:.0f} s, "
              f"load {load0:.1f}->{load1:.1f}; terminations: {rows[-1][3]}", flush=True)
    print()
    print("| variant | games | illegal | forfeit | stall | crash | infraction | longest silence s "
          "| closest call ms | wall s | load avg start→end | terminations |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for v, n, c, terms, sil, close, secs, l0, l1 in rows:
        cells = " | ".join(c.get(k, "?") for k in FAULT_KEYS)
        print(f"| {v} | {n} | {cells} | {sil} | {close} | {secs:.0f} | {l0:.1f}→{l1:.1f} "
              f"| {terms} |")
    if failed:
        print("\nsoak FAILED: a fault count is not zero, a game is missing, or a match failed "
              f"(details in {a.out})")
        sys.exit(1)
    print("\nsoak passed: no illegal move, time forfeit, stall, crash or rules infraction")


if __name__ == "__main__":
    main()
