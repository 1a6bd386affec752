#!/usr/bin/env python3
"""Two rows of the ladder played from the same openings, compared game by game: a game of one
row is paired with the game of the other from the same start position (the FEN tag) with the
engine in the same colour (without a FEN tag, the same round number). Prints each row's score
over the games both played, and the new row's gain a game with one standard error of the
paired differences (docs/strength.md, session 48). A row played in several runs (a stopped
match continued with `--openings-start`, whose rounds restart at 1) is its files joined by
commas.

    python3 scripts/paired_rows.py new.pgn[,new2.pgn] old.pgn [--engine cellmate]
"""

import argparse
import math
import re
import sys

RESULT = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def scores(paths, engine):
    """The engine's score in each game of the PGN files (comma-separated), by start position
    and the engine's colour (by round number for a game without a FEN tag)."""
    out = {}
    for path in paths.split(","):
        for game in open(path).read().split("[Event ")[1:]:
            tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
            if tags.get("Result") not in RESULT:
                continue
            s = RESULT[tags["Result"]]
            white = tags.get("White") == engine
            key = (tags["FEN"], white) if "FEN" in tags else int(tags["Round"])
            if key in out:
                sys.exit(f"{path}: a second game from {key}")
            out[key] = s if white else 1 - s
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("new")
    ap.add_argument("old")
    ap.add_argument("--engine", default="cellmate")
    a = ap.parse_args()
    new, old = scores(a.new, a.engine), scores(a.old, a.engine)
    rounds = sorted(set(new) & set(old))
    n = len(rounds)
    if n < 2:
        sys.exit("fewer than two games in common")
    d = [new[r] - old[r] for r in rounds]
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    sn, so = sum(new[r] for r in rounds), sum(old[r] for r in rounds)
    print(f"{n} games in common: new {sn}/{n} = {100 * sn / n:.1f} %, old {so}/{n} = "
          f"{100 * so / n:.1f} %; new - old {mean:+.3f} a game ± {sd / math.sqrt(n):.3f} "
          f"(one standard error)")


if __name__ == "__main__":
    sys.exit(main())
