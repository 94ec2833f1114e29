package mcts

import (
	"context"
	"slices"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/search/testgames"
)

// counted wraps a simultaneous game and counts, across its clones, the
// move generations, the joint moves played and the evaluations; its
// evaluation is the first player's points so far minus the second's (in
// Goofspiel: the prizes won).
type counted struct {
	*testgames.Goofspiel
	n      *counts
	offset int // added to player 0's evaluation (a lead outside the game's points)
}

type counts struct{ gen, play, eval int }

func (c counted) LegalMovesFor(p int, buf []games.Move) []games.Move {
	c.n.gen++
	return c.Goofspiel.LegalMovesFor(p, buf)
}

func (c counted) PlayJoint(m0, m1 games.Move) {
	c.n.play++
	c.Goofspiel.PlayJoint(m0, m1)
}

func (c counted) Clone() games.SimState {
	return counted{c.Goofspiel.Clone().(*testgames.Goofspiel), c.n, c.offset}
}

func (c counted) Evaluate(p int) int {
	c.n.eval++
	v := c.Outcome().Score + c.offset // the points difference, also before the end
	if p == 1 {
		v = -v
	}
	return v
}

// With RolloutNone a new leaf is scored by the evaluation and no playout
// is played: every iteration plays only the joint moves of its path in
// the tree, and evaluates once unless it ended on a finished game.
func TestRolloutNoneScoresLeaves(t *testing.T) {
	n := &counts{}
	g := counted{testgames.NewGoofspiel(1, 2, 3, 4, 5), n, 0}
	s := New(Options{Iterations: 3000, Rollout: RolloutNone, EvalScale: 2}, 1)
	res, err := s.SearchSim(context.Background(), g, 0)
	if err != nil || !slices.Contains(g.LegalMovesFor(0, nil), res.Move) {
		t.Fatalf("move %v (%v)", res.Move, err)
	}
	w := s.sims[0]
	if n.eval == 0 || n.eval > int(res.Iterations) {
		t.Fatalf("%d evaluations in %d iterations, want 1 to %d", n.eval, res.Iterations, res.Iterations)
	}
	// Without a playout, the joint moves played are those of the paths:
	// at most the deepest path per iteration.
	if n.play > int(res.Iterations)*w.maxDepth {
		t.Fatalf("%d joint moves in %d iterations of depth ≤ %d: playouts were played", n.play, res.Iterations, w.maxDepth)
	}
	// A random playout to the end plays far more joint moves.
	m := &counts{}
	r := New(Options{Iterations: 3000}, 1)
	if _, err := r.SearchSim(context.Background(), counted{testgames.NewGoofspiel(1, 2, 3, 4, 5), m, 0}, 0); err != nil {
		t.Fatal(err)
	}
	if m.eval != 0 || m.play <= n.play {
		t.Fatalf("random playouts: %d evaluations, %d joint moves (none: %d)", m.eval, m.play, n.play)
	}
	if err := (Options{Rollout: RolloutNone}).Validate(); err != nil {
		t.Fatal(err)
	}
}

// Relative: far ahead (an evaluation offset of 1000 against a scale of 1),
// absolute leaf scores are all 1 and every action looks the same; scored
// from the root's evaluation, the actions' values tell the bids apart.
func TestRelativeLeafScores(t *testing.T) {
	spread := func(relative bool) float64 { // only the root is expanded: every leaf is one turn deep
		g := counted{testgames.NewGoofspiel(5, 4, 3, 2, 1), &counts{}, 1000}
		s := New(Options{Iterations: 2000, Rollout: RolloutNone, EvalScale: 1, Relative: relative, ExpandAfter: 1000}, 1)
		res, err := s.SearchSim(context.Background(), g, 0)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := 1.0, 0.0
		for _, ms := range res.Stats {
			lo, hi = min(lo, ms.Value), max(hi, ms.Value)
		}
		return hi - lo
	}
	if d := spread(false); d > 0.001 {
		t.Fatalf("absolute scores: values spread %.3f, want all saturated at 1", d)
	}
	if d := spread(true); d < 0.1 {
		t.Fatalf("relative scores: values spread only %.3f", d)
	}
}

