package othello6

import "math/bits"

// MovesLeft implements games.MovesLeftEstimator: half the empty cells,
// rounded up (the mover fills every other one; a pass can give it more).
func (s *State) MovesLeft() int {
	if s.over {
		return 0
	}
	empty := Size*Size - bits.OnesCount64(s.discs[0]|s.discs[1])
	return (empty + 1) / 2
}
