package othello6

import (
	"context"
	"errors"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgame-arena/arena/games"
)

// Exact endgame solver. Values follow SolvedScore (empty cells go to the
// winner) and are from the view of the side to move, in [−36, 36].
//
// The search is negamax alpha-beta with principal-variation search on bare
// bitboards (me, opp). Below fullWindowEmpties the root is searched with
// windows two wide around a guess, each result the next guess (values are
// even, see root), which cut a third to a half of the nodes against one
// full-window search at 22–24 empties. Below the root the
// search is organised by the number of empty cells:
//
//   - one empty cell: the flips counted, not played (lastFlipCounts); two:
//     dedicated code;
//   - up to parityEmpties: empty cells are tried in parity order (cells of
//     3×3 quadrants holding an odd number of empties first, the quadrant
//     parities carried down incrementally), no table, no sorting;
//   - up to shallowEmpties (fastestFirst, solve_last.go): fastest-first by
//     the opponent's replies, bounds in a small table of its own that stays
//     in the second-level cache (lastTable), ETC against it and the
//     stability cut-off, no stop or split checks;
//   - deeper (search): fastest-first ordering (fewest opponent replies first,
//     corners counting twice, then fewest empty cells next to my discs),
//     from evalKeyEmpties plus a pattern evaluation fitted for the purpose
//     (solve_eval.go) of each child, and from 15 empties an alpha-beta
//     search with that evaluation instead, 1 ply deep at first (added to
//     the key above up to mixedKeyEmpties) and up to 10 plies near
//     the start (orderDepthFor); a transposition table keyed
//     by the exact position with lower and upper bounds and the best move,
//     which is searched before the other moves are generated (below
//     symEmpties), the children's entries prefetched as the list is built;
//     from etcEmpties enhanced transposition cut-off (a child already known
//     to refute the node ends it before any search), and up to
//     lastSearchEmpties+1 the same against lastTable; a stability cut-off
//     (the opponent's stable discs bound the score) when alpha is high.
//
// With several threads the search splits young-brothers-wait style: at any
// node with at least splitEmpties empties, once the first child is searched
// and an idle thread exists, the remaining children are shared between the
// two (nested splits allowed, an aborted split abandons its subtrees).
// Down to symEmpties, moves leading to mirror images of an already listed
// child are skipped (the four first moves are one). The principal variation
// is read back by re-searching each step with a window around its value,
// the table's move first.
//
// Given a value hint (games.SolveOptions.ValueHint: the perfect agent
// passes the value its last move proved, which no reply can lower), the
// root first looks for a move that keeps it, by null-window searches at
// the hint (keepHint), then starts its windows from that move's bound. A solve
// stopped later still has that move (games.KeptHint). At 24 empties, below
// a book from 25 (BenchmarkSolveBookGap), the move came after 0.05 s of
// CPU on average (worst 0.19 s) after random replies, 0.24 s (0.50 s)
// after optimal ones; the whole solve took 1.5–4.8 % more nodes than
// without a hint there, 15 % fewer at 23 empties after optimal replies.

const (
	solveInf       = 64
	shallowEmpties = 10 // lastPlies at or below this: no main table (see lastTable)
	parityEmpties  = 4  // no sorting at or below this, see shallow
	// Enhanced transposition cut-off at or above this. Each ETC probes
	// every child in the table, a cache miss apiece: from 14 instead of 12,
	// 1–4 % more nodes but 4–7 % less CPU (quiet machine).
	etcEmpties   = 14
	splitEmpties = 12 // parallel split points at or above this
	// Up to this many empties search keeps its bounds in the thread's
	// lastTable too (besides the main table), and one more up, its nodes
	// look their children up there (ETC), as fastestFirst does: a cache
	// hit, not a miss into the main table. On the mid-size sets, ETC at
	// 11 empties alone (children from fastestFirst): 0.4-0.9 % fewer
	// nodes, CPU within noise; with 11 stored too and ETC at 12, another
	// 0.2-0.9 % and 0-5 % less CPU; with 12 stored and ETC at 13, another
	// 0.4-0.8 %; with 13 and 14, no more.
	lastSearchEmpties = shallowEmpties + 2
	symEmpties        = 27 // symmetry pruning at or above this
	rootWiden         = 2  // see root
	// From this many empties the root searches one full window (see root).
	fullWindowEmpties = 28
	stabilityAlpha    = 8 // try the stability cut-off only when alpha is this high

	orderInf = 10000

	// Move ordering keys between the last plies and the top (see search):
	// from evalKeyEmpties, orderKeyEval, the fastest-first key plus the
	// ordering evaluation over evalKeyDiv; up to mixedKeyEmpties, the
	// 1-ply ordering search over mixedSearchDiv plus orderKeyEval. Against
	// the fastest-first key alone below 15 empties and the ordering search
	// alone above: 23–37 % fewer nodes on the mid-size sets (CPU: 10–24 %
	// less with the search plus the fastest-first key alone at 15–20, then
	// 1–4 % less again, and 1–5 % fewer nodes on each of eight sets, with
	// orderKeyEval there). From 9 empties: fewer nodes, more CPU; the
	// evaluation alone at 10–14: more nodes than fastest-first; divisors
	// 8–16 and 2–8 within a few percent.
	evalKeyEmpties  = 10
	evalKeyDiv      = 12
	mixedKeyEmpties = 20
	mixedSearchDiv  = 4

	// The stop (context done) is looked at after every pollNodes nodes of
	// the exact search and every orderPollNodes nodes of the ordering
	// searches (which evaluate their leaves, so cost more per node): each
	// is well under a millisecond of work, so a solve returns within about
	// that of its deadline.
	pollNodes      = 1 << 14
	orderPollNodes = 1 << 12
)

