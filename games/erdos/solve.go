package erdos

import (
	"context"
	"errors"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/boardgame-arena/arena/games"
)

// DefaultSolverMB is the transposition table size of the solvers SolveExact
// uses.
const DefaultSolverMB = 64

// Solver solves Erdős Latino positions exactly: an alpha-beta search over
// the exact value (the winner's margin, Outcome.Score from the side to
// move's view, ±1 for starvation) by null-window tests, the win/loss
// question first, with a transposition table keyed on the position reduced
// by the game's symmetries:
//
//   - any permutation of the five columns (5! = 120): legality is a
//     Latin-square constraint, blind to the order of rows and columns, and
//     control is decided column by column and only counted;
//   - under the standard rules also reversing the ranks together with the
//     levels (rank r → 6−r, level l → 6−l): a run increasing bottom→top stays
//     one, so each player's chains are kept (×2, 240 in all). The Algol
//     engine's quirk Q1 compares with a minimum on one side only, which this
//     reflection turns into a maximum, so the algol rules keep the 120.
//
// A position is its five columns, each its levels (base 6) and its
// controller; the canonical form sorts the columns' codes (for the standard
// rules, of the position and of its reflection, taking the smaller), which
// is exact: two positions get the same key if and only if a symmetry maps
// one onto the other. The table stores lower and upper bounds on the value
// and the best move in the canonical frame (its index mixes all 75 bits:
// the low ones alone, the smallest columns, collide badly). Moves are tried:
// the table's move, then placements that capture a column for the mover,
// then two killer moves of the ply, then the others by a history score,
// placements that hand a column to the opponent last. On 12 positions of
// 14–15 empty cells, captures first and the killers each change the nodes
// by about 10% (either way); the table's index was worth a factor of ten.
// A node also stops at once when its bounds (every uncontrolled column won
// or lost, starvation worth ±1) cannot reach the window.
//
// Its table persists between solves, so solving many related positions
// with one Solver reuses work. A Solver is not safe for concurrent use;
// SolveExact keeps a pool of them.
type Solver struct {
	mb      int // table size asked for
	tt      []ttEntry
	mask    uint64
	nodes   int64
	counted int64 // nodes already added to counter
	counter *atomic.Int64
	ctx     context.Context
	stopped bool
	moves   [MaxPlies + 1][NumMoves]uint8
	scores  [MaxPlies + 1][NumMoves]int32
	history [2][NumMoves]int32
	killers [MaxPlies + 1][2]uint8
	stack   [MaxPlies + 1]board // stack[ply]: the child being searched at ply
}

// ttEntry holds the bounds on the value of a canonical position. lo/hi are
// the key (hi's bit 15 marks the algol rules); used tells a filled slot.
type ttEntry struct {
	lo           uint64
	hi           uint16
	lower, upper int8
	move         uint8 // best move in the canonical frame, noMove if none
	empties      uint8 // empty cells of the position (replacement priority)
	used         bool
}

const (
	historyCap   = 1 << 26 // below every other ordering bonus
	killerBonus  = 1 << 27
	captureBonus = 1 << 28
	noMove       = 255
	maxValue     = Size // the largest margin: every column
	infinity     = maxValue + 1
)

// NewSolver returns a solver with a transposition table of about mb
// megabytes (at least one), rounded down to a power of two entries.
func NewSolver(mb int) *Solver {
	n := uint64(max(mb, 1)) << 20 / 16
	n = 1 << (63 - bits.LeadingZeros64(n))
	sv := &Solver{tt: make([]ttEntry, n), mask: n - 1, mb: mb}
	for i := range sv.killers {
		sv.killers[i] = [2]uint8{noMove, noMove}
	}
	return sv
}

// Nodes returns the nodes searched by the last Solve.
func (sv *Solver) Nodes() int64 { return sv.nodes }

// errStopped is returned (wrapped in ctx's error) when a solve is stopped.
var errStopped = errors.New("erdos: solve stopped")

