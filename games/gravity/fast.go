package gravity

import (
	"math/bits"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/bitsel"
	"github.com/boardgame-arena/arena/rng"
)

// PerftBulk counts the leaves at depth plies below s on a bare copy of the
// board, counting the last ply's moves by population count instead of
// playing them. It implements games.BulkPerfter.
func (s *State) PerftBulk(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if s.end != endNone {
		return 0
	}
	b := s.board
	return perftBulk(&b, s.ply, depth)
}

// perftBulk counts the leaves depth plies below the non-terminal position b
// with ply tiles on it, leaving b as it found it.
func perftBulk(b *board, ply, depth int) uint64 {
	p := ply & 1
	moves := b.legal(p)
	if depth == 1 {
		return uint64(bits.OnesCount64(moves))
	}
	open, last := b.open, b.last[p]
	var n uint64
	for ; moves != 0; moves &= moves - 1 {
		cell, five := b.place(p, bits.TrailingZeros64(moves))
		if !five && ply+1 < Cells { // a finished game has no leaves below it
			n += perftBulk(b, ply+1, depth-1)
		}
		b.unplace(p, cell)
		b.open, b.last[p] = open, last
	}
	return n
}

// RandomPlayout plays uniformly random legal moves from s to the end of the
// game on a bare copy of the board (s itself is not changed) and returns the
// outcome. It implements games.Playouter.
func (s *State) RandomPlayout(r *rng.Rand) games.Outcome {
	if s.end != endNone {
		return s.Outcome()
	}
	b := s.board
	for ply := s.ply; ; ply++ {
		p := ply & 1
		moves := b.legal(p)
		if moves == 0 {
			return outcome(1) // cannot happen before the board is full; see the package doc
		}
		if _, five := b.place(p, bitsel.Select(moves, r.IntN(bits.OnesCount64(moves)))); five {
			return outcome(p)
		}
		if ply+1 == Cells {
			return outcome(1)
		}
	}
}
