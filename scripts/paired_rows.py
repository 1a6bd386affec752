#!/usr/bin/env python3
"""Two rows of the ladder played from the same openings (`cellmate match --openings-start 1`,
so round N is the same opening with the same colours in both), compared game by game: each
row's score over the rounds both played, and the new row's gain a game with one standard
error of the paired differences (docs/strength.md, session 48).

    python3 scripts/paired_rows.py new.pgn old.pgn [--engine cellmate]
"""

import argparse
import math
import re
import sys

RESULT = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def scores(path, engine):
    """The engine's score in each round of a PGN file, by round number."""
    out = {}
    for game in open(path).read().split("[Event ")[1:]:
        tag = lambda name: re.search(rf'\[{name} "([^"]*)"\]', game).group(1)
        if tag("Result") not in RESULT:
            continue
        s = RESULT[tag("Result")]
        out[int(tag("Round"))] = s if tag("White") == engine else 1 - s
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
        sys.exit("fewer than two rounds in common")
    d = [new[r] - old[r] for r in rounds]
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    sn, so = sum(new[r] for r in rounds), sum(old[r] for r in rounds)
    print(f"{n} rounds in common: new {sn}/{n} = {100 * sn / n:.1f} %, old {so}/{n} = "
          f"{100 * so / n:.1f} %; new - old {mean:+.3f} a game ± {sd / math.sqrt(n):.3f} "
          f"(one standard error)")


if __name__ == "__main__":
    sys.exit(main())