// Solve returns the exact value of s from the side to move's view (see
// games.ExactSolver) and a principal variation that replays legally to the
// end of the game. It returns ctx's error if ctx is done first.
func (sv *Solver) Solve(ctx context.Context, s *State) (int, []games.Move, error) {
	sv.start(ctx)
	defer sv.flush()
	if s.Terminal() {
		return terminalValue(s), nil, nil
	}
	b := s.b
	v, hi := sv.value(&b)
	if sv.stopped {
		if lo0, hi0 := bounds(&b); v > lo0 || hi < hi0 {
			return 0, nil, &games.ProvenBounds{Lo: v, Hi: hi, Err: sv.err()}
		}
		return 0, nil, sv.err()
	}
	pv := sv.line(&b, v)
	if sv.stopped {
		return 0, nil, sv.err()
	}
	return v, pv, nil
}

// Test reports whether the value of s from the side to move's view is at
// least g (the question a null-window search answers), for win/loss/draw
// decisions: g = 1 asks "does the side to move win?".
func (sv *Solver) Test(ctx context.Context, s *State, g int) (bool, error) {
	sv.start(ctx)
	defer sv.flush()
	if s.Terminal() {
		return terminalValue(s) >= g, nil
	}
	b := s.b
	v := sv.search(&b, g-1, g)
	if sv.stopped {
		return false, sv.err()
	}
	return v >= g, nil
}

func (sv *Solver) start(ctx context.Context) {
	sv.ctx, sv.stopped, sv.nodes, sv.counted = ctx, false, 0, 0
	if ctx.Err() != nil {
		sv.stopped = true
	}
}

func (sv *Solver) err() error {
	if err := sv.ctx.Err(); err != nil {
		return err
	}
	return errStopped
}

// flush adds the nodes not yet counted to the caller's counter.
func (sv *Solver) flush() {
	if sv.counter != nil {
		sv.counter.Add(sv.nodes - sv.counted)
	}
	sv.counted = sv.nodes
}

// poll runs every 4096 nodes: it notices a done context and reports nodes.
func (sv *Solver) poll() {
	select {
	case <-sv.ctx.Done():
		sv.stopped = true
	default:
	}
	sv.flush()
}

// terminalValue is a finished game's Score from the view of the player who
// would move.
func terminalValue(s *State) int {
	if s.b.side == 0 {
		return int(s.b.score)
	}
	return -int(s.b.score)
}

// value finds the exact value of a live position by null-window tests,
// the win/loss question first, then halving the range left. Under the
// standard rules every value is odd (five full columns all controlled, or
// ±1 by starvation), so only odd thresholds are tested. It returns the
// value twice, or, when stopped, the range proven so far.
func (sv *Solver) value(b *board) (lo, hi int) {
	lo, hi = bounds(b)
	odd := !b.algol
	for lo < hi && !sv.stopped {
		var g int // test value ≥ g, lo < g ≤ hi
		switch {
		case lo < 1 && 1 <= hi:
			g = 1
		case lo < 0 && 0 <= hi && !odd:
			g = 0
		default:
			g = (lo + hi + 1) >> 1
			if odd && g&1 == 0 {
				if g+1 <= hi {
					g++
				} else {
					g--
				}
			}
		}
		v := sv.search(b, g-1, g)
		if sv.stopped {
			break // v is not a bound
		}
		if v >= g {
			lo = max(g, v)
		} else {
			hi = min(g-1, v)
		}
		if odd {
			lo, hi = lo|1, (hi-1)|1 // round lo up and hi down to odd
		}
	}
	return lo, hi
}

// bounds returns what the side to move can at best and at worst get: the
// column count with every uncontrolled column going one way, or ±1 by
// starvation. Controlled columns never change hands, so this holds under
// the algol count (columns before the last placement) too.
func bounds(b *board) (lo, hi int) {
	p := b.side
	mine, theirs := bits.OnesCount8(b.ctrl[p]), bits.OnesCount8(b.ctrl[1-p])
	free := Size - mine - theirs
	return min(-1, mine-theirs-free), max(1, mine+free-theirs)
}

