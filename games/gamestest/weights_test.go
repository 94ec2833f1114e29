package gamestest_test

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
)

// TestWeighted checks the games.Weighted contract of every registered game
// and variant whose evaluation has weights (every game with an evaluation).
func TestWeighted(t *testing.T) {
	for _, g := range games.All() {
		for _, spec := range append([]string{g.Name}, g.Variants...) {
			v, err := games.Lookup(spec)
			if err != nil {
				t.Fatal(err)
			}
			b := v.New()
			if _, ok := b.(games.Evaluator); !ok {
				continue
			}
			if err := gamestest.CheckWeighted(b); err != nil {
				t.Errorf("%s: %v", spec, err)
			}
		}
	}
}

// TestCheckWeightedFinds: positions that break the contract fail the
// check, each with its reason.
func TestCheckWeightedFinds(t *testing.T) {
	for _, tc := range []struct {
		f    *forgetful
		want string
	}{
		{&forgetful{pile: newPile("")}, "a clone does not share the weights"},
		{&forgetful{pile: newPile(""), def: 10}, "bad weight"},
	} {
		if err := gamestest.CheckWeighted(tc.f); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.f.def, err, tc.want)
		}
	}
}

// forgetful is the pile game with weights that UseWeights does not keep.
type forgetful struct {
	*pile
	def int // the weight's default (outside its range 0 to 9 when 10)
}

func (f *forgetful) Clone() games.State     { return &forgetful{f.pile.Clone().(*pile), f.def} }
func (f *forgetful) Evaluate(int) int       { return 0 }
func (f *forgetful) UseWeights([]int) []int { return nil }
func (f *forgetful) Weights() []games.Weight {
	return []games.Weight{{Name: "stone", Default: f.def, Min: 0, Max: 9, Help: "a stone"}}
}
