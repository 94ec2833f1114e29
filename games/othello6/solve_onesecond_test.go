package othello6

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/rng"
)

var oneSecondPositions = flag.Int("onesecond-positions", 16, "BenchmarkSolveOneSecond: positions at each number of empties, 1 to 10000")

// BenchmarkSolveOneSecond shows how far the perfect agent's budget of 1 s
// on one core reaches: 16 positions (-onesecond-positions) reached by
// random moves (rng.New(1)) at each number of empties, each solved on one
// thread from a cold 64 MB table, reporting the mean, median and worst CPU
// time and how many took over 1 s. A command, not a test (about a minute;
// the times have a long tail, so 16 positions give a rough mean: 64 take
// about 4 minutes):
//
//	go test ./games/othello6 -run '^$' -bench SolveOneSecond -benchtime 1x [-onesecond-positions 64]
func BenchmarkSolveOneSecond(b *testing.B) {
	n := *oneSecondPositions
	if n < 1 || n > 10000 {
		b.Fatalf("-onesecond-positions %d: give 1 to 10000", n)
	}
	for _, empties := range []int{22, 23, 24, 25} {
		b.Run(fmt.Sprintf("empties=%d", empties), func(b *testing.B) {
			r := rng.New(1)
			pos := make([]*State, n)
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

// cpuTally keeps the CPU times of a benchmark's solves, b.N rounds of the
// same positions.
type cpuTally struct{ times []time.Duration }

func (c *cpuTally) add(d time.Duration) { c.times = append(c.times, d) }

// report reports the mean, median and worst time and the solves over 1 s
// per round of perRound positions.
func (c *cpuTally) report(b *testing.B, perRound int) {
	slices.Sort(c.times)
	n := len(c.times)
	var sum time.Duration
	over := 0
	for _, d := range c.times {
		sum += d
		if d > time.Second {
			over++
		}
	}
	b.ReportMetric(sum.Seconds()/float64(n), "mean-cpu-s")
	b.ReportMetric((c.times[(n-1)/2]+c.times[n/2]).Seconds()/2, "median-cpu-s")
	b.ReportMetric(c.times[n-1].Seconds(), "worst-cpu-s")
	b.ReportMetric(float64(over)/float64(b.N), fmt.Sprintf("over-1s/%d", perRound))
}