// line returns a principal variation from a live position of value v: at
// every ply a move whose value is v, found by null-window tests.
func (sv *Solver) line(b *board, v int) []games.Move {
	var pv []games.Move
	cur := *b
	for cur.reason == NotOver && !sv.stopped {
		n := sv.generate(&cur, noMove)
		found := false
		for k := 0; k < n && !found; k++ {
			m := sv.moves[cur.ply][k]
			c := cur
			c.place(int(m)%Cells, int(m)/Cells)
			var w int
			if c.reason != NotOver {
				w = int(c.score)
				if cur.side == 1 {
					w = -w
				}
			} else if w = -sv.search(&c, -v, -v+1); w < v {
				continue
			}
			if w == v {
				pv = append(pv, games.Move(m))
				cur, v, found = c, -v, true
			}
		}
		if !found && !sv.stopped {
			panic("erdos: solver found no move keeping the value")
		}
	}
	return pv
}

// search returns the value of the live position b from the side to move's
// view, fail-soft: a value ≤ alpha is an upper bound, ≥ beta a lower bound.
func (sv *Solver) search(b *board, alpha, beta int) int {
	sv.nodes++
	if sv.nodes&4095 == 0 {
		sv.poll()
	}
	if sv.stopped {
		return 0
	}
	lo, hi := bounds(b)
	if hi <= alpha {
		return hi
	}
	if lo >= beta {
		return lo
	}
	k := canonical(b)
	e := &sv.tt[k.index()&sv.mask]
	ttMove := uint8(noMove)
	if e.used && e.lo == k.lo && e.hi == k.hi {
		lo, hi = max(lo, int(e.lower)), min(hi, int(e.upper))
		if lo >= beta || lo == hi {
			return lo
		}
		if hi <= alpha {
			return hi
		}
		if e.move != noMove {
			ttMove = k.fromCanonical(e.move)
		}
	}
	a0 := alpha
	alpha = max(alpha, lo)
	beta = min(beta, hi)
	n := sv.generate(b, ttMove)
	p := b.side
	best, bestMove := -infinity, uint8(noMove)
	moves, scores := &sv.moves[b.ply], &sv.scores[b.ply]
	for j := 0; j < n; j++ {
		// Selection: the best-scored move left goes next.
		bi := j
		for i := j + 1; i < n; i++ {
			if scores[i] > scores[bi] {
				bi = i
			}
		}
		moves[j], moves[bi] = moves[bi], moves[j]
		scores[j], scores[bi] = scores[bi], scores[j]
		m := moves[j]
		// The child lives in the solver's stack: a local would escape
		// through the recursive call and cost an allocation per node.
		c := &sv.stack[b.ply+1]
		*c = *b
		before := c.ctrl
		c.put(int(m)%Cells, int(m)/Cells)
		var v int
		switch {
		case c.ply == Cells:
			cols := c.ctrl
			if c.algol {
				cols = before
			}
			v = bits.OnesCount8(cols[p]) - bits.OnesCount8(cols[1-p])
		case !c.anyLegal():
			v = 1 // the opponent starves
		default:
			v = -sv.search(c, -beta, -max(alpha, best))
			if sv.stopped {
				return 0
			}
		}
		if v > best {
			best, bestMove = v, m
			if v >= beta {
				e := Cells - int(b.ply)
				if sv.history[p][m] += int32(e * e); sv.history[p][m] > historyCap {
					for i := range sv.history[p] {
						sv.history[p][i] /= 2 // age them all, keep the order
					}
				}
				if k := &sv.killers[b.ply]; k[0] != m {
					k[1], k[0] = k[0], m
				}
				break
			}
		}
	}
	// Store the bounds best proves, merged with what the slot knew.
	lower, upper := lo, hi
	switch {
	case best >= beta:
		lower = best
	case best <= max(a0, lo):
		upper = best
		// An all-node's best move is no better than the others: keep the
		// move an earlier search found, if any.
		bestMove = noMove
		if ttMove != noMove {
			bestMove = ttMove
		}
	default:
		lower, upper = best, best
	}
	// The narrowed window may exclude the value; keep the bounds consistent.
	lower, upper = max(lower, lo), min(upper, hi)
	if lower > upper {
		lower, upper = best, best
	}
	empties := uint8(Cells - b.ply)
	if !(e.used && e.lo == k.lo && e.hi == k.hi) && e.used && e.empties > empties+2 {
		return best // keep the bigger subtree's entry
	}
	*e = ttEntry{lo: k.lo, hi: k.hi, lower: int8(lower), upper: int8(upper),
		move: k.toCanonical(bestMove), empties: empties, used: true}
	return best
}

