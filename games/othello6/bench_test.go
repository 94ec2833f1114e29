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
