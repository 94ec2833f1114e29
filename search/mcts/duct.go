package mcts

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// pool is a block-allocated array addressed by index.
type pool[T any] struct {
	blocks [][]T
	used   uint32
	shift  uint
	limit  uint32
}

func (p *pool[T]) at(i uint32) *T { return &p.blocks[i>>p.shift][i&(1<<p.shift-1)] }

// alloc reserves n contiguous zeroed elements within one block.
func (p *pool[T]) alloc(n int) (uint32, bool) {
	size := uint32(1) << p.shift
	start := p.used
	if off := start & (size - 1); off+uint32(n) > size {
		start += size - off
	}
	end := start + uint32(n)
	if end > p.limit || uint32(n) > size {
		return 0, false
	}
	for int((end-1)>>p.shift) >= len(p.blocks) {
		p.blocks = append(p.blocks, make([]T, size))
	}
	o := start & (size - 1)
	clear(p.blocks[start>>p.shift][o : o+uint32(n)])
	p.used = end
	return start, true
}

// jnode is a joint node of a DUCT tree.
type jnode struct {
	visits uint32
	acts   uint32 // n0 action statistics of player 0, then n1 of player 1
	kids   uint32 // n0·n1 child indices, row a0, column a1 (0: not created)
	n0, n1 uint16
	flags  uint8
}

// astat is one player's statistics for one of its actions.
type astat struct {
	reward float64 // sum of this player's rewards after the action
	regret float64 // regret matching: cumulative regret
	cum    float64 // regret matching: cumulative strategy weight
	move   games.Move
	visits uint32
}

// simTree is a DUCT tree: joint nodes, action statistics, child tables.
type simTree struct {
	nodes pool[jnode]
	acts  pool[astat]
	kids  pool[uint32]
}

func newSimTree(maxNodes int) *simTree {
	return &simTree{
		nodes: pool[jnode]{shift: 14, limit: uint32(maxNodes)},
		acts:  pool[astat]{shift: 16, limit: uint32(maxNodes) * 4},
		// A node's child table must fit in one block: 512×512 moves.
		kids: pool[uint32]{shift: 18, limit: uint32(maxNodes) * 16},
	}
}

func (t *simTree) reset() { t.nodes.used, t.acts.used, t.kids.used = 0, 0, 0 }

type step struct {
	node   uint32
	a0, a1 uint16
	p0, p1 float64 // regret matching: probabilities the actions were drawn with
}

// simWorker owns one DUCT tree.
type simWorker struct {
	opts        *Options
	rand        rng.Rand
	tree, spare *simTree
	root        uint32
	pace        pacer // when to look at the clock

	st       games.SimState
	prev     games.SimState // st of the last search, for games.Copier
	eval     games.Evaluator
	base     float64 // Options.Relative: the root's evaluation for player 0
	rewarder games.Rewarder

	rootHash uint64
	rootPly  int
	valid    bool

	path       []step
	buf0, buf1 []games.Move
	hashes     []uint64
	queue      []uint32

	iters, reused int64
	maxDepth      int
}

func newSimWorker(opts *Options, seed uint64) *simWorker {
	return &simWorker{
		opts:  opts,
		rand:  *rng.New(seed),
		tree:  newSimTree(opts.MaxNodes),
		spare: newSimTree(opts.MaxNodes),
		buf0:  make([]games.Move, 0, games.MaxMoves),
		buf1:  make([]games.Move, 0, games.MaxMoves),
	}
}

