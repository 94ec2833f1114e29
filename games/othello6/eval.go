package othello6

import (
	"math/bits"

	"github.com/boardgame-arena/arena/games"
)

const (
	corners uint64 = 1<<0 | 1<<5 | 1<<30 | 1<<35
	rank1   uint64 = 1<<Size - 1
	rank6          = rank1 << (Size * (Size - 1))
	edges          = fileA | fileF | rank1 | rank6
)

// xSquares[k] and cSquares[k] are the cells next to corner k (a1, f1, a6, f6).
var (
	cornerCells = [4]int{0, 5, 30, 35}
	xSquares    = [4]uint64{bit(7), bit(10), bit(25), bit(28)}
	cSquares    = [4]uint64{bit(1) | bit(6), bit(4) | bit(11), bit(24) | bit(31), bit(29) | bit(34)}
	allX        = xSquares[0] | xSquares[1] | xSquares[2] | xSquares[3]
)

// lineH, lineV, lineD7, lineD5 give for each cell the mask of its row,
// column and two diagonals.
var lineH, lineV, lineD7, lineD5 [Size * Size]uint64

func init() {
	for i := 0; i < Size*Size; i++ {
		f, r := i%Size, i/Size
		for j := 0; j < Size*Size; j++ {
			g, s := j%Size, j/Size
			if s == r {
				lineH[i] |= bit(j)
			}
			if g == f {
				lineV[i] |= bit(j)
			}
			if g-s == f-r {
				lineD7[i] |= bit(j)
			}
			if g+s == f+r {
				lineD5[i] |= bit(j)
			}
		}
	}
}

// fullLines returns, per direction, the cells whose line in that direction
// is completely filled.
func fullLines(filled uint64) (h, v, d7, d5 uint64) {
	for r := 0; r < Size; r++ {
		row := rank1 << (Size * r)
		if filled&row == row {
			h |= row
		}
		col := fileA << r
		if filled&col == col {
			v |= col
		}
	}
	// Diagonals start on the first row or on the first (last) file.
	for k := 0; k < Size; k++ {
		if m := lineD7[k]; filled&m == m {
			d7 |= m
		}
		if m := lineD7[k*Size]; filled&m == m {
			d7 |= m
		}
		if m := lineD5[k]; filled&m == m {
			d5 |= m
		}
		if m := lineD5[k*Size+Size-1]; filled&m == m {
			d5 |= m
		}
	}
	return
}

// stableDiscs returns discs of me that can never be flipped: in each of the
// four directions the disc touches the edge or a stable disc of its own
// colour on one side, or its line is full. It is a conservative set,
// computed to a fixed point.
func stableDiscs(me, opp uint64) uint64 {
	fh, fv, f7, f5 := fullLines(me | opp)
	h0 := fh | fileA | fileF
	v0 := fv | rank1 | rank6
	d70 := f7 | edges
	d50 := f5 | edges
	var s uint64
	for {
		h := h0 | (s&^fileF)<<1 | (s&^fileA)>>1
		v := v0 | s<<Size | s>>Size
		d7 := d70 | (s&^fileF)<<(Size+1) | (s&^fileA)>>(Size+1)
		d5 := d50 | (s&^fileA)<<(Size-1) | (s&^fileF)>>(Size-1)
		n := me & h & v & d7 & d5 & full
		if n == s {
			return s
		}
		s = n
	}
}

// frontier returns the discs of b next to an empty cell.
func frontier(b, empty uint64) uint64 {
	n := empty<<Size | empty>>Size |
		(empty&^fileF)<<1 | (empty&^fileA)>>1 |
		(empty&^fileF)<<(Size+1) | (empty&^fileA)>>(Size+1) |
		(empty&^fileA)<<(Size-1) | (empty&^fileF)>>(Size-1)
	return b & n
}

// Evaluate implements games.Evaluator; see the package comment for the terms.
func (s *State) Evaluate(p int) int {
	me, opp := s.discs[p], s.discs[1-p]
	discs := bits.OnesCount64(me) - bits.OnesCount64(opp)
	if s.over {
		switch {
		case discs > 0:
			return games.WinScore/2 + 1000*discs
		case discs < 0:
			return -games.WinScore/2 + 1000*discs
		}
		return 0
	}
	w := s.weights
	if w == nil {
		w = defaultWeights
	}
	if p == s.side {
		return evalBoards(w, me, opp, s.moves, Moves(opp, me), true)
	}
	return evalBoards(w, me, opp, Moves(me, opp), s.moves, false)
}

// evalBoards is Evaluate on bare bitboards with weights w (numWeights of
// them, see weights.go): me's view, with both players' legal placements and
// whether me is the side to move. Each term is weighted
// open·e/32 + end·(32−e)/32, where e is the number of empty cells.
func evalBoards(w []int, me, opp, myMoves, oppMoves uint64, meToMove bool) int {
	w = w[:numWeights] // one bounds check for all the reads below
	discs := bits.OnesCount64(me) - bits.OnesCount64(opp)
	empty := ^(me | opp) & full
	e := bits.OnesCount64(empty)
	v := phase(w[wCornerOpen], w[wCornerEnd], e) * (bits.OnesCount64(me&corners) - bits.OnesCount64(opp&corners))
	var x, c int
	for k, cc := range cornerCells {
		if empty&bit(cc) == 0 {
			continue
		}
		x += bits.OnesCount64(me&xSquares[k]) - bits.OnesCount64(opp&xSquares[k])
		c += bits.OnesCount64(me&cSquares[k]) - bits.OnesCount64(opp&cSquares[k])
	}
	v += phase(w[wXSquareOpen], w[wXSquareEnd], e)*x + phase(w[wCSquareOpen], w[wCSquareEnd], e)*c
	v += phase(w[wMobilityOpen], w[wMobilityEnd], e) * (bits.OnesCount64(myMoves) - bits.OnesCount64(oppMoves))
	v += phase(w[wFrontierOpen], w[wFrontierEnd], e) * (bits.OnesCount64(frontier(me, empty)) - bits.OnesCount64(frontier(opp, empty)))
	if (me|opp)&corners != 0 {
		// Stable discs grow from corners; without one there are none
		// (except on full lines, which are rare before a corner falls).
		v += phase(w[wStableOpen], w[wStableEnd], e) * (bits.OnesCount64(stableDiscs(me, opp)) - bits.OnesCount64(stableDiscs(opp, me)))
	}
	// Parity: with an odd number of empties the side to move expects the
	// last move (barring passes).
	if e&1 == 1 {
		if meToMove {
			v += phase(w[wParityOpen], w[wParityEnd], e)
		} else {
			v -= phase(w[wParityOpen], w[wParityEnd], e)
		}
	}
	return v + phase(w[wDiscOpen], w[wDiscEnd], e)*discs
}

// The search hint is found by a type assertion in search/alphabeta; this
// keeps a renamed method from dropping out of it unnoticed.
var _ games.OrderHinter = (*State)(nil)

// OrderHint implements games.OrderHinter (for search/alphabeta): corners
// first, X-squares next to an empty corner last, then C-squares, edges and
// the rest.
func (s *State) OrderHint(m games.Move) int {
	if m == Pass {
		return 0
	}
	b := bit(int(m))
	switch {
	case b&corners != 0:
		return 40
	case b&allX != 0:
		return -40
	case b&edges != 0:
		return 10
	}
	return 0
}
