#!/usr/bin/env python3
"""`make gui-check`: a person's moves entered with the mouse in a real XBoard 4.9.1 window.

For each variant XBoard runs under Xvfb with cellmate as its engine, in Edit Game mode (XBoard
sends every move to the engine, which only follows). xdotool clicks enter one move of every
kind the scenario names: XBoard sends `lift`, the engine answers `highlight`, the clicks on the
marked squares make XBoard send the move (`usermove`), which must be exactly the expected text.
After every move XBoard's board (Edit -> Copy Position, read with xclip) is compared with

- the shadow the engine keeps of XBoard's board (must be equal), and
- the engine's real position as XBoard is shown it (equal, except on the squares the scenario
  names: what XBoard cannot show, docs/xboard.md),

both read from a second cellmate fed the same moves (debug command `xbfen`). Finally the engine
is switched to play the side to move (Machine White/Black, `sd` from -searchDepth) and its move
must be accepted by XBoard and keep the boards equal. Screenshots go to the docs directory.

Usage: gui_check.py ENGINE OUT_DIR DOCS_DIR [variant ...]
Needs: xboard, Xvfb, xdotool, xclip, imagemagick (`import`).
"""

import os
import re
import subprocess
import sys
import time

XBOARD = os.environ.get("XBOARD", "/usr/games/xboard")
DISPLAY = os.environ.get("GUI_DISPLAY", ":93")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name: (xboard args, files, ranks, zero-based ranks, setboard FEN in XBoard's view or None,
#        moves [(clicks, expected usermove, squares where XBoard may differ from the position)],
#        screenshot name)
SCENARIOS = {
    "chess": dict(
        args=[],
        files=8, ranks=8, zero=False, fen=None,
        moves=[
            (["e2", "e4"], "e2e4", []),
            (["e7", "e5"], "e7e5", []),
            (["g1", "f3"], "g1f3", []),
        ],
    ),
    "chess-special": dict(
        # Castling (XBoard moves the rook itself) and a promotion; -alwaysPromoteToQueen makes
        # XBoard promote without its piece popup, so the click sequence is fixed.
        args=["-alwaysPromoteToQueen", "true"],
        files=8, ranks=8, zero=False,
        fen="4k3/P7/8/8/8/8/8/4K2R w K - 0 1",
        moves=[
            (["e1", "g1"], "e1g1", []),
            (["e8", "d7"], "e8d7", []),
            (["a7", "a8"], "a7a8q", []),
        ],
    ),
    "recursion": dict(
        args=["-xlegal", "-variant", "recursion"],
        files=16, ranks=8, zero=False, fen=None,
        moves=[
            (["e2", "e4"], "e2e4", []),
            (["m7", "m6"], "m7m6", []),
            (["m2", "m3"], "m2m3", []),
            (["a7", "a6"], "a7a6", []),
            (["e4", "e5"], "e4e5", []),
            (["m6", "m5"], "m6m5", []),
            (["m3", "m4"], "m3m4", []),
            (["d7", "d5"], "d7d5", []),
            # En passant: the victim's square is the cyan first leg.
            (["e5", "d5", "d6"], "e5d5,d5d6", []),
        ],
    ),
    "recursion-castle": dict(
        # Castling on each board with the d-file king (IR-2, IR-3): XBoard drags the board's
        # own rook (docs/xboard.md).
        args=["-xlegal", "-variant", "recursion", "-alwaysPromoteToQueen", "true"],
        files=16, ranks=8, zero=False,
        fen="r2k3rr2k3r/pppppppppppppppp/16/16/16/16/PPPPPPPPPPPPPPPP/R2K3RR2K3R w KQkq - 0 1",
        moves=[
            (["d1", "b1"], "d1b1", []),
            (["l8", "n8"], "l8n8", []),
            (["l1", "j1"], "l1j1", []),
            (["d8", "f8"], "d8f8", []),
        ],
    ),
    "recursion-pass": dict(
        args=["-xlegal", "-variant", "recursion"],
        files=16, ranks=8, zero=False,
        # IR-5: Black mates on board B (i8i1); White's mega-knight on A is then Frozen and
        # White has no move on an unfinished board: a pass. In Edit Game mode XBoard 4.9.1
        # enters a pass when the side to move clicks the *other* side's clock
        # (backend.c ClockClick -> UserMoveEvent(EmptySquare, DROP_RANK)); it sends @@@@.
        fen="rnbkqbnrr6m/pppppppp8/16/16/16/12k3/PPPPPPPP8/RMBKQBNR4K3 w - - 0 1",
        moves=[
            (["e2", "e4"], "e2e4", []),
            (["i8", "i1"], "i8i1", []),
            (["clock:black"], "@@@@", []),
            (["e7", "e5"], "e7e5", []),
        ],
    ),
    "immune": dict(
        args=["-xlegal", "-variant", "immune"],
        files=10, ranks=10, zero=True,
        # XBoard's view (mirrored): Invaders are its White at the bottom, a B-cell on e9.
        # A Monocyte (o) on g2, one step from its promotion zone (XBoard's ranks 0-1 here).
        fen="4b5/10/10/10/10/10/10/4I1o3/10/I9 w - - 0 1",
        moves=[
            (["a0", "a1"], "a0a1", []),
            # A shot: cyan on the target, back to the origin.
            (["e9", "e2", "e9"], "e9e2,e2e9", []),
            (["a1", "a2"], "a1a2", []),
            # Promotion to a Macrophage: blue targets, the engine answers `choice m`.
            (["g2", "g1"], "g2g1m", []),
        ],
    ),
    "microorganism": dict(
        args=["-xlegal", "-variant", "microorganism", "-rankOffset", "1",
              "-firstOptions", "Rank_Offset=1"],
        files=16, ranks=16, zero=True,
        fen="15n/16/16/16/16/16/16/4P11/4R11/16/16/16/2A13/16/16/N6TT7 w - - 0 1",
        moves=[
            # Bond: out over the square beyond the partner (cyan) and back.
            (["h0", "j0", "h0"], "h0j0,j0h0", []),
            (["p15", "p14"], "p15p14", []),
            # Expansion: blue target, the engine answers `choice a`. XBoard moves the Amoeba:
            # the cell it keeps (c3) looks empty.
            (["c3", "c4"], "c3c4a", ["c3"]),
            (["p14", "p15"], "p14p15", ["c3"]),
            # Ride: the Prion mounts its own pawn; XBoard shows the Prion instead of the pawn.
            (["e7", "e8"], "e7e8", ["c3", "e8"]),
            (["p15", "p14"], "p15p14", ["c3", "e8"]),
            # Kill: out over an empty square (cyan) and back to the host (blue, `choice r`).
            (["e8", "f8", "e8"], "e8f8,f8e8r", ["c3"]),
        ],
        engine_differs=["c3"],
    ),
    "microorganism-more": dict(
        args=["-xlegal", "-variant", "microorganism", "-rankOffset", "1",
              "-firstOptions", "Rank_Offset=1"],
        files=16, ranks=16, zero=True,
        fen="15n/16/16/16/16/16/16/16/16/16/16/16/2A13/8c7/4P11/N6B8 w - - 0 1",
        moves=[
            # A red blood cell's first move, four squares (MC-3).
            (["e1", "e5"], "e1e5", []),
            (["p15", "p14"], "p15p14", []),
            # The Bacterium takes a Paramecium by its knight leap and absorbs it (MC-7).
            (["h0", "i2"], "h0i2", []),
            (["p14", "p15"], "p14p15", []),
            # Expansion (blue, `choice a`), then contraction: from the cell given up to the
            # cell kept, which puts XBoard's piece back where the Amoeba is (MC-8).
            (["c3", "c4"], "c3c4a", ["c3"]),
            (["p15", "p14"], "p15p14", ["c3"]),
            (["c4", "c3"], "c4c3", []),
        ],
    ),
    "microorganism-hatch": dict(
        args=["-xlegal", "-variant", "microorganism", "-rankOffset", "1",
              "-firstOptions", "Rank_Offset=1"],
        files=16, ranks=16, zero=True,
        fen="15n/16/16/16/16/16/16/16/16/16/16/6p9/6V9/16/16/N15 w - - 0 1",
        moves=[
            # Infection: XBoard shows the Virus on the pawn's square (the pawn is there).
            (["g3", "g4"], "g3g4", ["g4"]),
            (["p15", "o15"], "p15o15", ["g4"]),
            (["a0", "b0"], "a0b0", ["g4"]),
            (["o15", "p15"], "o15p15", ["g4"]),
            # The hatch (MC, issue 4): blue squares around the infected piece, `choice v`.
            # XBoard shows the new Virus on f3, nothing on g4 where a Virus is back.
            (["g4", "f3"], "g4f3v", ["g4"]),
            # Then the engine plays White, with a Virus on g4 that XBoard does not show.
            (["p15", "o15"], "p15o15", ["g4"]),
        ],
        engine_differs=["g4"],
    ),
}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, env=ENV, **kw)


