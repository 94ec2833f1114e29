package gravity

import (
	"math/bits"

	"github.com/boardgame-arena/arena/games"
)

// Scores of decided positions; the heuristic weights are in weights.go.
const (
	winInOne = games.WinScore / 4
	finished = games.WinScore / 2
)

// window is five consecutive cells of one line.
type window struct {
	dir, line uint8
	mask      uint16
}

// windows lists every 5-cell window of every row, column and diagonal.
var windows = func() []window {
	var ws []window
	for dir := range 4 {
		for line := range nLines {
			if dir <= dirCol && line >= Size {
				break
			}
			lo, hi := lineRange(dir, line)
			for o := lo; o+4 <= hi; o++ {
				ws = append(ws, window{uint8(dir), uint8(line), 0x1f << uint(o)})
			}
		}
	}
	return ws
}()

// lineRange returns the lowest and highest bit index used by a line.
func lineRange(dir, line int) (lo, hi int) {
	switch dir {
	case dirDiag: // r = c + line − 8
		return max(0, Size-1-line), min(Size-1, 2*(Size-1)-line)
	case dirAnti: // r = line − c
		return max(0, line-(Size-1)), min(Size-1, line)
	}
	return 0, Size - 1
}

// cellAt returns the cell at bit index i of a line.
func cellAt(dir, line, i int) int {
	var r, c int
	switch dir {
	case dirRow:
		r, c = line, i
	case dirCol:
		r, c = i, line
	case dirDiag:
		r, c = i+line-(Size-1), i
	default:
		r, c = line-i, i
	}
	return r*Size + c
}

// cellSet is a set of cells, bit i of word i/64 for cell i.
type cellSet [2]uint64

func (cs *cellSet) add(cell int)         { cs[cell>>6] |= 1 << uint(cell&63) }
func (cs cellSet) count() int            { return bits.OnesCount64(cs[0]) + bits.OnesCount64(cs[1]) }
func (cs cellSet) and(o cellSet) cellSet { return cellSet{cs[0] & o[0], cs[1] & o[1]} }

// reach returns the landing cells of player q's legal slots.
func (b *board) reach(q int) cellSet {
	var cs cellSet
	for m := b.legal(q); m != 0; m &= m - 1 {
		r, c := b.landing(bits.TrailingZeros64(m))
		cs.add(r*Size + c)
	}
	return cs
}

// Evaluate implements games.Evaluator; see the package comment for the terms.
func (s *State) Evaluate(p int) int {
	if s.end != endNone {
		if s.Outcome().Winner == p {
			return finished
		}
		return -finished
	}
	wt := s.weights
	if wt == nil {
		wt = defaultWeights
	}
	wt = wt[:numWeights]
	var score [2]int
	var wins [2]cellSet
	for _, w := range windows {
		a := s.lines[0][w.dir][w.line] & w.mask
		b := s.lines[1][w.dir][w.line] & w.mask
		q, t := 0, a
		switch {
		case a != 0 && b != 0:
			continue // blocked for both
		case b != 0:
			q, t = 1, b
		case a == 0:
			continue
		}
		n := bits.OnesCount16(t)
		if n < 5 { // five ends the game; a parsed position may still hold one
			score[q] += wt[wWindow1+n-1]
		}
		if n == 4 {
			wins[q].add(cellAt(int(w.dir), int(w.line), bits.TrailingZeros16(w.mask&^t)))
		}
	}
	mover := s.ply & 1
	other := 1 - mover
	if wins[mover].count() > 0 && wins[mover].and(s.reach(mover)).count() > 0 {
		if p == mover {
			return winInOne
		}
		return -winInOne
	}
	for q := range 2 {
		score[q] += wt[wWinCell] * wins[q].count()
	}
	if wins[other].count() > 0 {
		score[other] += wt[wThreat] * wins[other].and(s.reach(other)).count()
	}
	return score[p] - score[1-p]
}
