#!/usr/bin/env python3
"""How an engine spends its clock against Stockfish: games at BASE+INC from the balanced
openings (each line twice, colours swapped), driven by python-chess over UCI, one line a game
with the result, the clock each side ended with and the engine's time over its first 10
moves, moves 11-30 and the rest (wall time from `go` to `bestmove`, as a GUI's clock counts).

    python3 scripts/clock_use.py ./cellmate --games 6 --elo 2850

Needs `pip install chess` and Stockfish (`/usr/games/stockfish`). docs/strength.md, session 48.

With `--pgn FILE[,FILE...]` it plays nothing and reads the games of `cellmate match --pgn`
instead (each move's comment `{+0.35/12 0.521s}` gives its depth and time): for each player,
the mean seconds and depth of its moves by the game's move number, and the clock it ended
with (the TimeControl tag's base, less its time, plus its increments):

    python3 scripts/clock_use.py --pgn games.pgn
"""

import argparse
import os
import re
import sys
import time
from collections import defaultdict

import chess
import chess.engine


NOTE = re.compile(r"^(?:([+-]?(?:M?\d+(?:\.\d+)?))(?:/(\d+))? )?(\d+(?:\.\d+)?)s$")
BUCKETS = [(1, 10), (11, 20), (21, 30), (31, 40), (41, 60), (61, 10**9)]


def from_pgn(paths):
    import chess.pgn
    times = defaultdict(lambda: defaultdict(list))
    depths = defaultdict(lambda: defaultdict(list))
    left = defaultdict(list)
    for path in paths.split(","):
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                base, _, inc = game.headers.get("TimeControl", "").partition("+")
                try:
                    clock = [float(base), float(base)]
                    inc = float(inc or 0)
                except ValueError:
                    clock, inc = None, 0.0
                names = [game.headers["White"], game.headers["Black"]]
                board = game.board()
                for node in game.mainline():
                    mover = 0 if board.turn == chess.WHITE else 1
                    number = board.fullmove_number
                    board.push(node.move)
                    m = NOTE.match(node.comment.strip())
                    if not m:
                        continue
                    secs = float(m.group(3))
                    b = next(i for i, (lo, hi) in enumerate(BUCKETS) if lo <= number <= hi)
                    times[names[mover]][b].append(secs)
                    if m.group(2):
                        depths[names[mover]][b].append(int(m.group(2)))
                    if clock:
                        clock[mover] += inc - secs
                if clock:
                    left[names[0]].append(clock[0])
                    left[names[1]].append(clock[1])
    mean = lambda v: sum(v) / len(v) if v else float("nan")
    head = "".join(f"{f'{lo}-{hi}' if hi < 10**9 else f'{lo}+':>14}" for lo, hi in BUCKETS)
    print(f"{'moves':<16}{head}   clock left")
    for name in sorted(times):
        row = "".join(f"{mean(times[name][b]):7.3f}s/{mean(depths[name][b]):5.1f}"
                      for b in range(len(BUCKETS)))
        print(f"{name:<16}{row}   {mean(left[name]):.2f} s over {len(left[name])} games")
    print("(mean seconds per move / mean depth, by the game's move number)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary", nargs="?", help="the engine to play (not with --pgn)")
    ap.add_argument("--pgn", help="read these games (FILE[,FILE...]) instead of playing")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--elo", type=int, default=2850, help="Stockfish's UCI_Elo")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--base", type=float, default=10.0, help="seconds on each clock")
    ap.add_argument("--inc", type=float, default=0.1, help="seconds added after each move")
    ap.add_argument("--openings", default=os.path.join(os.path.dirname(os.path.abspath(
        __file__)), "..", "tests", "data", "openings", "chess.epd"))
    args = ap.parse_args()
    if args.pgn:
        return from_pgn(args.pgn)
    if not args.binary:
        ap.error("give the engine's binary, or --pgn FILE")
    fens = [l.split(";")[0].strip() for l in open(args.openings)
            if l.strip() and not l.startswith("#")]
    left_ours, left_sf = [], []
    for g in range(args.games):
        ours = chess.engine.SimpleEngine.popen_uci(args.binary)
        ours.configure({"Hash": 16, "Contempt": 0})
        sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
        sf.configure({"Threads": 1, "Hash": 16, "UCI_LimitStrength": True,
                      "UCI_Elo": args.elo})
        fen = fens[(g // 2) % len(fens)]
        board = chess.Board(fen if len(fen.split()) == 6 else fen + " 0 1")
        our_side = chess.WHITE if g % 2 == 0 else chess.BLACK
        clock = {chess.WHITE: args.base, chess.BLACK: args.base}
        used = []
        flagged = None
        while not board.is_game_over(claim_draw=True):
            mover = board.turn
            engine = ours if mover == our_side else sf
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE],
                                       black_clock=clock[chess.BLACK],
                                       white_inc=args.inc, black_inc=args.inc)
            t = time.monotonic()
            move = engine.play(board, limit).move
            spent = time.monotonic() - t
            if mover == our_side:
                used.append(spent)
            clock[mover] -= spent
            if clock[mover] < 0:
                flagged = mover
                break
            clock[mover] += args.inc
            board.push(move)
        ours.quit()
        sf.quit()
        if flagged is None:
            result = board.result(claim_draw=True)
        else:
            result = "0-1" if flagged == chess.WHITE else "1-0"
        left_ours.append(clock[our_side])
        left_sf.append(clock[not our_side])
        print(f"game {g + 1}: engine {'White' if our_side else 'Black'} {result}"
              f"{' (flag)' if flagged is not None else ''}, {board.ply()} plies; clocks "
              f"left: engine {clock[our_side]:.2f} s, Stockfish {clock[not our_side]:.2f} s; "
              f"engine's moves 1-10 {sum(used[:10]):.2f} s, 11-30 {sum(used[10:30]):.2f} s, "
              f"after {sum(used[30:]):.2f} s", flush=True)
    n = len(left_ours)
    print(f"mean clock left: engine {sum(left_ours) / n:.2f} s, "
          f"Stockfish {sum(left_sf) / n:.2f} s over {n} games")


if __name__ == "__main__":
    sys.exit(main())