ENV = dict(os.environ, DISPLAY=DISPLAY)


def ensure_display():
    if run(["xdpyinfo"]).returncode == 0:
        return None
    p = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", "1280x1024x24"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(50):
        time.sleep(0.1)
        if run(["xdpyinfo"]).returncode == 0:
            return p
    sys.exit("Xvfb did not start")


class Side:
    """A second cellmate fed the same moves, asked for its view with `xbfen`."""

    def __init__(self, engine, variant, rank_offset, fen):
        self.p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.n = 0
        self.send("xboard")
        self.send("protover 2")
        if variant != "normal":
            self.send(f"variant {variant}")
        if rank_offset:
            self.send("option Rank_Offset=1")
        self.send("force")
        if fen:
            self.send(f"setboard {fen}")
        errors = [l for l in self.sync() if l.startswith(("Error", "Illegal"))]
        if errors:
            sys.exit(f"side engine: {errors}")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def sync(self):
        self.n += 1
        self.send(f"ping {self.n}")
        lines = []
        while True:
            l = self.p.stdout.readline()
            if not l:
                sys.exit("side engine ended")
            l = l.rstrip("\n")
            if l == f"pong {self.n}":
                return lines
            lines.append(l)

    def play(self, text):
        self.send(f"usermove {text}")
        bad = [l for l in self.sync() if l.startswith(("Error", "Illegal"))]
        if bad:
            raise Check(f"side engine refused {text}: {bad}")

    def view(self):
        self.send("xbfen")
        board = shadow = None
        for l in self.sync():
            if l.startswith("# board "):
                board = l[len("# board "):].split()[0]
            elif l.startswith("# shadow "):
                shadow = l[len("# shadow "):]
        return board, shadow

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=5)


