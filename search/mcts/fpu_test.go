package mcts

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/games/pyrga"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/search/testgames"
)

// TestUnvisitedTiesAreDrawn checks that the first child or action tried
// among unvisited ones, all worth Options.FPU, is drawn uniformly over the
// seeds, at a finite FPU as at +Inf: taking the first made the move
// generator's order the search's preference (issue 30).
func TestUnvisitedTiesAreDrawn(t *testing.T) {
	const runs = 400
	for _, fpu := range []float64{0.5, math.Inf(1)} {
		s := New(Options{Iterations: 1, FPU: fpu}, 0)
		t.Run(fmt.Sprintf("uct,fpu=%v", fpu), func(t *testing.T) {
			st := othello6.New() // 4 moves, none better than another
			count := map[games.Move]int{}
			for seed := uint64(1); seed <= runs; seed++ {
				s.Seed(seed)
				s.Reset()
				res, err := s.Search(context.Background(), st)
				if err != nil {
					t.Fatal(err)
				}
				for _, ms := range res.Stats {
					if ms.Visits > 0 {
						count[ms.Move]++
					}
				}
			}
			checkUniform(t, fpu, count, len(st.LegalMoves(nil)), runs)
		})
		t.Run(fmt.Sprintf("duct,fpu=%v", fpu), func(t *testing.T) {
			g := testgames.BiasedRPS()
			for p := 0; p < 2; p++ {
				count := map[games.Move]int{}
				for seed := uint64(1); seed <= runs; seed++ {
					s.Seed(seed)
					s.Reset()
					res, err := s.SearchSim(context.Background(), g, p)
					if err != nil {
						t.Fatal(err)
					}
					for _, ms := range res.Stats {
						if ms.Visits > 0 {
							count[ms.Move]++
						}
					}
				}
				checkUniform(t, fpu, count, 3, runs)
			}
		})
	}
}

// checkUniform fails t unless each of the n moves was tried first in
// about runs/n of the runs: at least half that, 5 standard deviations
// below it for n ≤ 4 and 400 runs.
func checkUniform(t *testing.T, fpu float64, count map[games.Move]int, n, runs int) {
	t.Helper()
	if len(count) != n {
		t.Fatalf("fpu %v: first tries %v, not spread over the %d moves", fpu, count, n)
	}
	for m, k := range count {
		if k < runs/n/2 {
			t.Fatalf("fpu %v: move %v tried first in %d of %d runs (%v)", fpu, m, k, runs, count)
		}
	}
}

// selfPlayDraws plays n games of the game newGame makes, each opened by two
// random plies, between two searchers with opts (reusing their trees, as
// the agent does), and returns how many were drawn.
func selfPlayDraws(t *testing.T, newGame func() games.State, opts Options, n int) int {
	t.Helper()
	draws := 0
	var buf []games.Move
	for g := uint64(0); g < uint64(n); g++ {
		st := newGame()
		r := rng.New(rng.Derive(30, g))
		for k := 0; k < 2; k++ {
			buf = st.LegalMoves(buf[:0])
			st.Play(buf[r.IntN(len(buf))])
		}
		s := [2]*Searcher{New(opts, rng.Derive(31, g, 0)), New(opts, rng.Derive(31, g, 1))}
		for !st.Terminal() {
			res, err := s[st.ToMove()].Search(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			st.Play(res.Move)
		}
		if st.Outcome().Winner == games.Draw {
			draws++
		}
	}
	return draws
}

// TestSelfPlayDrawsAtAnyFPU is issue 30's collapse: before ties were drawn
// at random, these games at fpu 0.5 drew 39 of 40 on othello6 (18–18
// fills of the board in the move generator's order) and 39 of 40 on pyrga,
// where the default draws a few.
// Above ½ by enough for the budget, the draws stay near the default's; at
// ½ and below they are more frequent, but far from all (the package doc
// says why: a move that draws is never left for an untried one).
func TestSelfPlayDrawsAtAnyFPU(t *testing.T) {
	if testing.Short() {
		t.Skip("about 5 s of self-play; run without -short")
	}
	const n = 40
	for _, g := range []struct {
		name string
		new  func() games.State
	}{
		{"othello6", func() games.State { return othello6.New() }},
		{"pyrga", func() games.State { return pyrga.New() }},
	} {
		t.Run(g.name, func(t *testing.T) {
			opts := Options{Iterations: 400, Reuse: true}
			base := selfPlayDraws(t, g.new, opts, n)
			t.Logf("default: %d draws of %d", base, n)
			for _, fpu := range []float64{0.3, 0.5, 0.7, 1} {
				opts.FPU = fpu
				d := selfPlayDraws(t, g.new, opts, n)
				t.Logf("fpu %v: %d draws of %d", fpu, d, n)
				// Near the default: within what two binomial counts of a
				// few draws in 40 differ by (sd about 2.5 at 10 %).
				limit := base + 8
				if fpu <= 0.5 {
					limit = n / 2 // measured 5–16 of 40
				}
				if d > limit {
					t.Errorf("fpu %v: %d draws of %d (default: %d), more than %d", fpu, d, n, base, limit)
				}
			}
		})
	}
}

// TestFPUAtMostHalfKeepsADraw is the package doc's example: the root's
// moves are a draw and a forced win. At FPU ½ the search plays the draw
// in about a quarter of the seeds (it tried the draw first, then kept it
// on the tie of the second iteration), never having tried the win; above
// ½ (with enough iterations) and at +Inf it always wins.
func TestFPUAtMostHalfKeepsADraw(t *testing.T) {
	const me, opp = 0, 1
	root := turn(me, drawn(), turn(opp, won(me), won(me)))
	const seeds = 40
	for _, fpu := range []float64{0.5, 0.6, 0} { // 0: the default, +Inf
		draws := 0
		for seed := uint64(1); seed <= seeds; seed++ {
			res, err := New(Options{Iterations: 3000, FPU: fpu}, seed).Search(context.Background(), newTreeGame(root))
			if err != nil {
				t.Fatal(err)
			}
			if res.Move == 1 {
				continue
			}
			draws++
			for _, ms := range res.Stats {
				if ms.Move == 1 && ms.Visits > 0 {
					t.Fatalf("fpu %v, seed %d: played the draw after trying the win: %+v", fpu, seed, res.Stats)
				}
			}
		}
		t.Logf("fpu %v: the draw in %d of %d searches", fpu, draws, seeds)
		// At ½: measured 9 of 40; a quarter of 40 is 10 ± 2.7 (one
		// standard deviation), 2 to 18 is three of them.
		if fpu == 0.5 && (draws < 2 || draws > 18) || fpu != 0.5 && draws > 0 {
			t.Errorf("fpu %v: played the draw in %d of %d searches", fpu, draws, seeds)
		}
	}
}
