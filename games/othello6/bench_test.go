package othello6

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

// BenchmarkMoveGen measures the bitboard generator alone (Moves on both sides).
func BenchmarkMoveGen(b *testing.B) {
	s := midgame(10)
	me, opp := s.Discs()
	var sink uint64
	b.ReportAllocs()
	for b.Loop() {
		sink += Moves(me, opp)
		me, opp = opp, me
	}
	_ = sink
}

func BenchmarkPerftBulk9(b *testing.B) {
	s := New()
	var leaves uint64
	b.ReportAllocs()
	for b.Loop() {
		leaves = s.PerftBulk(9)
	}
	b.ReportMetric(float64(leaves)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
}

// BenchmarkRandomPlayout is one random game from the start on bare bitboards.
func BenchmarkRandomPlayout(b *testing.B) {
	s := New()
	r := rng.New(1)
	b.ReportAllocs()
	for b.Loop() {
		s.RandomPlayout(r)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkEvaluate is the heuristic evaluation of a midgame position (with
// its default weights), from both players' views.
func BenchmarkEvaluate(b *testing.B) {
	s := midgame(12)
	var sink int
	b.ReportAllocs()
	for b.Loop() {
		sink += s.Evaluate(0) + s.Evaluate(1)
	}
	_ = sink
}
