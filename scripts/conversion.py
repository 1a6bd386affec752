#!/usr/bin/env python3
"""How quickly cellmate converts won games (issue 25, item 3).

For each variant: N games against the built-in random mover and N against cellmate itself
limited to depth 1, both with `cellmate match` (docs/match.md). The engine under test plays a
fixed number of nodes a move (deterministic, independent of the machine's load), so a run is
reproducible: the same binary, seed and limits give the same games. Prints, per row, the
engine's wins / draws / losses, the length in plies of its won games (min, median, max), the
draw percentage and the exact command.

Usage: scripts/conversion.py [path/to/cellmate] [N]
Environment: CONVERSION_VARIANTS (default "chess recursion microorganism immune"),
CONVERSION_NODES (the engine's nodes a move, default 20000), CONVERSION_OPPONENTS
("random depth1"), CONVERSION_SEED (13), CONVERSION_DIR (PGN files, /tmp/cellmate-conversion),
CONVERSION_OPTIONS (more of the tested engine's spec, space-separated: "option.Contempt=300"),
CONVERSION_OPENINGS ("random": 6 random plies against the depth-1 copy, the default;
"balanced": the variant's file of balanced openings, each with both colours, from
CONVERSION_OPENINGS_START).
"""
import os
import re
import shlex
import statistics
import subprocess
import sys

ARGS = sys.argv[1:]
BIN = os.path.abspath(ARGS[0] if ARGS else "target/release/cellmate")
N = int(ARGS[1]) if len(ARGS) > 1 else 20
VARIANTS = os.environ.get("CONVERSION_VARIANTS", "chess recursion microorganism immune").split()
NODES = int(os.environ.get("CONVERSION_NODES", "20000"))
OPPONENTS = os.environ.get("CONVERSION_OPPONENTS", "random depth1").split()
SEED = os.environ.get("CONVERSION_SEED", "13")
DIR = os.environ.get("CONVERSION_DIR", "/tmp/cellmate-conversion")
# More of the tested engine's spec, e.g. "option.Contempt=300" (docs/match.md).
OPTIONS = "".join("," + o for o in os.environ.get("CONVERSION_OPTIONS", "").split())
# Where the depth-1 games start: "random" (6 random plies from the setup, by the seed) or
# "balanced" (the variant's balanced openings, tests/data/openings/V.epd, each with both
# colours, from the CONVERSION_OPENINGS_START-th).
OPENINGS = os.environ.get("CONVERSION_OPENINGS", "random")
OPENINGS_START = os.environ.get("CONVERSION_OPENINGS_START", "1")
REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")) + "/"
OPENINGS_DIR = os.path.join(REPO, "tests", "data", "openings")


def command(variant, opponent, pgn):
    """The `cellmate match` command of one row."""
    other = (
        "builtin=random"
        if opponent == "random"
        else f"cmd={BIN},name=depth1,depth=1"
    )
    return [
        BIN, "match",
        "--engine", f"cmd={BIN},name=cellmate,nodes={NODES}{OPTIONS}",
        "--engine", other,
        "--variant", variant, "--games", str(N), "--seed", SEED,
        # Other openings against the depth-1 copy, which otherwise plays the same games.
        *(openings(variant) if opponent == "depth1" else []),
        "--concurrency", "1", "--quiet", "--pgn", pgn,
    ]


def openings(variant):
    """The options that start the depth-1 games (`OPENINGS`)."""
    if OPENINGS == "balanced":
        path = os.path.normpath(os.path.join(OPENINGS_DIR, f"{variant}.epd"))
        return ["--openings", path, "--openings-start", OPENINGS_START]
    if OPENINGS != "random":
        sys.exit(f"CONVERSION_OPENINGS must be random or balanced, not {OPENINGS!r}")
    return ["--random-plies", "6"]


def games(pgn):
    """(cellmate's result: 1, 0.5 or 0; plies) of every game in a PGN file."""
    text = open(pgn).read()
    out = []
    for head in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', head, re.M))
        if "Result" not in tags:
            continue
        result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[tags["Result"]]
        if tags.get("Black") == "cellmate":
            result = 1.0 - result
        out.append((result, int(tags["PlyCount"])))
    return out


def main():
    os.makedirs(DIR, exist_ok=True)
    print(f"cellmate {BIN}, {NODES} nodes a move, {N} games a row, seed {SEED}, "
          f"{OPENINGS} openings against depth 1")
    print("| row | W / D / L | won games' plies (min / median / max) | draws | command |")
    print("| --- | --- | --- | --- | --- |")
    for variant in VARIANTS:
        for opponent in OPPONENTS:
            pgn = os.path.join(DIR, f"{variant}-{opponent}.pgn")
            if os.path.exists(pgn):
                os.remove(pgn)
            cmd = command(variant, opponent, pgn)
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            played = games(pgn)
            w = sum(1 for r, _ in played if r == 1.0)
            d = sum(1 for r, _ in played if r == 0.5)
            lost = len(played) - w - d
            won = sorted(p for r, p in played if r == 1.0)
            lengths = (
                f"{won[0]} / {statistics.median(won):g} / {won[-1]}" if won else "-"
            )
            shown = " ".join(shlex.quote(a) for a in cmd).replace(BIN, "cellmate").replace(REPO, "")
            print(
                f"| {variant} v {opponent} | {w} / {d} / {lost} | {lengths} "
                f"| {100.0 * d / max(1, len(played)):.1f} % | `{shown}` |",
                flush=True,
            )


if __name__ == "__main__":
    main()
