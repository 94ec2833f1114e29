package pyrga

// Empties implements games.EmptiesCounter: the placements left, that is the
// pieces left in both stocks (every ply places one and a game ends at the
// latest when White's stock is empty, so this bounds the plies left; the
// 16 cells take 48 pieces, more than the 30 there are, so cells never bound
// it more tightly).
func (s *State) Empties() int { return 2*3*PiecesPerType - s.ply }
