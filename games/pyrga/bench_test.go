package pyrga

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// midgame returns a reproducible position after n random plies.
func midgame(n int) *State {
	s := New()
	games.RandomPlies(s, n, rng.New(99))
	return s
}

func BenchmarkEvaluate(b *testing.B) {
	s := midgame(12)
	b.ReportAllocs()
	sink := 0
	for b.Loop() {
		sink += s.Evaluate(0)
	}
	_ = sink
}

func BenchmarkPerft(b *testing.B) {
	s := New()
	var leaves uint64
	b.ReportAllocs()
	for b.Loop() {
		leaves = s.PerftBulk(5)
	}
	b.ReportMetric(float64(leaves)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
}

// BenchmarkRandomPlayout is one random game from the start on bare masks.
func BenchmarkRandomPlayout(b *testing.B) {
	for _, bga := range []bool{false, true} {
		b.Run(variantName(bga), func(b *testing.B) {
			s := newVariant(bga)
			r := rng.New(1)
			b.ReportAllocs()
			for b.Loop() {
				s.RandomPlayout(r)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