// quadrant masks for parity ordering: a1–c3, d1–f3, a4–c6, d4–f6.
const quadrant0 uint64 = 0x7 | 0x7<<6 | 0x7<<12

var quadrants = [4]uint64{quadrant0, quadrant0 << 3, quadrant0 << 18, quadrant0 << 21}

// SolveResult is the answer of Solve.
type SolveResult struct {
	Value int          // SolvedScore from the side to move's view
	PV    []games.Move // a principal variation, first move first
	Nodes int64
}

// SolveExact implements games.ExactSolver with a fresh table of o.TableMB
// megabytes, else one sized for the position (see solveTableMB, capped by
// the time ctx leaves it, see budgetTableMB). It adds its nodes to o.Nodes
// as it goes, if set, and starts from o's value hint (see SolveWith).
func (s *State) SolveExact(ctx context.Context, o games.SolveOptions) (int, []games.Move, int64, error) {
	mb := o.TableMB
	if mb <= 0 {
		mb = solveTableMB(s.Empties())
		if end, ok := ctx.Deadline(); ok {
			mb = min(mb, budgetTableMB(time.Until(end), o.Threads))
		}
	}
	r, err := NewSolver(mb).SolveWith(ctx, s, o)
	return r.Value, r.PV, r.Nodes, err
}

// solveTableMB is the table size for a solve from a position with the given
// empties: 4 MB up to 20 empties, doubling every two more, 256 MB from 32.
// Small solves gain nothing from a big table (positions with 24 empties
// took as many nodes with 4 MB as with 64 MB, and less time, the table
// staying in cache) and should not pay for allocating one; the solve from
// the start took 8 % fewer nodes with 512 MB than with 64 MB.
func solveTableMB(empties int) int {
	return 4 << min(6, max(0, (empties-20)/2))
}

// budgetTableMB is the largest table worth allocating for a solve of the
// given time: 64 MB a second and thread, a power of two, at least 4 MB.
// A short solve (an agent's move, an adjudication) fills little of a big
// table, and allocating one is not free: 256 MB took 0.3–0.5 s in one
// allocation of eight in a row, when the heap had to grow or re-zero freed
// memory, which overran a 60 ms move.
func budgetTableMB(d time.Duration, threads int) int {
	limit := d.Seconds() * 64 * float64(max(1, threads))
	mb := 4
	for float64(mb*2) <= limit && mb < 1<<16 {
		mb *= 2
	}
	return mb
}

// errStopped aborts a search.
var errStopped = errors.New("othello6: solve stopped")

// Solve computes the exact value of s with the given number of threads and
// a fresh transposition table of ttMB megabytes (no hint, no progress
// counter: see SolveWith).
func Solve(ctx context.Context, s *State, threads, ttMB int) (SolveResult, error) {
	return NewSolver(ttMB).Solve(ctx, s, threads)
}

// Solver keeps a transposition table between solves. Its entries are exact
// bounds of positions, valid in any later solve, so it need not be cleared.
// A Solver runs one solve at a time.
type Solver struct{ tt *solveTT }

// NewSolver returns a solver with a table of ttMB megabytes.
func NewSolver(ttMB int) *Solver { return &Solver{tt: newSolveTT(ttMB)} }

// Clear empties the table (for fair timing).
func (so *Solver) Clear() { clear(so.tt.slots) }

// Solve computes the exact value of s with the given number of threads
// (SolveWith with no hint and no progress counter).
func (so *Solver) Solve(ctx context.Context, s *State, threads int) (SolveResult, error) {
	return so.SolveWith(ctx, s, games.SolveOptions{Threads: threads})
}

// SolveWith computes the exact value of s with o.Threads threads, adding
// its nodes to o.Nodes as it goes if set (o.TableMB is ignored: the
// Solver has its table). Stopped while it reads the line back, it returns
// the value and the line so far (at least the first move, if a window
// proved one worth the value). Given a hint (o.ValueHint) and stopped
// before it proved the value, it returns a *games.KeptHint error when it
// had found a move that keeps the hint, with that move as PV and its lower
// bound as Value.
func (so *Solver) SolveWith(ctx context.Context, s *State, o games.SolveOptions) (SolveResult, error) {
	if s.over {
		return SolveResult{Value: sign(s.side) * SolvedScore(s.discs[0], s.discs[1])}, nil
	}
	sv := newSolver(ctx, o.Threads, so.tt).use(o)
	me, opp := s.discs[s.side], s.discs[1-s.side]
	return sv.result(me, opp, sv.root(me, opp))
}

// result is Solve's answer after root returned v for (me, opp).
func (sv *solver) result(me, opp uint64, v int) (SolveResult, error) {
	var err error
	if sv.shared.stop.Load() {
		// No value, so no line: read back from the stopped searches'
		// zeros, it would be the first legal move at every step.
		err = sv.shared.ctx.Err()
		if err == nil && sv.shared.hasDeadline {
			// Stopped by the clock before the context's timer ran.
			err = context.DeadlineExceeded
		}
		if err == nil {
			err = errStopped
		}
	}
	var pv []games.Move
	switch k, g := sv.shared.kept, sv.shared.guessMove; {
	case err == nil:
		pv = sv.line(me, opp, v)
	case k.move >= 0:
		v, pv = k.value, []games.Move{games.Move(k.move)}
		err = &games.KeptHint{Move: pv[0], Value: v, Err: err}
	case g >= 0:
		// Not a line: nothing about it is proven.
		err = &games.BestGuess{Move: games.Move(g), Err: err}
	}
	return SolveResult{Value: v, PV: pv, Nodes: sv.shared.nodes.Load()}, err
}

