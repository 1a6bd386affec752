#!/usr/bin/env python3
"""`make serve-load`: many players at once against `cellmate serve`, on loopback (issue 26, item 2).

Starts `cellmate serve --bind 127.0.0.1:0 --db <temporary file> --workers WORKERS` (the real
write path: SQLite in WAL mode, an fsync per move; DB=:memory: to leave the disk out), then:
  1. measures the idle server (resident memory, threads);
  2. opens PLAYERS WebSocket sessions at once (default 200), spread over SOURCES loopback
     source addresses 127.0.0.10, 127.0.0.11, ... (default 25, so 8 players an address: under
     the per-client page cap of 16 and sharing each address's message bucket, as a household
     behind one address does; the per-client limits are the defaults, not raised);
  3. each player sets the engine to play Black at MOVETIME ms a move (default 100: a casual
     online bot) and plays MOVES moves as White (default 8): it thinks a random THINK_MIN to
     THINK_MAX seconds (default 2 to 8), plays a random legal move, and waits for the engine's
     answer (a game that ends is followed by a new one); then it closes its socket;
  4. while they play, samples the server's resident memory and threads from /proc and its
     /healthz every 0.2 s;
  5. waits until /healthz counts no session and the threads are back to idle, measures memory;
  6. does 2-5 again, WAVES times in all (default 2: the second wave must not leave more memory
     behind than the first, beyond LEAK_SLACK_MB);
  7. reads each player's last game back from /game/<id>/json: every move it saw is stored.

It prints, per wave: moves answered / asked, the time from a move sent to the engine's answer
received (median, p95, max), the largest queue place a page was told, memory after all left;
and the peak memory and threads, with the bound on memory it checks. Fails (exit 1) if a move
was not answered within MOVE_DEADLINE, a page got an error or was closed, memory went over its
bound or grew from wave to wave, the threads passed idle + THREADS_SLACK, a game was not
stored as played, or the run passed DEADLINE.

Bounded: loopback only, at most 1,000 players, every wait has a deadline (the run stops by
itself within DEADLINE seconds, default 420). Needs only Python's standard library and Linux's
/proc.

    python3 scripts/serve_load.py target/release/cellmate [PLAYERS] [MOVES] [MOVETIME_MS]
    (environment: WORKERS=2 HASH=64 SOURCES=25 THINK_MIN=2 THINK_MAX=8 WAVES=2 DEADLINE=420
     SEED=1 DB=<path or :memory:>)
"""

import http.client
import json
import os
import random
import selectors
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ws_client  # noqa: E402

MOVE_DEADLINE = 120.0
# The bounds on the server's resident memory. Idle already holds the hash table (it is filled
# when the server starts, docs/hosting.md). While the players play, each search worker may add
# WORKER_SLACK_MB (its stack and search tables) and each session SESSION_SLACK_MB (its game, its
# last state, its socket's buffers, its task). After all left the allocator may keep what the
# sessions had, so the same bound holds then; and a second wave of players must not leave more
# than LEAK_SLACK_MB over what the first left (memory reused, not leaked).
SESSION_SLACK_MB = 0.5
WORKER_SLACK_MB = 8
LEAK_SLACK_MB = 16
# Threads the server may have above its idle count at the peak.
THREADS_SLACK = 16


def proc_status(pid):
    f = ws_client.proc_fields(pid)
    kb = lambda k: int(f[k].split()[0]) / 1024  # noqa: E731
    return kb("VmRSS"), int(f["Threads"]), kb("VmHWM")


frame = ws_client.frame


def get_json(port, path):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        c.request("GET", path, headers={"Connection": "close"})
        r = c.getresponse()
        body = r.read()
        return r.status, (json.loads(body) if r.status == 200 else body.decode(errors="replace"))
    finally:
        c.close()