class Check(Exception):
    pass


def expand(placement, files):
    rows = []
    for row in placement.split("/"):
        cells, run_ = [], ""
        for c in row:
            if c.isdigit():
                run_ += c
                continue
            if run_:
                cells += ["."] * int(run_)
                run_ = ""
            cells.append(c)
        if run_:
            cells += ["."] * int(run_)
        rows.append(cells)
    return rows


def differ(a, b, files, ranks, zero):
    """Square names (XBoard's) where two placements differ."""
    base = 0 if zero else 1
    out = []
    ra, rb = expand(a, files), expand(b, files)
    for i in range(ranks):
        for f in range(files):
            if ra[i][f] != rb[i][f]:
                out.append(f"{chr(97 + f)}{ranks - 1 - i + base}")
    return out


class XBoard:
    # What gui-check runs XBoard with besides the engine, the log and the window: Edit Game
    # mode, the engine at depth 3 when it plays, no flag calls.
    MODE = ["-initialMode", "EditGame", "-searchDepth", "3", "-autoCallFlag", "false"]

    def __init__(self, engine, name, sc, out, pieces, mode=None, title=None):
        self.sc = sc
        self.log = os.path.join(out, f"{name}.debug")
        if os.path.exists(self.log):
            os.remove(self.log)
        size = "Huge" if sc["files"] > 8 else "Medium"
        args = [XBOARD, "-fcp", engine, "-fd", out, "-debug", "-nameOfDebugFile", self.log,
                "-saveSettingsOnExit", "false", "-soundProgram", "", "-startupMessage", "",
                "-x", "0", "-y", "0", "-size", size] + (self.MODE if mode is None else mode) \
            + sc["args"]
        if pieces:
            args += ["-pieceImageDirectory", pieces, "-trueColors", "true"]
        self.p = subprocess.Popen(args, env=ENV, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        # The window is found by its title, a regular expression: XBoard names it after the
        # engine, or after the file of a game it loaded (`-lgf`: give `title` then).
        self.win = None
        for _ in range(100):
            time.sleep(0.2)
            r = run(["xdotool", "search", "--name", title or "cellmate"])
            if r.stdout.split():
                self.win = r.stdout.split()[0]
                break
        if not self.win:
            # No window to close it through: stop the process, or it outlives the check.
            self.p.kill()
            self.p.wait()
            raise Check("no XBoard window")
        time.sleep(2)
        self.wait_log(lambda t: re.search(r"<first : (pong|feature done)", t), "engine ready")

    def text(self):
        with open(self.log, errors="replace") as f:
            return f.read()

    def sent(self):
        """Commands XBoard sent to the engine, joined where XBoard's log split them."""
        out = []
        for l in self.text().splitlines():
            m = re.match(r"^\d+ >first : (.*)$", l)
            if m:
                t = re.sub(r" \d+ >first : ", " ", m.group(1))
                out.append(t)
        return out

    def received(self):
        return [m.group(1) for m in re.finditer(r"(?m)^\d+ <first : (.*)$", self.text())]

    def wait_log(self, pred, what, timeout=20):
        end = time.time() + timeout
        while time.time() < end:
            if pred(self.text()):
                return
            time.sleep(0.1)
        raise Check(f"timed out waiting for {what}")

    def geometry(self):
        g = dict(l.split("=") for l in run(["xdotool", "getwindowgeometry", "--shell",
                                             self.win]).stdout.split())
        return {k: int(v) for k, v in g.items() if k in ("X", "Y", "WIDTH", "HEIGHT")}

    def click(self, sq):
        files, ranks = self.sc["files"], self.sc["ranks"]
        if sq.startswith("clock:"):
            # The clocks sit under the menu bar: White's on the left half, Black's on the right.
            g = self.geometry()
            x = g["X"] + g["WIDTH"] * (1 if sq == "clock:white" else 3) // 4
            run(["xdotool", "mousemove", str(x), str(g["Y"] + 48), "click", "1"])
            time.sleep(0.6)
            return
        f = ord(sq[0]) - 97
        r = int(sq[1:]) - (0 if self.sc["zero"] else 1)
        g = self.geometry()
        p = (g["WIDTH"] - 4) // files
        x = g["X"] + 2 + p * f + p // 2
        y = g["Y"] + g["HEIGHT"] - 2 - p * (r + 1) + p // 2
        run(["xdotool", "mousemove", str(x), str(y), "click", "1"])
        time.sleep(0.6)

    def key(self, k):
        run(["xdotool", "key", "--window", self.win, k])

    def paste(self, fen):
        subprocess.run(["xclip", "-selection", "clipboard"], input=fen, text=True, env=ENV)
        self.key("ctrl+shift+v")
        # XBoard may renumber the move (`… b KQkq - 1 2` comes as `… - 1 1`).
        self.wait_log(lambda t: f">first : setboard {fen.split()[0]} " in t, "setboard")
        time.sleep(1)

    def board(self):
        subprocess.run(["xclip", "-selection", "clipboard"], input="", text=True, env=ENV)
        self.key("ctrl+shift+c")
        time.sleep(0.5)
        return run(["xclip", "-o", "-selection", "clipboard"]).stdout.split(" ")[0]

    def shot(self, path):
        g = self.geometry()
        run(["import", "-window", "root", "-crop",
             f"{g['WIDTH']}x{g['HEIGHT']}+{g['X']}+{g['Y']}", "+repage", path])
        # Small enough for the repository: 70 %, 256 colours.
        run(["convert", path, "-resize", "70%", "-colors", "256", "PNG8:" + path])

    def close(self):
        self.p.terminate()
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()


def compare(xb, side, sc, allowed, report, label):
    real, shadow = side.view()
    seen = xb.board()
    if shadow is not None and seen != shadow:
        raise Check(f"{label}: XBoard shows {seen}, the engine's shadow says {shadow}")
    diff = differ(seen, real, sc["files"], sc["ranks"], sc["zero"])
    if not set(diff) <= set(allowed):
        raise Check(f"{label}: XBoard {seen} differs from the position {real} on {diff}")
    report.append(f"  {label}: XBoard's board = shadow: {shadow is not None and 'yes' or 'n/a'};"
                  f" = position: {'yes' if not diff else 'except ' + ','.join(diff)}")


def scenario(engine, name, sc, out, docs, report):
    variant = {"chess": "normal"}.get(name, name.split("-")[0])
    pieces = os.path.join(ROOT, "assets", "pieces", variant)
    pieces = pieces if os.path.isdir(pieces) else None
    xb = XBoard(engine, name, sc, out, pieces)
    report.append(f"{name}:")
    try:
        if "-" not in name:
            xb.shot(os.path.join(docs, f"xboard-{name}.png"))
        if sc["fen"] is not None:
            xb.paste(sc["fen"])
        side = Side(engine, variant, "-rankOffset" in sc["args"], sc["fen"])
        for clicks, want, allowed in sc["moves"]:
            before_sent = len(xb.sent())
            before_recv = len(xb.received())
            for sq in clicks:
                xb.click(sq)
            # A pass comes as `usermove @@@@` or, in Edit Game mode after Paste Position, as
            # a bare `setboard` of the position after it, which the engine reads as the pass.
            relay = ("usermove ", "setboard ") if want == "@@@@" else ("usermove ",)
            xb.wait_log(lambda t: any(c.startswith(relay)
                                      for c in xb.sent()[before_sent:]), f"usermove {want}", 8)
            sent = xb.sent()[before_sent:]
            got = [c[len("usermove "):] if c.startswith("usermove ") else "@@@@"
                   for c in sent if c.startswith(relay)]
            lifts = [c for c in sent if c.startswith("lift ")]
            lights = [r for r in xb.received()[before_recv:] if r.startswith("highlight ")]
            choices = [r for r in xb.received()[before_recv:] if r.startswith("choice ")]
            if got != [want]:
                raise Check(f"clicks {clicks}: XBoard sent {sent}, expected usermove {want}")
            if len(lights) < len(lifts):
                raise Check(f"clicks {clicks}: {len(lifts)} lifts, {len(lights)} highlights")
            report.append(f"  clicks {'-'.join(clicks)}: " + "; ".join(sent)
                          + (f" (engine: {', '.join(choices)})" if choices else ""))
            side.play(want)
            compare(xb, side, sc, allowed, report, f"after {want}")
        # The engine plays the side to move.
        n_moves = len([r for r in xb.received() if r.startswith("move ")])
        stm = side_to_move(side, name)
        xb.key("ctrl+w" if stm == "w" else "ctrl+b")
        xb.wait_log(lambda t: len(re.findall(r"(?m)^\d+ <first : move ", t)) > n_moves,
                    "the engine's move", 60)
        time.sleep(1)
        mv = [r for r in xb.received() if r.startswith("move ")][-1][len("move "):]
        bad = [r for r in xb.received() if r.startswith(("Illegal", "Error"))]
        if bad:
            raise Check(f"engine errors: {bad}")
        if "forfeit" in xb.text().lower() or "illegal move" in xb.text().lower():
            raise Check("XBoard reports an illegal move")
        side.play(mv)
        compare(xb, side, sc, sc.get("engine_differs", []), report, f"after the engine's {mv}")
        xb.shot(os.path.join(docs, f"gui-check-{name}.png"))
        side.close()
    finally:
        xb.close()


def side_to_move(side, name):
    side.send("xbfen")
    for l in side.sync():
        if l.startswith("# board "):
            return l.split()[3]
    raise Check("no side to move")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    engine, out, docs = (os.path.abspath(a) for a in sys.argv[1:4])
    names = sys.argv[4:] or list(SCENARIOS)
    os.makedirs(out, exist_ok=True)
    os.makedirs(docs, exist_ok=True)
    xvfb = ensure_display()
    report, failed = [], []
    try:
        for name in names:
            try:
                scenario(engine, name, SCENARIOS[name], out, docs, report)
                report.append("  ok")
            except Check as e:
                report.append(f"  FAILED: {e}")
                failed.append(name)
    finally:
        if xvfb:
            xvfb.terminate()
    text = "\n".join(report)
    print(text)
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write(text + "\n")
    if failed:
        sys.exit(f"gui-check failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
