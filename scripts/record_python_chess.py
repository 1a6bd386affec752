#!/usr/bin/env python3
"""Records python-chess driving cellmate (UCI and XBoard) as protocol fixtures.

A recording proxy sits between python-chess and the binary: this script runs itself as the
"engine" python-chess starts (`--proxy LOG ENGINE`), which starts the real engine and copies
every line both ways, writing `> line` (GUI to engine) and `< line` (engine to GUI) to LOG.
The driver makes python-chess play 4 moves from the start position at depth 3 (cellmate plays
both sides), once over UCI and once over XBoard, then converts the logs into fixtures:

- every GUI line is sent as is, except UCI `position startpos moves …` (`position {position}`)
  and XBoard moves relayed from the game (`usermove {last}`-style: python-chess sends the
  moves of the game, which are the engine's own);
- the GUI waits where python-chess waited: `uciok`, `readyok`, `bestmove`, `feature … done=1`,
  `pong N`, `move`.

Usage: record_python_chess.py ENGINE OUT_DIR   (writes OUT_DIR/python-chess-{uci,xboard}.fixture)
"""

import os
import subprocess
import sys
import threading

HEADER = {
    "uci": [
        "python-chess {ver} driving cellmate over UCI (chess.engine.SimpleEngine.popen_uci), "
        "recorded by",
        "scripts/record_python_chess.py (a proxy between python-chess and the binary): 4 moves "
        "from the start,",
        "Limit(depth=3), cellmate playing both sides. Adapted: the moves of the game in "
        "`position` are {{position}}.",
    ],
    "xboard": [
        "python-chess {ver} driving cellmate over XBoard (chess.engine.SimpleEngine.popen_xboard),"
        " recorded by",
        "scripts/record_python_chess.py (a proxy between python-chess and the binary): 4 moves "
        "from the start,",
        "Limit(depth=3), cellmate playing both sides. Adapted: the game's moves python-chess "
        "relays are {{last}}.",
    ],
}


def proxy(log, engine):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         bufsize=1)
    lock = threading.Lock()
    f = open(log, "w")

    def write(prefix, line):
        with lock:
            f.write(f"{prefix} {line}\n")
            f.flush()

    def pump_out():
        for line in p.stdout:
            write("<", line.rstrip("\n"))
            sys.stdout.write(line)
            sys.stdout.flush()

    t = threading.Thread(target=pump_out, daemon=True)
    t.start()
    for line in sys.stdin:
        write(">", line.rstrip("\n"))
        p.stdin.write(line)
        p.stdin.flush()
    p.stdin.close()
    p.wait()
    t.join(timeout=5)


def record(engine, out, proto):
    import chess
    import chess.engine

    log = os.path.join(out, f"python-chess-{proto}.log")
    cmd = [sys.executable, os.path.abspath(__file__), "--proxy", log, engine]
    opener = chess.engine.SimpleEngine.popen_uci if proto == "uci" else \
        chess.engine.SimpleEngine.popen_xboard
    board = chess.Board()
    with opener(cmd) as e:
        for _ in range(4):
            r = e.play(board, chess.engine.Limit(depth=3))
            if r.move not in board.legal_moves:
                sys.exit(f"{proto}: illegal move {r.move}")
            board.push(r.move)
    return log, board


def convert(log, proto, moves, ver):
    out = [f"# {h.format(ver=ver)}" for h in HEADER[proto]]
    lines = open(log).read().splitlines()
    # The replay answers every feature itself: those python-chess rejected go on `start`.
    rejected = [raw[len("> rejected "):] for raw in lines if raw.startswith("> rejected ")]
    start = f"start first {proto}" + (f" reject {','.join(rejected)}" if rejected else "")
    out += ["", start, "board chess", ""]
    played = []
    for raw in lines:
        way, line = raw[0], raw[2:]
        if line.startswith(("accepted ", "rejected ")):
            continue
        if way == ">":
            if proto == "uci" and line.startswith("position startpos"):
                want = "position startpos" + (" moves " + " ".join(played) if played else "")
                if line != want:
                    sys.exit(f"unexpected {line!r}, expected {want!r}")
                line = "position {position}"
            elif proto == "xboard" and line.startswith("usermove "):
                if not played or line != f"usermove {played[-1]}":
                    sys.exit(f"unexpected {line!r} after {played}")
                line = "usermove {last}"
            out.append(f"first> {line}")
        else:
            if line in ("uciok", "readyok") or line.startswith("pong "):
                out.append(f"first< {line}")
            elif line.startswith("feature ") and "done=1" in line:
                out.append("first< feature *done=1*")
            elif line.startswith("bestmove "):
                played.append(line.split()[1])
                out.append("first< bestmove {move}*")
            elif line.startswith("move "):
                played.append(line.split()[1])
                out.append("first< move {move}")
    if played != moves:
        sys.exit(f"{proto}: moves {played} differ from the game {moves}")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--proxy":
        return proxy(sys.argv[2], sys.argv[3])
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    import chess

    engine, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for proto in ("uci", "xboard"):
        log, board = record(engine, out, proto)
        moves = [m.uci() for m in board.move_stack]
        text = convert(log, proto, moves, chess.__version__)
        path = os.path.join(out, f"python-chess-{proto}.fixture")
        with open(path, "w") as f:
            f.write(text)
        print(f"{path}: {' '.join(moves)}")


if __name__ == "__main__":
    main()
