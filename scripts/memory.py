#!/usr/bin/env python3
"""Peak memory against Hash (docs/reliability.md, `make memory`).

usage: memory.py BIN [--hash 1,16,64,256,1024] [--threads 1,2] [--variants a,b]
                     [--movetime MS] [--limit-mb X] [--floor-mb F]

For every variant, Hash and Threads: a fresh engine over UCI gets `setoption` Hash, Threads
and UCI_Variant, `isready`, then `position startpos` and `go movetime MS` (default 3000), and
after `bestmove` the process's peak resident set (VmHWM in /proc/PID/status) is read. The
overhead is VmHWM - Hash. Prints a table and fails (exit 1) when any peak is over
max(Hash, F) + X MB (--floor-mb F, default 16: the default 16 MB table exists from the start,
before any setoption; --limit-mb X): the README's promise.
"""
import argparse
import subprocess
import sys
import time

VARIANTS = ["chess", "recursion", "microorganism", "immune"]


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {key} for {pid}")


def measure(binary, variant, hash_mb, threads, movetime):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def wait(prefix, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine exited waiting for {prefix}")
            if line.startswith(prefix):
                return line
        raise RuntimeError(f"no {prefix}")

    send("uci")
    wait("uciok")
    idle_kb = status_kb(p.pid, "VmHWM")
    send(f"setoption name Hash value {hash_mb}")
    send(f"setoption name Threads value {threads}")
    if variant != "chess":
        send(f"setoption name UCI_Variant value {variant}")
    send("isready")
    wait("readyok")
    send("position startpos")
    send(f"go movetime {movetime}")
    depth = 0
    while True:
        line = wait("")
        words = line.split()
        if "depth" in words:
            depth = max(depth, int(words[words.index("depth") + 1]))
        if line.startswith("bestmove"):
            break
    hwm_kb = status_kb(p.pid, "VmHWM")
    rss_kb = status_kb(p.pid, "VmRSS")
    send("quit")
    p.wait(timeout=10)
    return idle_kb, hwm_kb, rss_kb, depth


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("--hash", default="1,16,64,256,1024")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--movetime", type=int, default=3000)
    ap.add_argument("--limit-mb", type=float, default=None)
    ap.add_argument("--floor-mb", type=float, default=16)
    a = ap.parse_args()
    rows = []
    print("| variant | Hash MB | Threads | depth | VmHWM MB | overhead MB (VmHWM - Hash) "
          "| VmRSS after MB | idle VmHWM MB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for v in a.variants.split(","):
        for h in map(int, a.hash.split(",")):
            for t in map(int, a.threads.split(",")):
                idle, hwm, rss, depth = measure(a.bin, v, h, t, a.movetime)
                over = hwm / 1024 - h
                rows.append((v, h, t, over, hwm / 1024))
                print(f"| {v} | {h} | {t} | {depth} | {hwm / 1024:.1f} | {over:.1f} "
                      f"| {rss / 1024:.1f} | {idle / 1024:.1f} |", flush=True)
    worst = max(rows, key=lambda r: r[3])
    print(f"\nlargest overhead: {worst[3]:.1f} MB ({worst[0]}, Hash {worst[1]}, "
          f"Threads {worst[2]})")
    big = [r for r in rows if r[1] >= a.floor_mb]
    if big:
        w = max(big, key=lambda r: r[3])
        print(f"largest overhead with Hash >= {a.floor_mb:g} MB: {w[3]:.1f} MB ({w[0]}, "
              f"Hash {w[1]}, Threads {w[2]})")
    if a.limit_mb is not None:
        bad = [r for r in rows if r[4] > max(r[1], a.floor_mb) + a.limit_mb]
        if bad:
            for v, h, t, over, hwm in bad:
                print(f"OVER: {v} Hash {h} Threads {t}: peak {hwm:.1f} MB > max(Hash, "
                      f"{a.floor_mb:g}) + {a.limit_mb:g} MB")
            sys.exit(1)
        print(f"ok: peak memory <= max(Hash, {a.floor_mb:g} MB) + {a.limit_mb:g} MB in every run")


if __name__ == "__main__":
    main()
