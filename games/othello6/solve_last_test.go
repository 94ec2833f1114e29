package othello6

import (
	"context"
	"fmt"
	"math/bits"
	"testing"

	"github.com/boardgame-arena/arena/rng"
)

// refLastMove is the plain last move: both sides' flips from Flips.
func refLastMove(me, opp uint64, i int) int {
	n := bits.OnesCount64(me)
	if f := Flips(i, me, opp); f != 0 {
		return 2*(n+bits.OnesCount64(f)+1) - Size*Size
	}
	if f := Flips(i, opp, me); f != 0 {
		return 2*(n-bits.OnesCount64(f)) - Size*Size
	}
	if d := 2*n - (Size*Size - 1); d > 0 {
		return d + 1
	} else {
		return d - 1
	}
}

// The count-only last move agrees with Flips on random full boards (any
// split of the discs, reachable or not), every cell as the empty one.
func TestLastMoveMatchesFlips(t *testing.T) {
	r := rng.New(2026)
	for n := 0; n < 20000; n++ {
		for i := 0; i < Size*Size; i++ {
			me := r.Uint64() & full &^ bit(i)
			opp := full &^ me &^ bit(i)
			mine, theirs := lastFlipCounts(i, me)
			if w := bits.OnesCount64(Flips(i, me, opp)); mine != w {
				t.Fatalf("cell %d, me %#x: %d flips counted, %d by Flips", i, me, mine, w)
			}
			if w := bits.OnesCount64(Flips(i, opp, me)); theirs != w {
				t.Fatalf("cell %d, me %#x: opponent's %d flips counted, %d by Flips", i, me, theirs, w)
			}
			if got, want := lastMove(me, i), refLastMove(me, opp, i); got != want {
				t.Fatalf("cell %d, me %#x: lastMove %d, want %d", i, me, got, want)
			}
		}
	}
}

// The per-line counts of a cell add up to less than 16 for either side, so
// lastFlipCounts's nibbles never carry.
func TestLastFlipCountsFitNibbles(t *testing.T) {
	for i := range lastLines {
		mine, theirs := 0, 0
		for d := range lastLines[i] {
			m, o := 0, 0
			for _, c := range lastLines[i][d].count {
				m, o = max(m, int(c&15)), max(o, int(c>>4))
			}
			mine, theirs = mine+m, theirs+o
		}
		if mine > 15 || theirs > 15 {
			t.Fatalf("cell %d: up to %d and %d flips", i, mine, theirs)
		}
	}
}

// refExact is plain negamax to the end, from me's view.
func refExact(me, opp uint64) int {
	moves := Moves(me, opp)
	if moves == 0 {
		if Moves(opp, me) == 0 {
			return final(me, opp)
		}
		return -refExact(opp, me)
	}
	best := -solveInf
	for ; moves != 0; moves &= moves - 1 {
		i := bits.TrailingZeros64(moves)
		f := Flips(i, me, opp) | bit(i)
		best = max(best, -refExact(opp&^f, me|f))
	}
	return best
}

// The last plies (lastPlies and all below it) return true fail-soft
// bounds, even, for random positions with 1 to shallowEmpties empties and
// random windows, against plain negamax.
func TestLastPliesMatchesNegamax(t *testing.T) {
	r := rng.New(15)
	sv := newSolver(context.Background(), 1, nil)
	for n := 0; n < 2500; n++ {
		empties := 1 + n%shallowEmpties
		s := randomPosition(r, empties)
		me, opp := s.discs[s.side], s.discs[1-s.side]
		empties = bits.OnesCount64(^(me | opp) & full) // a game may end early
		want := refExact(me, opp)
		for k := 0; k < 4; k++ {
			alpha := 2*r.IntN(Size*Size+1) - Size*Size - 1 // odd, as the root's windows
			beta := alpha + 2 + 2*r.IntN(3)
			if k == 0 {
				alpha, beta = -solveInf, solveInf
			}
			got := sv.lastPlies(me, opp, alpha, beta, empties, parityOf(^(me|opp)&full))
			if got%2 != 0 || got <= alpha && want > got || got >= beta && want < got || got > alpha && got < beta && got != want {
				t.Fatalf("%d empties, me %#x opp %#x, window (%d, %d): got %d, exact %d", empties, me, opp, alpha, beta, got, want)
			}
		}
	}
}

// BenchmarkLastPlies times the last plies alone on 2 000 random positions
// with 5, 8 and 10 empties, null windows around the true value.
func BenchmarkLastPlies(b *testing.B) {
	for _, empties := range []int{5, 8, 10} {
		b.Run(fmt.Sprint(empties), func(b *testing.B) {
			type pos struct {
				me, opp uint64
				alpha   int
				parity  uint8
			}
			r := rng.New(uint64(empties))
			var ps []pos
			for len(ps) < 2000 {
				s := randomPosition(r, empties)
				me, opp := s.discs[s.side], s.discs[1-s.side]
				if bits.OnesCount64(^(me|opp)&full) != empties {
					continue
				}
				v := refExact(me, opp) + 1 - 2*r.IntN(2) // just above or below
				ps = append(ps, pos{me, opp, v - 1, parityOf(^(me | opp) & full)})
			}
			var nodes int64
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				sv := newSolver(context.Background(), 1, nil) // a fresh lastTable
				for _, p := range ps {
					sv.lastPlies(p.me, p.opp, p.alpha, p.alpha+1, empties, p.parity)
				}
				nodes += sv.nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N*len(ps)), "nodes/pos")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
		})
	}
}

// shallowMoves, given the moves, plays exactly as shallow finding them:
// the same value and the same nodes, passes included, for random positions
// with 4 to 7 empties and random windows.
func TestShallowMovesMatchesShallow(t *testing.T) {
	r := rng.New(16)
	a := newSolver(context.Background(), 1, nil)
	b := newSolver(context.Background(), 1, nil)
	passes := 0
	for n := 0; n < 20000; n++ {
		s := randomPosition(r, 4+n%4)
		me, opp := s.discs[s.side], s.discs[1-s.side]
		empties := bits.OnesCount64(^(me | opp) & full)
		moves := Moves(me, opp)
		if moves == 0 {
			passes++
		}
		alpha := 2*r.IntN(Size*Size+1) - Size*Size - 1
		beta := alpha + 2 + 2*r.IntN(3)
		if n%4 == 0 {
			alpha, beta = -solveInf, solveInf
		}
		p := parityOf(^(me | opp) & full)
		a.nodes, b.nodes = 0, 0
		got := a.shallowMoves(me, opp, moves, alpha, beta, empties, p)
		want := b.shallow(me, opp, alpha, beta, empties, p)
		if got != want || a.nodes != b.nodes {
			t.Fatalf("%d empties, me %#x opp %#x, window (%d, %d): %d in %d nodes, shallow %d in %d", empties, me, opp, alpha, beta, got, a.nodes, want, b.nodes)
		}
	}
	if passes < 100 {
		t.Fatalf("only %d positions to pass", passes)
	}
}
