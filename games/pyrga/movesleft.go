package pyrga

// MovesLeft implements games.MovesLeftEstimator: the pieces left in the
// mover's stock, one per move (an upper bound).
func (s *State) MovesLeft() int {
	if s.over {
		return 0
	}
	p := s.ToMove()
	return s.Stock(p, Square) + s.Stock(p, Triangle) + s.Stock(p, Cylinder)
}
