#!/usr/bin/env python3
"""`make verify-uci-clients`: a plain UCI client plays every variant to the end of the game.

For each variant the engine plays itself from the start position, the client sending
`position startpos moves …` and `go nodes N` and playing the `bestmove` it gets, until the
engine answers `bestmove (none)`: the game has ended by the rules. The client then must have
been told the result, by the line before it, `info string game over SCORE {REASON}`; it checks
that the score is one of 1-0, 0-1, 1/2-1/2, and that `0000` (a Recursion pass) was only ever a
move, never the end. It knows no rules itself: the engine is the only judge, as for a bot
bridge that relays a variant it cannot play.

Two clients do the same:
- `python-chess`: python-chess's own UCI protocol layer (`chess.engine.popen_uci`, then raw
  commands sent with `communicate`: python-chess's board cannot hold these variants);
- `pipe`: a bare subprocess pipe, line by line.

Usage: uci_client_check.py ENGINE [--nodes N] [--max-plies N] [variant ...]
Exit status 1 on any failure (no result line, a bad score, a game longer than --max-plies).
"""

import argparse
import asyncio
import re
import subprocess
import sys
import time

import chess.engine

VARIANTS = ["chess", "recursion", "microorganism", "immune"]
RESULT = re.compile(r"^info string game over (1-0|0-1|1/2-1/2) \{(.+)\}$")


class Failure(Exception):
    pass


def play(send_and_wait, variant, nodes, max_plies):
    """One game through a client: `send_and_wait(lines, until)` sends lines and returns the
    engine's lines up to the first one for which `until` holds."""
    send_and_wait([f"setoption name UCI_Variant value {variant}", "ucinewgame", "isready"],
                  lambda l: l == "readyok")
    # A pass (`bestmove 0000`, Recursion's IR-5) is a move like any other: sent back in the
    # next `position`, which the engine must accept.
    moves = []
    while len(moves) <= max_plies:
        pos = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        lines = send_and_wait([pos, f"go nodes {nodes}"], lambda l: l.startswith("bestmove "))
        errors = [l for l in lines if l.startswith(("info string Illegal", "info string Invalid",
                                                     "info string Unknown"))]
        if errors:
            raise Failure(f"{variant}: the engine refused the client's commands: {errors}")
        best = lines[-1].split()[1]
        if best == "(none)":
            results = [RESULT.match(l) for l in lines if l.startswith("info string game over")]
            if len(results) != 1 or results[0] is None:
                raise Failure(f"{variant}: bestmove (none) after {len(moves)} plies without "
                              f"one result line: {lines[-3:]}")
            return len(moves), moves.count("0000"), results[0].group(1), results[0].group(2)
        moves.append(best)
    raise Failure(f"{variant}: no end after {max_plies} plies")


def pipe_client(engine):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         bufsize=1)

    def send_and_wait(lines, until):
        for l in lines:
            p.stdin.write(l + "\n")
        p.stdin.flush()
        got = []
        while True:
            l = p.stdout.readline()
            if not l:
                raise Failure("the engine's output ended")
            l = l.rstrip("\n")
            got.append(l)
            if until(l):
                return got

    send_and_wait(["uci"], lambda l: l == "uciok")

    def close():
        p.stdin.write("quit\n")
        p.stdin.close()
        if p.wait(timeout=10) != 0:
            raise Failure(f"exit status {p.returncode}")

    return send_and_wait, close


class Raw(chess.engine.BaseCommand):
    """Sends lines, collects the engine's lines up to one that ends the command."""

    def __init__(self, engine, lines, until):
        super().__init__(engine)
        self.lines, self.until, self.got = lines, until, []

    def start(self):
        for l in self.lines:
            self._engine.send_line(l)

    def line_received(self, line):
        self.got.append(line)
        if self.until(line):
            self.result.set_result(self.got)
            self.set_finished()


def python_chess_game(engine, variant, nodes, max_plies):
    async def run():
        transport, proto = await chess.engine.popen_uci(engine)
        loop = asyncio.get_running_loop()
        try:
            # `play` is synchronous; each exchange runs on the event loop of python-chess.
            def send_and_wait(lines, until):
                return asyncio.run_coroutine_threadsafe(
                    proto.communicate(lambda e: Raw(e, lines, until)), loop).result(60)

            return await loop.run_in_executor(None, play, send_and_wait, variant, nodes,
                                              max_plies)
        finally:
            await proto.quit()

    return asyncio.run(run())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("variants", nargs="*", default=VARIANTS)
    ap.add_argument("--nodes", type=int, default=400)
    ap.add_argument("--max-plies", type=int, default=3000)
    a = ap.parse_args()
    failed = 0
    for variant in a.variants:
        for client in ("python-chess", "pipe"):
            t = time.time()
            try:
                if client == "pipe":
                    send_and_wait, close = pipe_client(a.engine)
                    plies, passes, score, reason = play(send_and_wait, variant, a.nodes,
                                                        a.max_plies)
                    close()
                else:
                    plies, passes, score, reason = python_chess_game(a.engine, variant,
                                                                     a.nodes, a.max_plies)
                print(f"{variant:14} {client:12} {plies:5} plies ({passes} passes)  "
                      f"{score} {{{reason}}}  ({time.time() - t:.1f} s)")
            except Failure as e:
                failed += 1
                print(f"{variant:14} {client:12} FAIL: {e}")
    print(f"{len(a.variants) * 2 - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