class Player:
    """One board page: a WebSocket from `source`, and where its game is."""

    def __init__(self, n, port, source, rng, think):
        self.n = n
        self.rng = rng
        self.think = think
        self.sock, self.status, self.buf = ws_client.connect(port, source)
        self.closed = False
        self.state = None  # the last state
        self.phase = "hello"  # hello, setup, thinking, waiting, new, done
        self.next_at = None  # when a thinking player moves
        self.sent_at = None
        self.expect = None  # plies of the state that answers the move sent
        self.moves = 0
        self.waits = []
        self.errors = []
        self.max_place = 0
        self.games = []  # (id, plies) of each game it played, the last one last

    def send(self, obj):
        self.sock.setblocking(True)
        self.sock.settimeout(10)
        self.sock.sendall(frame(json.dumps(obj)))
        self.sock.setblocking(False)

    def read(self):
        """Reads what is there; returns the complete text messages (server frames are unmasked)."""
        try:
            while True:
                chunk = self.sock.recv(1 << 16)
                if not chunk:
                    self.closed = True
                    break
                self.buf += chunk
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            self.closed = True
        frames, self.buf = ws_client.split_frames(self.buf)
        out = []
        for op, payload in frames:
            if op == 0x8:
                self.closed = True
            elif op == 0x1:
                try:
                    out.append(json.loads(payload))
                except ValueError:
                    self.errors.append(f"not JSON: {payload[:80]!r}")
        return out

    def plies(self):
        return len(self.state["history"]) if self.state else 0

    def on_message(self, m, now, settings, moves_each):
        t = m.get("type")
        if t == "error":
            self.errors.append(m.get("message"))
            return
        if t == "queue":
            if m.get("place"):
                self.max_place = max(self.max_place, m["place"])
            return
        if t != "state":
            return
        self.state = m
        if m.get("game"):
            if self.games and self.games[-1][0] == m["game"]:
                self.games[-1] = (m["game"], self.plies())
            else:
                self.games.append((m["game"], self.plies()))
        if self.phase == "hello":
            self.phase = "setup"
            self.send(settings)
        elif self.phase == "setup" and m.get("reply"):
            self.start_thinking(now)
        elif self.phase == "new" and m.get("reply") and self.plies() == 0:
            self.start_thinking(now)
        elif self.phase == "waiting":
            over = m.get("outcome") is not None
            if self.plies() == self.expect or (over and not m.get("thinking")):
                self.waits.append(now - self.sent_at)
                self.moves += 1
                self.sent_at = None
                if self.moves >= moves_each:
                    self.phase = "done"
                elif over:
                    self.phase = "new"
                    self.send({"type": "new", "variant": "chess"})
                else:
                    self.start_thinking(now)

    def start_thinking(self, now):
        self.phase = "thinking"
        self.next_at = now + self.rng.uniform(*self.think)

    def move(self, now):
        legal = [m["text"] for m in self.state["legal"]]
        text = self.rng.choice(legal)
        self.phase = "waiting"
        self.expect = self.plies() + 2
        self.sent_at = now
        self.send({"type": "move", "move": text})

    def close(self):
        try:
            self.sock.setblocking(True)
            self.sock.settimeout(2)
            self.sock.sendall(frame("", opcode=0x8))
        except OSError:
            pass
        self.sock.close()


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def play_wave(port, players, moves_each, settings, sources, think, rng, deadline):
    """One wave: PLAYERS sessions play MOVES moves each, then all close. Returns the players."""
    t0 = time.time()
    ps = []
    for i in range(players):
        source = f"127.0.0.{10 + i % sources}"
        ps.append(Player(i, port, source, random.Random(rng.random()), think))
    accepted = [p for p in ps if p.status == "101"]
    print(f"  opened {players} sessions in {time.time() - t0:.1f} s: {len(accepted)} accepted")
    sel = selectors.DefaultSelector()
    for p in accepted:
        sel.register(p.sock, selectors.EVENT_READ, p)
        # The first state may have come with the handshake's answer.
        for m in p.read():
            p.on_message(m, time.time(), settings, moves_each)
    while time.time() < deadline:
        now = time.time()
        active = [p for p in accepted if p.phase != "done" and not p.closed and not p.errors]
        if not active:
            break
        for p in active:
            if p.phase == "thinking" and now >= p.next_at:
                p.move(now)
            if p.sent_at is not None and now - p.sent_at > MOVE_DEADLINE:
                p.errors.append(f"a move not answered within {MOVE_DEADLINE:g} s")
        for key, _ in sel.select(timeout=0.05):
            p = key.data
            now = time.time()
            for m in p.read():
                p.on_message(m, now, settings, moves_each)
    for p in accepted:
        sel.unregister(p.sock)
        p.close()
    for p in ps:
        if p.status != "101":
            p.sock.close()
    return ps


