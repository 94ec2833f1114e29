package erdos

import (
	"math/bits"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/bitsel"
	"github.com/boardgame-arena/arena/rng"
)

// PerftBulk counts the leaves at depth plies below s, counting the last
// ply's moves by population count instead of playing them. s is unchanged.
func (s *State) PerftBulk(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return perftBulk(s.b, depth)
}

// perftBulk takes the board by value: each child is a 64-byte copy.
func perftBulk(b board, depth int) uint64 {
	if b.reason != NotOver {
		return 0 // game over before the full depth
	}
	if depth == 1 {
		var n int
		for l := 0; l < Size; l++ {
			n += bits.OnesCount32(b.legal(l))
		}
		return uint64(n)
	}
	var n uint64
	for l := 0; l < Size; l++ {
		for m := b.legal(l); m != 0; m &= m - 1 {
			c := b
			c.place(bits.TrailingZeros32(m), l)
			n += perftBulk(c, depth-1)
		}
	}
	return n
}

// RandomPlayout implements games.Playouter: it plays uniformly random legal
// moves from s to the end of the game on a copy of the board (s itself is not
// changed) and returns the outcome. It skips the hash and draws one number
// per ply over the moves in LegalMoves' order, so from the same generator it
// plays the same game as games.RandomPlayout would through LegalMoves.
func (s *State) RandomPlayout(r *rng.Rand) games.Outcome {
	b := s.b
	if b.reason != NotOver {
		return s.Outcome()
	}
	for {
		free := full &^ b.occ
		var legal [Size]uint32
		n := 0
		for l := range legal {
			legal[l] = free &^ b.blocked[l]
			n += bits.OnesCount32(legal[l])
		}
		if n == 0 {
			b.starve()
			break
		}
		k := r.IntN(n)
		l := 0
		for c := bits.OnesCount32(legal[0]); k >= c; c = bits.OnesCount32(legal[l]) {
			k -= c
			l++
		}
		before := b.ctrl
		b.put(bitsel.Select(uint64(legal[l]), k), l)
		if b.ply == Cells {
			b.countColumns(before)
			break
		}
	}
	return games.Outcome{Winner: int(b.winner), Score: int(b.score)}
}
