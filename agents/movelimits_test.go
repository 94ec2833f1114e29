package agents_test

import (
	"context"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games/othello6"
)

// TestMoveLimits: MoveLimits in a move's context replace the spec's budget
// for that move where the agent honours them (alpha-beta's depth and nodes,
// mcts's nodes as iterations) and change nothing where it does not. The
// specs' own budgets are far larger (10 s, 10^5 iterations), so a limit
// that is ignored shows in the statistics, and the deadline keeps such a
// failure short.
func TestMoveLimits(t *testing.T) {
	for _, tc := range []struct {
		spec         string
		limits       agents.MoveLimits
		depth, nodes int64 // the move's statistics; 0: not checked
	}{
		{"alphabeta:time=10s", agents.MoveLimits{Depth: 3}, 3, 0},
		{"alphabeta:depth=2", agents.MoveLimits{Depth: 4}, 4, 0},
		{"mcts:iters=100000", agents.MoveLimits{Nodes: 77}, 0, 77},
		{"mcts:time=10s", agents.MoveLimits{Nodes: 50}, 0, 50},
		{"mcts:time=10s,first=10s", agents.MoveLimits{Nodes: 60}, 0, 60},
		{"mcts:iters=64", agents.MoveLimits{Depth: 2}, 0, 64}, // depth: not honoured
	} {
		a, err := agents.New(tc.spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(agents.WithMoveLimits(context.Background(), tc.limits), 5*time.Second)
		s := othello6.New()
		start := time.Now()
		_, err = a.Move(ctx, s, s.ToMove())
		took := time.Since(start)
		cancel()
		if err != nil {
			t.Fatalf("%s %+v: %v", tc.spec, tc.limits, err)
		}
		st := a.(agents.Reporter).LastStats()
		if tc.depth > 0 && int64(st.Depth) != tc.depth || tc.nodes > 0 && st.Nodes != tc.nodes {
			t.Errorf("%s %+v: depth %d, nodes %d; want depth %d, nodes %d (0: any)", tc.spec, tc.limits, st.Depth, st.Nodes, tc.depth, tc.nodes)
		}
		if took >= 4*time.Second {
			t.Errorf("%s %+v: took %v: the limits did not replace the spec's budget", tc.spec, tc.limits, took)
		}
	}
}

// TestMoveLimitKeys: which agents say they honour which limits (arena
// engine tells a GUI about the others).
func TestMoveLimitKeys(t *testing.T) {
	for _, tc := range []struct {
		spec         string
		limiter      bool
		depth, nodes bool
	}{
		{"alphabeta:depth=2", true, true, true},
		{"mcts:iters=10", true, false, true},
		{"greedy", false, false, false},
		{"random", false, false, false},
	} {
		a, err := agents.New(tc.spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		ml, ok := a.(agents.MoveLimiter)
		if ok != tc.limiter {
			t.Errorf("%s: MoveLimiter %v, want %v", tc.spec, ok, tc.limiter)
			continue
		}
		if ok {
			if d, n := ml.MoveLimitKeys(); d != tc.depth || n != tc.nodes {
				t.Errorf("%s: honours depth %v, nodes %v; want %v, %v", tc.spec, d, n, tc.depth, tc.nodes)
			}
		}
	}
}