func sign(side int) int {
	if side == 0 {
		return 1
	}
	return -1
}

// solveTT is a lockless table of two-slot buckets (the first slot keeps the
// result with more empties, the second takes everything else); a slot is
// two words, key XOR data and data.
type solveTT struct {
	slots []ttSlot
	mask  uint64
}

type ttSlot struct{ key, data atomic.Uint64 }

func newSolveTT(mb int) *solveTT {
	n := uint64(1)
	for n*2*32 <= uint64(mb)<<20 {
		n *= 2
	}
	slots := make([]ttSlot, 2*n)
	adviseHugePages(slots) // before the first write: see solve_tt_linux.go
	return &solveTT{slots: slots, mask: n - 1}
}

func posKey(me, opp uint64) uint64 {
	h := me*0x9e3779b97f4a7c15 ^ (opp+0x632be59bd9b4e019)*0xc2b2ae3d27d4eb4f
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>32
}

// data word: lower+64, upper+64, best move+1, empties (8 bits each).
func (t *solveTT) probe(key uint64) (lo, hi, move int, ok bool) {
	b := t.slots[2*(key&t.mask):]
	for i := 0; i < 2; i++ {
		d := b[i].data.Load()
		if b[i].key.Load()^d == key && d != 0 {
			return int(d&255) - 64, int(d>>8&255) - 64, int(d>>16&255) - 1, true
		}
	}
	return -solveInf, solveInf, -1, false
}

func (t *solveTT) store(key uint64, lo, hi, move, empties int) {
	d := uint64(lo+64) | uint64(hi+64)<<8 | uint64(move+1)<<16 | uint64(empties)<<24
	b := t.slots[2*(key&t.mask):]
	d0 := b[0].data.Load()
	if b[0].key.Load()^d0 == key || int(d0>>24&255) <= empties {
		b[0].key.Store(key ^ d)
		b[0].data.Store(d)
		return
	}
	b[1].key.Store(key ^ d)
	b[1].data.Store(d)
}

// shared is what the threads of one solve have in common.
type solveShared struct {
	ctx context.Context
	// The context's deadline, also compared with the clock directly: the
	// goroutine that marks the context done may wait up to 10 ms for a
	// processor while the search threads keep them all busy.
	deadline    time.Time
	hasDeadline bool
	tt          *solveTT
	// The position is worth at least hint (SolveOptions.ValueHint), if
	// set: the root looks for a move that keeps it first (keepHint). kept is the
	// move proven worth the most so far, by keepHint or a window that
	// failed high or found the value (keepProven).
	hint    int
	hasHint bool
	kept    keptMove
	// guessMove is the move the root's guess rates best, or −1.
	guessMove int
	// stopAt stops the solve once it has counted this many nodes (tests:
	// a stop at a known point of the search); 0 for none.
	stopAt int64
	// lastFree holds the last plies' tables of finished split helpers, for
	// the next ones (each thread has its own, see lastTable).
	lastMu   sync.Mutex
	lastFree []*lastTable
	stop     atomic.Bool
	nodes    atomic.Int64
	progress *atomic.Int64 // SolveOptions.Nodes, or nil
	idle     atomic.Int32  // threads waiting for work
}

type solver struct {
	shared *solveShared
	nodes  int64 // exact-search nodes not yet added to shared.nodes
	// orderNodes counts the ordering searches' nodes since the last look
	// at the stop. They are not part of the reported node count.
	orderNodes int64
	last       *lastTable // this thread's table of the last plies
	// The counters above change at every node: the padding keeps two
	// threads' solvers off one cache line.
	_ [128]byte
}

// takeLast returns a table of the last plies for a split's helper thread:
// one a finished helper left, else a new one. Its entries are exact
// bounds, good for any position of the solve.
func (sh *solveShared) takeLast() *lastTable {
	sh.lastMu.Lock()
	defer sh.lastMu.Unlock()
	if n := len(sh.lastFree); n > 0 {
		t := sh.lastFree[n-1]
		sh.lastFree = sh.lastFree[:n-1]
		return t
	}
	return new(lastTable)
}

// putLast gives back a table of takeLast.
func (sh *solveShared) putLast(t *lastTable) {
	sh.lastMu.Lock()
	sh.lastFree = append(sh.lastFree, t)
	sh.lastMu.Unlock()
}

func newSolver(ctx context.Context, threads int, tt *solveTT) *solver {
	if threads < 1 {
		threads = 1
	}
	sv := &solver{shared: &solveShared{ctx: ctx, tt: tt}, last: new(lastTable)}
	sv.shared.deadline, sv.shared.hasDeadline = ctx.Deadline()
	sv.shared.kept.move = -1
	sv.shared.guessMove = -1
	sv.shared.idle.Store(int32(threads - 1))
	return sv
}

// use takes o's progress counter and value hint (its threads and table are
// newSolver's).
func (sv *solver) use(o games.SolveOptions) *solver {
	sv.shared.progress = o.Nodes
	sv.shared.hint, sv.shared.hasHint = o.ValueHint, o.HasValueHint
	return sv
}

// flush adds the local node count to the shared one and checks for a stop.
func (sv *solver) flush() {
	sv.shared.nodes.Add(sv.nodes)
	if sv.shared.progress != nil {
		sv.shared.progress.Add(sv.nodes)
	}
	sv.nodes = 0
	sh := sv.shared
	if sh.ctx.Err() != nil || sh.hasDeadline && !time.Now().Before(sh.deadline) ||
		sh.stopAt > 0 && sh.nodes.Load() >= sh.stopAt {
		sh.stop.Store(true)
	}
}

