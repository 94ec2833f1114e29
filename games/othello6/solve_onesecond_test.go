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
			var tally cpuTally
			for i := 0; i < b.N; i++ {
				for _, s := range pos {
					so.Clear()
					cpu0 := cpuTime()
					if _, err := so.Solve(context.Background(), s, 1); err != nil {
						b.Fatal(err)
					}
					tally.add(cpuTime() - cpu0)
				}
			}
			tally.report(b, len(pos))
		})
	}
}

// cpuTally sums the CPU times of a benchmark's solves, b.N rounds of the
// same positions.
type cpuTally struct {
	sum, worst time.Duration
	over, n    int // solves over 1 s, solves
}

func (c *cpuTally) add(d time.Duration) {
	c.sum += d
	c.worst = max(c.worst, d)
	c.n++
	if d > time.Second {
		c.over++
	}
}

// report reports the mean and worst time and the solves over 1 s per
// round of perRound positions.
func (c *cpuTally) report(b *testing.B, perRound int) {
	b.ReportMetric(c.sum.Seconds()/float64(c.n), "mean-cpu-s")
	b.ReportMetric(c.worst.Seconds(), "worst-cpu-s")
	b.ReportMetric(float64(c.over)/float64(b.N), fmt.Sprintf("over-1s/%d", perRound))
}
