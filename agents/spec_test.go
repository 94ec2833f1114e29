package agents_test

import (
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
)

// TestParse: an agent spec is read once into its kind, keys, display name
// and own clock, and built from what was read.
func TestParse(t *testing.T) {
	cases := []struct {
		text, name, err string
		clock           agents.TimeControl
		hasClock        bool
	}{
		{text: "random", name: "random"},
		{text: "alphabeta:depth=2,name=ab", name: "ab"},
		{text: "mcts:iters=50,tc=10s+100ms", name: "mcts:iters=50,tc=10s+100ms", clock: agents.TimeControl{Base: 10 * time.Second, Inc: 100 * time.Millisecond}, hasClock: true},
		{text: "mcts:tc=fast", err: "mcts: tc="},
		{text: "mcts:iters=1,iters=2", err: "agent spec:"},
	}
	for _, c := range cases {
		s, err := agents.Parse(c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Parse(%q) error %v, want one with %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.text, err)
		}
		if s.Name() != c.name || s.Clock != c.clock || s.HasClock != c.hasClock {
			t.Errorf("Parse(%q) = name %q clock %v %v, want %q %v %v", c.text, s.Name(), s.Clock, s.HasClock, c.name, c.clock, c.hasClock)
		}
		a, err := s.New(1)
		if err != nil {
			t.Fatalf("%q: New: %v", c.text, err)
		}
		if a.Name() == "" {
			t.Errorf("%q: agent without a name", c.text)
		}
	}
	if _, err := agents.New("random:depth=3", 1); err == nil || !strings.Contains(err.Error(), "depth") {
		t.Errorf("New with a key random does not take: %v", err)
	}
}