func final(me, opp uint64) int {
	a, b := bits.OnesCount64(me), bits.OnesCount64(opp)
	switch {
	case a > b:
		return Size*Size - 2*b
	case a < b:
		return 2*a - Size*Size
	}
	return 0
}

func (sv *solver) root(me, opp uint64) int {
	if sv.flush(); sv.shared.stop.Load() {
		return 0 // the context is already done
	}
	empties := bits.OnesCount64(^(me | opp) & full)
	// Every value is even (the empty cells go to the winner, so the discs
	// always add up to 36), and so is every fail-soft bound the search
	// returns. A window (t−1, t+1) around an even guess t therefore either
	// proves the value is t or returns a new bound, which is the next guess:
	// a sequence of near-null-window searches (MTD(f) with step 2), much
	// cheaper than one search with the full window when the guess is good.
	// Far from the end it is not, and a failed window costs almost as much
	// as a full search: from the start (32 empties) the guess is 0, the
	// value −4, and the first window alone took 0.71 G nodes, all three
	// 1.87 G against 1.63 G for one full window (2 threads). So from
	// fullWindowEmpties on, the root searches the full window (PVS below).
	// When the guess is far off, the bounds come back one step at a time,
	// each window dearer than the last, so after each failure the next
	// window reaches further (1–2 % fewer nodes at 22–24 empties than
	// fixed windows; widening by 4 instead of 2 cost 3–12 % more).
	lo, hi := -Size*Size, Size*Size
	// The guess is searched from any position, for its move (the answer
	// of a solve stopped before it proved anything, see Solve, and the
	// first keepHint tries); from fullWindowEmpties on its value is not
	// used.
	t, guessMove := sv.guess(me, opp, empties)
	sv.shared.guessMove = guessMove
	if sh := sv.shared; sh.hasHint && !sh.stop.Load() {
		if sh.kept = sv.keepHint(me, opp, empties, guessMove); sh.stop.Load() {
			return 0
		}
		if sh.kept.move >= 0 {
			lo = sh.kept.value
		}
	}
	alpha, beta := lo-1, hi+1
	if empties < fullWindowEmpties {
		// The value is at least lo, and after a hint often equal to it: a
		// window there proves it at once.
		t = max(lo, t)
		alpha, beta = t-1, t+1
	}
	key := posKey(me, opp)
	for widen := 0; lo < hi; widen++ {
		// A lower bound the table already holds (a Solver's earlier solve)
		// may settle the window without a search, and then the table's
		// move need not be the one that proves it.
		known, _, _, _ := sv.shared.tt.probe(key)
		v := sv.search(me, opp, alpha, beta, empties, nil)
		if sv.shared.stop.Load() {
			return 0
		}
		// After a failed window the next one reaches further from the
		// new bound (rootWiden even values more each time).
		reach := rootWiden * widen
		switch {
		case v >= beta:
			lo = v
			if known < beta {
				sv.keepProven(me, opp, v)
			}
			alpha, beta = v-1, min(hi, v+1+reach)
		case v <= alpha:
			hi = v
			alpha, beta = max(lo, v-1-reach), v+1
		default:
			lo, hi = v, v
			if known < v {
				sv.keepProven(me, opp, v)
			}
		}
	}
	sv.flush()
	return lo
}

// keptMove is a move worth at least value, or none (move −1).
type keptMove struct{ move, value int }

// keepProven notes the move of the root (me, opp) that a window just
// proved worth at least v (it failed high, or found the value v), if that
// beats the move kept so far: a solve stopped later returns it
// (games.KeptHint), with or without a hint, and so does one stopped while
// reading its line back (Solve). The move is the table's, stored by the
// window's search just before (root calls this only when the window was
// searched, not settled by a bound the table held): the root's entry has
// the most empties of the search, so nothing replaces it meanwhile, and
// its move is the one that failed high or reached v.
func (sv *solver) keepProven(me, opp uint64, v int) {
	sh := sv.shared
	if sh.kept.move >= 0 && sh.kept.value >= v {
		return
	}
	if _, _, m, ok := sh.tt.probe(posKey(me, opp)); ok && m >= 0 && Moves(me, opp)&bit(m) != 0 {
		sh.kept = keptMove{move: m, value: v}
	}
}

