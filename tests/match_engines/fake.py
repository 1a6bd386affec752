#!/usr/bin/env python3
"""A misbehaving test engine for the match runner's tests (chess only).

usage: fake.py PROTO MODE   (PROTO: uci | xboard)

It plays one legal knight move (b1c3 as White, b8c6 as Black) as its first move of every
game, and misbehaves at its second:
  crash   exits
  illegal plays the same knight move again (illegal: the knight has left)
  sleep   sleeps 5 seconds before answering
  claim   (xboard) claims a win for itself: "1-0 {White mates}" / "0-1 {Black mates}"
  resign  (xboard) resigns
  refuse  (xboard) answers every usermove with "Illegal move: ..."
  silent:S  says nothing for S seconds, then plays a legal pawn move (a stall when S is over
            the referee's stall gap)
  chatty:S  thinks S seconds but prints a line every 0.25 s ("info string ..." / "# ..."),
            then plays a legal pawn move (no stall however long S is)
  quitcrash plays normally but exits with status 3 when told to quit
  slowstart:S  sleeps S seconds before reading anything (an engine slow to start), then
            plays normally
"""
import sys
import time

proto, mode = sys.argv[1], sys.argv[2]
mode, _, arg = mode.partition(":")
if mode == "slowstart":
    time.sleep(float(arg))


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def first_move(white):
    return "b1c3" if white else "b8c6"


def answer(white, own_moves):
    """The move for this turn, or None after misbehaving in a way that sends nothing."""
    if own_moves == 0:
        return first_move(white)
    if mode == "crash":
        sys.exit(3)
    if mode == "illegal":
        return first_move(white)
    if mode == "sleep":
        time.sleep(5)
        return "a2a3" if white else "a7a6"
    if mode == "silent":
        time.sleep(float(arg))
        return "a2a3" if white else "a7a6"
    if mode == "chatty":
        end = time.time() + float(arg)
        while time.time() < end:
            out("info string thinking" if proto == "uci" else "# thinking")
            time.sleep(min(0.25, max(0.0, end - time.time())))
        return "a2a3" if white else "a7a6"
    if mode == "claim":
        out("1-0 {White mates}" if white else "0-1 {Black mates}")
        return None
    if mode == "resign":
        out("resign")
        return None
    return "a2a3" if white else "a7a6"


def uci():
    plies, own = 0, 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            out("id name fake-" + mode)
            out("uciok")
        elif cmd == "isready":
            out("readyok")
        elif cmd == "ucinewgame":
            own = 0
        elif cmd == "position":
            plies = len(words) - words.index("moves") - 1 if "moves" in words else 0
        elif cmd == "go":
            m = answer(plies % 2 == 0, own)
            own += 1
            if m:
                out("bestmove " + m)
        elif cmd == "quit":
            if mode == "quitcrash":
                sys.exit(3)
            return


def xboard():
    plies, own, force = 0, 0, False

    def think():
        nonlocal plies, own
        m = answer(plies % 2 == 0, own)
        own += 1
        if m:
            out("move " + m)
            plies += 1

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "protover":
            out('feature ping=1 setboard=1 usermove=1 myname="fake-%s" done=1' % mode)
        elif cmd == "ping":
            out("pong " + words[1])
        elif cmd == "new":
            plies, own, force = 0, 0, False
        elif cmd == "force":
            force = True
        elif cmd == "go":
            force = False
            think()
        elif cmd == "usermove":
            if mode == "refuse":
                out("Illegal move: " + words[1])
                continue
            plies += 1
            if not force:
                think()
        elif cmd == "quit":
            if mode == "quitcrash":
                sys.exit(3)
            return


uci() if proto == "uci" else xboard()
