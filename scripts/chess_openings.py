#!/usr/bin/env python3
"""Balanced chess openings judged by Stockfish, for matches against it (docs/strength.md).

Each ply is drawn uniformly among Stockfish's MultiPV moves that score within PICK_CP of its
best at PICK_DEPTH; the position after PLIES plies is kept when Stockfish at CHECK_DEPTH scores
it within +-MARGIN_CP, and it was not kept before. The same seed gives the same file (one
thread, a fresh hash per position).

    python3 scripts/chess_openings.py OUT.epd [COUNT] [SEED]

Needs python-chess (`pip install chess`) and /usr/games/stockfish.
"""
import random
import sys

import chess
import chess.engine

PLIES, PICK_DEPTH, PICK_CP, MULTIPV, CHECK_DEPTH, MARGIN_CP = 8, 10, 25, 8, 16, 40


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    sf = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
    sf.configure({"Threads": 1, "Hash": 16})
    kept, seen, tries = [], set(), 0
    while len(kept) < count and tries < count * 20:
        tries += 1
        board = chess.Board()
        for _ in range(PLIES):
            infos = sf.analyse(board, chess.engine.Limit(depth=PICK_DEPTH), multipv=MULTIPV, game=object())
            scored = [(i["pv"][0], i["score"].relative.score(mate_score=100000)) for i in infos if i.get("pv")]
            best = max(s for _, s in scored)
            board.push(rng.choice([m for m, s in scored if s >= best - PICK_CP]))
            if board.is_game_over():
                break
        if board.is_game_over():
            continue
        key = board.epd()
        if key in seen:
            continue
        info = sf.analyse(board, chess.engine.Limit(depth=CHECK_DEPTH), game=object())
        cp = info["score"].relative.score(mate_score=100000)
        if abs(cp) > MARGIN_CP:
            continue
        seen.add(key)
        kept.append(board.fen())
        print(f"{len(kept):4} {cp:+4} {chess.Board().variation_san(board.move_stack)}", file=sys.stderr)
    sf.quit()
    with open(out, "w") as f:
        f.write(f"# {len(kept)} chess openings: {PLIES} plies, each among Stockfish's {MULTIPV} best "
                f"within {PICK_CP} cp at depth {PICK_DEPTH}; kept within +-{MARGIN_CP} cp at depth "
                f"{CHECK_DEPTH} (scripts/chess_openings.py)\n")
        for fen in kept:
            f.write(fen + "\n")


if __name__ == "__main__":
    main()
