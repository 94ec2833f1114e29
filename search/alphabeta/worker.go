package alphabeta

import (
	"slices"
	"time"

	"github.com/boardgame-arena/arena/games"
)

const (
	historySize = 4096 // history is indexed by move mod this
	historyCap  = 1<<20 - 1
	checkEvery  = 1024 // most nodes between budget checks
	// checkGap is the wall time aimed at between two budget checks: the
	// number of nodes between checks adapts to it, so that games with slow
	// nodes are checked as often as fast ones.
	checkGap = 100 * time.Microsecond

	scoreTT     = 1 << 30
	scoreKiller = 1 << 29
	hintShift   = 20
	maxHint     = 255
)

// worker is one thread of a search, with its own state and buffers.
type worker struct {
	id   int
	sh   *shared
	st   games.State
	eval games.Evaluator
	hint games.OrderHinter

	moves   [][]games.Move // per ply
	scores  [][]int
	killers [][2]games.Move
	pv      [][]games.Move // triangular principal-variation table
	pvLen   []int
	history [2][historySize]int32

	root     []RootMove
	nodes    int64
	unsent   int64 // nodes not yet added to shared.nodes
	stride   int64 // nodes between budget checks, adapted to checkGap
	checked  time.Time
	selDepth int
	stopped  bool
}

func newWorker(id int) *worker { return &worker{id: id} }

// begin prepares the worker for a search of st.
func (w *worker) begin(sh *shared, st games.State) {
	w.sh, w.st = sh, st
	w.eval, _ = st.(games.Evaluator)
	w.hint = nil
	if !sh.opts.NoHints {
		w.hint, _ = st.(games.OrderHinter)
	}
	w.nodes, w.unsent, w.selDepth, w.stopped = 0, 0, 0, false
	w.stride, w.checked = 1, time.Now()
	for p := range w.history {
		for i := range w.history[p] {
			w.history[p][i] /= 8 // age the statistics of the previous search
		}
	}
	for i := range w.killers {
		w.killers[i] = [2]games.Move{noMove, noMove}
	}
	w.root = w.root[:0]
	for _, m := range st.LegalMoves(nil) {
		w.root = append(w.root, RootMove{Move: m})
	}
	if w.id > 0 && len(w.root) > 1 {
		// Helpers start from different root orders to spread the work.
		k := w.id % len(w.root)
		slices.Reverse(w.root[:k])
		slices.Reverse(w.root[k:])
		slices.Reverse(w.root)
	}
	w.ensure(1)
}

// ensure grows the per-ply buffers to cover ply.
func (w *worker) ensure(ply int) {
	for len(w.moves) <= ply+1 {
		w.moves = append(w.moves, make([]games.Move, 0, 64))
		w.scores = append(w.scores, make([]int, 0, 64))
		w.killers = append(w.killers, [2]games.Move{noMove, noMove})
		w.pv = append(w.pv, nil)
		w.pvLen = append(w.pvLen, 0)
	}
}

// tick counts a node and checks the budgets every stride nodes.
func (w *worker) tick() {
	w.nodes++
	w.unsent++
	if w.unsent < w.stride {
		return
	}
	w.check()
}

// check adds the worker's nodes to the total, checks the budgets, and adapts
// the stride so that checks come about checkGap apart.
func (w *worker) check() {
	sh := w.sh
	total := sh.nodes.Add(w.unsent)
	w.unsent = 0
	now := time.Now()
	switch gap := now.Sub(w.checked); {
	case gap < checkGap/2 && w.stride < checkEvery:
		w.stride *= 2
	case gap > 2*checkGap && w.stride > 1:
		w.stride /= 2
	}
	w.checked = now
	switch {
	case sh.stop.Load():
	case sh.nodeLimit > 0 && total >= sh.nodeLimit:
	case sh.hasDL && !now.Before(sh.deadline):
	case sh.ctx.Err() != nil:
	default:
		return
	}
	sh.stop.Store(true)
	w.stopped = true
}

