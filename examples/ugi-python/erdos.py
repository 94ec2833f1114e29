"""Erdos Latino for the example UGI engine, as games/erdos plays it.

A 5x5 board, cells a1..e5 (file a-e left to right, rank 1-5 bottom to top).
A move "c3:1" places a unit of level 1-5 on an empty cell whose row and
column hold no unit of that level; there is no pass. A placement in an
uncontrolled column that makes a strictly increasing run of three levels
through the new unit (gaps allowed) captures the column: reading bottom to
top for the first player, top to bottom for the second; the mover wins a
tie, and a run only for the opponent hands the column to the opponent.
The game ends on a full board (more columns wins) or when the player to move
has no placement (the player who just placed wins, "starvation").

Variant algol (the Algol web engine's quirks): on the second player's turns
a run with the new unit in the middle is seen only when the new level is
below the minimum (not the maximum) of the units on the far side; a full
board counts the columns as they stood before the last placement.

Position text: five ranks, rank 5 first, each five cells a..e of a level or
'.', separated by '/', a space and each column's controller a..e (1, 2 or
-); under algol a full board adds the column difference counted before the
last placement: "...../...../...../...../..... -----".
"""

import re

N = 5
CELLS = N * N
OPTIONS = ("algol",)
START = "...../...../...../...../..... -----"


