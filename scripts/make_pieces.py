#!/usr/bin/env python3
"""Writes the piece images of assets/pieces/ (drawn for this project: simple icons on a
100x100 view box, thick outlines, readable on small squares).

File names are the ones XBoard 4.9.1 loads from `-pieceImageDirectory DIR`:
`DIR/{White,Black}{Name}.svg`, Name the glyph slot's name in `pngPieceNames` (draw.c); a file
missing there falls back to XBoard's own theme. assets/pieces/README.md maps FEN letters to
files. Usage: scripts/make_pieces.py [ROOT]   (default: the repository)
"""

import os
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))

# Colour schemes: fill, outline, detail (nucleus, granules) per side.
LIGHT = dict(fill="#fbf6ea", line="#1d1d1d", detail="#1d1d1d", soft="#d8cfbd")
DARK = dict(fill="#2b2b2b", line="#000000", detail="#f2efe6", soft="#5a5a5a")
# Immune Chess: the immune cells light blue, the Invaders dark red (XBoard shows the Invaders
# as its White, mirrored, but they keep their own colour here).
CELL = dict(fill="#e6f1fb", line="#10304f", detail="#10304f", soft="#a9c8e6")
INVADER = dict(fill="#8e1b2b", line="#3b0710", detail="#ffd9df", soft="#c45566")


def svg(body):
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" '
            f'height="100">\n{body}\n</svg>\n')


def circle(cx, cy, r, fill, line, w=5):
    return f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="{line}" stroke-width="{w}"/>'


def dot(cx, cy, r, fill):
    return f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}"/>'


def path(d, fill, line, w=5, extra=""):
    return (f'<path d="{d}" fill="{fill}" stroke="{line}" stroke-width="{w}" '
            f'stroke-linejoin="round" stroke-linecap="round" {extra}/>')


def lines(segs, line, w=5):
    return "".join(f'<line x1="{a}" y1="{b}" x2="{c}" y2="{d}" stroke="{line}" '
                   f'stroke-width="{w}" stroke-linecap="round"/>' for a, b, c, d in segs)


# ---- Microorganism Chess -------------------------------------------------------------------

def red_blood_cell(c):  # P: a biconcave disc
    return (f'<ellipse cx="50" cy="58" rx="36" ry="26" fill="{c["fill"]}" stroke="{c["line"]}" '
            f'stroke-width="5"/>'
            f'<ellipse cx="50" cy="58" rx="16" ry="10" fill="{c["soft"]}" stroke="{c["line"]}" '
            f'stroke-width="4"/>')


def bacterium(c):  # B: a rod (a capsule, tilted) with flagella
    return (path("M26 64 Q10 70 14 86 M26 64 Q18 80 30 92", "none", c["line"], 4)
            + path("M30 48 L66 26 A16 16 0 0 1 82 52 L46 74 A16 16 0 0 1 30 48 Z",
                   c["fill"], c["line"])
            + dot(48, 52, 4, c["detail"]) + dot(62, 44, 4, c["detail"]))


def amoeba(c):  # A: a blob with pseudopods and a nucleus
    return (path("M50 14 C62 14 64 30 74 30 C90 30 92 48 80 56 C92 66 84 86 68 80 "
                 "C60 92 40 92 34 80 C18 86 8 70 20 60 C8 50 14 32 30 34 C32 20 40 14 50 14 Z",
                 c["fill"], c["line"])
            + circle(52, 54, 10, c["soft"], c["line"], 4))


def white_blood_cell(c):  # W: a large cell with a lobed nucleus
    return (circle(50, 52, 38, c["fill"], c["line"])
            + circle(38, 46, 10, c["detail"], c["detail"], 1)
            + circle(56, 40, 10, c["detail"], c["detail"], 1)
            + circle(58, 62, 10, c["detail"], c["detail"], 1)
            + lines([(38, 46, 56, 40), (56, 40, 58, 62)], c["detail"], 6))


def paramecium(c):  # C: a slipper with cilia all round
    cilia = []
    import math
    for k in range(16):
        a = 2 * math.pi * k / 16
        x, y = 50 + 40 * math.cos(a), 52 + 24 * math.sin(a)
        x2, y2 = 50 + 48 * math.cos(a), 52 + 31 * math.sin(a)
        cilia.append((round(x, 1), round(y, 1), round(x2, 1), round(y2, 1)))
    return (lines(cilia, c["line"], 3)
            + f'<ellipse cx="50" cy="52" rx="38" ry="22" fill="{c["fill"]}" '
            f'stroke="{c["line"]}" stroke-width="5"/>'
            + path("M52 52 Q62 40 72 50", "none", c["line"], 4)
            + circle(34, 50, 7, c["soft"], c["line"], 3))