// iterate runs iterative deepening and returns the last complete iteration.
func (w *worker) iterate() Result {
	opts := w.sh.opts
	var res Result
	res.Move = w.root[0].Move
	if opts.Exact {
		score := w.searchRoot(exactDepth, -Inf, Inf)
		if !w.stopped {
			res = w.result(score, 0)
			res.Exact = true
		} else {
			res.Move = w.root[0].Move
		}
		return res
	}
	maxDepth := opts.Depth
	if maxDepth <= 0 || maxDepth > maxIterDepth {
		maxDepth = maxIterDepth
	}
	if w.id > 0 {
		// Helpers never decide; they search until told to stop.
		maxDepth = maxIterDepth
	}
	prev := 0
	began := time.Now()
	var last time.Duration // the previous iteration's duration
	for d := 1 + w.id&1; d <= maxDepth; d++ {
		score := w.aspirate(d, prev)
		if w.stopped || (w.id > 0 && w.sh.stop.Load()) {
			break
		}
		prev = score
		res = w.result(score, d)
		if w.id > 0 {
			continue
		}
		if len(w.root) == 1 && (opts.Time > 0 || opts.Nodes > 0) && d >= 2 {
			break // a forced move needs no long think
		}
		now := time.Now()
		took := now.Sub(began)
		began = now
		if w.sh.hasDL && d < maxDepth && !w.nextFits(now, took, last) {
			// An iteration cut short is thrown away: starting one that
			// cannot end in time would only make the answer later.
			break
		}
		last = took
	}
	return res
}

// nextFits reports whether the next iteration is expected to end before
// the deadline, given the durations of the last two (prev 0: unknown). The
// next one is predicted to grow by the same factor as the last did, taken
// between 1.5 and 4 (a shallow iteration's growth says little).
func (w *worker) nextFits(now time.Time, took, prev time.Duration) bool {
	growth := 2.0
	if prev > 0 {
		growth = min(max(float64(took)/float64(prev), 1.5), 4)
	}
	next := time.Duration(float64(took) * growth)
	return now.Add(next).Before(w.sh.deadline)
}

// aspirate searches depth d with a window around prev, widening on failure.
func (w *worker) aspirate(d, prev int) int {
	delta := w.sh.opts.Aspiration
	if delta <= 0 || d < 3 || IsProven(prev) || w.sh.opts.RootScores {
		return w.searchRoot(d, -Inf, Inf)
	}
	alpha, beta := max(prev-delta, -Inf), min(prev+delta, Inf)
	for {
		v := w.searchRoot(d, alpha, beta)
		if w.stopped {
			return v
		}
		switch {
		case v <= alpha && alpha > -Inf:
			alpha = max(alpha-delta, -Inf)
		case v >= beta && beta < Inf:
			beta = min(beta+delta, Inf)
		default:
			return v
		}
		delta *= 2
	}
}

// result packages the current root state after a complete iteration.
func (w *worker) result(score, depth int) Result {
	r := Result{Move: w.root[0].Move, Score: score, Depth: depth, Complete: true}
	r.PV = append([]games.Move(nil), w.pv[0][:w.pvLen[0]]...)
	r.Root = append([]RootMove(nil), w.root...)
	return r
}

// searchRoot searches every root move and moves the best to the front.
func (w *worker) searchRoot(depth, alpha, beta int) int {
	st := w.st
	me := st.ToMove()
	w.pvLen[0] = 0
	best := -Inf
	bestIdx := -1
	full := w.sh.opts.RootScores
	alpha0 := alpha
	for i := range w.root {
		m := w.root[i].Move
		var v int
		switch {
		case full:
			v = w.child(m, me, depth, 0, -Inf, Inf)
		case i == 0 || w.sh.opts.NoPVS:
			v = w.child(m, me, depth, 0, alpha, beta)
		default:
			v = w.child(m, me, depth, 0, alpha, alpha+1)
			if v > alpha && v < beta && !w.stopped {
				v = w.child(m, me, depth, 0, alpha, beta)
			}
		}
		if w.stopped {
			break
		}
		w.root[i].Score = v
		w.root[i].Bound = BoundExact
		if !full && (v <= alpha || v >= beta) {
			w.root[i].Bound = BoundUpper
			if v >= beta {
				w.root[i].Bound = BoundLower
			}
		}
		if v > best {
			best, bestIdx = v, i
			if v > alpha {
				w.setPV(0, m)
				if !full {
					alpha = v
				}
				if v >= beta {
					break
				}
			}
		}
	}
	if bestIdx > 0 {
		// Best move first; the others keep their order.
		bm := w.root[bestIdx]
		copy(w.root[1:bestIdx+1], w.root[:bestIdx])
		w.root[0] = bm
	}
	if w.sh.tt != nil && !w.stopped && best > alpha0 && best < beta {
		w.sh.tt.store(st.Hash(), w.root[0].Move, best, depth, BoundExact)
	}
	return best
}

// setPV makes m followed by the child's variation the variation at ply.
func (w *worker) setPV(ply int, m games.Move) {
	n := w.pvLen[ply+1]
	if cap(w.pv[ply]) < n+1 {
		w.pv[ply] = make([]games.Move, n+1, n+16)
	}
	w.pv[ply] = w.pv[ply][:n+1]
	w.pv[ply][0] = m
	copy(w.pv[ply][1:], w.pv[ply+1][:n])
	w.pvLen[ply] = n + 1
}

