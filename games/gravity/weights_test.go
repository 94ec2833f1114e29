package gravity

import (
	"math/bits"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
	"github.com/boardgame-arena/arena/rng"
)

// evalBefore is the evaluation as it was before the weights became
// settable (constants written out), kept to prove default play unchanged.
func evalBefore(s *State, p int) int {
	if s.end != endNone {
		if s.Outcome().Winner == p {
			return finished
		}
		return -finished
	}
	windowWeight := [6]int{0, 1, 3, 9, 27, 0}
	var score [2]int
	var wins [2]cellSet
	for _, w := range windows {
		a := s.lines[0][w.dir][w.line] & w.mask
		b := s.lines[1][w.dir][w.line] & w.mask
		q, t := 0, a
		switch {
		case a != 0 && b != 0:
			continue
		case b != 0:
			q, t = 1, b
		case a == 0:
			continue
		}
		n := bits.OnesCount16(t)
		score[q] += windowWeight[n]
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
		score[q] += 40 * wins[q].count()
	}
	if wins[other].count() > 0 {
		score[other] += 150 * wins[other].and(s.reach(other)).count()
	}
	return score[p] - score[1-p]
}

// TestDefaultWeightsUnchanged: on every position of 300 random games, the
// evaluation with no weights, UseWeights(nil) and the defaults set
// explicitly (also in a clone) equals the one before weights existed, from
// both sides.
func TestDefaultWeightsUnchanged(t *testing.T) {
	n, err := gamestest.CheckWeightsUnchanged(300, 13, func(int) games.Base { return New() },
		func(s games.Base, p int) int { return evalBefore(s.(*State), p) })
	if err != nil {
		t.Fatal(err)
	}
	if n < 5000 {
		t.Fatalf("only %d positions", n)
	}
}

// TestWeightsHandValues: with one window weight 1 and the rest 0, the
// evaluation counts the windows of that many tiles, which the test counts
// cell by cell on a position after a few plies.
func TestWeightsHandValues(t *testing.T) {
	r := rng.New(4)
	checked := 0
	for g := 0; g < 40; g++ {
		s := New()
		games.RandomPlies(s, 4+g%12, r)
		if s.Terminal() {
			continue
		}
		// Count windows of exactly n tiles of one player only, cell by cell.
		var count [2][5]int
		for _, w := range windows {
			var n [2]int
			for i := 0; i < 16; i++ {
				if w.mask&(1<<i) == 0 {
					continue
				}
				c := cellAt(int(w.dir), int(w.line), i)
				d := lineOf(int(w.dir), c)
				for q := 0; q < 2; q++ {
					if s.lines[q][w.dir][w.line]&(1<<d) != 0 {
						n[q]++
					}
				}
			}
			switch {
			case n[0] > 0 && n[1] == 0:
				count[0][n[0]]++
			case n[1] > 0 && n[0] == 0:
				count[1][n[1]]++
			}
		}
		for k := 1; k <= 3; k++ { // fours bring win cells, left to TestEvaluate
			if count[0][4]+count[1][4] > 0 {
				break
			}
			w := make([]int, numWeights)
			w[wWindow1+k-1] = 1
			s.UseWeights(w)
			if got, want := s.Evaluate(0), count[0][k]-count[1][k]; got != want {
				t.Errorf("game %d, only window%d=1: %d, want %d\n%v", g, k, got, want, s)
			}
			checked++
		}
	}
	if checked < 30 {
		t.Fatalf("only %d cases", checked)
	}
}

// lineOf returns cell c's bit index in its line of direction dir (the
// inverse of cellAt along that line).
func lineOf(dir, c int) int {
	r, col := c/Size, c%Size
	switch dir {
	case dirRow:
		return col
	case dirCol:
		return r
	}
	return col // both diagonals are indexed by column (cellAt)
}
