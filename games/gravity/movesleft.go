package gravity

// MovesLeft implements games.MovesLeftEstimator: the mover's share of the
// empty cells, at most expectedMoves. The board bounds a game at 41 moves
// a player, but a line of five often ends it far sooner (searching players
// have won in 8 moves, and drawn at the full board); planning for the
// bound would leave most of a clock unused.
func (s *State) MovesLeft() int {
	if s.Terminal() {
		return 0
	}
	return min((Cells-s.ply+1)/2, expectedMoves)
}

// expectedMoves is the most moves a player is expected to have left.
const expectedMoves = 20