def prion(c):  # R: a misfolded protein ribbon in a hexagon
    return (path("M50 10 L86 30 L86 72 L50 92 L14 72 L14 30 Z", c["fill"], c["line"])
            + path("M28 34 L44 26 L36 46 L56 38 L46 60 L66 52 L58 74 L74 66", "none",
                   c["detail"], 6))


def virus(c):  # V: a capsid with spikes
    import math
    spikes, heads = [], ""
    for k in range(10):
        a = 2 * math.pi * k / 10
        x1, y1 = 50 + 26 * math.cos(a), 52 + 26 * math.sin(a)
        x2, y2 = 50 + 40 * math.cos(a), 52 + 40 * math.sin(a)
        spikes.append((round(x1, 1), round(y1, 1), round(x2, 1), round(y2, 1)))
        heads += dot(round(x2, 1), round(y2, 1), 6, c["line"])
    return (lines(spikes, c["line"], 5) + heads + circle(50, 52, 28, c["fill"], c["line"])
            + dot(42, 46, 4, c["detail"]) + dot(58, 48, 4, c["detail"])
            + dot(50, 62, 4, c["detail"]))


def platelet(c):  # T: a small flat plate with granules
    return (path("M20 50 C20 34 36 28 52 30 C72 26 86 38 82 54 C86 70 66 78 50 74 "
                 "C32 80 18 68 20 50 Z", c["fill"], c["line"])
            + dot(40, 48, 5, c["detail"]) + dot(56, 44, 5, c["detail"])
            + dot(62, 60, 5, c["detail"]) + dot(44, 62, 5, c["detail"]))


def neuron(c):  # N (the royal piece): a cell body with dendrites and an axon
    return (lines([(50, 46, 22, 18), (50, 46, 78, 16), (50, 46, 14, 50), (50, 46, 86, 44),
                   (22, 18, 12, 22), (78, 16, 88, 22), (50, 46, 50, 92), (50, 92, 38, 96),
                   (50, 92, 62, 96)], c["line"], 6)
            + circle(50, 46, 20, c["fill"], c["line"])
            + dot(50, 46, 7, c["detail"])
            # A crown mark: the royal piece.
            + path("M38 70 L42 60 L50 68 L58 60 L62 70 Z", c["fill"], c["line"], 4))


MICRO = [
    # (FEN letter, organism, XBoard slot name, drawing)
    ("P", "Red blood cell", "Pawn", red_blood_cell),
    ("B", "Bacterium", "Knight", bacterium),
    ("A", "Amoeba", "Bishop", amoeba),
    ("W", "White blood cell", "Queen", white_blood_cell),
    ("C", "Paramecium", "Marshall", paramecium),
    ("R", "Prion", "Hawk", prion),
    ("V", "Virus", "Cobra", virus),
    ("T", "Platelet", "Tower", platelet),
    ("N", "Neuron", "King", neuron),
]

# ---- Immune Chess --------------------------------------------------------------------------


def cell(c, inner):
    return circle(50, 52, 36, c["fill"], c["line"]) + inner


def complement(c):  # C: a ring of beads (the membrane attack complex), never captured
    import math
    beads = "".join(dot(round(50 + 22 * math.cos(2 * math.pi * k / 8), 1),
                        round(52 + 22 * math.sin(2 * math.pi * k / 8), 1), 7, c["detail"])
                    for k in range(8))
    return cell(c, beads)


def macrophage(c):  # M: a big eater with an open mouth
    return (path("M50 52 L86 34 A38 38 0 1 0 86 70 Z", c["fill"], c["line"])
            + dot(40, 36, 6, c["detail"]) + dot(74, 52, 5, c["detail"]))


def helper_t(c):  # H: a cell with a plus sign (helps)
    return cell(c, lines([(50, 34, 50, 70), (32, 52, 68, 52)], c["detail"], 9))


def b_cell(c):  # B: a cell with Y-shaped antibodies on its surface (shoots)
    ys = [
        # top: stem up, arms up-left and up-right
        (50, 22, 50, 12), (50, 12, 43, 5), (50, 12, 57, 5),
        # left
        (20, 52, 10, 52), (10, 52, 3, 45), (10, 52, 3, 59),
        # right
        (80, 52, 90, 52), (90, 52, 97, 45), (90, 52, 97, 59),
    ]
    return (circle(50, 52, 30, c["fill"], c["line"]) + lines(ys, c["line"], 5)
            + lines([(50, 34, 50, 52), (50, 52, 38, 66), (50, 52, 62, 66)], c["detail"], 7))