// generate fills sv.moves[b.ply] with the legal moves of b and their
// ordering scores, and returns how many there are.
func (sv *Solver) generate(b *board, ttMove uint8) int {
	moves, scores := &sv.moves[b.ply], &sv.scores[b.ply]
	p := int(b.side)
	free := full &^ b.occ
	ctrl := b.ctrl[0] | b.ctrl[1]
	k0, k1 := sv.killers[b.ply][0], sv.killers[b.ply][1]
	n := 0
	for l := 0; l < Size; l++ {
		for m := free &^ b.blocked[l]; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			code := uint8(l*Cells + i)
			s := sv.history[p][code]
			f, r := i%Size, i/Size
			if ctrl&(1<<f) == 0 {
				c := int(b.code[f]) + (l+1)*int(pow6[r])
				t := chains[c*Size+r]
				if b.algol && p == 1 {
					t >>= 2
				}
				switch {
				case t&(1<<p) != 0:
					s += captureBonus // captures for the mover
				case t&(2>>p) != 0:
					s -= captureBonus // hands the column to the opponent
				}
			}
			switch code {
			case ttMove:
				s = 1 << 30
			case k0:
				s += killerBonus + 1
			case k1:
				s += killerBonus
			}
			moves[n], scores[n] = code, s
			n++
		}
	}
	return n
}

// key is a canonical position: the sorted column keys packed in 75 bits,
// and the symmetry that maps the position onto it.
type key struct {
	lo   uint64
	hi   uint16
	col  [Size]uint8 // col[j]: the position's column that is canonical column j
	inv  [Size]uint8 // inv[f]: the canonical column of the position's column f
	flip bool        // ranks and levels reversed
}

func (k *key) index() uint64 {
	// A multiply's low bits see only the low input bits (the smallest
	// columns): fold the high half down before and after.
	h := k.lo ^ uint64(k.hi)<<49 ^ k.lo>>31
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 31
	h *= 0x94d049bb133111eb
	return h ^ h>>29
}

// toCanonical maps a move of the position into the canonical frame.
func (k *key) toCanonical(m uint8) uint8 {
	if m == noMove {
		return m
	}
	i, l := int(m)%Cells, int(m)/Cells
	f, r := i%Size, i/Size
	if k.flip {
		r, l = Size-1-r, Size-1-l
	}
	return uint8(l*Cells + r*Size + int(k.inv[f]))
}

// fromCanonical maps a canonical move back into the position's frame.
func (k *key) fromCanonical(m uint8) uint8 {
	i, l := int(m)%Cells, int(m)/Cells
	f, r := i%Size, i/Size
	if k.flip {
		r, l = Size-1-r, Size-1-l
	}
	return uint8(l*Cells + r*Size + int(k.col[f]))
}

// flipCode[c] is column code c with the ranks and the levels reversed.
var flipCode = func() (t [7776]uint16) {
	for c := range t {
		x, y := c, 0
		for r := 0; r < Size; r++ {
			lv := x % 6
			x /= 6
			if lv != 0 {
				lv = 6 - lv
			}
			y += lv * int(pow6[Size-1-r])
		}
		t[c] = uint16(y)
	}
	return t
}()

// canonical returns the canonical key of b.
func canonical(b *board) key {
	var a, f [Size]uint32
	for c := 0; c < Size; c++ {
		o := uint32(0)
		switch {
		case b.ctrl[0]&(1<<c) != 0:
			o = 1
		case b.ctrl[1]&(1<<c) != 0:
			o = 2
		}
		a[c] = (uint32(b.code[c])*3+o)<<3 | uint32(c)
		f[c] = (uint32(flipCode[b.code[c]])*3+o)<<3 | uint32(c)
	}
	sort5(&a)
	lo, hi := pack(&a)
	k := key{lo: lo, hi: hi}
	use := &a
	if !b.algol {
		sort5(&f)
		flo, fhi := pack(&f)
		if fhi < hi || fhi == hi && flo < lo {
			k.lo, k.hi, k.flip, use = flo, fhi, true, &f
		}
	} else {
		k.hi |= 1 << 15
	}
	for j, v := range use {
		c := uint8(v & 7)
		k.col[j], k.inv[c] = c, uint8(j)
	}
	return k
}