// keepHint looks for a move of the root (me, opp) worth at least the hint
// (SolveOptions.ValueHint), so that a solve stopped before it proves the
// value still has a move that loses nothing the position was known to be worth
// (games.KeptHint). It tries the guess's move first (−1 for none), then
// the others best first by the ordering search (a small part of the
// solve), each by a null-window search at the hint, whose table entries
// the solve then uses. The first move almost always keeps the hint; none
// does if the hint was wrong. The guess's move first, because the move
// kept is what a stopped solve plays, and below the hint the first that
// keeps it need not be good: on 80 hard positions with 23 empty cells,
// given the book's bound as the hint, 10 of 36 kept moves were not
// optimal when the depth-6 ordering picked them, where the 8-ply guess's
// moves missed 8 times in all without a hint.
func (sv *solver) keepHint(me, opp uint64, empties, guessMove int) keptMove {
	h := min(Size*Size, sv.shared.hint+sv.shared.hint&1) // values are even
	none := keptMove{move: -1}
	// keeps returns move i (flips f) with its bound if it keeps h, else none.
	keeps := func(i int, f uint64) keptMove {
		if v := -sv.search(opp&^f, me|f, -h, -h+1, empties-1, nil); v >= h && !sv.shared.stop.Load() {
			return keptMove{move: i, value: v}
		}
		return none
	}
	moves := Moves(me, opp)
	if guessMove >= 0 && moves&bit(guessMove) != 0 {
		if k := keeps(guessMove, Flips(guessMove, me, opp)|bit(guessMove)); k.move >= 0 || sv.shared.stop.Load() {
			return k
		}
		moves &^= bit(guessMove)
	}
	var list [Size * Size]moveOrder
	n := 0
	depth := max(0, min(6, empties-16))
	for m := moves; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		f := Flips(i, me, opp) | bit(i)
		list[n] = moveOrder{sq: int8(i), flips: f, key: int16(sv.orderSearch(opp&^f, me|f, depth, -orderInf, orderInf))}
		n++
	}
	sortMoves(list[:n]) // the opponent's view: lowest first
	for _, o := range list[:n] {
		if k := keeps(int(o.sq), o.flips); k.move >= 0 || sv.shared.stop.Load() {
			return k
		}
	}
	return none
}

// guess estimates the value of (me, opp) for the root's first window from
// a search with the ordering evaluation (solve_eval.go), deeper with more
// empties (up to 8 plies, a small part of any solve it serves), rounded to
// an even value. The closer the guess, the fewer windows: measured on
// positions with 22 and 24 empties (BenchmarkSolvePlayed), the 8-ply guess
// with the agents' evaluation cut the nodes by a fifth against always
// starting from 0, and the fitted pattern evaluation (as guess alone) by
// another 11–22 %; the exact value as the guess would cut them by almost
// half.
//
// It also returns the move that search rates best (−1 when it is shallower
// than orderSortDepth or the mover must pass): the solver's answer when it
// is stopped before it proved anything about a move (games.BestGuess).
func (sv *solver) guess(me, opp uint64, empties int) (value, move int) {
	depth := min(8, empties-14)
	if depth < 2 {
		return 0, -1
	}
	var v int
	move = -1
	if moves := Moves(me, opp); depth >= orderSortDepth && moves != 0 {
		// What orderSearch does at this depth, keeping the move.
		v, move = sv.orderSearchSorted(me, opp, moves, depth, -orderInf, orderInf)
	} else {
		v = sv.orderSearch(me, opp, depth, -orderInf, orderInf)
	}
	return max(-Size*Size, min(Size*Size, 2*int(math.Round(float64(v)/(2*orderUnit))))), move
}

// line is the principal variation of the root (me, opp), worth v (pv), or,
// when a stop cuts it before its first move, the move a window proved
// worth v, which is optimal: the value was proven just before the
// deadline. (Without it the perfect agent fell back to a depth-4 search:
// on 80 hard positions with 23 empty cells, 1–2 of each run's moves that
// were not optimal, 4 discs each.)
func (sv *solver) line(me, opp uint64, v int) []games.Move {
	pv := sv.pv(me, opp, v)
	if k := sv.shared.kept; len(pv) == 0 && k.move >= 0 && k.value >= v {
		pv = []games.Move{games.Move(k.move)}
	}
	return pv
}

// pv reads a principal variation of value v back from the table, checking
// each step by a null-window search around the value. If the solve is
// stopped meanwhile, the line ends at the last step checked.
func (sv *solver) pv(me, opp uint64, v int) []games.Move {
	var line []games.Move
	for {
		moves := Moves(me, opp)
		if moves == 0 {
			if Moves(opp, me) == 0 {
				return line
			}
			line = append(line, Pass)
			me, opp, v = opp, me, -v
			continue
		}
		empties := bits.OnesCount64(^(me | opp) & full)
		found := false
		// The table's best move first: it is almost always the answer.
		order := [2]uint64{0, moves}
		if _, _, tm, ok := sv.shared.tt.probe(posKey(me, opp)); ok && tm >= 0 && moves&bit(tm) != 0 {
			order = [2]uint64{bit(tm), moves &^ bit(tm)}
		}
		for k := 0; k < 2 && !found; k++ {
			for m := order[k]; m != 0; m &= m - 1 {
				i := bits.TrailingZeros64(m)
				f := Flips(i, me, opp) | bit(i)
				nm, no := opp&^f, me|f
				// The child is worth exactly -v to the opponent when it is
				// neither above nor below that.
				c := -sv.search(nm, no, -v-1, -v+1, empties-1, nil)
				if sv.shared.stop.Load() {
					// Stopped (the deadline came while the line was read
					// back): c is no result, so the line ends here.
					return line
				}
				if c == v {
					line = append(line, games.Move(i))
					me, opp, v = nm, no, -v
					found = true
					break
				}
			}
		}
		sv.flush()
		if !found {
			return line
		}
	}
}