def report_wave(ps, players, moves_each, movetime, played, failures):
    refused = [p for p in ps if p.status != "101"]
    if refused:
        failures.append(f"{len(refused)} sessions refused: {sorted({p.status for p in refused})}")
    asked = sum(p.moves + (1 if p.sent_at is not None else 0) for p in ps)
    answered = sum(p.moves for p in ps)
    waits = [w for p in ps for w in p.waits]
    errors = [(p.n, e) for p in ps for e in p.errors]
    closed = [p.n for p in ps if p.closed and p.phase != "done"]
    print(
        f"  played for {played:.0f} s: {answered} / {asked} moves answered "
        f"(of {players * moves_each} planned), {answered / played:.1f} a second"
    )
    if waits:
        print(
            f"  time from a move sent to the engine's answer: median {statistics.median(waits):.2f} s, "
            f"p95 {pct(waits, 95):.2f} s, max {max(waits):.2f} s (the search itself {movetime} ms)"
        )
    print(f"  largest queue place told to a page: {max((p.max_place for p in ps), default=0)}")
    if answered != players * moves_each:
        failures.append(f"{players * moves_each - answered} moves not answered")
    for n, e in errors[:5]:
        failures.append(f"player {n}: {e}")
    if len(errors) > 5:
        failures.append(f"... {len(errors) - 5} more errors")
    if closed:
        failures.append(f"{len(closed)} sessions closed by the server before their end")


