#!/usr/bin/env python3
"""Turns an XBoard debug log (`xboard -debug -nameOfDebugFile F`, one engine `first`) into a
protocol fixture (protocol-fixtures/README.md): the GUI side of the session, replayed against
cellmate by `cargo test --test protocol_fixtures`.

- every command XBoard sent (`N >first : CMD`, and the further lines of a multi-line write such
  as `xboard\nprotover 2`) becomes `first> CMD`, except `accepted`/`rejected` (the replay
  answers features itself); XBoard's split log line
  `usermove 854 >first : e2e4` is the one command `usermove e2e4`;
- what XBoard waited for becomes a `first<` line at the point it arrived: `feature … done=1`,
  `pong N`, and the answers to a person's clicks, `highlight …` and `choice …`, literally;
- the engine's moves become `first< move {move}` (the replay checks them; they are the engine's
  own, so search changes do not break the fixture). XBoard sent `sd N` in these sessions: the
  replay is deterministic.

Usage: xboard_fixture.py LOG VARIANT "comment line" ... > FILE.fixture
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
            out.append(f"first> {text}")
        elif text.startswith("feature ") and "done=1" in text:
            out.append("first< feature *done=1*")
        elif re.match(r"^(pong \d+|highlight \S+|choice \S+)$", text):
            out.append(f"first< {text}")
        elif text.startswith("move "):
            out.append("first< move {move}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.stdout.write(convert(sys.argv[1], sys.argv[2], sys.argv[3:]))