// SearchSim searches the simultaneous position st for player p and returns
// p's action; st is left as it was.
func (s *Searcher) SearchSim(ctx context.Context, st games.SimState, p int) (Result, error) {
	if st.Terminal() {
		return Result{}, fmt.Errorf("mcts: the game is over")
	}
	if p != 0 && p != 1 {
		return Result{}, fmt.Errorf("mcts: player %d", p)
	}
	b, err := s.newBudget(ctx)
	if err != nil {
		return Result{}, err
	}
	for len(s.sims) < s.opts.Threads {
		i := len(s.sims)
		s.sims = append(s.sims, newSimWorker(&s.opts, rng.Derive(s.seed, uint64(i), 1)))
	}
	ws := s.sims[:s.opts.Threads]
	for _, w := range ws {
		w.prepare(st)
	}
	runAll(s, b, ws)

	var res Result
	byMove := map[games.Move]int{}
	var rewards []float64
	for _, w := range ws {
		res.Iterations += w.iters
		res.Reused += w.reused
		res.MaxDepth = max(res.MaxDepth, w.maxDepth)
		t := w.tree
		root := t.nodes.at(w.root)
		if root.flags&flagExpanded == 0 {
			continue
		}
		first, n := root.acts, uint32(root.n0)
		if p == 1 {
			first, n = root.acts+uint32(root.n0), uint32(root.n1)
		}
		for a := uint32(0); a < n; a++ {
			as := t.acts.at(first + a)
			j, ok := byMove[as.move]
			if !ok {
				j = len(res.Stats)
				byMove[as.move] = j
				res.Stats = append(res.Stats, MoveStat{Move: as.move})
				rewards = append(rewards, 0)
			}
			res.Stats[j].Visits += int64(as.visits)
			rewards[j] += as.reward
			if s.opts.Selection == SelectRM {
				res.Stats[j].Prob += as.cum
			} else {
				res.Stats[j].Prob += float64(as.visits)
			}
		}
	}
	res.Elapsed = time.Since(b.start)
	if len(res.Stats) == 0 {
		moves := st.LegalMovesFor(p, nil)
		if len(moves) > 0 {
			res.Move = moves[0]
		}
		return res, nil
	}
	var total float64
	for j := range res.Stats {
		if v := res.Stats[j].Visits; v > 0 {
			res.Stats[j].Value = rewards[j] / float64(v)
		}
		total += res.Stats[j].Prob
	}
	for j := range res.Stats {
		if total > 0 {
			res.Stats[j].Prob /= total
		}
	}
	slices.SortStableFunc(res.Stats, func(a, b MoveStat) int {
		switch {
		case a.Prob > b.Prob:
			return -1
		case a.Prob < b.Prob:
			return 1
		}
		return 0
	})
	pick := 0
	if s.opts.Sample && total > 0 {
		// Draw from the empirical mixed strategy.
		s.draws++
		r := rng.New(rng.Derive(s.seed, 2, s.draws))
		x := r.Float64()
		for pick = 0; pick < len(res.Stats)-1 && x >= res.Stats[pick].Prob; pick++ {
			x -= res.Stats[pick].Prob
		}
	}
	res.Move, res.Value = res.Stats[pick].Move, res.Stats[pick].Value
	return res, nil
}

func (w *simWorker) prepare(st games.SimState) {
	w.iters, w.reused, w.maxDepth = 0, 0, 0
	if !(w.opts.Reuse && w.valid && w.reroot(st)) {
		w.tree.reset()
		w.root, _ = w.tree.nodes.alloc(1)
	}
	w.reused = int64(w.tree.nodes.at(w.root).visits)
	if c, ok := w.prev.(games.Copier); ok && c.CopyFrom(st) {
		w.st = w.prev
	} else {
		w.st = st.Clone()
	}
	w.prev = nil
	w.eval, _ = w.st.(games.Evaluator)
	w.base = rootBase(w.opts, w.eval, st)
	w.rewarder, _ = w.st.(games.Rewarder)
	w.rootHash, w.rootPly, w.valid = st.Hash(), st.Ply(), true
}

// reroot finds st among the kept tree's joint children (by hash) and
// compacts that subtree into a fresh tree.
func (w *simWorker) reroot(st games.SimState) bool {
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
	t := w.tree
	i := w.root
	for k := d - 1; k >= 0; k-- {
		n := t.nodes.at(i)
		if n.flags&flagExpanded == 0 {
			return false
		}
		found := false
		for a0 := uint32(0); a0 < uint32(n.n0) && !found; a0++ {
			for a1 := uint32(0); a1 < uint32(n.n1); a1++ {
				kid := *t.kids.at(n.kids + a0*uint32(n.n1) + a1)
				if kid == 0 {
					continue
				}
				c.PlayJoint(t.acts.at(n.acts+a0).move, t.acts.at(n.acts+uint32(n.n0)+a1).move)
				if c.Hash() == w.hashes[k] {
					i, found = kid, true
					break
				}
				c.Undo()
			}
		}
		if !found {
			return false
		}
	}
	w.compact(i)
	return true
}

