#!/usr/bin/env python3
"""A small UGI engine for othello6, in Python with the standard library only.

It plays one ply deep: the move that leaves it the most discs (the first
such move in a1..f6 order on a tie). It shows what an engine must do to
play in the arena:

    arena tournament --game othello6 --agents \
        "ugi:cmd=python3 examples/ugi-python/engine.py,movetime=100" greedy

The protocol, one command per line on stdin, answers on stdout (flushed):
  ugi               -> id name ..., option name UGI_Game ..., ugiok
  isready           -> readyok
  setoption name UGI_Game value othello6   (any other game is refused)
  uginewgame
  position startpos [moves m1 m2 ...]      (cells a1..f6, or pass)
  go [movetime N | depth N | nodes N | infinite | p1time ...]
                    -> info ... and bestmove M (under go infinite: after stop)
  stop, quit, query gameover|p1turn|result
"""

import sys

N = 6
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def start():
    """The start position: board[rank][file], 0 first player, 1 second."""
    b = [[None] * N for _ in range(N)]
    b[2][2] = b[3][3] = 1  # c3, d4: second player
    b[3][2] = b[2][3] = 0  # c4, d3: first player
    return b, 0


def flips(b, r, c, p):
    """Cells flipped by p playing at (r, c); empty if the move is illegal."""
    if b[r][c] is not None:
        return []
    out = []
    for dr, dc in DIRS:
        line = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < N and 0 <= cc < N and b[rr][cc] == 1 - p:
            line.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < N and 0 <= cc < N and b[rr][cc] == p:
            out.extend(line)
    return out


def moves(b, p):
    """Legal placements of p as (name, flipped cells), a1..f6 order."""
    out = []
    for r in range(N):
        for c in range(N):
            f = flips(b, r, c, p)
            if f:
                out.append(("abcdef"[c] + str(r + 1), (r, c), f))
    return out


def play(b, p, name):
    """Plays name for p; returns the next player, or raises ValueError."""
    legal = moves(b, p)
    if name == "pass":
        if legal:
            raise ValueError("pass while a placement is legal")
        return 1 - p
    for n, (r, c), f in legal:
        if n == name:
            b[r][c] = p
            for rr, cc in f:
                b[rr][cc] = p
            return 1 - p
    raise ValueError("illegal move " + name)


def over(b):
    return not moves(b, 0) and not moves(b, 1)


def count(b, p):
    return sum(row.count(p) for row in b)


def best(b, p):
    """The one-ply choice: (move, score in discs, positions looked at)."""
    legal = moves(b, p)
    if not legal:
        return "pass", count(b, p) - count(b, 1 - p), 0
    top = None
    for n, _, f in legal:
        # A move adds the placed disc and the flipped ones, and takes the
        # flipped ones from the opponent.
        score = count(b, p) + 1 + len(f) - (count(b, 1 - p) - len(f))
        if top is None or score > top[1]:
            top = (n, score)
    return top[0], top[1], len(legal)


def main():
    out = sys.stdout
    board, turn = start()
    pending = None  # bestmove held back under go infinite until stop

    def say(line):
        out.write(line + "\n")
        out.flush()

    for raw in sys.stdin:
        f = raw.split()
        if not f:
            continue
        cmd = f[0]
        if cmd == "ugi":
            say("id name python-one-ply")
            say("id author boardgame-arena example")
            say("option name UGI_Game type string default othello6")
            say("ugiok")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "setoption":
            text = " ".join(f[1:])
            if text.lower().startswith("name ugi_game value "):
                game = text.split(" value ", 1)[1].strip()
                if game != "othello6":
                    say("info string this engine plays othello6 only, not " + game)
            else:
                say("info string unknown option ignored: " + text)
        elif cmd == "uginewgame":
            board, turn = start()
        elif cmd == "position":
            if len(f) < 2 or f[1] != "startpos":
                say("info string only 'position startpos [moves ...]' is supported")
                continue
            board, turn = start()
            for m in f[3:] if len(f) > 2 and f[2] == "moves" else []:
                try:
                    turn = play(board, turn, m)
                except ValueError as e:
                    say("info string position: " + str(e))
                    break
        elif cmd == "go":
            move, score, looked = best(board, turn)
            say("info depth 1 score cp %d nodes %d pv %s" % (100 * score, looked, move))
            if "infinite" in f:
                pending = move
            else:
                say("bestmove " + move)
        elif cmd == "stop":
            if pending is not None:
                say("bestmove " + pending)
                pending = None
        elif cmd == "query" and len(f) > 1:
            if f[1] == "gameover":
                say("response " + ("true" if over(board) else "false"))
            elif f[1] == "p1turn":
                say("response " + ("true" if turn == 0 else "false"))
            elif f[1] == "result":
                if not over(board):
                    say("response none")
                else:
                    d = count(board, 0) - count(board, 1)
                    say("response " + ("p1win" if d > 0 else "p2win" if d < 0 else "draw"))
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
