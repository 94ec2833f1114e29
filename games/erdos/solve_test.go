package erdos

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// minimax is the plain negamax value of s from the side to move's view, on
// the game's own Play and Undo: the reference the solver is checked against.
func minimax(s *State) int {
	if s.Terminal() {
		return terminalValue(s)
	}
	var buf [NumMoves]games.Move
	best := -infinity
	for _, m := range s.LegalMoves(buf[:0]) {
		s.Play(m)
		best = max(best, -minimax(s))
		s.Undo()
	}
	return best
}

// randomPosition plays random moves from the start until empties cells are
// left, and returns the position (nil if the game ended first).
func randomPosition(rules Rules, empties int, r *rng.Rand) *State {
	s := New(rules)
	for s.Empties() > empties {
		if s.Terminal() {
			return nil
		}
		games.RandomPlies(s, 1, r)
	}
	if s.Terminal() {
		return nil
	}
	return s
}

// latinPosition fills a random Latin square (the cyclic one with rows,
// columns and levels permuted) in a random order until empties cells are
// left: random play mostly starves a player early, while such a position
// can still be played out to a full board, so column counts decide too.
func latinPosition(rules Rules, empties int, r *rng.Rand) *State {
	rows, cols, lvls := randomPerm(r), randomPerm(r), randomPerm(r)
	var order [Cells]int
	for i := range order {
		order[i] = i
	}
	for i := Cells - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	s := New(rules)
	for _, i := range order[:Cells-empties] {
		rk, f := i/Size, i%Size
		m := MoveOf(i, lvls[(rows[rk]+cols[f])%Size]+1)
		if s.Terminal() || !s.Legal(m) {
			panic("latin square move illegal")
		}
		s.Play(m)
	}
	if s.Terminal() {
		return nil
	}
	return s
}

// transform returns s with its columns permuted (new column j is s's column
// perm[j]) and, if flip, the ranks and levels reversed, read back through
// ParsePosition (which checks every controller still has its run).
func transform(t *testing.T, s *State, perm [Size]int, flip bool) *State {
	t.Helper()
	b := []byte("...../...../...../...../..... -----")
	for r := 0; r < Size; r++ {
		for j := 0; j < Size; j++ {
			sr, lv := r, s.Level(r*Size+perm[j])
			if flip {
				sr = Size - 1 - r
				if lv != 0 {
					lv = Size + 1 - lv
				}
			}
			if lv != 0 {
				b[(Size-1-sr)*(Size+1)+j] = byte('0' + lv)
			}
		}
	}
	for j := 0; j < Size; j++ {
		b[len(b)-Size+j] = "-12"[s.Controller(perm[j])+1]
	}
	u, err := ParsePosition(s.Rules(), string(b))
	if err != nil {
		t.Fatalf("transform of %q (perm %v flip %v): %v", s.Position(), perm, flip, err)
	}
	return u
}

