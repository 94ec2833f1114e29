package testgames

import (
	"fmt"
	"testing"
	"time"
)

// verdict is a testing.TB that notes how a check ended instead of ending
// the test.
type verdict struct {
	testing.TB
	ended string // "fail", "skip" or "" (passed)
}

type endNow struct{}

func (v *verdict) Helper()                   {}
func (v *verdict) Name() string              { return "TestOnTimeVerdict" }
func (v *verdict) Logf(string, ...any)       {}
func (v *verdict) Errorf(f string, a ...any) { panic(fmt.Sprintf("Errorf: "+f, a...)) }
func (v *verdict) Fatalf(string, ...any)     { v.ended = "fail"; panic(endNow{}) }
func (v *verdict) Skip(...any)               { v.ended = "skip"; panic(endNow{}) }

func (v *verdict) run(f func()) {
	defer func() {
		if x := recover(); x != nil {
			if _, ok := x.(endNow); !ok {
				panic(x)
			}
		}
	}()
	f()
}

// TestOnTimeVerdict: a search on time passes at once; one always late
// fails after two late runs whose controls were on time, without a third;
// late runs whose controls were late too skip the test, and so does a
// single late run among on-time controls' ones.
func TestOnTimeVerdict(t *testing.T) {
	const budget = 10 * time.Millisecond
	t.Setenv("ARENA_BUSY_SKIPS", "")
	for _, tc := range []struct {
		name     string
		took     []time.Duration // of the runs in turn
		ctl      []time.Duration // of the controls after late runs
		want     string
		wantRuns int
	}{
		{"on time", []time.Duration{budget / 2}, nil, "", 1},
		{"late, then on time", []time.Duration{2 * budget, budget / 2}, []time.Duration{budget / 2}, "", 2},
		{"always late", []time.Duration{2 * budget, 2 * budget, 2 * budget}, []time.Duration{budget / 2, budget / 2, budget / 2}, "fail", 2},
		{"late with the control", []time.Duration{2 * budget, 2 * budget, 2 * budget}, []time.Duration{2 * budget, 2 * budget, 2 * budget}, "skip", 3},
		{"one stall", []time.Duration{2 * budget, 2 * budget, 2 * budget}, []time.Duration{2 * budget, budget / 2, 2 * budget}, "skip", 3},
	} {
		var v verdict
		runs, ctls := 0, 0
		try := func() time.Duration { runs++; return tc.took[runs-1] }
		control := func(time.Duration) time.Duration { ctls++; return tc.ctl[ctls-1] }
		v.run(func() { onTime(&v, budget, 3, try, control) })
		if v.ended != tc.want || runs != tc.wantRuns {
			t.Errorf("%s: ended %q after %d runs, want %q after %d", tc.name, v.ended, runs, tc.want, tc.wantRuns)
		}
	}
}
