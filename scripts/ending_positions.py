#!/usr/bin/env python3
"""Positions from the ends of drawn games, as an openings file for `cellmate match`.

    python3 scripts/ending_positions.py BIN GAMES.pgn [BACK] [all] > endings.epd

For each drawn game of GAMES.pgn (every game with `all`) it prints the FEN `BACK` plies
(default 100) before the game's end, with the draw rule's count set to 0: for a game drawn by
the 100-ply rule that is where the last capture was made. BIN is a cellmate binary; it replays
the games over UCI (`position fen ... moves ...`, then `d` for the FEN), so the script reads
every variant cellmate plays. Played from both colours against another build
(`cellmate match --openings endings.epd`), such a file measures how well a build converts
the endings the other drew (docs/strength.md, "Immune Chess endings").
"""

import re
import subprocess
import sys


def games(text):
    for g in re.split(r"\n\n(?=\[Event)", text):
        if g.strip():
            yield g


def moves_of(game):
    body = game.split("\n\n", 1)[1] if "\n\n" in game else ""
    body = re.sub(r"\{[^}]*\}", "", body)
    out = []
    for tok in body.split():
        if re.fullmatch(r"\d+\.+", tok) or tok in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        tok = re.sub(r"^\d+\.+", "", tok)
        if tok:
            out.append(tok)
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, pgn = sys.argv[1], sys.argv[2]
    back = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    every = len(sys.argv) > 4 and sys.argv[4] == "all"
    eng = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        eng.stdin.write(line + "\n")
        eng.stdin.flush()

    send("uci")
    while "uciok" not in eng.stdout.readline():
        pass
    for game in games(open(pgn).read()):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
        if not every and tags.get("Result") != "1/2-1/2":
            continue
        moves = moves_of(game)
        upto = moves[: max(0, len(moves) - back)]
        send("setoption name UCI_Variant value " + tags.get("Variant", "chess"))
        start = "fen " + tags["FEN"] if "FEN" in tags else "startpos"
        send(f"position {start} moves {' '.join(upto)}".rstrip())
        send("d")
        send("isready")
        fen = None
        while True:
            line = eng.stdout.readline()
            if not line or "readyok" in line:
                break
            if line.startswith("Fen: "):
                fen = line[5:].split()
        if fen is None:
            sys.exit(f"no FEN for round {tags.get('Round')}")
        # The draw rule's count: the field before the move number (after it, variants such
        # as Microorganism Chess write their state).
        clock = next(i for i in range(len(fen) - 1) if fen[i].isdigit() and fen[i + 1].isdigit())
        fen[clock] = "0"
        print(" ".join(fen))
    send("quit")


if __name__ == "__main__":
    main()
