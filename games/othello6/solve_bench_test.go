package othello6

import (
	"context"
	"math/bits"
	"syscall"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// Solver benchmarks on mid-size positions, for work on the solver (the
// solve from the start is BenchmarkSolveOthello6Start in ./benchmarks):
//
//	go test ./games/othello6 -run '^$' -bench 'SolvePlayed' -benchtime 1x
//
// Node counts are exact and repeatable with one thread; cpu-s/pos (user CPU
// time) is steadier than s/pos on a busy machine.

// solveBenchPositions returns n reproducible positions with the given
// number of empty cells, reached by random plies from the start. Random
// games are often lopsided.
func solveBenchPositions(n, empties int, seed uint64) []*State {
	r := rng.New(seed)
	var out []*State
	for len(out) < n {
		s := randomPosition(r, empties)
		if s.Empties() == empties {
			out = append(out, s)
		}
	}
	return out
}

// solveBenchPlayed returns n reproducible positions with the given number
// of empty cells reached by sensible play: three random plies, then the
// best move of a 4-ply heuristic search. They are closer to balanced than
// random games, like the positions a solve from the start meets.
func solveBenchPlayed(n, empties int, seed uint64) []*State {
	r := rng.New(seed)
	var out []*State
	for len(out) < n {
		s := New()
		for ply := 0; s.Empties() > empties && !s.Terminal(); ply++ {
			ms := s.LegalMoves(nil)
			m := ms[r.IntN(len(ms))]
			if ply >= 3 && ms[0] != Pass {
				m = heuristicBest(s, ms, 3)
			}
			s.Play(m)
		}
		if s.Empties() == empties && !s.Terminal() {
			out = append(out, s)
		}
	}
	return out
}

// heuristicSearch is alpha-beta with the agents' evaluation to the given
// depth: it picks the moves of the benchmark and fitting positions, which
// so stay the same whatever evaluation the solver orders moves with.
func heuristicSearch(me, opp uint64, depth, alpha, beta int) int {
	moves := Moves(me, opp)
	if depth == 0 {
		return evalBoards(defaultWeights, me, opp, moves, Moves(opp, me), true)
	}
	if moves == 0 {
		if Moves(opp, me) == 0 {
			return 100 * final(me, opp)
		}
		return -heuristicSearch(opp, me, depth-1, -beta, -alpha)
	}
	best := -orderInf
	for m := moves; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		f := Flips(i, me, opp) | bit(i)
		v := -heuristicSearch(opp&^f, me|f, depth-1, -beta, -alpha)
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

// heuristicBest returns the move of ms (s's legal moves, not a pass) that
// heuristicSearch to the given depth after it finds best, the first of equals.
func heuristicBest(s *State, ms []games.Move, depth int) games.Move {
	me, opp := s.discs[s.side], s.discs[1-s.side]
	best, m := -orderInf-1, ms[0]
	for _, c := range ms {
		i := int(c)
		f := Flips(i, me, opp) | bit(i)
		if v := -heuristicSearch(opp&^f, me|f, depth, -orderInf, orderInf); v > best {
			best, m = v, c
		}
	}
	return m
}

// benchSolve solves every position of pos from a cleared table and reports
// nodes, wall and CPU time per position.
func benchSolve(b *testing.B, pos []*State, threads int) {
	so := NewSolver(64)
	var nodes int64
	var el time.Duration
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		for _, s := range pos {
			so.Clear()
			start := time.Now()
			res, err := so.Solve(context.Background(), s, threads)
			if err != nil {
				b.Fatal(err)
			}
			el += time.Since(start)
			nodes += res.Nodes
		}
	}
	n := float64(b.N * len(pos))
	b.ReportMetric(float64(nodes)/n, "nodes/pos")
	b.ReportMetric(el.Seconds()/n, "s/pos")
	b.ReportMetric((cpuTime()-cpu0).Seconds()/n, "cpu-s/pos")
	b.ReportMetric(float64(nodes)/el.Seconds()/1e6, "Mnodes/s")
}

// cpuTime is the process's user CPU time: on a loaded machine it measures
// the work done better than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano())
}

func BenchmarkSolveRandom22(b *testing.B) { benchSolve(b, solveBenchPositions(4, 22, 31), 1) }
func BenchmarkSolvePlayed22(b *testing.B) { benchSolve(b, solveBenchPlayed(6, 22, 7), 1) }
func BenchmarkSolvePlayed24(b *testing.B) { benchSolve(b, solveBenchPlayed(4, 24, 5), 1) }
func BenchmarkSolvePlayed26(b *testing.B) { benchSolve(b, solveBenchPlayed(3, 26, 9), 1) }
func BenchmarkSolvePlayed24Threads2(b *testing.B) {
	benchSolve(b, solveBenchPlayed(4, 24, 5), 2)
}
