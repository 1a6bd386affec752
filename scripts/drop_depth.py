#!/usr/bin/env python3
"""Whether a longer search would have kept the worst moves of lost games (issue 25, item 1).

For every game of a `cellmate match` PGN that the engine lost, full-strength Stockfish scores
the position before and after each of the engine's moves (fixed depth, the engine's view;
positions with more than 6 pieces, from −600 to +300 cp before the move). The moves that lose
the most are searched again by the engine from a clear table at each of the given times, and
Stockfish scores the move each search chooses. One block a move: the drop of the move played,
then for each time the move, the depth reached and its drop.

Usage: scripts/drop_depth.py GAMES.pgn CELLMATE [--per-game 2] [--depth 16]
                             [--times 0.4,3.2,12.8] [--name cellmate]
Needs python-chess (`pip install chess`) and Stockfish (`STOCKFISH`, default
/usr/games/stockfish). docs/strength.md, session 51.
"""
import argparse
import os

import chess
import chess.engine
import chess.pgn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pgn")
    ap.add_argument("binary")
    ap.add_argument("--per-game", type=int, default=2, help="worst moves searched again")
    ap.add_argument("--depth", type=int, default=16, help="Stockfish's depth")
    ap.add_argument("--times", default="0.4,3.2,12.8", help="the engine's seconds, comma-separated")
    ap.add_argument("--name", default="cellmate", help="the engine's name in the PGN")
    a = ap.parse_args()
    times = [float(t) for t in a.times.split(",")]
    sf = chess.engine.SimpleEngine.popen_uci(os.environ.get("STOCKFISH", "/usr/games/stockfish"))
    sf.configure({"Threads": 1, "Hash": 64})
    cm = chess.engine.SimpleEngine.popen_uci(a.binary)
    cm.configure({"Hash": 64, "Contempt": 0})

    def score(board, side):
        info = sf.analyse(board, chess.engine.Limit(depth=a.depth))
        return info["score"].pov(side).score(mate_score=3000)

    with open(a.pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            side = chess.WHITE if game.headers["White"] == a.name else chess.BLACK
            lost = game.headers["Result"] == ("0-1" if side == chess.WHITE else "1-0")
            if not lost:
                continue
            board = game.board()
            drops = []
            for move in game.mainline_moves():
                if board.turn == side and len(board.piece_map()) > 6:
                    before = score(board, side)
                    fen = board.fen()
                    board.push(move)
                    after = score(board, side)
                    if -600 < before < 300:
                        drops.append((before - after, fen, move.uci(), before, after))
                else:
                    board.push(move)
            drops.sort(reverse=True)
            for drop, fen, played, before, after in drops[: a.per_game]:
                pos = chess.Board(fen)
                print(f"round {game.headers['Round']} drop {drop} ({before} -> {after}) "
                      f"played {played}, {len(pos.piece_map())} pieces")
                for t in times:
                    # A new game each time: the engine's table starts empty.
                    r = cm.play(pos, chess.engine.Limit(time=t), info=chess.engine.INFO_ALL,
                                game=object())
                    pos.push(r.move)
                    s = score(pos, side)
                    pos.pop()
                    print(f"  {t} s: {r.move.uci()} depth {r.info.get('depth')} drop {before - s}")
                print(f"  fen {fen}", flush=True)
    sf.quit()
    cm.quit()


if __name__ == "__main__":
    main()
