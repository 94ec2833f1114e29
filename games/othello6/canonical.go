package othello6

// CanonicalPosition returns the position text (see Position) of the least
// of s's eight images under the board's symmetries (see canonical), the
// side to move kept: two positions have the same canonical text if and
// only if a symmetry maps one onto the other, so they have the same value.
// search/solve's Plies deduplicates by it, and search/accuracy keys its
// value cache by it.
func (s *State) CanonicalPosition() string {
	side := s.side
	me, opp := s.discs[side], s.discs[1-side]
	cme, copp, _ := canonical(me, opp)
	var d [2]uint64
	d[side], d[1-side] = cme, copp
	c := State{discs: d, side: side} // Position reads no more
	return c.Position()
}
