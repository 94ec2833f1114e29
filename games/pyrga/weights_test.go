package pyrga

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
)

// evalBefore is the evaluation as it was before the weights became
// settable (constants written out), kept to prove default play unchanged.
func evalBefore(s *State, p int) int {
	if s.over {
		o := s.Outcome()
		switch {
		case o.Winner == games.Draw:
			return 0
		case o.Winner == p:
			return games.WinScore/2 + 1000*abs(o.Score)
		}
		return -games.WinScore/2 - 1000*abs(o.Score)
	}
	t := tallies(&s.pieces)
	me, opp := t[p], t[1-p]
	v := 1000*(me.Towers-opp.Towers) + 150*(me.Pairs-opp.Pairs) + 20*(me.Singles-opp.Singles)
	mover := s.ply & 1
	if s.canCompleteOwn(mover) {
		bonus := 300
		if t[mover].Towers == 2 {
			bonus = 5000
		}
		if mover != p {
			bonus = -bonus
		}
		v += bonus
	}
	return v
}

// TestDefaultWeightsUnchanged: on every position of 300 random games of
// each variant, the evaluation with no weights, UseWeights(nil) and the
// defaults set explicitly (also in a clone) equals the one before weights
// existed, from both sides.
func TestDefaultWeightsUnchanged(t *testing.T) {
	n, err := gamestest.CheckWeightsUnchanged(600, 13, func(g int) games.Base { return newState(g%2 == 1) },
		func(s games.Base, p int) int { return evalBefore(s.(*State), p) })
	if err != nil {
		t.Fatal(err)
	}
	if n < 5000 {
		t.Fatalf("only %d positions", n)
	}
}

// TestWeightsHandValues: the positions of TestEvaluate, whose terms are
// counted there, with other weights (tower, pair, single, tempo, threat).
func TestWeightsHandValues(t *testing.T) {
	w := []int{7, 5, 3, 11, 101}
	for _, tc := range []struct {
		transcript string
		white      int
	}{
		{"S@b2", 3},
		{"C@b2 S@b2 T@a2>E", 3 - 11},
		{"S@b2 S@b3 T@b2>N", 5 - 3},
		{"C@c4 S@c4 T@d4>W S@b4 T@c4>E C@d4 S@d4 S@d3 T@d2>S S@d1 C@d2", 2*7 + 5 - 3*3},
		{"S@a1 S@a2 C@a1 T@a1>E C@b1 S@b1 T@b2>E S@c2 C@b2 S@b2", 2*7 + 101 - 2*3},
	} {
		s := New()
		play(t, s, tc.transcript)
		s.UseWeights(w)
		if got0, got1 := s.Evaluate(0), s.Evaluate(1); got0 != tc.white || got1 != -tc.white {
			t.Errorf("%q: %d / %d, want %d", tc.transcript, got0, got1, tc.white)
		}
	}
}
