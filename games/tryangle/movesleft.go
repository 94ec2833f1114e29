package tryangle

// MovesLeft implements games.MovesLeftEstimator: the decision turns up to
// the turn limit, this one included (an upper bound).
func (s *State) MovesLeft() int {
	if s.Terminal() {
		return 0
	}
	return MaxTurns - s.ply
}