def name(i):
    return "abcde"[i % N] + str(i // N + 1)


NAMES = [name(i) for i in range(CELLS)]
MOVE = re.compile(r"^([a-e])([1-5]):([1-5])$")


def new(opts):
    return State([0] * CELLS, [None] * N, bool(opts.get("algol")))


def parse_move(text):
    """The canonical form of a move (any letter case); ValueError if malformed."""
    t = text.strip().lower()
    if not MOVE.match(t):
        raise ValueError("erdos: bad move %r: want cell:level such as c3:1 (cells a1..e5, levels 1-5)" % text)
    return t


def column(levels, f):
    """Levels of file f, bottom to top (0 empty)."""
    return [levels[r * N + f] for r in range(N)]


def has_run(lv, up):
    """Whether lv (bottom to top, 0 empty) holds three units increasing
    bottom to top (up) or top to bottom (not up)."""
    v = [x if up else -x for x in lv if x]
    return any(v[i] < v[j] < v[k] for i in range(len(v)) for j in range(i + 1, len(v)) for k in range(j + 1, len(v)))


def runs_through(lv, r, quirk):
    """(first player's run, second player's run) through the unit on rank r
    of the column lv. quirk: the Algol engine's test of middle units."""
    l = lv[r]
    below = [v for v in lv[:r] if v]
    above = [v for v in lv[r + 1:] if v]
    # The new unit at an end: two more units on one side, both lower or higher.
    p1_end = any(below[i] < below[j] < l for i in range(len(below)) for j in range(i + 1, len(below))) or \
        any(l < above[i] < above[j] for i in range(len(above)) for j in range(i + 1, len(above)))
    p2_end = any(below[i] > below[j] > l for i in range(len(below)) for j in range(i + 1, len(below))) or \
        any(l > above[i] > above[j] for i in range(len(above)) for j in range(i + 1, len(above)))
    if not below or not above:
        return p1_end, p2_end
    if quirk:  # the engine compares with the minimum where the maximum is right
        p1_mid = min(below) < l < min(above)
        p2_mid = min(above) < l < min(below)
    else:
        p1_mid = min(below) < l < max(above)
        p2_mid = min(above) < l < max(below)
    return p1_end or p1_mid, p2_end or p2_mid


class State:
    def __init__(self, levels, ctrl, algol):
        self.levels = levels  # levels[5*rank + file]: 1-5, 0 empty
        self.ctrl = ctrl      # ctrl[file]: 0, 1 or None
        self.algol = algol
        self.ply = CELLS - levels.count(0)
        self.side = self.ply & 1
        self.result = None    # once over: (winner 0, 1 or None for a draw, score)

    def turn(self):
        return self.side

    def over(self):
        return self.result is not None

    def winner(self):
        return self.result[0]

    def _free(self, i, l):
        r, f = divmod(i, N)
        return self.levels[i] == 0 and all(self.levels[r * N + c] != l for c in range(N)) and \
            all(self.levels[k * N + f] != l for k in range(N))

    def legal(self):
        if self.result is not None:
            return []
        return ["%s:%d" % (NAMES[i], l) for l in range(1, N + 1) for i in range(CELLS) if self._free(i, l)]

    def _any_legal(self):
        return any(self._free(i, l) for i in range(CELLS) for l in range(1, N + 1))

    def columns(self, ctrl):
        return ctrl.count(0) - ctrl.count(1)

    def after(self, move):
        """The position after the legal move (canonical form); ValueError if illegal."""
        m = MOVE.match(move)
        if self.result is not None or not m:
            raise ValueError("erdos: illegal move %s" % move)
        f, r, l = "abcde".index(m.group(1)), int(m.group(2)) - 1, int(m.group(3))
        i = r * N + f
        if not self._free(i, l):
            raise ValueError("erdos: illegal move %s" % move)
        p = self.side
        levels = list(self.levels)
        levels[i] = l
        ctrl = list(self.ctrl)
        if ctrl[f] is None:
            p1, p2 = runs_through(column(levels, f), r, self.algol and p == 1)
            mine, theirs = (p1, p2) if p == 0 else (p2, p1)
            if mine:
                ctrl[f] = p
            elif theirs:
                ctrl[f] = 1 - p
        s = State(levels, ctrl, self.algol)
        if s.ply == CELLS:
            d = s.columns(self.ctrl if self.algol else ctrl)  # algol counts before the last placement
            s.result = (0 if d > 0 else 1 if d < 0 else None, d)
        elif not s._any_legal():
            s.result = (p, 1 - 2 * p)  # starvation: the player who placed wins
        return s

    def value(self, p):
        """How good the position is for p (the greedy player's score)."""
        if self.result is not None:
            w = self.result[0]
            return 0 if w is None else 1000 if w == p else -1000
        return 10 * (self.ctrl.count(p) - self.ctrl.count(1 - p))

    def fen(self):
        ranks = ["".join(str(v) if v else "." for v in self.levels[r * N:(r + 1) * N]) for r in range(N - 1, -1, -1)]
        text = "/".join(ranks) + " " + "".join("-" if c is None else str(c + 1) for c in self.ctrl)
        if self.algol and self.ply == CELLS:
            text += " %d" % self.result[1]
        return text


def parse_fen(text, opts):
    """Reads a position; raises ValueError saying what is wrong."""
    algol = bool(opts.get("algol"))

    def bad(why):
        raise ValueError("erdos: bad position %r: %s (want 5 ranks 5-1 of levels 1-5 or '.' separated by '/', "
                         "a space and each column's controller a-e as 1, 2 or -, e.g. %r)"
                         % (text, why, "...../...../..3../...../..... -----"))
    f = text.split()
    if len(f) < 2:
        bad("%d fields, want the board and the column controllers" % len(f))
    ranks = f[0].split("/")
    if len(ranks) != N:
        bad("%d ranks, want %d" % (len(ranks), N))
    levels = [0] * CELLS
    for k, rank in enumerate(ranks):
        r = N - 1 - k
        if len(rank) != N:
            bad("rank %d has %d cells, want %d" % (r + 1, len(rank), N))
        for c, ch in enumerate(rank):
            if ch == ".":
                continue
            if ch not in "12345":
                bad("cell %s is %r, want a level 1-5 or '.'" % (NAMES[r * N + c], ch))
            if not all(levels[r * N + x] != int(ch) for x in range(N)) or \
                    not all(levels[y * N + c] != int(ch) for y in range(N)):
                bad("level %s stands twice in the row or column of %s" % (ch, NAMES[r * N + c]))
            levels[r * N + c] = int(ch)
    if len(f[1]) != N:
        bad("%d column controllers, want %d" % (len(f[1]), N))
    ctrl = [None] * N
    for c, ch in enumerate(f[1]):
        lv = column(levels, c)
        up, down = has_run(lv, True), has_run(lv, False)
        if ch == "1":
            if not up:
                bad("player 1 controls column %s without an increasing run of three bottom-top in it" % "abcde"[c])
            ctrl[c] = 0
        elif ch == "2":
            if not down:
                bad("player 2 controls column %s without an increasing run of three top-bottom in it" % "abcde"[c])
            ctrl[c] = 1
        elif ch == "-":
            if (up or down) and not algol:  # the Algol engine can miss a run
                bad("column %s holds a run of three but nobody controls it" % "abcde"[c])
        else:
            bad("controller of column %s is %r, want 1, 2 or -" % ("abcde"[c], ch))
    s = State(levels, ctrl, algol)
    full = s.ply == CELLS
    if algol and full and len(f) != 3:
        bad("a full board under the algol rules needs a third field, the column difference counted before "
            "the last placement (quirk Q2), e.g. +1")
    if not (algol and full) and len(f) != 2:
        bad("%d fields, want 2 (a third, the counted columns, only on a full board under the algol rules)" % len(f))
    if full and algol:
        c1, c2 = ctrl.count(0), ctrl.count(1)
        ok = re.match(r"^[+-]?[0-9]+$", f[2])
        d = int(f[2]) if ok else None
        if d is None or not (d == c1 - c2 or d == c1 - c2 - 1 and c1 > 0 or d == c1 - c2 + 1 and c2 > 0):
            bad("counted difference %r: with columns %d-%d, want %d, or one less or more for a column the last "
                "placement captured" % (f[2], c1, c2, c1 - c2))
        s.result = (0 if d > 0 else 1 if d < 0 else None, d)
    elif full:
        d = s.columns(ctrl)
        s.result = (0 if d > 0 else 1 if d < 0 else None, d)
    elif not s._any_legal():
        last = 1 - s.side
        s.result = (last, 1 - 2 * last)
    return s
