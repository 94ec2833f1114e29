package erdos

import "math/bits"

// MovesLeft implements games.MovesLeftEstimator: the mover's share of the
// empty cells, exactly its placements left if the board fills (there is
// no pass).
func (s *State) MovesLeft() int {
	if s.Terminal() {
		return 0
	}
	return (Cells - bits.OnesCount32(s.b.occ) + 1) / 2
}
