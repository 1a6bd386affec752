#!/usr/bin/env python3
"""Where the games of a chess match were lost (issue 25, item 1).

Replays every game of a PGN written by `cellmate match` with python-chess and has Stockfish
score the position every 4 plies (fixed depth, from the engine's side). For each game it
prints the engine's colour and points, the first ply (after the opening plies of the PGN's
start position) at which Stockfish scores it 150 cp or more behind, and the pieces then on
the board; at the end, for the lost games, the plies of that first bad position (sorted) and
the games the engine was once 150 cp ahead in and did not win.

Usage: scripts/loss_points.py GAMES.pgn [ENGINE_NAME] [DEPTH]
  ENGINE_NAME: the engine's name in the White/Black tags (default "cellmate");
  DEPTH: Stockfish's depth for each position (default 11).
Environment: STOCKFISH (default /usr/games/stockfish).
Needs python-chess (`pip install chess`).
"""
import os
import sys

import chess
import chess.engine
import chess.pgn

MARGIN = 150


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    name = sys.argv[2] if len(sys.argv) > 2 else "cellmate"
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else 11
    sf = chess.engine.SimpleEngine.popen_uci(os.environ.get("STOCKFISH", "/usr/games/stockfish"))
    sf.configure({"Threads": 1, "Hash": 16})
    lost_at, slipped = [], []
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            white = game.headers["White"] == name
            side = chess.WHITE if white else chess.BLACK
            points = {"1-0": 1.0 if white else 0.0, "0-1": 0.0 if white else 1.0}.get(
                game.headers["Result"], 0.5
            )
            board = game.board()
            bad = good = None
            for ply, move in enumerate(game.mainline_moves(), 1):
                board.push(move)
                if ply % 4:
                    continue
                info = sf.analyse(board, chess.engine.Limit(depth=depth))
                cp = info["score"].pov(side).score(mate_score=10000)
                if bad is None and cp <= -MARGIN:
                    bad = (ply, len(board.piece_map()))
                if good is None and cp >= MARGIN:
                    good = ply
            print(
                f"round {game.headers['Round']} {'W' if white else 'B'} {points} "
                f"behind at ply {bad[0] if bad else '-'} "
                f"({bad[1] if bad else '-'} pieces), ahead at ply {good or '-'}",
                flush=True,
            )
            if points == 0.0 and bad:
                lost_at.append(bad[0])
            if good and points < 1.0:
                slipped.append((game.headers["Round"], points))
    sf.quit()
    print(f"lost games, first ply {MARGIN} cp behind: {sorted(lost_at)}")
    print(f"once {MARGIN} cp ahead, not won: {len(slipped)} {slipped}")


if __name__ == "__main__":
    main()
