package othello6

import (
	"math/bits"
)

// bookPaths returns the positions of layers[bottom] that the perfect agent
// can meet when it has played from bottom+2 or bottom+3 empty cells on:
// from every position with that many empties, its mover plays the book's
// move (move gives it, in the position's canonical orientation) and the
// other player any move, down to bottom empties. That takes in both the
// positions where the agent moves next (from bottom+2: its move, any
// reply) and those where it has just moved (from bottom+3: its move, any
// reply, its move), whose best reply tells it the exact value of the
// position after its next move. A book whose bottom layer holds these is
// enough for a game in which the agent moved at bottom+2 or bottom+3 empties
// (so from the start after an opening of up to 6 plies when bottom is 24).
//
// ok is false when move lacks a position on the way (the layers above the
// bottom are not known yet).
func bookPaths(layers map[int][][2]uint64, bottom int, move func(p [2]uint64) (int, bool)) (paths map[[2]uint64]bool, ok bool) {
	paths = map[[2]uint64]bool{}
	ok = true
	var walk func(p [2]uint64, agent bool)
	walk = func(p [2]uint64, agent bool) {
		if !ok {
			return
		}
		if bits.OnesCount64(^(p[0]|p[1])&full) <= bottom {
			paths[p] = true
			return
		}
		moves := Moves(p[0], p[1])
		if agent {
			i, found := move(p)
			if !found {
				ok = false
				return
			}
			moves = bit(i) // the book's move only
		}
		for ; moves != 0; moves &= moves - 1 {
			c, flip, over := bookChild(p, bits.TrailingZeros64(moves))
			if !over {
				// The next mover is the other player unless he must pass.
				walk(c, agent == flip)
			}
		}
	}
	for _, e := range []int{bottom + 2, bottom + 3} {
		for _, p := range layers[e] {
			walk(p, true)
		}
	}
	return paths, ok
}