// ExpandAfter: a node generates its moves (is expanded) only after that
// many visits, so expansions are at most iterations / ExpandAfter (plus
// the root); at 1, the default, a node is expanded on its second visit.
func TestExpandAfterDefersExpansion(t *testing.T) {
	const iters = 4000
	gens := map[int]int{}
	for _, k := range []int{1, 10, 50} {
		n := &counts{}
		g := counted{testgames.NewGoofspiel(1, 2, 3, 4, 5, 6), n, 0}
		s := New(Options{Iterations: iters, Rollout: RolloutNone, EvalScale: 2, ExpandAfter: k}, 1)
		res, err := s.SearchSim(context.Background(), g, 1)
		if err != nil || !slices.Contains(g.LegalMovesFor(1, nil), res.Move) {
			t.Fatalf("expand %d: move %v (%v)", k, res.Move, err)
		}
		expansions := n.gen / 2 // both players' moves per expansion
		if expansions > iters/k+1 {
			t.Fatalf("expand %d: %d expansions in %d iterations", k, expansions, iters)
		}
		gens[k] = expansions
	}
	if !(gens[1] > gens[10] && gens[10] > gens[50]) {
		t.Fatalf("expansions by ExpandAfter: %v, want fewer for larger values", gens)
	}
	if err := (Options{ExpandAfter: -1}).Validate(); err == nil {
		t.Fatal("a negative ExpandAfter was accepted")
	}
	// Sequential UCT honours it too.
	st := testgames.NewTicTacToe()
	for _, k := range []int{1, 30} {
		s := New(Options{Iterations: 3000, ExpandAfter: k, Rollout: RolloutNone}, 1)
		res, err := s.Search(context.Background(), st)
		if err != nil || !games.IsLegal(st, res.Move) {
			t.Fatalf("tictactoe, expand %d: %v (%v)", k, res.Move, err)
		}
		w := s.workers[0]
		if k == 30 && int(w.tree.used) > 3000/30*9+10 {
			t.Fatalf("tictactoe, expand 30: %d nodes after 3000 iterations", w.tree.used)
		}
	}
}

// tryangleMidgame is TryAngle Catch on map seed 3 after a few turns of
// the first plans (a position with units spread and plans to choose).
func tryangleMidgame(t *testing.T) games.SimState {
	t.Helper()
	b, err := games.New("tryangle:seed=3")
	if err != nil {
		t.Fatal(err)
	}
	st := b.(games.SimState)
	for range 6 {
		m0, m1 := st.LegalMovesFor(0, nil), st.LegalMovesFor(1, nil)
		st.PlayJoint(m0[len(m0)-1], m1[len(m1)/2])
	}
	return st
}

// DUCT iterations on a real game (TryAngle Catch's plans, leaves scored
// by its evaluation) allocate nothing once the tree's blocks exist.
func TestDUCTTryangleDoesNotAllocate(t *testing.T) {
	st := tryangleMidgame(t)
	for _, o := range []Options{
		{Rollout: RolloutNone, EvalScale: 300, ExpandAfter: 4},
		{Cutoff: 2, EvalScale: 300, Selection: SelectRM},
	} {
		o.Iterations = 1
		s := New(o, 1)
		if _, err := s.SearchSim(context.Background(), st, 0); err != nil {
			t.Fatal(err)
		}
		w := s.sims[0]
		w.prepare(st)
		for range 300 {
			w.iterate()
		}
		if a := testing.AllocsPerRun(200, w.iterate); a > 0.01 {
			t.Fatalf("%+v: %v allocations per iteration", o, a)
		}
	}
}

// Tree reuse between turns: after the joint move the tree visited most,
// the next search starts from that child's subtree with all its visits;
// after an opponent's own command line, from the child whose position it
// reached (matched by hash), or afresh; both answers are plans of the new
// position.
func TestDUCTReuseOnTryangle(t *testing.T) {
	st := tryangleMidgame(t)
	s := New(Options{Iterations: 600, Rollout: RolloutNone, EvalScale: 300, Reuse: true}, 1)
	if _, err := s.SearchSim(context.Background(), st, 0); err != nil {
		t.Fatal(err)
	}
	w := s.sims[0]
	tr := w.tree
	root := tr.nodes.at(w.root)
	var best0, best1 games.Move
	var bestVisits uint32
	for a0 := uint32(0); a0 < uint32(root.n0); a0++ {
		for a1 := uint32(0); a1 < uint32(root.n1); a1++ {
			k := *tr.kids.at(root.kids + a0*uint32(root.n1) + a1)
			if k != 0 && tr.nodes.at(k).visits > bestVisits {
				bestVisits = tr.nodes.at(k).visits
				best0, best1 = tr.acts.at(root.acts+a0).move, tr.acts.at(root.acts+uint32(root.n0)+a1).move
			}
		}
	}
	if bestVisits < 2 {
		t.Fatalf("no joint child visited twice in 600 iterations (best %d)", bestVisits)
	}
	st.PlayJoint(best0, best1)
	s.SetBudget(1, 0)
	res, err := s.SearchSim(context.Background(), st, 1)
	if err != nil || res.Reused != int64(bestVisits) {
		t.Fatalf("reused %d visits (%v), want the child's %d", res.Reused, err, bestVisits)
	}
	if !slices.Contains(st.LegalMovesFor(1, nil), res.Move) {
		t.Fatalf("move %v is not a plan of the new position", res.Move)
	}
	// A command line, not a plan: the tree is matched by the position it
	// leads to (the line may have the effect of a plan), so the next
	// search keeps exactly the visits of the child with that position, or
	// none.
	line, err := st.ParseMove("WAIT;MSG off the plans")
	if err != nil {
		t.Fatal(err)
	}
	after := st.Clone()
	after.PlayJoint(line, res.Move)
	var want int64
	tr, root = w.tree, w.tree.nodes.at(w.root)
	for a0 := uint32(0); a0 < uint32(root.n0); a0++ {
		for a1 := uint32(0); a1 < uint32(root.n1); a1++ {
			k := *tr.kids.at(root.kids + a0*uint32(root.n1) + a1)
			if k == 0 {
				continue
			}
			st.PlayJoint(tr.acts.at(root.acts+a0).move, tr.acts.at(root.acts+uint32(root.n0)+a1).move)
			if st.Hash() == after.Hash() {
				want = int64(tr.nodes.at(k).visits)
			}
			st.Undo()
		}
	}
	res, err = s.SearchSim(context.Background(), after, 0)
	if err != nil || res.Reused != want || !slices.Contains(after.LegalMovesFor(0, nil), res.Move) {
		t.Fatalf("after a command line: reused %d (want %d), move %v (%v)", res.Reused, want, res.Move, err)
	}
}

