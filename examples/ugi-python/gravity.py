"""Gravity Connect for the example UGI engine, as games/gravity plays it.

A 9x9 grid, cells A1..I9 (column A-I left to right, row 1-9 top to bottom).
A move is a slot: TA..TI and BA..BI enter a column from the top or bottom,
L1..L9 and R1..R9 a row from the left or right. The tile takes the first
empty cell from that edge and slides on while the next cell is empty. A slot
is legal when its line has an empty cell and its side differs from the side
of the mover's own previous move. Five or more in a row (any direction,
through the new tile) wins for the mover; a full board wins for the second
player.

Position text: nine rows, row 1 first, each nine cells A..I of X, O or '.',
separated by '/'; a space and the side each player used last, X's then O's
(T, B, L, R or '-'); a space and the last move as slot>cell (TE>E9), or '-'.
"""

N = 9
CELLS = N * N
OPTIONS = ()
SIDES = "TBLR"  # side numbers 0-3; 4 (no side yet) is written '-'
START = "/".join(["." * N] * N) + " -- -"


def cell_name(i):
    return "ABCDEFGHI"[i % N] + str(i // N + 1)


def slot_name(m):
    side, line = divmod(m, N)
    return SIDES[side] + ("ABCDEFGHI"[line] if side < 2 else str(line + 1))


SLOTS = [slot_name(m) for m in range(4 * N)]
SLOT = {s: m for m, s in enumerate(SLOTS)}


def parse_slot(text):
    """The slot number of a move, also from the original labels 1-9 (L),
    10-18 (R) and A-I (T); ValueError if malformed."""
    t = text.strip().upper()
    if len(t) == 1 and "A" <= t <= "I":
        return "ABCDEFGHI".index(t)
    if len(t) == 1 and "1" <= t <= "9":
        return 2 * N + int(t) - 1
    if len(t) == 2 and t[0] == "1" and "0" <= t[1] <= "8":
        return 3 * N + int(t[1])
    if t in SLOT:
        return SLOT[t]
    raise ValueError("gravity: bad move %r: want a slot TA..TI, BA..BI, L1..L9 or R1..R9" % text)


def parse_move(text):
    return SLOTS[parse_slot(text)]


def line_cells(m):
    """The cells of slot m's line, from its entry edge."""
    side, line = divmod(m, N)
    if side < 2:
        cs = [r * N + line for r in range(N)]
    else:
        cs = [line * N + c for c in range(N)]
    return cs[::-1] if side in (1, 3) else cs


def landing(board, m):
    """Where slot m's tile lands, or None when its line is full."""
    at = None
    for c in line_cells(m):
        if board[c] is None:
            at = c
        elif at is not None:
            break
    return at


def run_through(board, cell):
    """The longest line of the owner's tiles through cell."""
    p = board[cell]
    r0, c0 = divmod(cell, N)
    best = 0
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            r, c = r0 + s * dr, c0 + s * dc
            while 0 <= r < N and 0 <= c < N and board[r * N + c] == p:
                n += 1
                r, c = r + s * dr, c + s * dc
        best = max(best, n)
    return best


def has_five(board, p):
    return any(board[i] == p and run_through(board, i) >= 5 for i in range(CELLS))


class State:
    def __init__(self, board, last, moved):
        self.board = board  # board[9*row + column]: 0 (X), 1 (O) or None
        self.last = last    # last[p]: side 0-3 of p's previous move, 4 before it
        self.moved = moved  # the last move as (slot, cell), None before the first
        self.ply = CELLS - board.count(None)
        self.side = self.ply & 1
        self.win = None     # the winner, once over

    def _legal(self, p):
        return [m for m in range(4 * N) if m // N != self.last[p] and landing(self.board, m) is not None]

    def _settle(self):
        """Ends the game after the last move, if it is over."""
        if self.moved is not None and run_through(self.board, self.moved[1]) >= 5:
            self.win = 1 - self.side
        elif self.ply == CELLS or not self._legal(self.side):
            self.win = 1  # a full board (or, defensively, no move) is the second player's
        return self

    def turn(self):
        return self.side

    def over(self):
        return self.win is not None

    def winner(self):
        return self.win

    def legal(self):
        return [] if self.win is not None else [SLOTS[m] for m in self._legal(self.side)]

    def after(self, move):
        """The position after the legal move (canonical form); ValueError if illegal."""
        m = SLOT.get(move)
        if self.win is not None or m is None or m // N == self.last[self.side]:
            raise ValueError("gravity: illegal move %s" % move)
        at = landing(self.board, m)
        if at is None:
            raise ValueError("gravity: illegal move %s: its line is full" % move)
        board, last = list(self.board), list(self.last)
        board[at] = self.side
        last[self.side] = m // N
        return State(board, last, (m, at))._settle()

    def value(self, p):
        """How good the position is for p (the greedy player's score)."""
        if self.win is not None:
            return 1000 if self.win == p else -1000
        # the length of the line the last tile made, for its owner
        n = run_through(self.board, self.moved[1]) if self.moved else 0
        return n if self.board[self.moved[1]] == p else -n

    def fen(self):
        rows = ["".join(".XO"[0 if v is None else v + 1] for v in self.board[r * N:(r + 1) * N]) for r in range(N)]
        last = "".join((SIDES + "-")[s] for s in self.last)
        moved = "-" if self.moved is None else SLOTS[self.moved[0]] + ">" + cell_name(self.moved[1])
        return "/".join(rows) + " " + last + " " + moved


def new(opts):
    return State([None] * CELLS, [4, 4], None)


def parse_fen(text, opts):
    """Reads a position; raises ValueError saying what is wrong."""
    def bad(why):
        raise ValueError("gravity: bad position %r: %s (want 9 rows 1-9 of 9 cells A-I, X, O or '.', separated by "
                         "'/'; a space and the side each player used last, X's then O's, T, B, L, R or -; a space "
                         "and the last move as slot>cell, e.g. TE>E9, or - before the first)" % (text, why))
    f = text.split()
    if len(f) != 3:
        bad("%d fields, want 3 (board, last sides, last move)" % len(f))
    rows = f[0].split("/")
    if len(rows) != N:
        bad("%d rows, want %d" % (len(rows), N))
    board = [None] * CELLS
    for r, row in enumerate(rows):
        if len(row) != N:
            bad("row %d has %d cells, want %d" % (r + 1, len(row), N))
        for c, ch in enumerate(row):
            if ch not in "XO.":
                bad("cell %s is %r, want X, O or '.'" % (cell_name(r * N + c), ch))
            board[r * N + c] = {"X": 0, "O": 1, ".": None}[ch]
    n = [board.count(0), board.count(1)]
    if n[0] - n[1] not in (0, 1):
        bad("X has %d tiles and O %d: X, who moves first, has as many as O or one more" % tuple(n))
    if len(f[1]) != 2:
        bad("last sides %r, want two letters, X's then O's" % f[1])
    last = []
    for p in range(2):
        ch = f[1][p]
        if ch not in SIDES + "-":
            bad("%s's last side is %r, want T, B, L, R or -" % ("XO"[p], ch))
        if (ch == "-") != (n[p] == 0):
            bad("%s has %d tiles and last side %s: a player has a last side once it has played" % ("XO"[p], n[p], ch))
        last.append((SIDES + "-").index(ch))
    total, moved = n[0] + n[1], None
    if total == 0 and f[2] != "-":
        bad("last move %r on an empty board, want -" % f[2])
    if total > 0:
        slot, sep, at = f[2].partition(">")
        if not sep or len(at) != 2 or not "A" <= at[0] <= "I" or not "1" <= at[1] <= "9":
            bad("last move %r: want slot>cell, e.g. TE>E9 (cell A1..I9)" % f[2])
        try:
            m = parse_slot(slot)
        except ValueError as e:
            bad("last move %r: %s" % (f[2], e))
        cell = (int(at[1]) - 1) * N + "ABCDEFGHI".index(at[0])
        p = (total - 1) & 1
        if board[cell] != p:
            bad("the last move was %s's, but %s holds no %s tile" % ("XO"[p], cell_name(cell), "XO"[p]))
        if last[p] != m // N:
            bad("the last move %s is from the %s, but %s's last side is %s"
                % (SLOTS[m], ("top", "bottom", "left", "right")[m // N], "XO"[p], f[1][p]))
        board[cell] = None
        if landing(board, m) != cell:
            bad("a tile from %s lands elsewhere than %s" % (SLOTS[m], cell_name(cell)))
        before = has_five(board, p)
        board[cell] = p
        if before:
            bad("%s had five in a row before the last move: the game would have ended" % "XO"[p])
        if has_five(board, 1 - p):
            bad("%s has five in a row but did not move last: the game would have ended" % "XO"[1 - p])
        moved = (m, cell)
    return State(board, last, moved)._settle()
