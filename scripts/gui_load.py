#!/usr/bin/env python3
"""`make gui-load`: what many board pages cost the browser board (`cellmate gui`), on loopback.

Starts `cellmate gui` on a free port of 127.0.0.1, then:
  1. measures the idle server (resident memory, threads);
  2. opens SESSIONS WebSocket sessions (default 300), counting those accepted (101) and those
     refused (503: more than the server's connection limit);
  3. starts a search in SEARCHING of the accepted sessions (default 50; `depth 64`, so they would
     run for ever) and measures for a few seconds while the pool works and queues them;
  4. drops every connection without a goodbye (as a closed laptop does) and waits until the
     server's threads are back to their idle count;
  5. opens one more session and asks for a 300 ms search, which must be answered at once: the
     dropped sessions' searches left nothing queued.
It prints peak and final memory and threads, and fails (exit 1) if a step does not hold:
memory not back within IDLE_SLACK_MB of idle, threads not back, the last search not answered.

Bounded: loopback only, at most 1,000 sessions, every wait has a deadline (the whole run takes
well under a minute). Needs only Python's standard library and Linux's /proc.

    python3 scripts/gui_load.py target/release/cellmate [SESSIONS] [SEARCHING]
"""

import json
import os
import selectors
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ws_client  # noqa: E402

IDLE_SLACK_MB = 8


def proc_status(pid):
    f = ws_client.proc_fields(pid)
    return int(f["VmRSS"].split()[0]) // 1024, int(f["Threads"])


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


frame = ws_client.frame


class Session:
    def __init__(self, port):
        self.sock, self.status, self.buf = ws_client.connect(port)

    def send(self, obj):
        self.sock.setblocking(True)
        self.sock.sendall(frame(json.dumps(obj)))
        self.sock.setblocking(False)

    def drain(self):
        """Reads what is there; returns the complete messages (server frames are unmasked)."""
        try:
            while True:
                chunk = self.sock.recv(1 << 16)
                if not chunk:
                    break
                self.buf += chunk
        except (BlockingIOError, ConnectionError):
            pass
        frames, self.buf = ws_client.split_frames(self.buf)
        out = []
        for _, payload in frames:
            try:
                out.append(json.loads(payload))
            except ValueError:
                pass
        return out


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/cellmate"
    sessions = min(int(sys.argv[2]) if len(sys.argv) > 2 else 300, 1000)
    searching = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    port = free_port()
    server = subprocess.Popen(
        [binary, "gui", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    failures = []
    try:
        server.stderr.readline()
        pid = server.pid
        time.sleep(1.0)
        idle_mb, idle_threads = proc_status(pid)
        print(f"idle: {idle_mb} MB resident, {idle_threads} threads")

        t0 = time.time()
        opened = [Session(port) for _ in range(sessions)]
        accepted = [s for s in opened if s.status == "101"]
        refused = [s for s in opened if s.status != "101"]
        codes = sorted({s.status for s in refused})
        print(
            f"opened {sessions} sessions in {time.time() - t0:.1f} s: {len(accepted)} accepted, "
            f"{len(refused)} refused {codes}"
        )
        for s in refused:
            s.sock.close()
        for s in accepted:
            s.drain()
        peak_mb, peak_threads = proc_status(pid)
        for s in accepted[:searching]:
            s.send({"type": "engine", "white": False, "black": False, "depth": 64})
            s.send({"type": "go"})
        infos = 0
        until = time.time() + 5
        while time.time() < until:
            for s in accepted:
                infos += sum(1 for m in s.drain() if m.get("type") == "info")
            mb, th = proc_status(pid)
            peak_mb, peak_threads = max(peak_mb, mb), max(peak_threads, th)
            time.sleep(0.2)
        print(
            f"{min(searching, len(accepted))} searching for 5 s: peak {peak_mb} MB resident, "
            f"{peak_threads} threads, {infos} progress reports read"
        )
        if infos == 0:
            failures.append("no search reported progress")

        for s in accepted:
            s.sock.close()
        until = time.time() + 20
        while time.time() < until:
            mb, th = proc_status(pid)
            if th <= idle_threads:
                break
            time.sleep(0.2)
        time.sleep(1.0)
        final_mb, final_threads = proc_status(pid)
        print(f"after all left: {final_mb} MB resident, {final_threads} threads")
        if final_threads > idle_threads:
            failures.append(f"threads {final_threads} > idle {idle_threads}")
        if final_mb > idle_mb + IDLE_SLACK_MB:
            failures.append(f"memory {final_mb} MB > idle {idle_mb} + {IDLE_SLACK_MB} MB")

        last = Session(port)
        last.send({"type": "engine", "white": False, "black": False, "movetime": 300})
        t1 = time.time()
        last.send({"type": "go"})
        answered = None
        while time.time() < t1 + 10 and answered is None:
            for m in last.drain():
                if m.get("type") == "bestmove":
                    answered = time.time() - t1
            time.sleep(0.02)
        last.sock.close()
        if answered is None:
            failures.append("a new session's 300 ms search was not answered within 10 s")
        else:
            print(f"a new session's 300 ms search answered after {answered * 1000:.0f} ms")
    finally:
        server.kill()
        server.wait()
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
