#!/usr/bin/env python3
"""Piece values by odds matches (docs/strength.md, "Piece values by odds").

For each piece, the engine plays itself from the start position with that piece removed from
one side: once White gives the odds, once Black (the same square, mirrored), so the first-move
advantage cancels. The score of the side with the full army gives an Elo difference, and the
piece's value is that Elo over the anchor's (a red blood cell = 100), per piece removed:

    value(X) = 100 * elo(X odds) / elo(anchor odds)

The ± printed with a value is the piece's own Elo error only (the anchor's adds to it).

Unlike a fit of game outcomes (`cellmate tune`), this is causal: the only difference between
the two sides is the piece.

    python3 scripts/piece_odds.py BIN --variant microorganism --nodes 500 --games 200 \
        --piece P:h2 --piece W:a1 ... --out DIR
"""

import argparse
import math
import os
import re
import subprocess
import sys


def expand(row):
    """A FEN rank as a list of cells ('' for empty)."""
    cells = []
    for tok in re.findall(r"\d+|.", row):
        if tok.isdigit():
            cells += [""] * int(tok)
        else:
            cells.append(tok)
    return cells


def compress(cells):
    out, n = "", 0
    for c in cells:
        if c == "":
            n += 1
        else:
            if n:
                out += str(n)
                n = 0
            out += c
    return out + (str(n) if n else "")


def remove(fen, square, letter):
    """`fen` without the piece `letter` on `square` (e.g. 'h2'); fails if it is not there."""
    fields = fen.split(" ")
    ranks = fields[0].split("/")
    height = len(ranks)
    file, rank = ord(square[0]) - ord("a"), int(square[1:])
    row = expand(ranks[height - rank])
    if row[file] != letter:
        sys.exit(f"{square} holds {row[file]!r}, not {letter!r}, in {fen}")
    row[file] = ""
    ranks[height - rank] = compress(row)
    fields[0] = "/".join(ranks)
    return " ".join(fields)


def mirror_square(square, height):
    return square[0] + str(height + 1 - int(square[1:]))


def elo(score):
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def run(args, name, fen, full_is_white):
    """Plays one odds match; returns (wins, draws, losses) of the full army."""
    os.makedirs(args.out, exist_ok=True)
    epd = os.path.join(args.out, f"{name}.epd")
    pgn = os.path.join(args.out, f"{name}.pgn")
    with open(epd, "w") as f:
        f.write(fen + "\n")
    if os.path.exists(pgn):
        os.remove(pgn)
    # Two identical engines at the same fixed node count play the two games of an opening
    # (colours of the engines swapped, the odds staying with the same colour) as one and the
    # same game. The second engine searches an eighth more nodes (a node or two more ends in
    # the same move), so the pair are two games; each engine plays the full army once per
    # opening, so the small difference in strength cancels.
    cmd = [args.bin, "match",
           "--engine", f"cmd={args.bin},name=a,nodes={args.nodes}",
           "--engine", f"cmd={args.bin},name=b,nodes={args.nodes + args.nodes // 8}",
           "--variant", args.variant, "--openings", epd, "--games", str(args.games),
           "--random-plies", str(args.random_plies), "--seed", str(args.seed),
           "--concurrency", str(args.concurrency), "--quiet", "--pgn", pgn]
    if args.max_plies:
        cmd += ["--max-plies", str(args.max_plies)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    w = d = l = 0
    for result in re.findall(r'\[Result "([^"]+)"\]', open(pgn).read()):
        if result == "1/2-1/2":
            d += 1
        elif (result == "1-0") == full_is_white:
            w += 1
        elif result in ("1-0", "0-1"):
            l += 1
    return w, d, l


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bin")
    ap.add_argument("--variant", default="microorganism")
    ap.add_argument("--start", help="start FEN (default: the variant's own, asked of BIN)")
    ap.add_argument("--piece", action="append", required=True,
                    help="LETTER:SQUARE of a White piece, e.g. P:h2, or several, P:g2+h2 (the "
                    "value is then per piece); the first is the anchor")
    ap.add_argument("--nodes", type=int, default=500)
    ap.add_argument("--games", type=int, default=200, help="per side giving the odds")
    ap.add_argument("--random-plies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=0)
    ap.add_argument("--out", default="/tmp/cellmate-odds")
    args = ap.parse_args()

    start = args.start
    if not start:
        out = subprocess.run([args.bin], input=f"uci\nsetoption name UCI_Variant value "
                             f"{args.variant}\nposition startpos\nd\nquit\n",
                             capture_output=True, text=True).stdout
        start = re.search(r"^Fen: (.*)$", out, re.M).group(1)
    height = len(start.split(" ")[0].split("/"))

    rows = []
    for spec in args.piece:
        letter, square = spec.split(":")
        w_fen, b_fen = start, start
        for sq in square.split("+"):
            w_fen = remove(w_fen, sq, letter)
            b_fen = remove(b_fen, mirror_square(sq, height), letter.lower())
        a = run(args, f"{letter}-white-odds", w_fen, full_is_white=False)
        b = run(args, f"{letter}-black-odds", b_fen, full_is_white=True)
        w, d, l = (x + y for x, y in zip(a, b))
        n = w + d + l
        s = (w + d / 2) / n if n else 0.5
        # Standard error of the score, then of the Elo by the delta method.
        var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n if n else 0
        se_s = math.sqrt(var / n) if n else 0
        s_c = min(max(s, 1e-3), 1 - 1e-3)
        se_e = 400 / math.log(10) * se_s / (s_c * (1 - s_c))
        rows.append((letter, square, a, b, w, d, l, s, elo(s), se_e))
        print(f"{letter} {square}: full army +{w} ={d} -{l} ({a} giving as White, {b} as Black) "
              f"score {100 * s:.1f}% elo {elo(s):+.1f} ± {1.96 * se_e:.1f}", flush=True)

    per = [len(r[1].split("+")) for r in rows]
    anchor = rows[0][8] / per[0]
    print("\n| piece | square | full army W / D / L | score | Elo | value (anchor 100) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for (letter, square, _a, _b, w, d, l, s, e, se), k in zip(rows, per):
        v = (f"{100 * e / k / anchor:.0f} ± {100 * 1.96 * se / k / abs(anchor):.0f}"
             if anchor else "—")
        print(f"| {letter} | {square} | {w} / {d} / {l} | {100 * s:.1f} % "
              f"| {e:+.1f} ± {1.96 * se:.1f} | {v} |")


if __name__ == "__main__":
    main()