// compact copies the subtree under i into the spare tree.
func (w *simWorker) compact(i uint32) {
	src, dst := w.tree, w.spare
	dst.reset()
	r, _ := dst.nodes.alloc(1)
	*dst.nodes.at(r) = *src.nodes.at(i)
	w.queue = append(w.queue[:0], i, r)
	for len(w.queue) > 0 {
		o, n := w.queue[0], w.queue[1]
		w.queue = w.queue[2:]
		on, nn := src.nodes.at(o), dst.nodes.at(n)
		if on.flags&flagExpanded == 0 {
			continue
		}
		na, nk := int(on.n0)+int(on.n1), int(on.n0)*int(on.n1)
		ai, ok1 := dst.acts.alloc(na)
		ki, ok2 := dst.kids.alloc(nk)
		if !ok1 || !ok2 {
			nn.flags &^= flagExpanded
			continue
		}
		nn.acts, nn.kids = ai, ki
		for a := 0; a < na; a++ {
			*dst.acts.at(ai + uint32(a)) = *src.acts.at(on.acts + uint32(a))
		}
		for k := 0; k < nk; k++ {
			old := *src.kids.at(on.kids + uint32(k))
			if old == 0 {
				continue
			}
			c, ok := dst.nodes.alloc(1)
			if !ok {
				continue
			}
			*dst.nodes.at(c) = *src.nodes.at(old)
			*dst.kids.at(ki + uint32(k)) = c
			w.queue = append(w.queue, old, c)
		}
	}
	w.queue = w.queue[:0]
	w.tree, w.spare = dst, src
	w.root = r
}

func (w *simWorker) run(b *budget, quota int64) {
	w.pace.start()
	for {
		if quota > 0 && w.iters >= quota {
			break
		}
		if w.pace.stop(b) {
			break
		}
		w.iterate()
		w.iters++
	}
	w.st, w.prev = nil, w.st
}

func (w *simWorker) iterate() {
	t, st := w.tree, w.st
	path := w.path[:0]
	i := w.root
	leaf := true // whether node i exists and gets a visit
	var r0 float64
	for {
		n := t.nodes.at(i)
		if n.flags&flagTerminal != 0 {
			r0 = w.outcomeReward()
			break
		}
		if w.opts.MaxDepth > 0 && len(path) >= w.opts.MaxDepth {
			r0 = w.rollout()
			break
		}
		if n.flags&flagExpanded == 0 {
			if (i != w.root && n.visits < uint32(w.opts.ExpandAfter)) || !w.expand(i) {
				r0 = w.rollout()
				break
			}
			n = t.nodes.at(i)
		}
		var a0, a1 int
		var p0, p1 float64
		if w.opts.Selection == SelectRM {
			a0, p0 = w.regretMatch(n.acts, int(n.n0))
			a1, p1 = w.regretMatch(n.acts+uint32(n.n0), int(n.n1))
		} else {
			a0 = w.selectAction(n.acts, int(n.n0), n.visits)
			a1 = w.selectAction(n.acts+uint32(n.n0), int(n.n1), n.visits)
		}
		st.PlayJoint(t.acts.at(n.acts+uint32(a0)).move, t.acts.at(n.acts+uint32(n.n0)+uint32(a1)).move)
		path = append(path, step{i, uint16(a0), uint16(a1), p0, p1})
		slot := t.kids.at(n.kids + uint32(a0)*uint32(n.n1) + uint32(a1))
		if *slot == 0 {
			k, ok := t.nodes.alloc(1)
			if !ok {
				leaf = false
				r0 = w.rollout()
				break
			}
			*slot = k
			c := t.nodes.at(k)
			c.flags = flagChecked
			if st.Terminal() {
				c.flags |= flagTerminal
			}
		}
		i = *slot
	}
	if len(path) > w.maxDepth {
		w.maxDepth = len(path)
	}
	if leaf {
		t.nodes.at(i).visits++
	}
	for j := len(path) - 1; j >= 0; j-- {
		s := path[j]
		n := t.nodes.at(s.node)
		n.visits++
		x := t.acts.at(n.acts + uint32(s.a0))
		x.visits++
		x.reward += r0
		y := t.acts.at(n.acts + uint32(n.n0) + uint32(s.a1))
		y.visits++
		y.reward += 1 - r0
		if w.opts.Selection == SelectRM {
			w.updateRegrets(n.acts, int(n.n0), int(s.a0), s.p0, r0)
			w.updateRegrets(n.acts+uint32(n.n0), int(n.n1), int(s.a1), s.p1, 1-r0)
		}
		st.Undo()
	}
	w.path = path[:0]
}

// expand creates node i's action statistics and its (empty) child table. A
// player without legal moves gets the single move 0.
func (w *simWorker) expand(i uint32) bool {
	m0 := w.st.LegalMovesFor(0, w.buf0[:0])
	m1 := w.st.LegalMovesFor(1, w.buf1[:0])
	if len(m0) == 0 {
		m0 = append(m0, 0)
	}
	if len(m1) == 0 {
		m1 = append(m1, 0)
	}
	t := w.tree
	a, ok := t.acts.alloc(len(m0) + len(m1))
	if !ok {
		return false
	}
	k, ok := t.kids.alloc(len(m0) * len(m1))
	if !ok {
		return false
	}
	for j, m := range m0 {
		t.acts.at(a + uint32(j)).move = m
	}
	for j, m := range m1 {
		t.acts.at(a + uint32(len(m0)+j)).move = m
	}
	n := t.nodes.at(i)
	n.acts, n.kids, n.n0, n.n1 = a, k, uint16(len(m0)), uint16(len(m1))
	n.flags |= flagExpanded | flagChecked
	return true
}

