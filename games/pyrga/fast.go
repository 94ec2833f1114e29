package pyrga

import (
	"math/bits"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/rng"
)

// PerftBulk counts the leaves at depth plies below s on bare masks, counting
// the last ply's moves by population count instead of playing them.
func (s *State) PerftBulk(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if s.over {
		return 0
	}
	return perftBulk(s.pieces, &s.legal, s.ply, depth, s.bga)
}

// perftBulk counts the leaves below the position pc at ply whose player to
// move has the legal slots l.
func perftBulk(pc [2][3]uint16, l *[numSlots]uint16, ply, depth int, bga bool) uint64 {
	if depth == 1 {
		return uint64(countSlots(l))
	}
	me := ply & 1
	var n uint64
	for k := range numSlots {
		kind, dir := slotKind[k], int(slotBase[k]>>dirShift)
		for c := l[k]; c != 0; c &= c - 1 {
			cell := bits.TrailingZeros16(c)
			next := pc
			if place(&next, me, kind, cell) {
				continue // won before the full depth: not a leaf
			}
			nl, any := legalSlots(&next, 1-me, targetOf(kind, cell, dir), noSquare(bga, ply+1, &next))
			if any {
				n += perftBulk(next, &nl, ply+1, depth-1, bga)
			}
		}
	}
	return n
}

// RandomPlayout plays uniformly random legal moves from s to the end of the
// game on bare masks (s itself is not changed) and returns the outcome. It
// draws moves exactly as a loop over LegalMoves with r.IntN would.
func (s *State) RandomPlayout(r *rng.Rand) games.Outcome {
	pc := s.pieces
	if s.over {
		return outcome(&pc)
	}
	l := s.legal
	ply := s.ply
	for {
		n := countSlots(&l)
		if n == 0 {
			break
		}
		// Find the k-th move in slot order.
		k := r.IntN(n)
		slot := 0
		for ; ; slot++ {
			c := popcount16(l[slot])
			if k < c {
				break
			}
			k -= c
		}
		cells := l[slot]
		for ; k > 0; k-- {
			cells &= cells - 1
		}
		cell := bits.TrailingZeros16(cells)
		kind, dir := slotKind[slot], int(slotBase[slot]>>dirShift)
		me := ply & 1
		if place(&pc, me, kind, cell) {
			break
		}
		ply++
		l, _ = legalSlots(&pc, 1-me, targetOf(kind, cell, dir), noSquare(s.bga, ply, &pc))
	}
	return outcome(&pc)
}
