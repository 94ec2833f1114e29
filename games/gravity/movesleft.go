package gravity

// MovesLeft implements games.MovesLeftEstimator: the mover's share of the
// empty cells, an upper bound (a line of five usually ends the game
// sooner).
func (s *State) MovesLeft() int {
	if s.Terminal() {
		return 0
	}
	return (Cells - s.ply + 1) / 2
}
