package games

import "github.com/boardgame-arena/arena/rng"

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
	return DivideEach(s, depth, count, nil)
}

// DivideEach is Divide that calls each, when not nil, after every root
// move's count with the entries so far and the number of root moves (for
// progress reports on long counts).
func DivideEach(s State, depth int, count func(State, int) uint64, each func(done []DivideEntry, total int)) []DivideEntry {
	if count == nil {
		count = Perft
	}
	moves := s.LegalMoves(nil)
	out := make([]DivideEntry, 0, len(moves))
	for _, m := range moves {
		s.Play(m)
		out = append(out, DivideEntry{m, count(s, depth-1)})
		s.Undo()
		if each != nil {
			each(out, len(moves))
		}
	}
	return out
}

// EstimatePerft estimates, for every depth d from 0 to depth, how many
// positions a perft of s to d visits (plies 0 to d), by Knuth's method
// (1975): along a random line of play the product of the numbers of legal
// moves before ply k is an unbiased estimate of the number of positions at
// ply k. It averages lines such lines drawn from seed, so the same call
// gives the same estimate; s is restored. A thousand lines cost
// milliseconds and come within a few per cent on small trees.
func EstimatePerft(s State, depth, lines int, seed uint64) []float64 {
	perPly := make([]float64, depth+1)
	r := rng.New(seed)
	buf := make([]Move, 0, MaxMoves)
	for range lines {
		w, k := 1.0, 0
		for ; k <= depth; k++ {
			perPly[k] += w
			if k == depth {
				break
			}
			buf = s.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			w *= float64(len(buf))
			s.Play(buf[r.IntN(len(buf))])
		}
		for ; k > 0; k-- {
			s.Undo()
		}
	}
	est := make([]float64, depth+1)
	sum := 0.0
	for d, n := range perPly {
		sum += n / float64(lines)
		est[d] = sum
	}
	return est
}