// search returns the value of (me, opp) for me within (alpha, beta),
// fail-soft. sp is the innermost split point the search runs under (nil
// on the main line); its abort, or an ancestor's, ends the search early.
func (sv *solver) search(me, opp uint64, alpha, beta, empties int, sp *splitPoint) int {
	sv.nodes++
	// Not a test for an exact multiple: the last plies (shallow, lastTwo)
	// count nodes without looking, and would skip over it.
	if sv.nodes >= pollNodes {
		sv.flush()
	}
	if empties <= shallowEmpties {
		return sv.lastPlies(me, opp, alpha, beta, empties, parityOf(^(me|opp)&full))
	}
	if sv.shared.stop.Load() || sp.aborted() {
		return 0
	}
	moves := Moves(me, opp)
	if moves == 0 {
		if Moves(opp, me) == 0 {
			return final(me, opp)
		}
		return -sv.search(opp, me, -beta, -alpha, empties, sp)
	}
	// Stability cut-off: the opponent's stable discs stay his.
	var cut bool
	if beta, cut = stabilityBound(me, opp, alpha, beta); cut {
		return beta
	}
	tt := sv.shared.tt
	key := posKey(me, opp)
	lo, hi, ttMove, _ := tt.probe(key) // every search node (above shallowEmpties) uses the table
	if v, ok := boundsCut(lo, hi, alpha, beta); ok {
		return v
	}
	alpha0, beta0 := alpha, beta
	alpha, beta = max(alpha, lo), min(beta, hi)

	best, bestMove := -solveInf, -1
	// The table's move first, before the others are generated and ordered:
	// it usually refutes the node, and then their ordering keys and ETC
	// probes are saved.
	first := uint64(0)
	if ttMove >= 0 && moves&bit(ttMove) != 0 && empties < symEmpties {
		first = bit(ttMove)
		f := Flips(ttMove, me, opp) | first
		best = -sv.search(opp&^f, me|f, -beta, -alpha, empties-1, sp)
		bestMove = ttMove
		alpha = max(alpha, best)
	}
	if best < beta {
		best, bestMove = sv.searchRest(me, opp, moves&^first, alpha, beta, empties, ttMove, best, bestMove, first != 0, sp)
	}
	if sv.shared.stop.Load() || sp.aborted() {
		return 0
	}
	lo, hi = narrowBounds(lo, hi, best, alpha0, beta0)
	tt.store(key, lo, hi, bestMove, empties)
	if empties <= lastSearchEmpties {
		sv.last.store(key, lo, hi)
	}
	return best
}

// boundsCut returns the value a node's table bounds [lo, hi] give it in
// the window (alpha, beta), if they settle it: a bound beyond the window,
// or an exact value inside it (searching on would run with an empty
// window, whose fail-soft results are not bounds).
func boundsCut(lo, hi, alpha, beta int) (int, bool) {
	switch {
	case lo >= beta:
		return lo, true
	case hi <= alpha:
		return hi, true
	case lo == hi:
		return lo, true
	}
	return 0, false
}

// narrowBounds returns the bounds [lo, hi] after a fail-soft search of the
// window (alpha, beta) returned best.
func narrowBounds(lo, hi, best, alpha, beta int) (int, int) {
	switch {
	case best <= alpha:
		return lo, min(hi, best)
	case best >= beta:
		return max(lo, best), hi
	}
	return best, best
}

