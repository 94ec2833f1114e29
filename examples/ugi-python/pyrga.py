"""Pyrga for the example UGI engine, as games/pyrga plays it.

A 4x4 board, cells a1..d4 (file a-d left to right, rank 1-4 bottom to top).
White (first) and Black each own 5 Squares, 5 Triangles and 5 Cylinders; a
cell holds at most one piece of each type. A move is S@b2, C@b2 or T@b2>N (a
Triangle points N, E, S or W, never straight at the edge). The opponent's
last piece sets the target cells: a Square's orthogonal neighbours, every
cell beyond a Triangle in its direction, a Cylinder's own cell. The mover
must place a piece from stock on a target cell that can take its type; only
when none can, any piece goes on any empty cell (the fallback); with neither
the game ends. A cell with all three types is a tower of the colour holding
two of its pieces; three towers win at once (for either player). Otherwise
the end compares towers, then 2-piece stacks of one colour, then 1-piece
stacks; all equal is a draw.

Variant bga: when White's first piece is a Square, White's second may not be.

Position text: four ranks, rank 4 first, separated by '/', each four cells
a..d of three characters (Square, Triangle, Cylinder slot: S T C White,
s t c Black, '.' none), a space and the last move, or '-' before the first.
"""

N = 4
CELLS = N * N
OPTIONS = ("bga",)
PER_TYPE = 5
ALL = (1 << CELLS) - 1
KINDS = "STC"
DIRS = "NESW"
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # (file, rank) per direction
START = "/".join(["." * 12] * 4) + " -"
EXAMPLE = "............/............/....T......./............ T@b2>N"


