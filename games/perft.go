package games

// Perft counts the move sequences of exactly depth plies from s (the leaves
// of the game tree cut at that depth). A finished game counts as a leaf only
// at the full depth. s is restored before Perft returns.
func Perft(s State, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, MaxMoves)
	}
	return perft(s, depth, bufs)
}

func perft(s State, depth int, bufs [][]Move) uint64 {
	moves := s.LegalMoves(bufs[depth-1][:0])
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		s.Play(m)
		n += perft(s, depth-1, bufs)
		s.Undo()
	}
	return n
}

// DivideEntry is one root move and the leaves below it.
type DivideEntry struct {
	Move   Move
	Leaves uint64
}

// Divide runs perft to depth below each legal root move, in move order, using
// count to count the leaves below each child (Perft when nil, or a faster
// game-specific counter).
func Divide(s State, depth int, count func(State, int) uint64) []DivideEntry {
	if count == nil {
		count = Perft
	}
	var out []DivideEntry
	for _, m := range s.LegalMoves(nil) {
		s.Play(m)
		out = append(out, DivideEntry{m, count(s, depth-1)})
		s.Undo()
	}
	return out
}
