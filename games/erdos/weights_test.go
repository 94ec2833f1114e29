package erdos

import (
	"math/bits"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
	"github.com/boardgame-arena/arena/rng"
)

// evalBefore is the evaluation as it was before the weights became
// settable (100 a column, 10 a threat), kept to prove default play
// unchanged.
func evalBefore(s *State, p int) int {
	b := &s.b
	if b.reason != NotOver {
		d := int(b.score)
		if p == 1 {
			d = -d
		}
		switch {
		case int(b.winner) == p:
			return games.WinScore/2 + 1000*abs(d)
		case b.winner == games.Draw:
			return 0
		}
		return -games.WinScore/2 - 1000*abs(d)
	}
	v := 100 * (bits.OnesCount8(b.ctrl[p]) - bits.OnesCount8(b.ctrl[1-p]))
	threats := b.threats()
	return v + 10*(bits.OnesCount8(threats[p])-bits.OnesCount8(threats[1-p]))
}

// TestDefaultWeightsUnchanged: on every position of 200 random games of
// each rule set, the evaluation with no weights, UseWeights(nil) and the
// defaults set explicitly (also in a clone) equals the one before weights
// existed, from both sides.
func TestDefaultWeightsUnchanged(t *testing.T) {
	n, err := gamestest.CheckWeightsUnchanged(400, 13, func(g int) games.Base { return New(Rules(g % 2)) },
		func(s games.Base, p int) int { return evalBefore(s.(*State), p) })
	if err != nil {
		t.Fatal(err)
	}
	if n < 5000 {
		t.Fatalf("only %d positions", n)
	}
}

// TestWeightsHandValues: the heuristic value is column·(own − opponent's
// controlled columns) + threat·(own − opponent's threats), with the two
// counts taken from the position (after the "basic" line: 2 − 1 columns,
// TestEvaluate), on positions from random games where both counts vary.
func TestWeightsHandValues(t *testing.T) {
	s := New(Standard)
	playLine(t, s, specLines[0].line)
	prev := s.UseWeights([]int{37, 0})
	if got := s.Evaluate(0); got != 37 {
		t.Errorf("column 37, threat 0 after the basic line: %d, want 37·(2−1)", got)
	}
	s.UseWeights(prev)
	r := rng.New(5)
	withThreats := 0
	for g := 0; g < 50; g++ {
		s := New(Standard)
		games.RandomPlies(s, 6+g%20, r)
		if s.Terminal() {
			continue
		}
		dc := bits.OnesCount8(s.b.ctrl[0]) - bits.OnesCount8(s.b.ctrl[1])
		th := s.b.threats()
		dt := bits.OnesCount8(th[0]) - bits.OnesCount8(th[1])
		if dt != 0 {
			withThreats++
		}
		for _, w := range [][]int{{37, 0}, {0, 7}, {250, -3}} {
			s.UseWeights(w)
			want := w[0]*dc + w[1]*dt
			if got0, got1 := s.Evaluate(0), s.Evaluate(1); got0 != want || got1 != -want {
				t.Errorf("weights %v, columns %+d, threats %+d: %d / %d, want %d", w, dc, dt, got0, got1, want)
			}
		}
	}
	if withThreats < 5 {
		t.Fatalf("only %d positions with a threat difference", withThreats)
	}
}
