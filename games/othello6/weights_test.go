package othello6

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
)

// evalBefore is the evaluation as it was before the weights became
// settable (constants written out), kept to prove default play unchanged.
func evalBefore(s *State, p int) int {
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
	myMoves, oppMoves := Moves(me, opp), Moves(opp, me)
	empty := ^(me | opp) & full
	e := bits.OnesCount64(empty)
	at := func(open, end int) int { return (open*e + end*(32-e)) / 32 }
	v := at(110, 90) * (bits.OnesCount64(me&corners) - bits.OnesCount64(opp&corners))
	var x, c int
	for k, cc := range cornerCells {
		if empty&bit(cc) == 0 {
			continue
		}
		x += bits.OnesCount64(me&xSquares[k]) - bits.OnesCount64(opp&xSquares[k])
		c += bits.OnesCount64(me&cSquares[k]) - bits.OnesCount64(opp&cSquares[k])
	}
	v += at(-50, -15)*x + at(-20, -5)*c
	v += at(14, 6) * (bits.OnesCount64(myMoves) - bits.OnesCount64(oppMoves))
	v += at(-5, -1) * (bits.OnesCount64(frontier(me, empty)) - bits.OnesCount64(frontier(opp, empty)))
	if (me|opp)&corners != 0 {
		v += at(25, 12) * (bits.OnesCount64(stableDiscs(me, opp)) - bits.OnesCount64(stableDiscs(opp, me)))
	}
	if e&1 == 1 {
		if p == s.side {
			v += at(0, 30)
		} else {
			v -= at(0, 30)
		}
	}
	return v + at(-1, 8)*discs
}

// TestDefaultWeightsUnchanged: on every position of 300 random games, the
// evaluation with no weights set, with UseWeights(nil) and with the
// defaults set explicitly (also in a clone) equals the evaluation before
// weights existed, from both sides.
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

// TestWeightsHandValues: with every weight 0 but one term's pair, the
// evaluation is that term alone, counted by hand on a known position.
func TestWeightsHandValues(t *testing.T) {
	// After c2 the first player (X) has c2 c3 d3 c4, the second (O) d4;
	// 31 cells are empty (odd) and O is to move. O can play b2 d2 b4, X
	// could play e4 d5 e5. Every disc is next to an empty cell.
	s := New()
	m, err := s.ParseMove("c2")
	if err != nil || !s.Legal(m) {
		t.Fatalf("c2 from the start: %v", err)
	}
	s.Play(m)
	only := func(term, open, end int) []int {
		w := make([]int, numWeights)
		w[2*term], w[2*term+1] = open, end
		return w
	}
	cases := []struct {
		name string
		w    []int
		p    int
		want int
	}{
		// phase(open, end, 31) = (open·31 + end·1)/32.
		{"disc 32/32, first's view", only(7, 32, 32), 0, 32 * (4 - 1)},
		{"disc 32/32, second's view", only(7, 32, 32), 1, 32 * (1 - 4)},
		{"disc 64/0", only(7, 64, 0), 0, 62 * 3},            // (64·31)/32 = 62
		{"parity 0/64, to move", only(6, 0, 64), 1, 2},      // (64·1)/32
		{"parity 0/64, not to move", only(6, 0, 64), 0, -2}, //
		{"corners none held", only(0, 100, 100), 0, 0},      //
		{"mobility 32/32", only(3, 32, 32), 1, 32 * (3 - 3)},
		{"frontier -32/-32", only(4, -32, -32), 0, -32 * (4 - 1)},
		{"no C-square held", only(2, 64, 64), 0, 0},
	}
	for _, c := range cases {
		prev := s.UseWeights(c.w)
		got := s.Evaluate(c.p)
		s.UseWeights(prev)
		if got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// An agent (or a tuner) evaluates with other weights by setting them on
// the position and restoring the previous ones afterwards.
func ExampleState_UseWeights() {
	s := New()
	m, _ := s.ParseMove("c2")
	s.Play(m) // the first player has 4 discs, the second 1; 31 empty cells
	w := make([]int, len(s.Weights()))
	for i, x := range s.Weights() {
		if x.Name == "disc_open" || x.Name == "disc_end" {
			w[i] = 32 // a disc is worth 32 whatever the phase
		}
	}
	prev := s.UseWeights(w)
	fmt.Println(s.Evaluate(0), s.Evaluate(1))
	s.UseWeights(prev)
	// The defaults: mobility 3 − 3, frontier discs 4 − 1 at
	// (−5·31 − 1·1)/32 = −4 each, parity (0·31 + 30·1)/32 = 0 against the
	// first player, discs 3 at (−1·31 + 8·1)/32 = 0 each: −12.
	fmt.Println(s.Evaluate(0))
	// Output:
	// 96 -96
	// -12
}