// searchRest searches the moves of (me, opp) best first, after the
// table's move ttMove if searched (its result in best, bestMove), and
// returns the best value and move.
func (sv *solver) searchRest(me, opp, moves uint64, alpha, beta, empties, ttMove, best, bestMove int, searched bool, sp *splitPoint) (int, int) {
	tt := sv.shared.tt
	// Generate, sort fastest-first, with enhanced transposition cut-off.
	var list [Size * Size]moveOrder
	n := 0
	for m := moves; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		f := Flips(i, me, opp) | bit(i)
		nm, no := opp&^f, me|f // child: opponent to move
		if empties >= symEmpties && seenSymmetric(nm, no, me, opp, list[:n]) {
			continue
		}
		o := moveOrder{sq: int8(i), flips: f}
		if empties-1 > shallowEmpties {
			// The child's table entry, wanted by its search or the ETC
			// below: fetched while the keys are computed. (Children of
			// shallowEmpties are searched without the table.)
			prefetch(&tt.slots[2*(posKey(nm, no)&tt.mask)])
		}
		switch {
		case i == ttMove:
			o.key = -30000
		case orderDepthFor[empties] > 0:
			k := sv.orderSearch(nm, no, int(orderDepthFor[empties]), -orderInf, orderInf)
			if empties <= mixedKeyEmpties {
				k = k/mixedSearchDiv + orderKeyEval(nm, no, i)
			}
			o.key = int16(k)
		case empties >= evalKeyEmpties:
			o.key = int16(orderKeyEval(nm, no, i))
		default:
			o.key = int16(orderKey(nm, no, i))
		}
		list[n] = o
		n++
	}
	moveList := list[:n]
	if empties <= lastSearchEmpties+1 {
		// The children's bounds may be in this thread's lastTable (which
		// stays in cache; see lastSearchEmpties): ETC against it.
		for _, o := range moveList {
			if _, chi := sv.last.probe(posKey(opp&^o.flips, me|o.flips)); -chi >= beta {
				return -chi, int(o.sq)
			}
		}
	}
	if empties >= etcEmpties {
		// After the list is built, so that the prefetched entries are in.
		for _, o := range moveList {
			if _, chi, _, ok := tt.probe(posKey(opp&^o.flips, me|o.flips)); ok && -chi >= beta {
				// A child proven at least beta for me ends the node (the
				// caller stores it).
				return -chi, int(o.sq)
			}
		}
	}
	for k := range moveList {
		// Selection, not a full sort: most nodes are refuted by their
		// first move, and the rest of the list is then never ordered.
		b := k
		for j := k + 1; j < n; j++ {
			if moveList[j].key < moveList[b].key {
				b = j
			}
		}
		moveList[k], moveList[b] = moveList[b], moveList[k]
		o := &moveList[k]
		nm, no := opp&^o.flips, me|o.flips
		var v int
		if (k > 0 || searched) && empties >= splitEmpties && sv.shared.acquire() {
			// Young brothers wait: the first child is done; search the
			// others together with an idle thread.
			sortMoves(moveList[k+1:])
			v2, m2 := sv.split(moveList[k:], me, opp, alpha, beta, empties, sp)
			if v2 > best {
				best, bestMove = v2, m2
			}
			break
		}
		if k == 0 && !searched {
			v = -sv.search(nm, no, -beta, -alpha, empties-1, sp)
		} else {
			v = -sv.search(nm, no, -alpha-1, -alpha, empties-1, sp)
			if v > alpha && v < beta {
				v = -sv.search(nm, no, -beta, -v, empties-1, sp)
			}
		}
		if v > best {
			best, bestMove = v, int(o.sq)
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best, bestMove
}

// splitPoint is a node whose remaining children several threads share.
type splitPoint struct {
	abort  atomic.Bool
	parent *splitPoint
}

// aborted reports whether sp or a split point above it was abandoned (a
// sibling refuted the node, so its remaining work is useless).
func (sp *splitPoint) aborted() bool {
	for ; sp != nil; sp = sp.parent {
		if sp.abort.Load() {
			return true
		}
	}
	return false
}

// acquire takes an idle thread, if there is one.
func (sh *solveShared) acquire() bool {
	for {
		n := sh.idle.Load()
		if n <= 0 {
			return false
		}
		if sh.idle.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

// split searches the remaining children rest of the node (me, opp) with
// the calling thread and one acquired helper (which it releases), returning
// the best value and move among them.
func (sv *solver) split(children []moveOrder, me, opp uint64, alpha, beta, empties int, parent *splitPoint) (int, int) {
	sp := &splitPoint{parent: parent}
	// A copy for the helper goroutine, so the caller's list stays on its stack.
	rest := append([]moveOrder(nil), children...)
	var (
		mu       sync.Mutex
		next     int
		best     = -solveInf
		bestMove = -1
		wg       sync.WaitGroup
	)
	work := func(w *solver) {
		for {
			mu.Lock()
			if next >= len(rest) || alpha >= beta {
				mu.Unlock()
				return
			}
			o := rest[next]
			next++
			a := alpha
			mu.Unlock()
			nm, no := opp&^o.flips, me|o.flips
			v := -w.search(nm, no, -a-1, -a, empties-1, sp)
			if v > a && v < beta && !sp.aborted() {
				v = -w.search(nm, no, -beta, -v, empties-1, sp)
			}
			if sp.aborted() || w.shared.stop.Load() {
				return
			}
			mu.Lock()
			if v > best {
				best, bestMove = v, int(o.sq)
				if v > alpha {
					alpha = v
					if v >= beta {
						sp.abort.Store(true)
					}
				}
			}
			mu.Unlock()
		}
	}
	helper := &solver{shared: sv.shared, last: sv.shared.takeLast()}
	wg.Add(1)
	go func() {
		defer wg.Done()
		work(helper)
		helper.flush()
		sv.shared.putLast(helper.last)
		sv.shared.idle.Add(1)
	}()
	work(sv)
	// While the helper finishes, this thread counts as idle, so the helper
	// can split its remaining work with another goroutine.
	sv.shared.idle.Add(1)
	wg.Wait()
	sv.shared.idle.Add(-1)
	return best, bestMove
}

// moveOrder is a move in a node's list: 16 bytes, as lists are zeroed,
// swapped and copied at every node.
type moveOrder struct {
	flips uint64 // the discs flipped and the one played
	key   int16
	sq    int8
}

// sortMoves sorts list by key (insertion sort: short lists, no allocation).
func sortMoves(list []moveOrder) {
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && list[j].key < list[j-1].key; j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
}

// cornerPenalty favours corners and avoids X-squares in the ordering.
func cornerPenalty(i int) int {
	b := bit(i)
	switch {
	case b&corners != 0:
		return -24
	case b&(xSquares[0]|xSquares[1]|xSquares[2]|xSquares[3]) != 0:
		return 12
	}
	return 0
}

// quadrantBit[i] is the parity bit of square i's quadrant, and
// oddQuadrants[p] the union of the quadrants whose bit is set in p.
var (
	quadrantBit  [Size * Size]uint8
	oddQuadrants [16]uint64
)

func init() {
	for q, m := range quadrants {
		for i := 0; i < Size*Size; i++ {
			if m&bit(i) != 0 {
				quadrantBit[i] = 1 << q
			}
		}
		for p := range oddQuadrants {
			if p&(1<<q) != 0 {
				oddQuadrants[p] |= m
			}
		}
	}
}

// neighbours[i] holds the cells next to square i.
var neighbours [Size * Size]uint64

func init() {
	for i := range neighbours {
		b := bit(i)
		neighbours[i] = (b<<Size | b>>Size |
			(b&^fileF)<<1 | (b&^fileA)>>1 |
			(b&^fileF)<<(Size+1) | (b&^fileA)>>(Size+1) |
			(b&^fileA)<<(Size-1) | (b&^fileF)>>(Size-1)) & full
	}
}

// parityOf returns the parity bits of the empty cells: bit q is set when
// quadrant q holds an odd number of them.
func parityOf(empty uint64) uint8 {
	var p uint8
	for q, m := range quadrants {
		p |= uint8(bits.OnesCount64(empty&m)&1) << q
	}
	return p
}

// seenSymmetric reports whether the child (nm, no) of (me, opp) is a
// mirror image of one of the children already listed (their values are
// equal).
func seenSymmetric(nm, no, me, opp uint64, list []moveOrder) bool {
	for t := 1; t < 8; t++ {
		tm, to := transform(nm, t), transform(no, t)
		for _, o := range list {
			if opp&^o.flips == tm && me|o.flips == to {
				return true
			}
		}
	}
	return false
}

// orderSearch is a small alpha-beta search with the ordering evaluation
// (orderEval, a pattern evaluation fitted on solved positions), used to
// order moves far from the end, where mobility alone guesses poorly. With
// the agents' evaluation instead, the solves of BenchmarkSolvePlayed22/24
// took 3.0×/1.7× the nodes.
// Near the start it is most of a solve's time, so it looks at the stop
// too, and once stopped returns 0 at once (the order no longer matters).
func (sv *solver) orderSearch(me, opp uint64, depth, alpha, beta int) int {
	sv.orderNodes++
	if sv.orderNodes >= orderPollNodes {
		sv.orderNodes = 0
		sv.flush()
	}
	moves := Moves(me, opp)
	if depth == 0 {
		return orderEval(me, opp, moves, Moves(opp, me))
	}
	if sv.shared.stop.Load() {
		return 0
	}
	if moves == 0 {
		if Moves(opp, me) == 0 {
			return orderUnit * final(me, opp)
		}
		return -sv.orderSearch(opp, me, depth-1, -beta, -alpha)
	}
	if depth >= orderSortDepth {
		v, _ := sv.orderSearchSorted(me, opp, moves, depth, alpha, beta)
		return v
	}
	best := -orderInf
	for m := moves; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		f := Flips(i, me, opp) | bit(i)
		v := -sv.orderSearch(opp&^f, me|f, depth-1, -beta, -alpha)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best
}

// orderSortDepth is the least depth at which orderSearch tries its moves
// fastest-first (orderSearchSorted), a var for the test that compares
// both. The full-window value is the same either way; at depth 10 from 30
// empties (the ordering searches near the start) the sorted search visits
// a sixth of the nodes in a fifth of the time (from depth 2: fewer nodes,
// as fast; from 4: slower).
var orderSortDepth = 3

// orderSearchSorted is orderSearch's move loop with the moves tried
// fastest-first; it also returns the best move (the first of equals).
func (sv *solver) orderSearchSorted(me, opp, moves uint64, depth, alpha, beta int) (int, int) {
	var list [Size * Size]moveOrder
	n := 0
	for m := moves; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		f := Flips(i, me, opp) | bit(i)
		list[n] = moveOrder{flips: f, sq: int8(i), key: int16(orderKey(opp&^f, me|f, i))}
		n++
	}
	best, bestMove := -orderInf, -1
	for k := 0; k < n; k++ {
		b := k
		for j := k + 1; j < n; j++ {
			if list[j].key < list[b].key {
				b = j
			}
		}
		list[k], list[b] = list[b], list[k]
		f := list[k].flips
		v := -sv.orderSearch(opp&^f, me|f, depth-1, -beta, -alpha)
		if v > best {
			best, bestMove = v, int(list[k].sq)
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best, bestMove
}

// orderKey is the fastest-first key of the child (nm to move against no,
// after my move on square i); smaller is tried first. It counts the
// opponent's replies (corners twice), adds a little for the empty cells next
// to my discs (his future replies), and favours corners.
func orderKey(nm, no uint64, i int) int {
	return fastKey(nm, no, Moves(nm, no), i)
}

// fastKey is orderKey with the opponent's replies om given.
func fastKey(nm, no, om uint64, i int) int {
	empty := ^(nm | no) & full
	return 16*(bits.OnesCount64(om)+bits.OnesCount64(om&corners)) +
		2*bits.OnesCount64(frontierEmpties(no, empty)) + cornerPenalty(i)
}

// orderKeyEval is orderKey plus the ordering evaluation of the child (from
// the opponent's view, so a good child for me sorts first), scaled down by
// evalKeyDiv: the key from evalKeyEmpties up to the ordering searches.
// Neither alone orders as well as the sum (benchmarks/README.md).
func orderKeyEval(nm, no uint64, i int) int {
	om := Moves(nm, no)
	return fastKey(nm, no, om, i) + orderEval(nm, no, om, Moves(no, nm))/evalKeyDiv
}

// frontierEmpties returns the empty cells next to a disc of b.
func frontierEmpties(b, empty uint64) uint64 {
	n := b<<Size | b>>Size |
		(b&^fileF)<<1 | (b&^fileA)>>1 |
		(b&^fileF)<<(Size+1) | (b&^fileA)>>(Size+1) |
		(b&^fileA)<<(Size-1) | (b&^fileF)>>(Size-1)
	return n & empty
}

// orderDepthFor[e] is the depth of the ordering search at e empties (0:
// fastest-first only). Far from the end a good first move saves most, and
// the few nodes there can afford deep ordering searches: measured on the
// start position, depths 4/5/6 at 26/28/30+ empties cut the tree from 12.1
// to 1.6 billion nodes; 5/6/8 to 1.46 and 6/7/10 to 1.43 billion (2
// threads, 11 % fewer nodes and 9 % less CPU than 4/5/6 in back-to-back
// runs), but 7/8/10 to 2.14 billion. With the fitted ordering evaluation
// the depths were checked again on mid-size positions (benchmarks/README.md):
// no change tried took fewer nodes on every set by more than a few percent.
var orderDepthFor = [Size*Size + 1]int8{15: 1, 16: 1, 17: 1, 18: 1, 19: 1, 20: 1, 21: 2, 22: 3, 23: 3, 24: 3, 25: 3, 26: 6, 27: 6, 28: 7, 29: 7, 30: 10, 31: 10, 32: 10}