// selectAction applies one player's UCB rule to its n actions from first.
// Ties, above all between untried actions (all worth Options.FPU), go to
// one of the tied actions drawn uniformly, as in selectChild.
func (w *simWorker) selectAction(first uint32, n int, parentVisits uint32) int {
	acts := &w.tree.acts
	c, fpu := w.opts.C, w.opts.FPU
	logN := math.Log(float64(max(parentVisits, 1)))
	best, bestV, ties := 0, math.Inf(-1), 0
	for a := 0; a < n; a++ {
		s := acts.at(first + uint32(a))
		switch v := ucb(s.reward, s.visits, logN, c, fpu); {
		case v > bestV:
			best, bestV, ties = a, v, 1
		case v == bestV:
			ties++
		}
	}
	if ties < 2 {
		return best
	}
	r := w.rand.IntN(ties)
	for a := 0; ; a++ {
		s := acts.at(first + uint32(a))
		if ucb(s.reward, s.visits, logN, c, fpu) != bestV {
			continue
		}
		if r == 0 {
			return a
		}
		r--
	}
}

// regretMatch draws one player's action from its regret-matching strategy
// mixed with Gamma exploration, adds the unmixed strategy to the cumulative
// strategy, and returns the action with the probability it was drawn with.
func (w *simWorker) regretMatch(first uint32, n int) (int, float64) {
	acts := &w.tree.acts
	var pos float64
	for a := 0; a < n; a++ {
		pos += max(acts.at(first+uint32(a)).regret, 0)
	}
	g := w.opts.Gamma
	x := w.rand.Float64()
	pick, pickP := n-1, 0.0
	for a := 0; a < n; a++ {
		s := acts.at(first + uint32(a))
		sigma := 1 / float64(n)
		if pos > 0 {
			sigma = max(s.regret, 0) / pos
		}
		s.cum += sigma
		p := (1-g)*sigma + g/float64(n)
		if x >= 0 && x < p {
			pick, pickP = a, p
		}
		x -= p
	}
	if pickP == 0 {
		pickP = (1-g)*max(acts.at(first+uint32(pick)).regret, 0)/max(pos, 1e-300) + g/float64(n)
		if pos <= 0 {
			pickP = 1 / float64(n)
		}
	}
	return pick, pickP
}

// updateRegrets credits one player's actions with the sampled reward u of
// action a (drawn with probability p): the importance-weighted estimate
// u/p for a, 0 for the others, each minus u.
func (w *simWorker) updateRegrets(first uint32, n, a int, p, u float64) {
	acts := &w.tree.acts
	for b := 0; b < n; b++ {
		s := acts.at(first + uint32(b))
		s.regret -= u
		if b == a {
			s.regret += u / p
		}
	}
}

func (w *simWorker) outcomeReward() float64 {
	if w.rewarder != nil {
		return w.rewarder.Reward(0)
	}
	return w.st.Outcome().Points(0)
}

// rollout plays uniformly random joint moves (Cutoff plies at most, then
// the evaluation decides; none with RolloutNone) and returns player 0's
// reward.
func (w *simWorker) rollout() float64 {
	st := w.st
	if w.opts.Rollout == RolloutNone && !st.Terminal() {
		return evalReward(w.eval, w.opts.EvalScale, w.base)
	}
	n := 0
	for !st.Terminal() && (w.opts.Cutoff == 0 || n < w.opts.Cutoff) {
		m0 := st.LegalMovesFor(0, w.buf0[:0])
		m1 := st.LegalMovesFor(1, w.buf1[:0])
		var x, y games.Move
		if len(m0) > 0 {
			x = m0[w.rand.IntN(len(m0))]
		}
		if len(m1) > 0 {
			y = m1[w.rand.IntN(len(m1))]
		}
		st.PlayJoint(x, y)
		n++
	}
	var r0 float64
	if st.Terminal() {
		r0 = w.outcomeReward()
	} else {
		r0 = evalReward(w.eval, w.opts.EvalScale, w.base)
	}
	for ; n > 0; n-- {
		st.Undo()
	}
	return r0
}
