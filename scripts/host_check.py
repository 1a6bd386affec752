#!/usr/bin/env python3
"""`make host-check`: journeys of a user through a real XBoard 4.9.1 under Xvfb, per variant.

Every journey is a fresh XBoard process (`-debug -nameOfDebugFile`) with cellmate as its engine:

  default        XBoard's default mode: the person (xdotool clicks) plays White, the engine answers
  machine-white  Mode -> Machine White (ctrl+w) at the start: the engine opens, the person answers
  machine-black  Edit Game, the person plays White's move, Machine Black (ctrl+b): the engine moves
  two-machines   Mode -> Two Machines (ctrl+t): a few plies of cellmate v cellmate, then Edit Game
  match          `-noGUI -mg 2 -xexit` headless match, cellmate as both engines (and, for chess,
                 match-fairymax: cellmate v /usr/games/fairymax)
  new-game       New Game (ctrl+n) in the middle of a game, then play on
  paste          Edit -> Paste Position (xclip + ctrl+shift+v), a move of the person, the engine
                 plays the other side
  load-game      a game loaded from a PGN (chess: written by `cellmate match`, `-lgf`; the
                 variants: the PGN XBoard saved in the match journey, Edit -> Paste Game), then
                 the engine plays the side to move
  retract        Action -> Retract Move (ctrl+x, XBoard sends `remove`), then play on
  analyze        Analysis mode (ctrl+a): the engine must post thinking, before and after a move;
                 Edit Game (ctrl+e) leaves it (`exit`)
  flag           `-tc 0:03 -autoCallFlag true`: the person does not move, White's flag falls, the
                 game ends on time; then a new game, in which the engine still answers

A person's move: the script lifts a piece of the side to move (a click), reads the engine's
`highlight` answer in the debug log and clicks a yellow or red target (a plain move); pieces
without one are put back. After the journey XBoard's board (Copy Position) is compared with a
second cellmate fed the moves of the log (debug command `xbfen`): it must equal the engine's
shadow of XBoard's board (Microorganism, Immune) or its position (chess, Recursion). A journey
fails on a timeout (a hang), an `Error`/`Illegal move` line of an engine, XBoard's `Forfeit`,
`illegal` or `False` claim in the log or the PGN, or boards that differ.

Usage: host_check.py [--fixtures DIR] ENGINE OUT_DIR DOCS_DIR [variant[:journey,...] ...]
With --fixtures, each passing journey's log is also written as a protocol fixture
DIR/xboard-journey-VARIANT-JOURNEY.fixture (not match-fairymax: the replay has cellmate only).
Needs: xboard, Xvfb, xdotool, xclip, imagemagick; /usr/games/fairymax for match-fairymax.
"""

import os
import re
import shutil
import subprocess
import sys
import time