// child plays m for player me and returns the resulting position's value
// from me's view, searched with the window (alpha, beta) of me's view.
func (w *worker) child(m games.Move, me, depth, ply, alpha, beta int) int {
	st := w.st
	st.Play(m)
	w.tick()
	w.pvLen[ply+1] = 0
	var v int
	switch next := st.ToMove(); next {
	case games.None:
		v = TerminalScore(st.Outcome(), me)
		if ply+1 > w.selDepth {
			w.selDepth = ply + 1
		}
	case me:
		v = w.node(depth-1, ply+1, alpha, beta, me)
	default:
		v = -w.node(depth-1, ply+1, -beta, -alpha, next)
	}
	st.Undo()
	return v
}

// node returns the value of the current (unfinished) position for the side
// to move p within (alpha, beta); fail-soft.
func (w *worker) node(depth, ply, alpha, beta, p int) int {
	if w.stopped {
		return 0
	}
	if depth <= 0 {
		if ply > w.selDepth {
			w.selDepth = ply
		}
		if w.eval == nil {
			return 0
		}
		return w.eval.Evaluate(p)
	}
	st := w.st
	tt := w.sh.tt
	alpha0 := alpha
	var hash uint64
	ttMove := games.Move(noMove)
	if tt != nil {
		hash = st.Hash()
		if h, ok := tt.probe(hash); ok {
			ttMove = h.move
			if h.depth >= min(depth, maxTTDepth) && beta-alpha == 1 {
				switch {
				case h.bound == BoundExact,
					h.bound == BoundLower && h.score >= beta,
					h.bound == BoundUpper && h.score <= alpha:
					return h.score
				}
			}
		}
	}
	w.ensure(ply + 1)
	moves := st.LegalMoves(w.moves[ply][:0])
	w.moves[ply] = moves[:0]
	scores := w.scoreMoves(moves, ply, p, ttMove)

	pvs := !w.sh.opts.NoPVS
	best, bestMove := -Inf, games.Move(noMove)
	for i := range moves {
		// Selection sort, one step per move: cut-offs come early.
		k := i
		for j := i + 1; j < len(moves); j++ {
			if scores[j] > scores[k] {
				k = j
			}
		}
		moves[i], moves[k] = moves[k], moves[i]
		scores[i], scores[k] = scores[k], scores[i]
		m := moves[i]

		var v int
		if i == 0 || !pvs {
			v = w.child(m, p, depth, ply, alpha, beta)
		} else {
			v = w.child(m, p, depth, ply, alpha, alpha+1)
			if v > alpha && v < beta && !w.stopped {
				v = w.child(m, p, depth, ply, alpha, beta)
			}
		}
		if w.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				w.setPV(ply, m)
				if v >= beta {
					w.cutoff(m, ply, p, depth)
					break
				}
			}
		}
	}
	if tt != nil {
		b := BoundExact
		switch {
		case best <= alpha0:
			b, bestMove = BoundUpper, noMove
		case best >= beta:
			b = BoundLower
		}
		tt.store(hash, bestMove, best, depth, b)
	}
	return best
}

// scoreMoves fills the ordering scores of moves at ply.
func (w *worker) scoreMoves(moves []games.Move, ply, p int, ttMove games.Move) []int {
	scores := w.scores[ply][:0]
	k0, k1 := w.killers[ply][0], w.killers[ply][1]
	if w.sh.opts.NoKillers {
		k0, k1 = noMove, noMove
	}
	hist := &w.history[p&1]
	for _, m := range moves {
		var s int
		switch m {
		case ttMove:
			s = scoreTT
		case k0:
			s = scoreKiller + 1
		case k1:
			s = scoreKiller
		default:
			if w.hint != nil {
				s = max(-maxHint, min(maxHint, w.hint.OrderHint(m))) << hintShift
			}
			s += int(hist[m%historySize])
		}
		scores = append(scores, s)
	}
	w.scores[ply] = scores[:0]
	return scores
}

// cutoff rewards move m for causing a beta cut-off.
func (w *worker) cutoff(m games.Move, ply, p, depth int) {
	if !w.sh.opts.NoKillers && w.killers[ply][0] != m {
		w.killers[ply][1] = w.killers[ply][0]
		w.killers[ply][0] = m
	}
	if w.sh.opts.NoHistory {
		return
	}
	if depth > 1000 {
		depth = 1000
	}
	h := &w.history[p&1][m%historySize]
	*h = int32(min(int(*h)+depth*depth, historyCap))
}