def killer_t(c):  # T: a cell with a crosshair (shoots)
    return cell(c, circle(50, 52, 16, "none", c["detail"], 5)
                + lines([(50, 26, 50, 78), (24, 52, 76, 52)], c["detail"], 5))


def basophil(c):  # A: dark granules everywhere
    pts = [(36, 36), (52, 32), (66, 40), (32, 52), (48, 50), (64, 56), (38, 68), (54, 68),
           (70, 70)]
    return cell(c, "".join(dot(x, y, 6, c["detail"]) for x, y in pts))


def eosinophil(c):  # E: a two-lobed nucleus
    return cell(c, circle(36, 52, 12, c["detail"], c["detail"], 1)
                + circle(64, 52, 12, c["detail"], c["detail"], 1)
                + lines([(36, 52, 64, 52)], c["detail"], 6))


def neutrophil(c):  # N: a many-lobed nucleus in a chain
    return cell(c, lines([(28, 60, 40, 42), (40, 42, 56, 60), (56, 60, 70, 42)],
                         c["detail"], 7)
                + "".join(dot(x, y, 8, c["detail"]) for x, y in
                          ((28, 60), (40, 42), (56, 60), (70, 42))))


def mast_cell(c):  # S: granules bursting out
    import math
    rays = [(round(50 + 14 * math.cos(a), 1), round(52 + 14 * math.sin(a), 1),
             round(50 + 28 * math.cos(a), 1), round(52 + 28 * math.sin(a), 1))
            for a in (2 * math.pi * k / 8 + 0.4 for k in range(8))]
    return cell(c, lines(rays, c["detail"], 5) + dot(50, 52, 9, c["detail"]))


def monocyte(c):  # O: a kidney-shaped nucleus (promotes)
    return cell(c, path("M34 40 C44 30 66 32 68 48 C70 62 60 70 50 62 C42 70 30 62 34 40 Z",
                        c["detail"], c["detail"], 2))


def dendritic(c):  # D: a star with long branches
    return path("M50 8 L58 38 L90 30 L64 52 L86 80 L54 66 L46 94 L40 64 L10 74 L34 50 "
                "L12 24 L42 36 Z", c["fill"], c["line"]) + dot(50, 52, 8, c["detail"])


def natural_killer(c):  # L: a cell with a lightning bolt
    return cell(c, path("M56 22 L36 56 L50 56 L42 84 L66 46 L52 46 Z", c["detail"],
                        c["detail"], 2))


def invader(c):  # i: a spiky blob
    import math
    pts = []
    for k in range(24):
        a = 2 * math.pi * k / 24
        r = 42 if k % 2 == 0 else 28
        pts.append(f"{round(50 + r * math.cos(a), 1)} {round(52 + r * math.sin(a), 1)}")
    return (path("M" + " L".join(pts) + " Z", c["fill"], c["line"], 4)
            + dot(42, 46, 6, c["detail"]) + dot(60, 46, 6, c["detail"])
            + path("M38 64 Q50 56 62 64", "none", c["detail"], 5))


IMMUNE = [
    # (rules FEN letter, name, XBoard file: colour as XBoard is shown it (mirrored), drawing)
    ("C", "Complement", "BlackQueen", complement),
    ("M", "Macrophage", "BlackMarshall", macrophage),
    ("H", "Helper T", "BlackRook", helper_t),
    ("B", "B-cell", "BlackTower", b_cell),
    ("T", "Killer T", "BlackCanon", killer_t),
    ("A", "Basophil", "BlackGold", basophil),
    ("E", "Eosinophil", "BlackElephant", eosinophil),
    ("N", "Neutrophil", "BlackCommoner", neutrophil),
    ("S", "Mast cell", "BlackArchbishop", mast_cell),
    ("O", "Monocyte", "BlackAdvisor", monocyte),
    ("D", "Dendritic cell", "BlackDragon", dendritic),
    ("L", "Natural Killer", "BlackCrownedRook", natural_killer),
    ("i", "Invader", "WhiteWolf", invader),
]


# ---- Chess (and Infinite Recursion's chess pieces): classic silhouettes -------------------

def base(c):  # the foot every chess piece stands on
    return path("M22 88 L78 88 L74 78 L26 78 Z", c["fill"], c["line"])