os.environ.setdefault("GUI_DISPLAY", os.environ.get("HOST_DISPLAY", ":97"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gui_check as gc  # noqa: E402
import xboard_fixture as xf  # noqa: E402
from gui_check import Check, Side, XBoard, ENV, XBOARD, ROOT  # noqa: E402

FAIRYMAX = os.environ.get("FAIRYMAX", "/usr/games/fairymax")
MICRO = ["-xlegal", "-variant", "microorganism", "-rankOffset", "1",
         "-firstOptions", "Rank_Offset=1", "-secondOptions", "Rank_Offset=1"]

VARIANTS = {
    "chess": dict(xb="normal", args=[], files=8, ranks=8, zero=False,
                  paste="rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"),
    "recursion": dict(xb="recursion", args=["-xlegal", "-variant", "recursion"],
                      files=16, ranks=8, zero=False,
                      paste="r2k3rr2k3r/pppppppppppppppp/16/16/16/16/PPPPPPPPPPPPPPPP/"
                            "R2K3RR2K3R w KQkq - 0 1"),
    "microorganism": dict(xb="microorganism", args=MICRO, files=16, ranks=16, zero=True,
                          paste="15n/16/16/16/16/16/16/4P11/4R11/16/16/16/2A13/16/16/"
                                "N6TT7 w - - 0 1"),
    "immune": dict(xb="immune", args=["-xlegal", "-variant", "immune"],
                   files=10, ranks=10, zero=True,
                   paste="4b5/10/10/10/10/10/10/4I1o3/10/I9 w - - 0 1"),
}

# Every GUI journey: the engine at XBoard's depth 3 (`sd 3`) on a clock too long to cut a
# search short, no pondering (`easy`): the fixtures made from the logs replay
# deterministically. No flag calls unless the journey is about them; the board stays with
# White at the bottom when the person plays Black (the clicks assume it).
BASE = ["-tc", "5:00", "-searchDepth", "3", "-ponderNextMove", "false",
        "-autoCallFlag", "false", "-autoFlipView", "false"]
BAD = re.compile(r"(?m)^\d+ <(first|second) *: (Error|Illegal move).*$")
XB_BAD = re.compile(r"(?i)forfeit|illegal move|false (win|draw|claim)|\bFalse\b")


class Journey:
    """One XBoard session of one journey: start, a person's moves, waits, the final checks."""

    def __init__(self, engine, v, name, out, mode, title=None):
        self.engine, self.v, self.name, self.sc = engine, v, name, VARIANTS[v]
        pieces = os.path.join(ROOT, "assets", "pieces", v)
        pieces = pieces if os.path.isdir(pieces) else None
        self.xb = XBoard(engine, f"{v}-{name}", self.sc, out, pieces, mode=mode, title=title)
        self.notes = []

    # -- the log -----------------------------------------------------------------------------
    def text(self):
        return self.xb.text()

    def moves_from(self, who="first"):
        return re.findall(rf"(?m)^\d+ <{who} *: move (\S+)", self.text())

    def history(self):
        """(setboard FEN or None, moves) of the game as the first engine was told it."""
        # After `force` (Edit Game, a loaded game) a move still in flight is ignored by
        # XBoard, until the engine is set going again.
        fen, moves, forced = None, [], False
        for l in self.text().splitlines():
            m = re.match(r"^\d+ (>|<)first : (.*)$", l)
            if not m:
                continue
            way, t = m.groups()
            t = re.sub(r" \d+ >first : ", " ", t).strip()
            if way == "<":
                if t.startswith("move ") and not forced:
                    moves.append(t.split()[1])
            elif t == "force":
                forced = True
            elif t in ("go", "playother", "analyze"):
                forced = False
            elif t == "new":
                fen, moves, forced = None, [], False
            elif t.startswith("setboard "):
                fen, moves = t[len("setboard "):], []
            elif t.startswith("usermove "):
                moves.append(t.split()[1])
            elif t == "undo":
                moves = moves[:-1]
            elif t == "remove":
                moves = moves[:-2]
        return fen, moves

    def side(self):
        fen, moves = self.history()
        s = Side(self.engine, self.sc["xb"], "-rankOffset" in self.sc["args"], fen)
        for mv in moves:
            s.play(mv)
        return s

    def wait(self, pred, what, timeout=30):
        self.xb.wait_log(lambda t: pred(t), what, timeout)

    def wait_engine_move(self, n_before, who="first", timeout=60):
        self.wait(lambda t: len(re.findall(rf"(?m)^\d+ <{who} *: move ", t)) > n_before,
                  f"a move from the engine ({who})", timeout)
        time.sleep(0.5)

    def wait_sent(self, cmd, n_before=None, timeout=10):
        n_before = self.count_sent(cmd) if n_before is None else n_before
        self.wait(lambda t: self.count_sent(cmd) > n_before, f"XBoard to send {cmd!r}", timeout)

    def count_sent(self, cmd):
        return sum(1 for c in self.xb.sent() if c == cmd or c.startswith(cmd + " "))

    # -- a person's move ---------------------------------------------------------------------
    def person_move(self):
        """Lifts pieces of the side to move until the engine's highlight shows a plain target,
        clicks it and returns the usermove XBoard sent."""
        s = self.side()
        board, stm = side_view(s)
        s.close()
        files, ranks, zero = self.sc["files"], self.sc["ranks"], self.sc["zero"]
        base = 0 if zero else 1
        rows = gc.expand(board, files)
        own = []
        for i, row in enumerate(rows):
            for f, c in enumerate(row):
                if c != "." and (c.isupper() == (stm == "w")):
                    sq = f"{chr(97 + f)}{ranks - 1 - i + base}"
                    own.append((c.upper() not in "PI", abs(f - files // 2), sq))
        for _, _, sq in sorted(own):
            n_light = len([r for r in self.xb.received() if r.startswith("highlight ")])
            n_user = self.count_sent("usermove")
            self.xb.click(sq)
            try:
                self.wait(lambda t: len([r for r in self.xb.received()
                                         if r.startswith("highlight ")]) > n_light,
                          f"highlight after lifting {sq}", 4)
            except Check:
                self.xb.click(sq)
                continue
            light = [r for r in self.xb.received() if r.startswith("highlight ")][-1]
            marks = gc.expand(light.split()[1], files)
            targets = [f"{chr(97 + f)}{ranks - 1 - i + base}"
                       for i, row in enumerate(marks) for f, c in enumerate(row) if c in "YR"]
            if not targets:
                self.xb.click(sq)
                continue
            self.xb.click(targets[0])
            self.wait(lambda t: self.count_sent("usermove") > n_user, f"usermove {sq}...", 8)
            mv = [c for c in self.xb.sent() if c.startswith("usermove ")][-1].split()[1]
            self.notes.append(f"person {mv}")
            return mv
        raise Check("no piece of the side to move has a plain move marked")

    def person_then_engine(self):
        n = len(self.moves_from())
        self.person_move()
        self.wait_engine_move(n)
        self.notes.append(f"engine {self.moves_from()[-1]}")

    # -- checks ------------------------------------------------------------------------------
    def check_clean(self, extra=""):
        t = self.text() + extra
        bad = [m.group(0) for m in BAD.finditer(t)]
        if bad:
            raise Check(f"engine said: {bad[:3]}")
        bad = [l for l in t.splitlines() if XB_BAD.search(l) and " >first" not in l
               and " >second" not in l and "feature" not in l]
        if bad:
            raise Check(f"XBoard: {bad[:3]}")

    def check_board(self):
        s = self.side()
        real, shadow = s.view()
        s.close()
        seen = self.xb.board()
        want = shadow if shadow is not None else real
        if seen != want:
            raise Check(f"XBoard shows {seen}, the engine "
                        f"{'shadow' if shadow is not None else 'position'} says {want}")
        hidden = gc.differ(shadow, real, self.sc["files"], self.sc["ranks"],
                           self.sc["zero"]) if shadow is not None else []
        self.notes.append("boards equal" + (f" (XBoard cannot show {','.join(hidden)})"
                                            if hidden else ""))

    def stm(self):
        s = self.side()
        _, stm = side_view(s)
        s.close()
        return stm

    def engine_plays_side_to_move(self):
        n = len(self.moves_from())
        self.xb.key("ctrl+w" if self.stm() == "w" else "ctrl+b")
        self.wait_engine_move(n)
        self.notes.append(f"engine {self.moves_from()[-1]}")

    def close(self):
        self.xb.close()


def side_view(s):
    s.send("xbfen")
    for l in s.sync():
        if l.startswith("# board "):
            w = l.split()
            return w[2], w[3]
    raise Check("the side engine gave no board")


# --------------------------------------------------------------------------------------------
# The journeys. Each gets a started Journey (or, headless, the paths) and raises Check on a
# failure; what it did goes into j.notes.

def j_default(j):
    j.person_then_engine()
    j.person_then_engine()


def j_machine_white(j):
    j.xb.key("ctrl+w")
    j.wait_engine_move(0)
    j.notes.append(f"engine {j.moves_from()[-1]}")
    j.person_then_engine()


def j_machine_black(j):
    j.person_move()
    j.xb.key("ctrl+b")
    j.wait_engine_move(0)
    j.notes.append(f"engine {j.moves_from()[-1]}")
    j.person_then_engine()


def j_two_machines(j):
    j.xb.key("ctrl+t")
    j.wait(lambda t: len(j.moves_from("first")) + len(j.moves_from("second")) >= 6,
           "six plies of Two Machines", 90)
    j.xb.key("ctrl+e")
    time.sleep(1.5)
    j.notes.append(f"{len(j.moves_from('first')) + len(j.moves_from('second'))} plies")


def j_new_game(j):
    j.person_then_engine()
    j.person_then_engine()
    n = j.count_sent("new")
    j.xb.key("ctrl+n")
    j.wait_sent("new", n)
    time.sleep(1)
    j.notes.append("new game")
    j.person_then_engine()


def j_paste(j):
    fen = j.sc["paste"]
    j.xb.paste(fen)
    j.notes.append("pasted")
    j.person_move()
    j.engine_plays_side_to_move()


def j_load_game(j):
    if j.pgn_text is not None:
        subprocess.run(["xclip", "-selection", "clipboard"], input=j.pgn_text, text=True,
                       env=ENV)
        j.xb.key("ctrl+v")
    j.wait(lambda t: len(j.history()[1]) >= j.pgn_plies, "the loaded moves", 15)
    time.sleep(1.5)
    moves = j.history()[1]
    if len(moves) < j.pgn_plies:
        raise Check(f"XBoard loaded {len(moves)} plies of {j.pgn_plies}")
    j.notes.append(f"loaded {len(moves)} plies")
    j.engine_plays_side_to_move()


def j_retract(j):
    j.person_then_engine()
    j.person_then_engine()
    n = j.count_sent("remove") + j.count_sent("undo")
    j.xb.key("ctrl+x")
    j.wait(lambda t: j.count_sent("remove") + j.count_sent("undo") > n, "remove/undo", 10)
    time.sleep(1)
    j.notes.append("retracted (" + ", ".join(c for c in j.xb.sent()
                                              if c in ("remove", "undo")) + ")")
    j.person_then_engine()


THINKING = r"(?m)^\d+ <first : -?\d+ -?\d+ \d+ \d+"


def j_analyze(j):
    n = j.count_sent("analyze")
    j.xb.key("ctrl+a")
    j.wait_sent("analyze", n)
    j.wait(lambda t: re.search(THINKING, t.split(">first : analyze")[-1]),
           "thinking in analysis", 10)
    before = len(re.findall(THINKING, j.text()))
    j.person_move()
    j.wait(lambda t: len(re.findall(THINKING, t)) > before + 1, "thinking after the move", 10)
    n = j.count_sent("exit")
    j.xb.key("ctrl+e")
    j.wait_sent("exit", n)
    time.sleep(1)
    j.notes.append(f"{len(re.findall(THINKING, j.text()))} thinking lines, exit")
    if j.moves_from():
        raise Check(f"the engine moved in analysis mode: {j.moves_from()}")


def j_flag(j):
    # The clocks start with the first move: after it and the engine's answer the person
    # (White) does not move, and XBoard calls White's flag.
    j.person_then_engine()
    j.wait(lambda t: re.search(r">first : result .*time", t), "the flag to fall", 30)
    res = re.search(r">first : (result .*)", j.text()).group(1)
    j.notes.append(res)
    time.sleep(1)
    n = j.count_sent("new")
    j.xb.key("ctrl+n")
    j.wait_sent("new", n)
    time.sleep(1)
    j.person_then_engine()


GUI = {
    "default": (j_default, []),
    "machine-white": (j_machine_white, []),
    "machine-black": (j_machine_black, ["-initialMode", "EditGame"]),
    "two-machines": (j_two_machines, ["-scp", "{engine}"]),
    "new-game": (j_new_game, []),
    "paste": (j_paste, []),
    "load-game": (j_load_game, ["-timeDelay", "0"]),
    "retract": (j_retract, []),
    "analyze": (j_analyze, []),
    "flag": (j_flag, ["-tc", "0:03", "-autoCallFlag", "true"]),
}
WHAT = {
    "default": "XBoard's default mode, a person's two moves with the mouse, the engine answers",
    "machine-white": "Machine White at the start, the engine opens, a person answers",
    "machine-black": "Edit Game, a person's move, Machine Black, the engine moves",
    "two-machines": "Two Machines, cellmate v cellmate, the first 4 plies",
    "match": "a -noGUI -mg 2 match, cellmate v cellmate at sd 2, the first 4 plies",
    "new-game": "two moves each, New Game, a person's move, the engine answers",
    "paste": "Paste Position (setboard), a person's move, the engine plays the other side",
    "load-game": "a loaded game (its moves sent in force mode), the engine plays on",
    "retract": "two moves each, Retract Move (remove), the person's move again, the answer",
    "analyze": "analysis mode: thinking before and after a person's move, then exit",
    "flag": "a 3 s clock: White's flag falls (result on time), New Game, play on",
}
ORDER = ["default", "machine-white", "machine-black", "two-machines", "match", "match-fairymax",
         "new-game", "paste", "load-game", "retract", "analyze", "flag"]


def headless_match(engine, v, name, out, second):
    """`-noGUI -mg 2`: both games must end by the rules (or XBoard's own game-length limit)."""
    sc = VARIANTS[v]
    log = os.path.join(out, f"{v}-{name}.debug")
    pgn = os.path.join(out, f"{v}-{name}.pgn")
    for f in (log, pgn):
        if os.path.exists(f):
            os.remove(f)
    args = [XBOARD, "-noGUI", "-xexit", "-matchPause", "0", "-soundProgram", "",
            "-saveSettingsOnExit", "false", "-autoCallFlag", "true", "-fcp", engine,
            "-scp", second, "-fd", out, "-sd", out, "-mg", "2", "-tc", "1:00",
            "-ponderNextMove", "false",
            "-searchDepth", "2", "-debug", "-nameOfDebugFile", log, "-sgf", pgn] + sc["args"]
    if sc["xb"] != "normal" and "-variant" not in sc["args"]:
        args += ["-variant", sc["xb"]]
    try:
        subprocess.run(args, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=300)
    except subprocess.TimeoutExpired:
        raise Check("the match did not end within 300 s")
    text = open(log, errors="replace").read()
    games = open(pgn, errors="replace").read() if os.path.exists(pgn) else ""
    results = re.findall(r'(?m)^\[Result "([^"]*)"\]', games)
    ends = re.findall(r"(?m)^\{([^}]*)\} (1-0|0-1|1/2-1/2|\*)\s*$", games)
    bad = [m.group(0) for m in BAD.finditer(text)
           if second == engine or m.group(1) == "first"]
    if bad:
        raise Check(f"engine said: {bad[:3]}")
    bad = [l for l in games.splitlines() if XB_BAD.search(l)]
    if bad:
        raise Check(f"PGN: {bad[:3]}")
    if len(results) != 2:
        raise Check(f"{len(results)} games in the PGN, expected 2")
    return [f"results {', '.join(results)}", "; ".join(e[0] for e in ends)], log, pgn


def truncate_pgn(path, plies, log=None):
    """The first game of a PGN cut after PLIES plies, result `*` (a game to play on). With
    LOG (the match's debug log) the moves are the engines' own texts from it instead of
    XBoard's SAN (XBoard 4.9.1 does not read back its SAN of an Immune shot, `Txi7-i8`)."""
    text = open(path, errors="replace").read()
    game = text.split("\n\n[")[0]
    head, _, body = game.partition("\n\n")
    body = re.sub(r"\{[^}]*\}", " ", body)
    toks = [t for t in body.split() if not re.match(r"^\d+\.+$", t)
            and t not in ("1-0", "0-1", "1/2-1/2", "*")]
    if log:
        toks = re.findall(r"(?m)^\d+ <(?:first|second) *: move (\S+)",
                          open(log, errors="replace").read())
        # Nor a two-leg move in coordinates: `i8i7,i7i8` is loaded as two moves. So the game
        # is cut before the first one.
        cut = next((i for i, t in enumerate(toks) if "," in t), len(toks))
        toks = toks[:max(1, min(plies, cut))]
    # Keep the move numbers: rebuild "1. a b 2. c d" from the first FEN side.
    black_first = re.search(r'\[FEN "[^"]* b ', head) is not None
    out, n, white = [], 1, not black_first
    if black_first:
        out.append("1...")
    for t in toks[:plies]:
        if white:
            out.append(f"{n}.")
        out.append(t)
        if not white:
            n += 1
        white = not white
    head = re.sub(r'\[Result "[^"]*"\]', '[Result "*"]', head)
    return head + "\n\n" + " ".join(out) + " *\n"


def write_fixture(v, name, out, fixtures, what):
    """The journey's debug log as protocol-fixtures/xboard-journey-V-NAME.fixture."""
    log = os.path.join(out, f"{v}-{name}.debug")
    path = os.path.join(fixtures, f"xboard-journey-{v}-{name}.fixture")
    comments = [f"`make host-check` journey {name} ({v}): {what}",
                "recorded from the real XBoard 4.9.1 under Xvfb by scripts/host_check.py,",
                "converted by scripts/xboard_fixture.py" + (" --match 4" if name in (
                    "two-machines", "match") else "") + "; see protocol-fixtures/README.md."]
    if name in ("two-machines", "match"):
        text = xf.convert_match(log, v, 10000 if name == "two-machines" else 60000, 4,
                                comments)
    else:
        text = xf.convert(log, v, comments)
    with open(path, "w") as f:
        f.write(text)


def run_journey(engine, v, name, out, docs, ctx):
    if name in ("match", "match-fairymax"):
        if name == "match-fairymax" and v != "chess":
            return None
        second = FAIRYMAX if name == "match-fairymax" else engine
        notes, log, pgn = headless_match(engine, v, name, out, second)
        if name == "match":
            ctx["pgn"], ctx["log"] = pgn, log
        return notes
    fn, mode = GUI[name]
    mode = BASE + [a.replace("{engine}", engine) for a in mode]
    pgn_text, pgn_plies, title = None, 0, None
    if name == "load-game":
        pgn_plies = 6
        if v == "chess":
            src = os.path.join(out, "chess-cellmate-match.pgn")
            if os.path.exists(src):
                os.remove(src)
            subprocess.run([engine, "match", "--engine", f"cmd={engine}", "--engine",
                            "builtin=random", "--variant", "chess", "--games", "1",
                            "--st", "0.1", "--pgn", src, "--quiet"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
            cut = os.path.join(out, "chess-load.pgn")
            with open(cut, "w") as f:
                f.write(truncate_pgn(src, pgn_plies))
            mode += ["-lgf", cut]
            # XBoard titles the window with the loaded file's path (found in session 23: the
            # journey passed only while the output directory's name held "cellmate").
            title = re.escape(cut)
        else:
            src = ctx.get("pgn")
            if not src or not os.path.exists(src):
                raise Check("no PGN from the match journey to load")
            pgn_text = truncate_pgn(src, pgn_plies, ctx["log"] if v == "immune" else None)
            pgn_plies = len(re.findall(r"(?<![.\d])[a-zA-Z][^\s.]*", pgn_text.split("\n\n")[1]))
    j = Journey(engine, v, name, out, mode, title)
    j.pgn_text, j.pgn_plies = pgn_text, pgn_plies
    try:
        fn(j)
        time.sleep(0.5)
        j.check_clean()
        j.check_board()
        if name in SHOTS.get(v, ()):
            j.xb.shot(os.path.join(docs, f"host-check-{v}-{name}.png"))
        return j.notes
    except Check as e:
        raise Check(f"{e} [{'; '.join(j.notes)}]")
    finally:
        j.close()


SHOTS = {"chess": ("two-machines",), "recursion": ("paste",), "microorganism": ("default",),
         "immune": ("retract",)}


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    args = sys.argv[1:]
    fixtures = None
    if "--fixtures" in args:
        i = args.index("--fixtures")
        fixtures = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    engine, out, docs = (os.path.abspath(a) for a in args[:3])
    todo = []
    for a in args[3:] or list(VARIANTS):
        v, _, js = a.partition(":")
        todo.append((v, js.split(",") if js else ORDER))
    # Every tool first: a journey that finds one missing half-way fails on a time-out that
    # looks like the engine's (session 37 installed them mid-run and read 9 such failures).
    need = [XBOARD, "Xvfb", "xdotool", "xclip", "import"]
    if any(v == "chess" for v, _ in todo):
        need.append(FAIRYMAX)
    missing = [t for t in need if not shutil.which(t)]
    if missing:
        sys.exit("host-check needs " + ", ".join(missing) + " (apt-get install -y xboard xvfb "
                 "xdotool xclip imagemagick fairymax), installed before the run")
    os.makedirs(out, exist_ok=True)
    xvfb = gc.ensure_display()
    lines, failed = [], 0
    try:
        for v, journeys in todo:
            ctx = {}
            for name in journeys:
                t0 = time.time()
                try:
                    notes = run_journey(engine, v, name, out, docs, ctx)
                    if notes is None:
                        continue
                    line = f"PASS {v} {name} ({time.time() - t0:.0f} s): {'; '.join(notes)}"
                    if fixtures and name != "match-fairymax":
                        write_fixture(v, name, out, fixtures, WHAT[name])
                except Check as e:
                    failed += 1
                    line = f"FAIL {v} {name} ({time.time() - t0:.0f} s): {e}"
                print(line, flush=True)
                lines.append(line)
    finally:
        if xvfb:
            xvfb.terminate()
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if failed:
        sys.exit(f"host-check: {failed} journey(s) failed")


if __name__ == "__main__":
    main()
