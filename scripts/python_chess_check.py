#!/usr/bin/env python3
"""Drives cellmate through python-chess over UCI and over XBoard (CECP v2).

For each protocol: play 5 moves of a game from the start position (cellmate plays both sides,
every move checked legal by python-chess), analyse a position with a limit, and change the
hash size (UCI option `Hash`; XBoard `memory`, which cellmate maps to its Hash). Any
`chess.engine.EngineError` (or illegal move) makes the script exit with status 1.

Usage: scripts/python_chess_check.py [PATH_TO_CELLMATE]   (default: target/release/cellmate)
"""

import logging
import os
import sys
import time

import chess
import chess.engine

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "..", "target", "release", "cellmate")


def play_five(engine, label):
    board = chess.Board()
    for i in range(5):
        t = time.monotonic()
        result = engine.play(board, chess.engine.Limit(time=0.2), info=chess.engine.INFO_ALL)
        took = time.monotonic() - t
        if result.move is None or result.move not in board.legal_moves:
            raise SystemExit(f"{label}: illegal or no move {result.move} in {board.fen()}")
        san = board.san(result.move)
        board.push(result.move)
        print(f"{label}: move {i + 1}: {result.move.uci()} ({san}) in {took:.2f} s, "
              f"ponder {result.ponder}, score {result.info.get('score')}, "
              f"depth {result.info.get('depth')}")
    print(f"{label}: after 5 moves: {board.fen()}")
    return board


def analyse(engine, label, board):
    info = engine.analyse(board, chess.engine.Limit(depth=8))
    pv = " ".join(m.uci() for m in info.get("pv", []))
    print(f"{label}: analyse depth 8: depth {info.get('depth')} score {info.get('score')} "
          f"nodes {info.get('nodes')} pv {pv}")
    if not info.get("pv"):
        raise SystemExit(f"{label}: analyse returned no PV")
    # A mate-in-one position: the score must say so.
    mate = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    info = engine.analyse(mate, chess.engine.Limit(time=0.3))
    print(f"{label}: analyse mate-in-1 (0.3 s): score {info.get('score')} "
          f"pv {' '.join(m.uci() for m in info.get('pv', []))}")
    if info["score"].white() != chess.engine.Mate(1):
        raise SystemExit(f"{label}: expected mate in 1, got {info['score']}")


def check_uci(path):
    label = "uci"
    with chess.engine.SimpleEngine.popen_uci(path) as engine:
        print(f"{label}: id {engine.id}")
        print(f"{label}: Hash option {engine.options['Hash']}")
        engine.configure({"Hash": 32})
        print(f"{label}: configured Hash=32")
        board = play_five(engine, label)
        analyse(engine, label, board)
        engine.configure({"Hash": 16, "Threads": 1})
        print(f"{label}: configured Hash=16 Threads=1")
        result = engine.play(board, chess.engine.Limit(depth=6))
        print(f"{label}: play depth 6 after the option change: {result.move}")


def check_xboard(path):
    label = "xboard"
    with chess.engine.SimpleEngine.popen_xboard(path) as engine:
        print(f"{label}: id {engine.id}")
        print(f"{label}: options {sorted(engine.options)}")
        engine.configure({"memory": 32})
        print(f"{label}: configured memory=32 (cellmate's Hash)")
        # Every engine option by the name python-chess read from `feature option=` (issue 21:
        # names with spaces reached it cut at the space).
        want = {"Move_Overhead", "Contempt", "MultiPV", "Rank_Offset", "Clear_Hash"}
        if not want <= set(engine.options):
            raise SystemExit(f"{label}: options {sorted(engine.options)} lack {want}")
        engine.configure({"Move_Overhead": 50, "Contempt": 10, "Rank_Offset": 0,
                          "Clear_Hash": None})
        engine.configure({"Contempt": 0})
        print(f"{label}: configured Move_Overhead=50, Contempt, Rank_Offset=0, Clear_Hash")
        board = play_five(engine, label)
        analyse(engine, label, board)
        engine.configure({"memory": 16, "cores": 1})
        print(f"{label}: configured memory=16 cores=1")
        result = engine.play(board, chess.engine.Limit(depth=6))
        print(f"{label}: play depth 6 after the option change: {result.move}")


def main():
    path = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DEFAULT)
    if os.environ.get("PYTHON_CHESS_DEBUG"):
        logging.basicConfig(level=logging.DEBUG)
    failed = False
    for check in (check_uci, check_xboard):
        try:
            check(path)
        except chess.engine.EngineError as e:
            print(f"{check.__name__}: EngineError: {e}")
            failed = True
        except chess.engine.EngineTerminatedError as e:
            print(f"{check.__name__}: EngineTerminatedError: {e}")
            failed = True
    print("FAILED" if failed else "OK: no EngineError over UCI or XBoard")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