def pawn(c):
    return (base(c) + path("M34 78 C36 64 42 58 44 52 L56 52 C58 58 64 64 66 78 Z",
                           c["fill"], c["line"])
            + path("M38 52 L62 52", "none", c["line"]) + circle(50, 36, 13, c["fill"], c["line"]))


def rook(c):
    return (base(c) + path("M32 78 L36 40 L64 40 L68 78 Z", c["fill"], c["line"])
            + path("M28 40 L28 20 L38 20 L38 28 L46 28 L46 20 L54 20 L54 28 L62 28 L62 20 "
                   "L72 20 L72 40 Z", c["fill"], c["line"])
            + lines([(36, 48, 64, 48)], c["soft"], 4))


def knight(c):
    return (base(c) + path("M30 78 C30 62 40 56 46 48 L40 50 C32 56 22 54 20 46 C18 38 30 32 "
                           "40 22 L42 12 L50 20 C68 20 80 36 78 56 L74 78 Z", c["fill"], c["line"])
            + dot(42, 32, 4, c["detail"])
            + path("M58 26 C68 34 70 50 66 66", "none", c["soft"], 4))


def bishop(c):
    return (base(c) + path("M34 78 C34 70 40 66 42 62 L58 62 C60 66 66 70 66 78 Z",
                           c["fill"], c["line"])
            + path("M50 18 C34 30 32 48 42 62 L58 62 C68 48 66 30 50 18 Z", c["fill"], c["line"])
            + lines([(50, 36, 50, 50), (43, 43, 57, 43)], c["detail"], 4)
            + circle(50, 13, 5, c["fill"], c["line"], 4))


def queen(c):
    pts = "M24 70 L16 30 L34 52 L38 22 L50 48 L62 22 L66 52 L84 30 L76 70 Z"
    return (base(c) + path("M26 78 L24 70 L76 70 L74 78 Z", c["fill"], c["line"])
            + path(pts, c["fill"], c["line"])
            + "".join(circle(x, y, 5, c["fill"], c["line"], 4)
                      for x, y in ((16, 26), (38, 18), (62, 18), (84, 26))))


def king(c):
    return (base(c) + path("M26 78 L24 68 L76 68 L74 78 Z", c["fill"], c["line"])
            + path("M24 68 C12 52 20 34 36 38 C40 32 46 30 50 34 C54 30 60 32 64 38 "
                   "C80 34 88 52 76 68 Z", c["fill"], c["line"])
            + lines([(50, 8, 50, 32), (42, 16, 58, 16)], c["line"], 6)
            + lines([(50, 42, 50, 62)], c["soft"], 4))


# (FEN letter, name, XBoard glyph slot, drawing); Infinite Recursion uses the same set.
CHESS = [
    ("P", "Pawn", "Pawn", pawn),
    ("N", "Knight", "Knight", knight),
    ("B", "Bishop", "Bishop", bishop),
    ("R", "Rook", "Rook", rook),
    ("Q", "Queen", "Queen", queen),
    ("K", "King", "King", king),
]


# ---- Infinite Recursion Chess: only the mega-knight needs a glyph of its own ----------------

def mega_knight(c):  # M: a knight's head with a crown of recursion (a circle arrow)
    return (path("M30 88 L30 70 C30 56 40 50 44 42 L28 46 C22 46 18 40 22 34 L46 14 "
                 "C66 10 80 28 78 52 L76 88 Z", c["fill"], c["line"])
            + dot(46, 28, 4, c["detail"])
            + path("M52 64 A12 12 0 1 1 64 76", "none", c["detail"], 5)
            + path("M66 70 L64 77 L57 75", "none", c["detail"], 4))


RECURSION = [("M", "Mega-knight", "Nightrider", mega_knight)]


def write(variant, name, body):
    d = os.path.join(ROOT, "assets", "pieces", variant)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name + ".svg"), "w") as f:
        f.write(svg(body))


def main():
    for _, _, slot, draw in MICRO:
        write("microorganism", "White" + slot, draw(LIGHT))
        write("microorganism", "Black" + slot, draw(DARK))
    for letter, _, file, draw in IMMUNE:
        write("immune", file, draw(INVADER if letter == "i" else CELL))
    for _, _, slot, draw in CHESS:
        write("chess", "White" + slot, draw(LIGHT))
        write("chess", "Black" + slot, draw(DARK))
    for _, _, slot, draw in RECURSION:
        write("recursion", "White" + slot, draw(LIGHT))
        write("recursion", "Black" + slot, draw(DARK))


if __name__ == "__main__":
    main()
