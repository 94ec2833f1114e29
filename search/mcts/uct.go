package mcts

import (
	"math"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// worker owns one UCT tree and the state it is searched on.
type worker struct {
	opts  *Options
	rand  rng.Rand
	tree  *tree
	spare *tree // compaction target for reuse
	root  uint32
	pace  pacer // when to look at the clock

	st       games.State
	eval     games.Evaluator
	base     float64 // Options.Relative: the root's evaluation for player 0
	playout  games.Playouter
	rewarder games.Rewarder

	rootHash uint64
	rootPly  int
	valid    bool

	path   []uint32
	moves  []games.Move
	hashes []uint64
	queue  []uint32

	iters, reused int64
	maxDepth      int
}

func newWorker(opts *Options, seed uint64) *worker {
	return &worker{
		opts:  opts,
		rand:  *rng.New(seed),
		tree:  newTree(opts.MaxNodes),
		spare: newTree(opts.MaxNodes),
		moves: make([]games.Move, 0, games.MaxMoves),
	}
}

// prepare sets the worker up to search st, reusing the old tree if it can.
func (w *worker) prepare(st games.State) {
	w.iters, w.reused, w.maxDepth = 0, 0, 0
	q := st.ToMove()
	if !(w.opts.Reuse && w.valid && w.reroot(st)) {
		w.tree.reset()
		w.root, _ = w.tree.alloc(1)
	}
	r := w.tree.at(w.root)
	if r.mover != int8(1-q) {
		// The root's proof is kept from the view of "the opponent of the
		// player to move", whoever really moved into it.
		r.mover, r.proof = int8(1-q), r.proof.flip()
	}
	r.flags |= flagChecked
	w.reused = int64(r.visits)
	w.st = st.Clone()
	w.eval, _ = w.st.(games.Evaluator)
	w.base = rootBase(w.opts, w.eval, st)
	w.playout, _ = w.st.(games.Playouter)
	w.rewarder, _ = w.st.(games.Rewarder)
	w.rootHash, w.rootPly, w.valid = st.Hash(), st.Ply(), true
}

// reroot finds st in the kept tree by replaying the moves made since the
// last search (matched by hash) and compacts that subtree into a fresh tree.
func (w *worker) reroot(st games.State) bool {
	d := st.Ply() - w.rootPly
	if d < 0 || d > 16 {
		return false
	}
	c := st.Clone()
	var rootHash uint64
	w.hashes, rootHash = undoHashes(c, d, w.hashes[:0])
	if rootHash != w.rootHash {
		return false
	}
	i := w.root
	for k := d - 1; k >= 0; k-- {
		n := w.tree.at(i)
		if n.flags&flagExpanded == 0 {
			return false
		}
		found := false
		for j := uint32(0); j < uint32(n.nkids); j++ {
			kid := n.first + j
			c.Play(w.tree.at(kid).move)
			if c.Hash() == w.hashes[k] {
				i, found = kid, true
				break
			}
			c.Undo()
		}
		if !found {
			return false
		}
	}
	w.compact(i)
	return true
}

// compact copies the subtree under i into the spare tree, breadth first,
// and makes it the tree.
func (w *worker) compact(i uint32) {
	src, dst := w.tree, w.spare
	dst.reset()
	r, _ := dst.alloc(1)
	*dst.at(r) = *src.at(i)
	w.queue = append(w.queue[:0], i, r)
	for len(w.queue) > 0 {
		o, n := w.queue[0], w.queue[1]
		w.queue = w.queue[2:]
		on, nn := src.at(o), dst.at(n)
		if on.flags&flagExpanded == 0 || on.nkids == 0 {
			continue
		}
		k, ok := dst.alloc(int(on.nkids))
		if !ok {
			nn.flags &^= flagExpanded
			nn.nkids = 0
			continue
		}
		nn.first = k
		for j := uint32(0); j < uint32(on.nkids); j++ {
			*dst.at(k + j) = *src.at(on.first + j)
			w.queue = append(w.queue, on.first+j, k+j)
		}
	}
	w.queue = w.queue[:0:cap(w.queue)]
	w.tree, w.spare = dst, src
	w.root = r
}

// run iterates until the quota (0: none) or the budget is used up, or the
// root is proven.
func (w *worker) run(b *budget, quota int64) {
	w.pace.start()
	solver := !w.opts.NoSolver
	for {
		if quota > 0 && w.iters >= quota {
			break
		}
		if w.pace.stop(b) {
			break
		}
		if solver && w.tree.at(w.root).proof != Unproven {
			break
		}
		w.iterate()
		w.iters++
	}
	w.st = nil
}

// iterate runs one selection, expansion, simulation and backup.
func (w *worker) iterate() {
	t, st := w.tree, w.st
	solver := !w.opts.NoSolver
	path := append(w.path[:0], w.root)
	i := w.root
	var r0 float64 // the simulation's reward for player 0
	for {
		n := t.at(i)
		if n.flags&flagTerminal != 0 {
			r0 = w.outcomeReward()
			break
		}
		if solver && n.proof != Unproven && i != w.root {
			r0 = n.proof.reward()
			if n.mover == 1 {
				r0 = 1 - r0
			}
			break
		}
		if n.flags&flagExpanded == 0 {
			if (i != w.root && n.visits < uint32(w.opts.ExpandAfter)) || !w.expand(i) {
				r0 = w.rollout()
				break
			}
			n = t.at(i)
		}
		k := w.selectChild(n)
		c := t.at(k)
		st.Play(c.move)
		path = append(path, k)
		i = k
		if c.flags&flagChecked == 0 {
			c.flags |= flagChecked
			if st.Terminal() {
				c.flags |= flagTerminal
				if solver {
					c.proof = outcomeProof(st.Outcome(), int(c.mover))
				}
			}
		}
	}
	if d := len(path) - 1; d > w.maxDepth {
		w.maxDepth = d
	}
	for j := len(path) - 1; j >= 0; j-- {
		n := t.at(path[j])
		n.visits++
		if n.mover == 1 {
			n.reward += 1 - r0
		} else {
			n.reward += r0
		}
		if j > 0 {
			st.Undo()
		}
	}
	if solver && len(path) > 1 && t.at(path[len(path)-1]).proof != Unproven {
		for j := len(path) - 2; j >= 0 && w.prove(path[j]); j-- {
		}
	}
	w.path = path[:0]
}

// outcomeProof is the proven result of a finished game for player p.
func outcomeProof(o games.Outcome, p int) Proof {
	switch o.Winner {
	case games.Draw:
		return ProvenDraw
	case p:
		return ProvenWin
	}
	return ProvenLoss
}

// outcomeReward is player 0's reward in the current, finished position.
func (w *worker) outcomeReward() float64 {
	if w.rewarder != nil {
		return w.rewarder.Reward(0)
	}
	return w.st.Outcome().Points(0)
}

// expand creates the children of node i (the current position); false when
// the tree is full.
func (w *worker) expand(i uint32) bool {
	moves := w.st.LegalMoves(w.moves[:0])
	k, ok := w.tree.alloc(len(moves))
	if !ok {
		return false
	}
	mover := int8(w.st.ToMove())
	for j, m := range moves {
		c := w.tree.at(k + uint32(j))
		c.move, c.mover = m, mover
	}
	n := w.tree.at(i)
	n.first, n.nkids = k, uint16(len(moves))
	n.flags |= flagExpanded
	return true
}

// selectChild returns the child of n with the best UCB value, skipping
// children proven lost for the player choosing. Ties, above all those
// between unvisited children (all worth Options.FPU), go to one of the tied
// children drawn uniformly: taking the first would make the move
// generator's order a preference of the search. With a finite FPU the
// search then follows the first generated move at nearly every node, and
// two such players fill an Othello board in generator order into 18–18
// draws (issue 30).
func (w *worker) selectChild(n *node) uint32 {
	t := w.tree
	solver := !w.opts.NoSolver
	c, fpu := w.opts.C, w.opts.FPU
	logN := math.Log(float64(max(n.visits, 1)))
	best, bestV, ties := n.first, math.Inf(-1), 0
	for j := uint32(0); j < uint32(n.nkids); j++ {
		k := n.first + j
		ch := t.at(k)
		if solver && ch.proof == ProvenLoss {
			continue
		}
		switch v := ucb(ch.reward, ch.visits, logN, c, fpu); {
		case v > bestV:
			best, bestV, ties = k, v, 1
		case v == bestV:
			ties++
		}
	}
	if ties < 2 {
		return best
	}
	r := w.rand.IntN(ties)
	for j := uint32(0); ; j++ {
		k := n.first + j
		ch := t.at(k)
		if solver && ch.proof == ProvenLoss || ucb(ch.reward, ch.visits, logN, c, fpu) != bestV {
			continue
		}
		if r == 0 {
			return k
		}
		r--
	}
}

// ucb is the selection value of a child or action with reward sum and
// visits, among siblings whose parent has ln N = logN: fpu while unvisited.
func ucb(sum float64, visits uint32, logN, c, fpu float64) float64 {
	if visits == 0 {
		return fpu
	}
	nv := float64(visits)
	return sum/nv + c*math.Sqrt(logN/nv)
}

// prove tries to prove node i from its children; true if it became proven.
func (w *worker) prove(i uint32) bool {
	t := w.tree
	n := t.at(i)
	if n.proof != Unproven || n.flags&flagExpanded == 0 {
		return false
	}
	best := ProvenLoss // for the player choosing at n
	var chooser int8 = -1
	for j := uint32(0); j < uint32(n.nkids); j++ {
		ch := t.at(n.first + j)
		chooser = ch.mover
		switch ch.proof {
		case ProvenWin:
			best = ProvenWin
		case ProvenDraw:
			if best == ProvenLoss {
				best = ProvenDraw
			}
		case Unproven:
			if best != ProvenWin {
				best = Unproven
			}
		}
		if best == ProvenWin {
			break
		}
	}
	if best == Unproven || chooser < 0 {
		return false
	}
	if chooser != n.mover {
		best = best.flip()
	}
	n.proof = best
	return true
}

// rollout simulates from the current position and returns player 0's reward.
func (w *worker) rollout() float64 {
	st := w.st
	if st.Terminal() {
		return w.outcomeReward()
	}
	o := w.opts
	if o.Cutoff == 0 && o.Rollout == RolloutRandom && w.playout != nil && w.rewarder == nil {
		return w.playout.RandomPlayout(&w.rand).Points(0)
	}
	if o.Rollout == RolloutNone {
		return evalReward(w.eval, o.EvalScale, w.base)
	}
	greedy := o.Rollout == RolloutEpsGreedy && w.eval != nil
	n := 0
	for !st.Terminal() && (o.Cutoff == 0 || n < o.Cutoff) {
		moves := st.LegalMoves(w.moves[:0])
		m := moves[w.rand.IntN(len(moves))]
		if greedy && len(moves) > 1 && w.rand.Float64() >= o.Epsilon {
			m = w.greedyMove(moves)
		}
		st.Play(m)
		n++
	}
	var r0 float64
	if st.Terminal() {
		r0 = w.outcomeReward()
	} else {
		r0 = evalReward(w.eval, o.EvalScale, w.base)
	}
	for ; n > 0; n-- {
		st.Undo()
	}
	return r0
}

// greedyMove is the move whose result evaluates best for the mover.
func (w *worker) greedyMove(moves []games.Move) games.Move {
	st := w.st
	p := st.ToMove()
	best, bestV := moves[0], math.MinInt
	for _, m := range moves {
		st.Play(m)
		var v int
		if st.Terminal() {
			v = int(st.Outcome().Points(p)*2-1) * games.WinScore
		} else {
			v = w.eval.Evaluate(p)
		}
		st.Undo()
		if v > bestV {
			best, bestV = m, v
		}
	}
	return best
}

// evalReward turns the game's evaluation, less base, into player 0's
// reward.
func evalReward(e games.Evaluator, scale, base float64) float64 {
	if e == nil {
		return 0.5
	}
	v := float64(e.Evaluate(0)) - base
	if scale <= 0 {
		switch {
		case v > 0:
			return 1
		case v < 0:
			return 0
		}
		return 0.5
	}
	return 1 / (1 + math.Exp(-v/scale))
}

// principalVariation follows the most visited children from the root.
func (w *worker) principalVariation() []games.Move {
	var pv []games.Move
	t := w.tree
	n := t.at(w.root)
	for n.flags&flagExpanded != 0 && n.nkids > 0 && len(pv) < 64 {
		best := t.at(n.first)
		for j := uint32(1); j < uint32(n.nkids); j++ {
			if c := t.at(n.first + j); c.visits > best.visits {
				best = c
			}
		}
		if best.visits == 0 {
			break
		}
		pv = append(pv, best.move)
		n = best
	}
	return pv
}

// rootBase is the evaluation that leaf scores are taken relative to: the
// root's for player 0 with Options.Relative, else 0.
func rootBase(o *Options, e games.Evaluator, root games.Base) float64 {
	if !o.Relative || e == nil || root.Terminal() {
		return 0
	}
	return float64(e.Evaluate(0))
}
