package erdos

import "math/bits"

// Empties implements games.EmptiesCounter: the empty cells, a bound on the
// plies left (every ply fills one; starvation can end the game sooner).
func (s *State) Empties() int { return Cells - bits.OnesCount32(s.b.occ) }
