package agents

import (
	"testing"
	"time"
)

// TestMoveTime: the agents with a time budget report it (Budgeter), the
// others report none, so that the arena holds each agent to its own budget.
func TestMoveTime(t *testing.T) {
	for _, tt := range []struct {
		spec        string
		first, move time.Duration
	}{
		{"alphabeta:time=200ms", 200 * time.Millisecond, 200 * time.Millisecond},
		{"alphabeta:depth=3", 0, 0},
		{"alphabeta", 0, 0}, // its default second is not a budget the user gave
		{"mcts:time=1s", time.Second, time.Second},
		{"mcts:iters=100", 0, 0},
		{"cg:cmd=true", DefaultCGFirst, DefaultCGTurn},
		{"cg:cmd=true,first=3s,turn=500ms", 3 * time.Second, 500 * time.Millisecond},
		{"random", 0, 0},
		{"greedy", 0, 0},
	} {
		a, err := New(tt.spec, 1)
		if err != nil {
			t.Fatalf("%s: %v", tt.spec, err)
		}
		if f, m := MoveTime(a, true), MoveTime(a, false); f != tt.first || m != tt.move {
			t.Errorf("%s: MoveTime first %v, later %v; want %v, %v", tt.spec, f, m, tt.first, tt.move)
		}
		if c, ok := a.(interface{ Close() error }); ok {
			c.Close()
		}
	}
}
