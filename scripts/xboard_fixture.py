#!/usr/bin/env python3
"""Turns an XBoard debug log (`xboard -debug -nameOfDebugFile F`, one engine `first`) into a
protocol fixture (protocol-fixtures/README.md): the GUI side of the session, replayed against
cellmate by `cargo test --test it protocol_fixtures::`.

- every command XBoard sent (`N >first : CMD`, and the further lines of a multi-line write such
  as `xboard\nprotover 2`) becomes `first> CMD`, except `accepted`/`rejected` (the replay
  answers features itself); XBoard's split log line
  `usermove 854 >first : e2e4` is the one command `usermove e2e4`;
- what XBoard waited for becomes a `first<` line at the point it arrived: `feature … done=1`,
  `pong N`, and the answers to a person's clicks, `highlight …` and `choice …`, literally;
- the engine's moves become `first< move {move}` (the replay checks them; they are the engine's
  own, so search changes do not break the fixture). XBoard sent `sd N` in these sessions: the
  replay is deterministic;
- in analysis mode (`analyze` … `exit`) the first thinking line after `analyze` and after each
  move becomes `first< D *` (D its depth): the engine must post thinking there. A person's
  moves, `new`, `setboard`, `undo`/`remove` are sent as they are (the replay's board follows
  them).

Usage: xboard_fixture.py LOG VARIANT "comment line" ... > FILE.fixture

With `--match PLIES` first (a log of XBoard with two engines, `first` and `second`: Two
Machines or a `-mg` match), both engines' traffic is converted, the game is replayed with each
engine's own moves: a relayed `usermove X` becomes `usermove {last}`, `time`/`otim` become the
GUI's clocks (`{wcs}`/`{bcs}`), the `setup` line the first engine sent is checked literally
(the FEN XBoard relays to the second engine comes from it), and after PLIES plies of the first
game the session ends as XBoard ends it on exit (`result`, `force`, `quit`).

Usage: xboard_fixture.py --match PLIES LOG VARIANT BASE_MS "comment line" ... > FILE.fixture
"""

import re
import sys


COMMANDS = set("""xboard protover accepted rejected new variant quit random force go playother
white black level st sd nps time otim usermove ? ping draw result setboard edit hint bk undo
remove hard easy post nopost analyze name rating ics computer pause resume memory cores egtpath
option exclude include lift put hover""".split())


def convert(log, variant, comments):
    out = [f"# {c}" for c in comments]
    out += ["", "start first xboard", f"board {variant}", ""]
    last_sent = False
    analyzing = think = False
    for raw in open(log, errors="replace").read().splitlines():
        m = re.match(r"^\d+ (>|<)first : (.*)$", raw)
        if not m:
            # A multi-line write (`xboard\nprotover 2`, `new\nrandom`): the rest of the write
            # follows on lines of its own.
            if last_sent and raw.split(" ")[0] in COMMANDS:
                out.append(f"first> {raw}")
                continue
            last_sent = False
            continue
        last_sent = m.group(1) == ">"
        way, text = m.groups()
        text = re.sub(r" \d+ >first : ", " ", text).rstrip()
        if way == ">":
            if text.startswith(("accepted ", "rejected ")):
                continue
            if text == "analyze":
                analyzing = think = True
            elif text == "exit":
                analyzing = think = False
            elif text.startswith("usermove ") and analyzing:
                think = True
            out.append(f"first> {text}")
        elif think and re.match(r"^\d+ -?\d+ \d+ \d+", text):
            out.append(f"first< {text.split()[0]} *")
            think = False
        elif text.startswith("feature ") and "done=1" in text:
            out.append("first< feature *done=1*")
        elif re.match(r"^(pong \d+|highlight \S+|choice \S+)$", text):
            out.append(f"first< {text}")
        elif text.startswith("move "):
            out.append("first< move {move}")
    return "\n".join(out) + "\n"


def convert_match(log, variant, base_ms, plies, comments):
    out = [f"# {c}" for c in comments]
    out += ["", f"board {variant}", f"clock {base_ms} 0", ""]
    started = set()
    white_to_move = True
    played = 0
    clock_running = False
    last = None  # the engine that sent the last line, for a multi-line write
    for raw in open(log, errors="replace").read().splitlines():
        m = re.match(r"^\d+ (>|<)(first|second) *: (.*)$", raw)
        if not m:
            if last and raw.split(" ")[0] in COMMANDS:
                out.append(f"{last}> {raw}")
            else:
                last = None
            continue
        way, who, text = m.groups()
        text = re.sub(r" \d+ >(first|second) *: ", " ", text).rstrip()
        last = who if way == ">" else None
        if who not in started:
            started.add(who)
            out.append(f"start {who} xboard")
        if way == ">":
            if text.startswith(("accepted ", "rejected ")):
                continue
            if text.startswith("time "):
                text = "time {wcs}" if white_to_move else "time {bcs}"
            elif text.startswith("otim "):
                text = "otim {bcs}" if white_to_move else "otim {wcs}"
            elif text.startswith("usermove ") and played > 0:
                text = "usermove {last}"
            elif text == "go" and not clock_running:
                out.append("clock run")
                clock_running = True
            out.append(f"{who}> {text}")
        elif text.startswith("feature ") and "done=1" in text:
            out.append(f"{who}< feature *done=1*")
        elif re.match(r"^(pong \d+)$", text) or text.startswith("setup "):
            out.append(f"{who}< {text}")
        elif text.startswith("move "):
            out.append(f"{who}< move {{move}}")
            white_to_move = not white_to_move
            played += 1
            if played == plies:
                break
    for who in sorted(started):
        out += [f"{who}> result * {{xboard exit}}", f"{who}> force", f"{who}> quit"]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) > 5 and sys.argv[1] == "--match":
        sys.stdout.write(convert_match(sys.argv[3], sys.argv[4], int(sys.argv[5]),
                                       int(sys.argv[2]), sys.argv[6:]))
        sys.exit(0)
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.stdout.write(convert(sys.argv[1], sys.argv[2], sys.argv[3:]))
