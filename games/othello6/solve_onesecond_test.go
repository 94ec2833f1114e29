package othello6

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/rng"
)

// BenchmarkSolveOneSecond shows how far the perfect agent's budget of 1 s
// on one core reaches: 16 positions reached by random moves (rng.New(1))
// at each number of empties, each solved on one thread from a cold 64 MB
// table, reporting the mean and worst CPU time and how many took over
// 1 s. A command, not a test (about a minute):
//
//	go test ./games/othello6 -run '^$' -bench SolveOneSecond -benchtime 1x
func BenchmarkSolveOneSecond(b *testing.B) {
	for _, empties := range []int{22, 23, 24, 25} {
		b.Run(fmt.Sprintf("empties=%d", empties), func(b *testing.B) {
			r := rng.New(1)
			pos := make([]*State, 16)
			for i := range pos {
				pos[i] = randomPosition(r, empties)
			}
			so := NewSolver(64)
			var sum, worst time.Duration
			over := 0
			for i := 0; i < b.N; i++ {
				for _, s := range pos {
					so.Clear()
					cpu0 := cpuTime()
					if _, err := so.Solve(context.Background(), s, 1); err != nil {
						b.Fatal(err)
					}
					el := cpuTime() - cpu0
					sum += el
					worst = max(worst, el)
					if el > time.Second {
						over++
					}
				}
			}
			n := float64(b.N * len(pos))
			b.ReportMetric(sum.Seconds()/n, "mean-cpu-s")
			b.ReportMetric(worst.Seconds(), "worst-cpu-s")
			b.ReportMetric(float64(over)/float64(b.N), "over-1s/16")
		})
	}
}
