"""Othello 6x6 for the example UGI engine, as games/othello6 plays it.

Cells a1..f6: file a-f left to right, rank 1-6 top to bottom; the first
player (X) has c4 and d3 at the start, the second (O) c3 and d4. A move is a
cell or "pass", legal only when no placement is and the opponent can still
move; the game ends when neither player can move, and more discs wins.

Position text: six ranks, rank 1 first, each six cells a..f of X, O or '.',
separated by '/', a space and the side to move, x or o:
"....../....../..OX../..XO../....../...... x".
"""

N = 6
OPTIONS = ()  # no variants
DIRS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
START = "....../....../..OX../..XO../....../...... x"
CENTRE = (2 * N + 2, 2 * N + 3, 3 * N + 2, 3 * N + 3)  # c3 d3 c4 d4


def name(i):
    return "abcdef"[i % N] + str(i // N + 1)


NAMES = [name(i) for i in range(N * N)]
INDEX = {n: i for i, n in enumerate(NAMES)}


def new(opts):
    return parse_fen(START, opts)


def parse_fen(text, opts):
    """Reads a position; raises ValueError saying what is wrong."""
    def bad(why):
        raise ValueError("othello6: bad position %r: %s (want 6 ranks 1-6 of X, O or '.' "
                         "separated by '/', a space and x or o to move, e.g. %r)" % (text, why, START))
    f = text.split()
    if len(f) != 2:
        bad("%d fields, want 2 (board and side to move)" % len(f))
    ranks = f[0].split("/")
    if len(ranks) != N:
        bad("%d ranks, want %d" % (len(ranks), N))
    board = [None] * (N * N)
    for r, rank in enumerate(ranks):
        if len(rank) != N:
            bad("rank %d has %d cells, want %d" % (r + 1, len(rank), N))
        for c, ch in enumerate(rank):
            if ch not in "XO.":
                bad("cell %s is %r, want X, O or '.'" % (NAMES[r * N + c], ch))
            board[r * N + c] = {"X": 0, "O": 1, ".": None}[ch]
    if any(board[i] is None for i in CENTRE):
        bad("a centre cell (c3, d3, c4, d4) is empty, which no game reaches")
    if f[1] not in ("x", "o"):
        bad("side to move %r, want x or o" % f[1])
    return State(board, "xo".index(f[1]))


def parse_move(text):
    """The canonical form of a move (any letter case); ValueError if malformed."""
    t = text.strip().lower()
    if t == "pass" or t in INDEX:
        return t
    raise ValueError("othello6: bad move %r: want a cell a1..f6 or pass" % text)


class State:
    def __init__(self, board, side):
        self.board = board  # board[6*rank + file]: 0 first player, 1 second, None empty
        self.side = side    # player to move (or who would be, once over)
        self.placements = self._placements(side)
        self.finished = not self.placements and not self._placements(1 - side)

    def _flips(self, i, p):
        b = self.board
        if b[i] is not None:
            return []
        r0, c0 = divmod(i, N)
        out = []
        for dr, dc in DIRS:
            line = []
            r, c = r0 + dr, c0 + dc
            while 0 <= r < N and 0 <= c < N and b[r * N + c] == 1 - p:
                line.append(r * N + c)
                r, c = r + dr, c + dc
            if line and 0 <= r < N and 0 <= c < N and b[r * N + c] == p:
                out.extend(line)
        return out

    def _placements(self, p):
        out = {}
        for i in range(N * N):
            f = self._flips(i, p)
            if f:
                out[NAMES[i]] = (i, f)
        return out

    def turn(self):
        return self.side

    def over(self):
        return self.finished

    def legal(self):
        if self.finished:
            return []
        if not self.placements:
            return ["pass"]
        return list(self.placements)

    def after(self, move):
        """The position after the legal move (canonical form); ValueError if illegal."""
        if self.finished:
            raise ValueError("othello6: the game is over")
        b = list(self.board)
        if move == "pass":
            if self.placements:
                raise ValueError("othello6: pass while a placement is legal")
        elif move in self.placements:
            i, flips = self.placements[move]
            b[i] = self.side
            for j in flips:
                b[j] = self.side
        else:
            raise ValueError("othello6: illegal move %s" % move)
        return State(b, 1 - self.side)

    def discs(self, p):
        return self.board.count(p)

    def winner(self):
        """0 or 1 for the winner of a finished game, None for a draw."""
        d = self.discs(0) - self.discs(1)
        return 0 if d > 0 else 1 if d < 0 else None

    def value(self, p):
        """How good the position is for p (the greedy player's score)."""
        d = self.discs(p) - self.discs(1 - p)
        if self.finished:
            return d + (1000 if d > 0 else -1000 if d < 0 else 0)
        corners = sum((self.board[i] == p) - (self.board[i] == 1 - p) for i in (0, N - 1, N * N - N, N * N - 1))
        return 10 * corners + d

    def fen(self):
        rows = ["".join(".XO"[0 if v is None else v + 1] for v in self.board[r * N:(r + 1) * N]) for r in range(N)]
        return "/".join(rows) + " " + "xo"[self.side]