func randomPerm(r *rng.Rand) (p [Size]int) {
	for i := range p {
		p[i] = i
	}
	for i := Size - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// TestCanonicalSymmetric: a position and its images under the game's
// symmetries (column permutations; under the standard rules also the
// rank-and-level reflection) get the same key; the key's recorded symmetry
// maps moves both ways, and a move and its image lead to positions with the
// same key again.
func TestCanonicalSymmetric(t *testing.T) {
	r := rng.New(11)
	for _, rules := range []Rules{Standard, Algol} {
		for n := 0; n < 300; n++ {
			s := randomPosition(rules, 3+r.IntN(20), r)
			if n&1 == 0 {
				s = latinPosition(rules, 3+r.IntN(20), r)
			}
			if s == nil {
				continue
			}
			perm, flip := randomPerm(r), rules == Standard && r.IntN(2) == 1
			u := transform(t, s, perm, flip)
			k, ku := canonical(&s.b), canonical(&u.b)
			if k.lo != ku.lo || k.hi != ku.hi {
				t.Fatalf("%s %q and its image %q (perm %v flip %v): keys differ", rules, s.Position(), u.Position(), perm, flip)
			}
			if a, b := s.CanonicalPosition(), u.CanonicalPosition(); a != b {
				t.Fatalf("%s %q and its image %q: canonical positions %q and %q", rules, s.Position(), u.Position(), a, b)
			}
			var buf [NumMoves]games.Move
			for _, m := range s.LegalMoves(buf[:0]) {
				c := k.toCanonical(uint8(m))
				if back := k.fromCanonical(c); back != uint8(m) {
					t.Fatalf("%s %q: move %s to canonical and back gives %s", rules, s.Position(), FormatMove(m), FormatMove(games.Move(back)))
				}
				mu := games.Move(ku.fromCanonical(c)) // the same move in u's frame
				if !u.Legal(mu) {
					t.Fatalf("%s %q: image %s of legal %s is illegal in %q", rules, s.Position(), FormatMove(mu), FormatMove(m), u.Position())
				}
				s.Play(m)
				u.Play(mu)
				a, b := canonical(&s.b), canonical(&u.b)
				s.Undo()
				u.Undo()
				if a.lo != b.lo || a.hi != b.hi {
					t.Fatalf("%s %q: %s and its image %s lead to different keys", rules, s.Position(), FormatMove(m), FormatMove(mu))
				}
			}
		}
	}
}

// TestCanonicalExact: the key tells positions apart unless a symmetry maps
// one onto the other; the key's symmetry applied to the position gives the
// same board for every position of a class, and algol keys differ from
// standard ones.
func TestCanonicalExact(t *testing.T) {
	r := rng.New(12)
	byKey := map[[2]uint64]string{}
	for _, rules := range []Rules{Standard, Algol} {
		for n := 0; n < 2000; n++ {
			s := randomPosition(rules, 2+r.IntN(22), r)
			if n&1 == 0 {
				s = latinPosition(rules, 2+r.IntN(22), r)
			}
			if s == nil {
				continue
			}
			k := canonical(&s.b)
			var perm [Size]int
			for j := range perm {
				perm[j] = int(k.col[j])
			}
			img := transform(t, s, perm, k.flip).Position()
			if c := s.CanonicalPosition(); c != img {
				t.Fatalf("%s %q: CanonicalPosition %q, want %q", rules, s.Position(), c, img)
			}
			id := [2]uint64{k.lo, uint64(k.hi)}
			if prev, ok := byKey[id]; ok && prev != img {
				t.Fatalf("%s: positions %q and %q share a key", rules, prev, img)
			}
			byKey[id] = img
		}
	}
}

// TestSolverMinimax compares the solver's values with plain minimax near the
// end of random games of both rule sets, and checks that each principal
// variation replays legally to an end worth the value.
func TestSolverMinimax(t *testing.T) {
	r := rng.New(13)
	sv := NewSolver(4)
	for _, rules := range []Rules{Standard, Algol} {
		checked, values := 0, map[int]int{}
		for checked < 150 {
			s := randomPosition(rules, 4+r.IntN(6), r)
			if checked&1 == 0 {
				s = latinPosition(rules, 4+r.IntN(6), r)
			}
			if s == nil {
				continue
			}
			want := minimax(s)
			got, pv, err := sv.Solve(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%s %q: solver %d, minimax %d", rules, s.Position(), got, want)
			}
			c := s.Clone().(*State)
			for _, m := range pv {
				if !c.Legal(m) {
					t.Fatalf("%s %q: pv move %s illegal", rules, s.Position(), FormatMove(m))
				}
				c.Play(m)
			}
			if !c.Terminal() {
				t.Fatalf("%s %q: pv %d moves does not end the game", rules, s.Position(), len(pv))
			}
			end := int(c.b.score)
			if s.b.side == 1 {
				end = -end
			}
			if end != want {
				t.Fatalf("%s %q: pv ends at %d, value %d", rules, s.Position(), end, want)
			}
			for _, g := range []int{-1, 0, 1, 2} {
				if ok, err := sv.Test(context.Background(), s, g); err != nil || ok != (want >= g) {
					t.Fatalf("%s %q: Test(≥%d) = %v, %v with value %d", rules, s.Position(), g, ok, err, want)
				}
			}
			values[want]++
			checked++
		}
		if len(values) < 3 {
			t.Errorf("%s: values %v: the sample should hold wins and losses of several margins", rules, values)
		}
		t.Logf("%s: values of %d positions: %v", rules, checked, values)
	}
}

// TestSolveExactInterface: SolveExact is the games.ExactSolver of the game
// and of the position read back from text, and counts nodes into a counter.
func TestSolveExactInterface(t *testing.T) {
	r := rng.New(14)
	s := randomPosition(Standard, 12, r)
	var es games.ExactSolver = s
	var n atomic.Int64
	v, pv, nodes, err := es.SolveExact(context.Background(), games.SolveOptions{Nodes: &n})
	if err != nil || len(pv) == 0 || nodes <= 0 {
		t.Fatalf("SolveExact: %d %v %d %v", v, pv, nodes, err)
	}
	if n.Load() != nodes {
		t.Errorf("counter %d, nodes %d", n.Load(), nodes)
	}
	u, err := ParsePosition(Standard, s.Position())
	if err != nil {
		t.Fatal(err)
	}
	if w, _, _, err := u.SolveExact(context.Background(), games.SolveOptions{TableMB: 2}); err != nil || w != v {
		t.Errorf("from text: %d %v, want %d", w, err, v)
	}
	// The pooled solvers forget the counter: a later solve without one
	// adds nothing to it.
	if _, _, _, err := randomPosition(Standard, 12, r).SolveExact(context.Background(), games.SolveOptions{}); err != nil || n.Load() != nodes {
		t.Errorf("a later solve: %v, counter %d, want %d", err, n.Load(), nodes)
	}
	pool.Lock()
	defer pool.Unlock()
	found := false
	for _, sv := range pool.idle {
		found = found || sv.mb == 2 && len(sv.tt) == 2<<20/16
	}
	if !found {
		t.Error("no pooled solver with the 2 MB table asked for")
	}
}

// TestSolveStops: a done context stops a solve that would take long, with
// the context's error.
func TestSolveStops(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, _, err := New(Standard).SolveExact(ctx, games.SolveOptions{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the deadline", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("stopped after %v", d)
	}
}

// TestSearchAllocs: a search allocates nothing. Each run starts from an
// empty table so it searches a real tree (a child copied into a local
// escaped through the recursion and cost an allocation per node).
func TestSearchAllocs(t *testing.T) {
	s := latinPosition(Standard, 13, rng.New(15))
	sv := NewSolver(1)
	sv.start(context.Background())
	allocs := testing.AllocsPerRun(3, func() {
		clear(sv.tt)
		sv.nodes = 0
		b := s.b
		sv.search(&b, 0, 1)
	})
	if sv.nodes < 1000 {
		t.Fatalf("searched %d nodes, want a real tree", sv.nodes)
	}
	if allocs != 0 {
		t.Errorf("%v allocations per search of %d nodes", allocs, sv.nodes)
	}
}

// TestIndexSpread: the positions of one search, here those two plies after
// a position, spread over the table's slots. The first index used only the
// key's low bits, about the two smallest columns, which most of a subtree
// shares: its positions went to a few slots (ten times the nodes).
func TestIndexSpread(t *testing.T) {
	s := latinPosition(Standard, 16, rng.New(16))
	keys := map[[2]uint64]bool{}
	slots := map[uint64]bool{}
	const mask = 1<<16 - 1
	var buf, buf2 [NumMoves]games.Move
	for _, m := range s.LegalMoves(buf[:0]) {
		s.Play(m)
		for _, m2 := range s.LegalMoves(buf2[:0]) {
			s.Play(m2)
			k := canonical(&s.b)
			keys[[2]uint64{k.lo, uint64(k.hi)}] = true
			slots[k.index()&mask] = true
			s.Undo()
		}
		s.Undo()
	}
	// n keys thrown at random into m slots fill m(1−e^(−n/m)) of them.
	n, m := float64(len(keys)), float64(mask+1)
	want := m * (1 - math.Exp(-n/m))
	if float64(len(slots)) < 0.95*want {
		t.Errorf("%d positions in %d slots of %d, want about %.0f", len(keys), len(slots), mask+1, want)
	}
}

// BenchmarkSolve solves the position after the spec's "basic" line (15
// empty cells, a first-player win) with a fresh 64 MB table each time and
// reports nodes per second.
func BenchmarkSolve(b *testing.B) {
	s := New(Standard)
	for _, m := range []string{"c3:1", "c4:4", "c5:5", "b3:4", "b5:1", "b2:5", "b1:3", "d4:2", "d5:3", "d2:1"} {
		mv, err := ParseMove(m)
		if err != nil {
			b.Fatal(err)
		}
		s.Play(mv)
	}
	sv := NewSolver(DefaultSolverMB)
	var nodes int64
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		clear(sv.tt)
		b.StartTimer()
		v, _, err := sv.Solve(context.Background(), s)
		if err != nil || v != 1 {
			b.Fatalf("value %d, %v; want +1", v, err)
		}
		nodes += sv.Nodes()
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// pollLimitCtx is a context that is done from its n-th look at Done on,
// so that a solve stops after a set number of polls (every 4096 nodes),
// the same on any machine.
type pollLimitCtx struct {
	context.Context
	left int
	done chan struct{}
}

func newPollLimitCtx(n int) *pollLimitCtx {
	return &pollLimitCtx{Context: context.Background(), left: n, done: make(chan struct{})}
}

func (c *pollLimitCtx) Done() <-chan struct{} {
	if c.left == 0 {
		close(c.done)
	}
	c.left--
	return c.done
}

func (c *pollLimitCtx) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

// TestSolveStoppedProvesBounds: a solve stopped after it settled who wins
// (its first null-window test) but not by how much returns
// games.ProvenBounds with that range, which holds the exact value; one
// stopped during the first test proves nothing beyond the game's limits and
// returns the plain context error.
func TestSolveStoppedProvesBounds(t *testing.T) {
	s := New(Standard)
	for _, m := range []string{"c3:1", "c4:4", "c5:5", "b3:4", "b5:1", "b2:5", "b1:3", "d4:2", "d5:3"} {
		mv, err := s.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		s.Play(mv)
	}
	ctx := context.Background()
	exact, _, err := NewSolver(16).Solve(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	first := NewSolver(16)
	wins, err := first.Test(ctx, s, 1)
	if err != nil {
		t.Fatal(err)
	}
	polls := int(first.Nodes() / 4096) // the first test's looks at Done
	t.Logf("value %+d, the first test %d nodes (%d polls)", exact, first.Nodes(), polls)

	_, _, err = NewSolver(16).Solve(newPollLimitCtx(polls+1), s)
	var pb *games.ProvenBounds
	if !errors.As(err, &pb) || !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped after the first test: %v, want games.ProvenBounds wrapping the context's error", err)
	}
	if pb.Lo > exact || pb.Hi < exact || (pb.Lo > 0) != wins || (pb.Hi < 0) == wins || pb.Lo == pb.Hi {
		t.Errorf("proven %+d to %+d; the value is %+d, a win %v", pb.Lo, pb.Hi, exact, wins)
	}

	_, _, err = NewSolver(16).Solve(newPollLimitCtx(polls/2), s)
	if err == nil || errors.As(err, &pb) || !errors.Is(err, context.Canceled) {
		t.Errorf("stopped in the first test: %v, want the context's error alone", err)
	}
}