def name(i):
    return "abcd"[i % N] + str(i // N + 1)


NAMES = [name(i) for i in range(CELLS)]


def ray(cell, d):
    f, r = cell % N, cell // N
    out = 0
    while True:
        f, r = f + STEPS[d][0], r + STEPS[d][1]
        if not (0 <= f < N and 0 <= r < N):
            return out
        out |= 1 << (r * N + f)


RAYS = [[ray(c, d) for d in range(4)] for c in range(CELLS)]
def neighbours(cell):
    """The on-board orthogonal neighbours of cell."""
    out = 0
    for d in range(4):
        out |= RAYS[cell][d] & -RAYS[cell][d] if d in (0, 1) else 0
        if d in (2, 3) and RAYS[cell][d]:
            out |= 1 << (RAYS[cell][d].bit_length() - 1)
    return out


NEIGHBOURS = [neighbours(c) for c in range(CELLS)]


def cells(mask):
    return [i for i in range(CELLS) if mask >> i & 1]


def count(mask):
    return bin(mask).count("1")


def target_of(kind, cell, d):
    if kind == 0:
        return NEIGHBOURS[cell]
    if kind == 1:
        return RAYS[cell][d]
    return 1 << cell


def parse_move(text):
    """The canonical form of a move (any letter case); ValueError if malformed."""
    return format_move(parse(text))


def parse(text):
    """(kind, cell, dir) of a move such as S@b2, c@B2 or T@b2>n; ValueError
    if malformed."""
    t = "".join(ch.upper() if "a" <= ch <= "z" else ch for ch in text.strip())

    def bad(why):
        raise ValueError("pyrga: bad move %r: %s (want S@b2, C@b2 or T@b2>N)" % (text, why))
    if len(t) < 4 or t[1] != "@":
        bad("not piece@cell")
    if t[0] not in KINDS:
        bad("piece type must be S, T or C")
    if t[2] not in "ABCD" or t[3] not in "1234":
        bad("cell must be a1..d4")
    kind, cell = KINDS.index(t[0]), (int(t[3]) - 1) * N + "ABCD".index(t[2])
    if kind != 1:
        if len(t) != 4:
            bad("only a Triangle takes a direction")
        return (kind, cell, 0)
    if len(t) != 6 or t[4] != ">":
        bad("a Triangle needs a direction >N, >E, >S or >W")
    if t[5] not in DIRS:
        bad("direction must be N, E, S or W")
    d = DIRS.index(t[5])
    if not RAYS[cell][d]:
        bad("the Triangle points at the edge")
    return (1, cell, d)


def format_move(m):
    kind, cell, d = m
    return KINDS[kind] + "@" + NAMES[cell] + (">" + DIRS[d] if kind == 1 else "")


def majority(m):
    return m[0] & m[1] | m[0] & m[2] | m[1] & m[2]


def tallies(pc):
    """Each player's (towers, own 2-piece stacks, 1-piece stacks)."""
    occ = [pc[0][k] | pc[1][k] for k in range(3)]
    full = occ[0] & occ[1] & occ[2]
    two = (occ[0] & occ[1] | occ[0] & occ[2] | occ[1] & occ[2]) & ~full
    one = (occ[0] | occ[1] | occ[2]) & ~(two | full)
    return [(count(full & majority(pc[p])), count(two & majority(pc[p])),
             count(one & (pc[p][0] | pc[p][1] | pc[p][2]))) for p in range(2)]


class State:
    def __init__(self, pieces, last, bga):
        self.pieces = pieces  # pieces[colour][kind]: bit mask of cells
        self.last = last      # the last move (kind, cell, dir), None before the first
        self.bga = bga
        self.ply = sum(count(m) for p in pieces for m in p)
        self.side = self.ply & 1
        self.target = ALL if last is None else target_of(*last)
        self.finished = max(t[0] for t in tallies(pieces)) >= 3
        self.moves = [] if self.finished else self._legal()
        self.finished = self.finished or not self.moves

    def _legal(self):
        pc, me = self.pieces, self.side
        occ = [pc[0][k] | pc[1][k] for k in range(3)]
        can = [ALL & ~occ[k] if count(pc[me][k]) < PER_TYPE else 0 for k in range(3)]
        if self.bga and self.ply == 2 and pc[0][0]:  # no second Square for White
            can[0] = 0
        t = self.target
        if not (can[0] | can[1] | can[2]) & t:
            t = ALL & ~(occ[0] | occ[1] | occ[2])  # fallback: any empty cell
        out = []
        for kind in range(3):
            for c in cells(can[kind] & t):
                if kind == 1:
                    out.extend((1, c, d) for d in range(4) if RAYS[c][d])
                else:
                    out.append((kind, c, 0))
        return out

    def turn(self):
        return self.side

    def over(self):
        return self.finished

    def legal(self):
        return [format_move(m) for m in self.moves]

    def after(self, move):
        """The position after the legal move (canonical form); ValueError if illegal."""
        m = parse(move)
        if m not in self.moves:
            raise ValueError("pyrga: illegal move %s" % move)
        pc = [list(p) for p in self.pieces]
        pc[self.side][m[0]] |= 1 << m[1]
        return State(pc, m, self.bga)

    def winner(self):
        t = tallies(self.pieces)
        return 0 if t[0] > t[1] else 1 if t[1] > t[0] else None

    def value(self, p):
        """How good the position is for p (the greedy player's score)."""
        if self.finished:
            w = self.winner()
            return 0 if w is None else 10000 if w == p else -10000
        t = tallies(self.pieces)
        return sum(a * w for a, w in zip(t[p], (1000, 150, 20))) - sum(a * w for a, w in zip(t[1 - p], (1000, 150, 20)))

    def fen(self):
        ranks = []
        for r in range(N - 1, -1, -1):
            row = ""
            for f in range(N):
                for k in range(3):
                    bit = 1 << (r * N + f)
                    row += KINDS[k] if self.pieces[0][k] & bit else KINDS[k].lower() if self.pieces[1][k] & bit else "."
            ranks.append(row)
        return "/".join(ranks) + " " + ("-" if self.last is None else format_move(self.last))


def new(opts):
    return State([[0, 0, 0], [0, 0, 0]], None, bool(opts.get("bga")))


def parse_fen(text, opts):
    """Reads a position; raises ValueError saying what is wrong."""
    bga = bool(opts.get("bga"))
    colours = ("White", "Black")
    kinds = ("Square", "Triangle", "Cylinder")

    def bad(why):
        raise ValueError("pyrga: bad position %r: %s (want 4 ranks 4-1 of 4 cells a-d, each 3 characters Square, "
                         "Triangle, Cylinder: S T C for White, s t c for Black, '.' for none, ranks separated by '/', "
                         "then a space and the last move, or - before the first; e.g. %r)" % (text, why, EXAMPLE))
    f = text.split()
    if len(f) != 2:
        bad("%d fields, want 2 (board and last move)" % len(f))
    ranks = f[0].split("/")
    if len(ranks) != N:
        bad("%d ranks, want %d" % (len(ranks), N))
    pc = [[0, 0, 0], [0, 0, 0]]
    for i, rank in enumerate(ranks):
        r = N - 1 - i
        if len(rank) != 3 * N:
            bad("rank %d has %d characters, want %d (3 per cell)" % (r + 1, len(rank), 3 * N))
        for c in range(N):
            cell = r * N + c
            for k in range(3):
                ch = rank[3 * c + k]
                if ch == KINDS[k]:
                    pc[0][k] |= 1 << cell
                elif ch == KINDS[k].lower():
                    pc[1][k] |= 1 << cell
                elif ch != ".":
                    bad("cell %s has %r in its %s slot, want %s, %s or '.'"
                        % (NAMES[cell], ch, kinds[k], KINDS[k], KINDS[k].lower()))
    n = [0, 0]
    for p in range(2):
        for k in range(3):
            if count(pc[p][k]) > PER_TYPE:
                bad("%s has %d %ss, more than %d" % (colours[p], count(pc[p][k]), kinds[k], PER_TYPE))
            n[p] += count(pc[p][k])
    if n[0] - n[1] not in (0, 1):
        bad("White has %d pieces and Black %d: White, who moves first, has as many as Black or one more" % tuple(n))
    if bga and n[0] == 2 and count(pc[0][0]) == 2:
        bad("White's first two pieces are Squares, which the bga rule forbids")
    total, last = n[0] + n[1], None
    if total == 0 and f[1] != "-":
        bad("last move %r on an empty board, want -" % f[1])
    if total > 0 and f[1] == "-":
        bad("no last move, but %d pieces on the board" % total)
    if total > 0:
        try:
            last = parse(f[1])
        except ValueError as e:
            bad("last move: %s" % e)
        p = (total - 1) & 1
        if not pc[p][last[0]] >> last[1] & 1:
            bad("the last move %s was %s's, but the board has no %s of %s on %s"
                % (f[1], colours[p], kinds[last[0]], colours[p], NAMES[last[1]]))
    t = tallies(pc)
    if t[0][0] >= 3 and t[1][0] >= 3:
        bad("both players control three towers; the game ends at the first third tower")
    if t[0][0] > 3 or t[1][0] > 3:
        bad("a player controls more than three towers; the game ends at the third")
    if t[0][0] == 3 or t[1][0] == 3:
        w = 0 if t[0][0] == 3 else 1
        occ = [pc[0][k] | pc[1][k] for k in range(3)]
        if not (occ[0] & occ[1] & occ[2] & majority(pc[w])) >> last[1] & 1:
            bad("%s has three towers but the last move did not complete one of them: the game would have ended "
                "earlier" % colours[w])
    return State(pc, last, bga)