// pack packs five sorted column keys (15 bits each, the column number in
// the low 3 bits dropped) into 75 bits.
func pack(a *[Size]uint32) (lo uint64, hi uint16) {
	lo = uint64(a[0]>>3) | uint64(a[1]>>3)<<15 | uint64(a[2]>>3)<<30 | uint64(a[3]>>3)<<45
	return lo, uint16(a[4] >> 3)
}

// sort5 sorts five values by an optimal network of nine comparators.
func sort5(a *[Size]uint32) {
	cs := func(i, j int) {
		if a[i] > a[j] {
			a[i], a[j] = a[j], a[i]
		}
	}
	cs(0, 1)
	cs(3, 4)
	cs(2, 4)
	cs(2, 3)
	cs(0, 3)
	cs(0, 2)
	cs(1, 4)
	cs(1, 3)
	cs(1, 2)
}

// pool holds idle solvers for SolveExact, each with its table: consecutive
// solves of related positions reuse each other's work.
var pool struct {
	sync.Mutex
	idle []*Solver
}

// SolveExact implements games.ExactSolver with a solver from a pool (a new
// one when no idle solver has the table size asked for), its table
// o.TableMB megabytes or DefaultSolverMB, counting its nodes into o.Nodes
// if set. It searches on one thread whatever o.Threads says; run several
// solves at once to use more. It takes no value hint.
func (s *State) SolveExact(ctx context.Context, o games.SolveOptions) (int, []games.Move, int64, error) {
	mb := o.TableMB
	if mb <= 0 {
		mb = DefaultSolverMB
	}
	pool.Lock()
	var sv *Solver
	for i := len(pool.idle) - 1; i >= 0; i-- {
		if pool.idle[i].mb == mb {
			sv = pool.idle[i]
			pool.idle = append(pool.idle[:i], pool.idle[i+1:]...)
			break
		}
	}
	pool.Unlock()
	if sv == nil {
		sv = NewSolver(mb)
	}
	sv.counter = o.Nodes
	v, pv, err := sv.Solve(ctx, s)
	nodes := sv.nodes
	sv.counter = nil // the pool keeps no caller's counter
	pool.Lock()
	pool.idle = append(pool.idle, sv)
	if len(pool.idle) > maxIdle {
		pool.idle = pool.idle[1:] // the oldest goes
	}
	pool.Unlock()
	return v, pv, nodes, err
}

// maxIdle bounds the solvers (and their tables) the pool keeps.
const maxIdle = 8

// CanonicalPosition returns the position text (see Position) of the
// representative of s's class under the game's symmetries (column
// permutations; under the standard rules also reversing the ranks with the
// levels): two positions have the same canonical text if and only if a
// symmetry maps one onto the other. search/solve's Plies (arena solve
// --plies) deduplicates by it.
func (s *State) CanonicalPosition() string {
	if s.b.reason != NotOver && s.b.algol && s.b.ply == Cells {
		return s.Position() // the stale count (Q2) is not in the key
	}
	k := canonical(&s.b)
	b := []byte("...../...../...../...../..... -----")
	for j := 0; j < Size; j++ {
		f := int(k.col[j])
		for r := 0; r < Size; r++ {
			lv := s.b.level(r*Size + f)
			tr := r
			if k.flip {
				tr = Size - 1 - r
				if lv != 0 {
					lv = Size + 1 - lv
				}
			}
			if lv != 0 {
				b[(Size-1-tr)*(Size+1)+j] = byte('0' + lv)
			}
		}
		b[len(b)-Size+j] = "-12"[s.Controller(f)+1]
	}
	return string(b)
}
