package othello6

import (
	"context"
	"fmt"
	"math/bits"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// gapPosition is a position just below the embedded book where the perfect
// agent must solve, with the lower bound on its value that the book gives
// (games.SolveOptions.ValueHint).
type gapPosition struct {
	me, opp uint64
	hint    int
}

// bookGapPositions picks n positions with the book's fewest empties less
// plies (1 or 2), the perfect agent to move: for 1, the book position's
// mover (the opponent) plays a move, and the hint is minus the book's
// value; for 2, the book position's mover is the perfect agent, plays the
// book's move, the opponent replies, and the hint is the book's value. The
// opponent's move is a random legal one, or with best an optimal one.
func bookGapPositions(tb testing.TB, r *rng.Rand, n, plies int, best bool) []gapPosition {
	b, err := DefaultBook()
	if err != nil {
		tb.Fatal(err)
	}
	bottom := bottomLayer(b)
	// play makes move i (or, with i < 0, a random or optimal one) and
	// returns the position from the next mover's view; ok is false at a
	// pass or the end, which these samples skip.
	play := func(me, opp uint64, i int) (uint64, uint64, bool) {
		if i < 0 {
			ms := Moves(me, opp)
			if best {
				i = optimalMove(me, opp)
			} else {
				for k := r.IntN(bits.OnesCount64(ms)); k > 0; k-- {
					ms &= ms - 1
				}
				i = bits.TrailingZeros64(ms)
			}
		}
		f := Flips(i, me, opp) | bit(i)
		nme, nopp, flip, over := settle(opp&^f, me|f)
		return nme, nopp, !flip && !over
	}
	var out []gapPosition
	for len(out) < n {
		e := bottom[r.IntN(len(bottom))]
		me, opp, hint := e.me, e.opp, -int(e.value)
		ok := true
		if plies == 2 {
			me, opp, ok = play(me, opp, int(e.move))
			hint = int(e.value)
		}
		if ok {
			me, opp, ok = play(me, opp, -1)
		}
		if ok {
			out = append(out, gapPosition{me, opp, hint})
		}
	}
	return out
}

// optimalMove returns a move of (me, opp) that keeps its value.
func optimalMove(me, opp uint64) int {
	tt := newSolveTT(64)
	v := newSolver(context.Background(), 2, tt).root(me, opp)
	for ms := Moves(me, opp); ms != 0; ms &= ms - 1 {
		i := bits.TrailingZeros64(ms)
		f := Flips(i, me, opp) | bit(i)
		var child int
		switch nme, nopp, flip, over := settle(opp&^f, me|f); {
		case over:
			child = SolvedScore(me|f, opp&^f)
		case flip:
			child = newSolver(context.Background(), 2, tt).root(nme, nopp)
		default:
			child = -newSolver(context.Background(), 2, tt).root(nme, nopp)
		}
		if child == v {
			return i
		}
	}
	panic("no move keeps the value")
}

// BenchmarkSolveBookGap times the perfect agent's solves just below the
// embedded book (16 positions a row, one thread, cold 64 MB table, CPU
// time): one and two plies below it, after a random or an optimal reply,
// without and with the book's bound as the solver's hint (what the agent
// passes, see games.SolveOptions.ValueHint), and the time to the first move that
// keeps the hint alone (keep: what a solve stopped early still has, see
// games.KeptHint). A command, not a test (a few minutes;
// the optimal replies are solved first):
//
//	go test ./games/othello6 -run '^$' -bench SolveBookGap -benchtime 1x
func BenchmarkSolveBookGap(b *testing.B) {
	bk, err := DefaultBook()
	if err != nil {
		b.Fatal(err)
	}
	for _, plies := range []int{1, 2} {
		for _, best := range []bool{false, true} {
			reply := "random"
			if best {
				reply = "optimal"
			}
			pos := bookGapPositions(b, rng.New(1), 16, plies, best)
			for _, mode := range []string{"none", "hint", "keep"} {
				hinted := mode != "none"
				name := fmt.Sprintf("empties=%d/reply=%s/%s", bk.MinEmpties()-plies, reply, mode)
				b.Run(name, func(b *testing.B) {
					tt := newSolveTT(64)
					var tally cpuTally
					nodes := int64(0)
					for i := 0; i < b.N; i++ {
						for _, p := range pos {
							clear(tt.slots)
							cpu0 := cpuTime()
							sv := newSolver(context.Background(), 1, tt).use(games.SolveOptions{ValueHint: p.hint, HasValueHint: hinted})
							var v int
							if mode == "keep" {
								// Only the guess and the search for a move that
								// keeps the hint.
								empties := bits.OnesCount64(^(p.me | p.opp) & full)
								_, g := sv.guess(p.me, p.opp, empties)
								k := sv.keepHint(p.me, p.opp, empties, g)
								sv.flush()
								if k.move < 0 {
									b.Fatal("no move keeps the book's bound")
								}
								v = k.value
							} else {
								v = sv.root(p.me, p.opp)
							}
							el := cpuTime() - cpu0
							nodes += sv.shared.nodes.Load()
							if v < p.hint {
								b.Fatalf("value %d below the book's bound %d", v, p.hint)
							}
							tally.add(el)
						}
					}
					tally.report(b, len(pos))
					b.ReportMetric(float64(nodes)/float64(len(tally.times)), "nodes/pos")
				})
			}
		}
	}
}
