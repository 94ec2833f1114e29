package gravity

// Empties implements games.EmptiesCounter: the empty cells, a bound on the
// plies left (every ply drops one tile; a line of five can end it sooner).
func (s *State) Empties() int { return Cells - s.ply }
