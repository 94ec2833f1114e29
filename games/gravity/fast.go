package gravity

import (
	"math/bits"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/rng"
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
		if _, five := b.place(p, nthBit(moves, r.IntN(bits.OnesCount64(moves)))); five {
			return outcome(p)
		}
		if ply+1 == Cells {
			return outcome(1)
		}
	}
}

// nthBit returns the index of the k-th lowest set bit of x (k from 0),
// which must have more than k set bits. It finds the byte holding that bit
// from bytewise prefix population counts, without a loop or a branch, and
// the bit within the byte from a table.
func nthBit(x uint64, k int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	c := x - (x>>1)&0x5555555555555555
	c = c&0x3333333333333333 + (c>>2)&0x3333333333333333
	c = (c + c>>4) & 0x0f0f0f0f0f0f0f0f
	prefix := c * ones // byte i: set bits in bytes 0…i (at most 64, so no carries)
	// Byte i of t has its high bit set when prefix byte i exceeds k.
	t := (prefix | highs) - uint64(k+1)*ones
	i := bits.TrailingZeros64(t&highs) &^ 7 // 8 × the byte's index
	before := int((prefix << 8 >> uint(i)) & 0xff)
	return i + int(selectInByte[(x>>uint(i))&0xff][k-before])
}

// selectInByte[b][k] is the index of the k-th lowest set bit of b.
var selectInByte = func() (tab [256][8]uint8) {
	for b := range 256 {
		k := 0
		for i := range 8 {
			if b>>i&1 != 0 {
				tab[b][k] = uint8(i)
				k++
			}
		}
	}
	return tab
}()
