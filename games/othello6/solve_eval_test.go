package othello6

import (
	"context"
	"testing"

	"github.com/boardgame-arena/arena/rng"
)

// slowOrderEval is orderEval from orderPatterns and the plain tables.
func slowOrderEval(me, opp uint64) int {
	w := &orderWeights
	tables := [4]*[numConfigs]int16{&w.edge, &w.second, &w.diag, &w.corner}
	v := int(w.bias)
	orderPatterns(me, opp, func(g, c int) { v += int(tables[g][c]) })
	mob, front, parity := orderScalars(me, opp, Moves(me, opp), Moves(opp, me))
	return v + int(w.mobility)*mob + int(w.frontier)*front + int(w.parity)*parity
}

func TestOrderEvalSymmetricAndUnrolledRight(t *testing.T) {
	// The patterns cover the board symmetrically and a line and its
	// reverse share a weight, so the evaluation must not change under the
	// eight symmetries; the unrolled orderEval must equal the loop over
	// orderPatterns.
	if orderWeights.edge == ([numConfigs]int16{}) {
		t.Fatal("no fitted weights")
	}
	r := rng.New(99)
	for i := 0; i < 400; i++ {
		s := randomPosition(r, 4+i%28)
		me, opp := s.discs[s.side], s.discs[1-s.side]
		want := slowOrderEval(me, opp)
		for sym := 0; sym < 8; sym++ {
			tm, to := transform(me, sym), transform(opp, sym)
			if got := orderEval(tm, to, Moves(tm, to), Moves(to, tm)); got != want {
				t.Fatalf("position %d, symmetry %d: orderEval %d, want %d\n%s", i, sym, got, want, s)
			}
		}
	}
}

func TestTranspose(t *testing.T) {
	r := rng.New(3)
	for i := 0; i < 200; i++ {
		b := r.Uint64() & full
		if got, want := transpose(b), transform(b, 4); got != want {
			t.Fatalf("transpose(%#x) = %#x, want %#x", b, got, want)
		}
	}
}

func TestOrderEvalAllocatesNothing(t *testing.T) {
	s := randomPosition(rng.New(4), 20)
	me, opp := s.discs[s.side], s.discs[1-s.side]
	if n := testing.AllocsPerRun(100, func() { orderEval(me, opp, Moves(me, opp), Moves(opp, me)) }); n != 0 {
		t.Fatalf("%v allocations per evaluation", n)
	}
}

func TestSolveMatchesReferenceWithOrderingEval(t *testing.T) {
	// From 15 empties the solver orders moves with orderEval, and from 16
	// it guesses the root's value with it: the value must still be plain
	// alpha-beta's, whatever the evaluation says.
	n := 6
	if testing.Short() {
		n = 2
	}
	solveMatchesReference(t, 1616, n, func(i int) int { return 15 + i%2 })
}

func TestOrderSearchSortedSameValue(t *testing.T) {
	// Trying the moves fastest-first changes which nodes an ordering search
	// visits, never its full-window value (the ordering keys of the exact
	// search, and so its node counts, stay the same).
	defer func(d int) { orderSortDepth = d }(orderSortDepth)
	r := rng.New(77)
	sv := newSolver(context.Background(), 1, newSolveTT(1))
	for i := 0; i < 300; i++ {
		s := randomPosition(r, 8+i%24)
		me, opp := s.discs[s.side], s.discs[1-s.side]
		depth := 1 + i%6
		orderSortDepth = 99
		want := sv.orderSearch(me, opp, depth, -orderInf, orderInf)
		orderSortDepth = 1 + i%3
		if got := sv.orderSearch(me, opp, depth, -orderInf, orderInf); got != want {
			t.Fatalf("position %d, depth %d: sorted %d, plain %d\n%s", i, depth, got, want, s)
		}
	}
}

// BenchmarkOrderEval times the ordering evaluation alone on positions with
// 10-25 empties (the moves generated beforehand).
func BenchmarkOrderEval(b *testing.B) {
	r := rng.New(5)
	var pos [64][4]uint64
	for i := range pos {
		s := randomPosition(r, 10+i%16)
		me, opp := s.discs[s.side], s.discs[1-s.side]
		pos[i] = [4]uint64{me, opp, Moves(me, opp), Moves(opp, me)}
	}
	sum := 0
	for i := 0; i < b.N; i++ {
		p := &pos[i&63]
		sum += orderEval(p[0], p[1], p[2], p[3])
	}
	if sum == 1 {
		b.Log(sum)
	}
}
