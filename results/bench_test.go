package results

import (
	"github.com/boardgame-arena/arena/rng"
	"testing"
)

func BenchmarkFitSmall(b *testing.B) {
	r := rng.New(1)
	rs := simulate(r, []float64{-150, -40, 0, 60, 130}, 24, 0.3)
	for b.Loop() {
		FitRatings(5, rs, FitOptions{Anchor: -1})
	}
}
func BenchmarkFitDavidson(b *testing.B) {
	r := rng.New(1)
	rs := simulate(r, []float64{-150, -40, 0, 60, 130}, 24, 0.3)
	for b.Loop() {
		FitRatings(5, rs, FitOptions{Anchor: -1, Draws: Davidson, FirstMove: true})
	}
}
func BenchmarkRate10x1000(b *testing.B) {
	r := rng.New(1)
	elo := []float64{-300, -200, -150, -40, 0, 60, 130, 200, 250, 300}
	rs := simulate(r, elo, 100, 0.3)
	for b.Loop() {
		Rate(len(elo), rs, FitOptions{Anchor: -1}, BootstrapOptions{Replicates: 1000, Seed: 1})
	}
}