def settle(port, pid, idle_threads, failures):
    """Waits until no session is counted and the threads are back to idle; returns memory."""
    until = time.time() + 20
    left = None
    while time.time() < until:
        status, h = get_json(port, "/healthz")
        left = h.get("sessions") if status == 200 else None
        if left == 0:
            break
        time.sleep(0.2)
    if left != 0:
        failures.append(f"{left} sessions still counted 20 s after all players left")
    # Threads beyond the idle ones (tokio's blocking pool, if anything used it: the store has
    # threads of its own) end after 10 s without work.
    until = time.time() + 30
    while time.time() < until and proc_status(pid)[1] > idle_threads:
        time.sleep(0.5)
    time.sleep(1.0)
    mb, threads, _ = proc_status(pid)
    if threads > idle_threads:
        failures.append(f"threads after all left {threads} > idle {idle_threads}")
    return mb, threads


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/cellmate"
    players = min(int(sys.argv[2]) if len(sys.argv) > 2 else 200, 1000)
    moves_each = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    movetime = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    env = os.environ.get
    workers = int(env("WORKERS", "2"))
    hash_mb = int(env("HASH", "64"))
    sources = max(1, min(int(env("SOURCES", "25")), 200))
    think = (float(env("THINK_MIN", "2")), float(env("THINK_MAX", "8")))
    waves = max(1, min(int(env("WAVES", "2")), 5))
    deadline = float(env("DEADLINE", "420"))
    rng = random.Random(int(env("SEED", "1")))
    start = time.time()
    tmp = tempfile.mkdtemp(prefix="cellmate-serve-load-")
    db = env("DB") or os.path.join(tmp, "games.db")
    log_path = os.path.join(tmp, "serve.log")
    command = [binary, "serve", "--bind", "127.0.0.1:0", "--db", db, "--workers", str(workers), "--hash", str(hash_mb)]
    shown = db if env("DB") else "<temporary file>"
    print("server:", " ".join(command[:4]), "--db", shown, *command[6:])
    print(
        f"players: {waves} waves of {players} at once from {sources} addresses 127.0.0.10-{9 + sources}, "
        f"{moves_each} moves each, engine {movetime} ms a move, think {think[0]:g}-{think[1]:g} s, "
        f"deadline {deadline:g} s"
    )
    log = open(log_path, "w")
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    failures = []
    samples = {"rss": 0.0, "threads": 0, "waiting": 0, "searching": 0, "sessions": 0}
    stop = threading.Event()
    try:
        port = None
        until = time.time() + 20
        while port is None and time.time() < until:
            with open(log_path) as f:
                for line in f:
                    if "listening on http://127.0.0.1:" in line:
                        port = int(line.split("127.0.0.1:")[1].split("/")[0])
            time.sleep(0.05)
        if port is None:
            raise SystemExit("cellmate serve did not say where it listens within 20 s")
        pid = server.pid
        time.sleep(1.0)
        idle_mb, idle_threads, _ = proc_status(pid)
        print(f"idle: {idle_mb:.0f} MB resident, {idle_threads} threads")

        def sample():
            while not stop.is_set():
                try:
                    mb, th, _ = proc_status(pid)
                    samples["rss"] = max(samples["rss"], mb)
                    samples["threads"] = max(samples["threads"], th)
                    status, h = get_json(port, "/healthz")
                    if status == 200:
                        for k in ("waiting", "searching", "sessions"):
                            samples[k] = max(samples[k], h[k])
                except (OSError, ValueError):
                    pass
                stop.wait(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()

        settings = {"type": "engine", "white": False, "black": True, "movetime": movetime}
        after = []
        everyone = []
        for wave in range(waves):
            print(f"wave {wave + 1}:")
            t_play = time.time()
            ps = play_wave(port, players, moves_each, settings, sources, think, rng, start + deadline)
            report_wave(ps, players, moves_each, movetime, time.time() - t_play, failures)
            everyone += ps
            mb, threads = settle(port, pid, idle_threads, failures)
            after.append(mb)
            print(f"  after all left: {mb:.0f} MB resident, {threads} threads")
        stop.set()
        sampler.join()
        _, _, hwm = proc_status(pid)
        print(
            f"most waiting at once (/healthz): {samples['waiting']}, most searching {samples['searching']}, "
            f"most sessions {samples['sessions']}"
        )
        bound = idle_mb + workers * WORKER_SLACK_MB + players * SESSION_SLACK_MB
        peak = max(samples["rss"], hwm)
        print(
            f"peak: {peak:.0f} MB resident (VmHWM {hwm:.0f}), {samples['threads']} threads; bound "
            f"{bound:.0f} MB = idle {idle_mb:.0f} (the {hash_mb} MB table in it) + {workers} workers x "
            f"{WORKER_SLACK_MB} + {players} sessions x {SESSION_SLACK_MB}"
        )
        if peak > bound:
            failures.append(f"peak memory {peak:.0f} MB > bound {bound:.0f} MB")
        # The store has threads of its own: the thread count must not grow with the load (the
        # store calls in block_in_place it replaced piled up a few hundred).
        if samples["threads"] > idle_threads + THREADS_SLACK:
            failures.append(f"peak threads {samples['threads']} > idle {idle_threads} + {THREADS_SLACK}")
        for i, mb in enumerate(after):
            if mb > bound:
                failures.append(f"memory after wave {i + 1} {mb:.0f} MB > bound {bound:.0f} MB")
        if len(after) > 1:
            grew = max(after[1:]) - after[0]
            print(f"memory after each wave: {', '.join(f'{mb:.0f}' for mb in after)} MB (no more than "
                  f"{LEAK_SLACK_MB} MB over the first's)")
            if grew > LEAK_SLACK_MB:
                failures.append(f"memory after a later wave {grew:.0f} MB over the first's: a leak?")

        # The real write path: each player's last game as stored, move for move.
        unstored = 0
        for p in everyone:
            if not p.games:
                unstored += 1
                continue
            gid, plies = p.games[-1]
            status, g = get_json(port, f"/game/{gid}/json")
            if status != 200 or len(g["moves"]) != plies:
                unstored += 1
        games = sum(len(p.games) for p in everyone)
        print(
            f"stored: {len(everyone) - unstored} of {len(everyone)} players' last games read back with "
            f"every move ({games} games played)"
        )
        if unstored:
            failures.append(f"{unstored} games not stored as played")
        if time.time() > start + deadline:
            failures.append(f"the run passed its deadline of {deadline:g} s")
    finally:
        stop.set()
        server.kill()
        server.wait()
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    print("ok" if not failures else f"{len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
