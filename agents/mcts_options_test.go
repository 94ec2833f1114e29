package agents

import (
	"math"
	"testing"

	"github.com/boardgame-arena/arena/spec"
)

// TestMCTSKeysReachOptions: the fpu and c keys arrive in the search's
// options as given, an explicit 0 included (mcts.New reads a zero field as
// "the default": fpu=0 became +Inf, the opposite extreme).
func TestMCTSKeysReachOptions(t *testing.T) {
	for _, c := range []struct {
		spec    string
		fpu, cc float64
	}{
		{"mcts", math.Inf(1), 0.7},
		{"mcts:fpu=inf", math.Inf(1), 0.7},
		{"mcts:fpu=0.5,c=1.2", 0.5, 1.2},
		{"mcts:fpu=0", 0, 0.7},
		{"mcts:fpu=0,c=0", 0, 0},
	} {
		sp, err := spec.Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		a, err := newMCTS(sp, 1)
		if err != nil {
			t.Fatal(err)
		}
		o := a.(*MCTS).s.Options()
		if o.FPU != c.fpu || o.C != c.cc {
			t.Errorf("%s: fpu %v, c %v; want %v, %v", c.spec, o.FPU, o.C, c.fpu, c.cc)
		}
	}
}