// A worker copies each new root into the state of its last search
// (games.Copier: TryAngle Catch keeps its plan cache), which changes nothing in
// the searches: the same moves and statistics as with a fresh clone each
// time, over several turns with tree reuse.
func TestDUCTCopiesRootIntoLastState(t *testing.T) {
	type searchLog struct {
		move           games.Move
		reused, visits int64
	}
	run := func(copyRoot bool) []searchLog {
		st := tryangleMidgame(t)
		s := New(Options{Iterations: 300, Rollout: RolloutNone, EvalScale: 300, ExpandAfter: 2, Reuse: true}, 1)
		var log []searchLog
		for k := 0; k < 6 && !st.Terminal(); k++ {
			var joint [2]games.Move
			for p := range joint {
				var kept games.SimState
				if len(s.sims) > 0 {
					if !copyRoot {
						s.sims[0].prev = nil
					}
					kept = s.sims[0].prev
				}
				res, err := s.SearchSim(context.Background(), st, p)
				if err != nil {
					t.Fatal(err)
				}
				if copyRoot && kept != nil && s.sims[0].prev != kept {
					t.Fatalf("turn %d: the worker cloned the root instead of copying it into its last state", k)
				}
				joint[p] = res.Move
				log = append(log, searchLog{res.Move, res.Reused, res.Stats[0].Visits})
			}
			st.PlayJoint(joint[0], joint[1])
		}
		return log
	}
	cloned, copied := run(false), run(true)
	if !slices.Equal(cloned, copied) {
		t.Fatalf("searches differ:\ncloned %v\ncopied %v", cloned, copied)
	}
}

// MaxDepth stops the tree that many joint moves below the root: with
// little exploration, a search without it grows a deeper line on
// TryAngle Catch; with it, no iteration goes deeper and nodes at the
// limit are never expanded.
func TestMaxDepthBoundsTheTree(t *testing.T) {
	st := tryangleMidgame(t)
	o := Options{Iterations: 1500, Rollout: RolloutNone, EvalScale: 300, Relative: true, C: 0.05}
	free, err := New(o, 1).SearchSim(context.Background(), st, 0)
	if err != nil {
		t.Fatal(err)
	}
	const limit = 2
	if free.MaxDepth <= limit {
		t.Fatalf("without a limit the tree is only %d deep: the test shows nothing", free.MaxDepth)
	}
	o.MaxDepth = limit
	s := New(o, 1)
	res, err := s.SearchSim(context.Background(), st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.MaxDepth != limit {
		t.Fatalf("with MaxDepth %d the tree is %d deep", limit, res.MaxDepth)
	}
	// No node at the limit is expanded: walk the tree.
	w := s.sims[0]
	var walk func(i uint32, d int)
	walk = func(i uint32, d int) {
		n := w.tree.nodes.at(i)
		if n.flags&flagExpanded == 0 {
			return
		}
		if d >= limit {
			t.Fatalf("a node %d joint moves deep is expanded", d)
		}
		for k := uint32(0); k < uint32(n.n0)*uint32(n.n1); k++ {
			if c := *w.tree.kids.at(n.kids + k); c != 0 {
				walk(c, d+1)
			}
		}
	}
	walk(w.root, 0)
	if err := (Options{MaxDepth: -1}).Validate(); err == nil {
		t.Fatal("a negative MaxDepth is accepted")
	}
}
