package pyrga

import (
	"math/bits"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/bitsel"
	"github.com/boardgame-arena/arena/rng"
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
	return perftBulk(s.pieces, s.legal, s.ply, depth, s.bga)
}

// perftBulk counts the leaves below the position pc at ply whose player to
// move has the legal slots l.
func perftBulk(pc [2][3]uint16, l [numSlots]uint16, ply, depth int, bga bool) uint64 {
	if depth == 1 {
		return uint64(countSlots(&l))
	}
	me := ply & 1
	var n uint64
	for k := range numSlots {
		kind := slotKind[k]
		for c := l[k]; c != 0; c &= c - 1 {
			cell := bits.TrailingZeros16(c)
			next := pc
			if place(&next, me, kind, cell) {
				continue // won before the full depth: not a leaf
			}
			nl, any := legalSlots(&next, 1-me, slotTarget[k][cell], noSquare(bga, ply+1, &next))
			if any {
				n += perftBulk(next, nl, ply+1, depth-1, bga)
			}
		}
	}
	return n
}

// RandomPlayout plays uniformly random legal moves from s to the end of the
// game on bare masks (s itself is not changed) and returns the outcome. It
// draws moves exactly as a loop over LegalMoves with r.IntN would. It keeps
// the occupancy per type and the stocks as running values instead of
// recomputing them from the six masks each ply as Play does.
func (s *State) RandomPlayout(r *rng.Rand) games.Outcome {
	pc := s.pieces
	if s.over {
		return outcome(&pc)
	}
	occ := [3]uint16{pc[0][0] | pc[1][0], pc[0][1] | pc[1][1], pc[0][2] | pc[1][2]}
	var left [2][3]int
	for p := range 2 {
		for k := range 3 {
			left[p][k] = PiecesPerType - popcount16(pc[p][k])
		}
	}
	l := s.legal
	ply := s.ply
	for {
		var count [numSlots]int
		n := 0
		for k := range numSlots {
			count[k] = popcount16(l[k])
			n += count[k]
		}
		if n == 0 {
			break
		}
		// Find the k-th move in slot order.
		k := r.IntN(n)
		slot := 0
		for k >= count[slot] {
			k -= count[slot]
			slot++
		}
		cell := bitsel.Select(uint64(l[slot]), k)
		kind := slotKind[slot]
		me := ply & 1
		b := uint16(1) << cell
		pc[me][kind] |= b
		occ[kind] |= b
		left[me][kind]--
		if full := occ[0] & occ[1] & occ[2]; full&b != 0 {
			// As in place: only the new tower's controller can reach three.
			owner := 1
			if majority(&pc[0])&b != 0 {
				owner = 0
			}
			if popcount16(full&majority(&pc[owner])) >= 3 {
				break
			}
		}
		ply++
		// As in legalSlots, for the opponent.
		opp := 1 - me
		canS, canT, canC := ^occ[Square], ^occ[Triangle], ^occ[Cylinder]
		if left[opp][Square] == 0 || noSquare(s.bga, ply, &pc) {
			canS = 0
		}
		if left[opp][Triangle] == 0 {
			canT = 0
		}
		if left[opp][Cylinder] == 0 {
			canC = 0
		}
		t := slotTarget[slot][cell]
		if (canS|canT|canC)&t == 0 {
			t = ^(occ[Square] | occ[Triangle] | occ[Cylinder])
		}
		tt := canT & t
		l = [numSlots]uint16{
			canS & t,
			tt & dirOK[North], tt & dirOK[East], tt & dirOK[South], tt & dirOK[West],
			canC & t,
		}
	}
	return outcome(&pc)
}
