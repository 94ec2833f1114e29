package agents

import (
	"strings"
	"testing"
)

// TestSpecValues: every numeric key of the built-in agents has a range,
// 0 is refused where it would silently mean something else, NaN and ±Inf
// are refused, and a key without a value says it needs one.
func TestSpecValues(t *testing.T) {
	tests := []struct {
		spec string
		want string // "" when the spec is valid
	}{
		{"alphabeta:depth=1,tt=1", ""},
		{"alphabeta:depth=100,tt=1", ""},
		{"alphabeta:depth=0", "alphabeta: option depth=0 is out of range: use an integer from 1 to 100"},
		{"alphabeta:depth=101", "out of range"},
		{"alphabeta:depth=-2", "out of range"},
		{"alphabeta:depth", "alphabeta: option depth needs a value (an integer from 1 to 100), e.g. depth=1"},
		{"alphabeta:depth=x", `option depth="x" is not an integer`},
		{"alphabeta:nodes=0", "option nodes=0 is out of range"},
		{"alphabeta:nodes=99999999999999999999", "out of range"},
		{"alphabeta:nodes=5000,tt=1", ""},
		{"alphabeta:time=0s", "option time=0s is out of range: use a duration from 1ms to 24h"},
		{"alphabeta:time=-1s", "out of range"},
		{"alphabeta:time=1000h", "out of range"},
		{"alphabeta:time", "option time needs a value"},
		{"alphabeta:time=50ms,tt=0", ""},
		{"alphabeta:tt=-1", "option tt=-1 is out of range: use an integer from 0 to 65536"},
		{"alphabeta:tt=100000000", "out of range"},
		{"alphabeta:threads=0", "option threads=0 is out of range: use an integer from 1 to 256"},
		{"alphabeta:threads=257", "out of range"},
		{"alphabeta:asp=-1", "option asp=-1 is out of range"},
		{"alphabeta:exact,tt=1", ""},
		{"alphabeta:exact=maybe", "is not true or false"},
		{"mcts:iters=0", "mcts: option iters=0 is out of range: use an integer from 1 to 1000000000000"},
		{"mcts:iters", "mcts: option iters needs a value"},
		{"mcts:iters=10", ""},
		{"mcts:time=0s", "option time=0s is out of range"},
		{"mcts:c=NaN", "mcts: option c=NaN is not a finite number"},
		{"mcts:c=Inf", "not a finite number"},
		{"mcts:c=-1", "option c=-1 is out of range: use a number from 0 to 100"},
		{"mcts:c=0,iters=5", ""},
		{"mcts:fpu=inf,iters=5", ""},
		{"mcts:fpu=Inf,iters=5", ""},
		{"mcts:fpu=+Inf,iters=5", ""},
		{"mcts:fpu=-inf", "or inf"},
		{"mcts:fpu=0.5,iters=5", ""},
		{"mcts:fpu=NaN", "option fpu=NaN is not a finite number"},
		{"mcts:fpu=2", "out of range: use a number from 0 to 1, or inf"},
		{"mcts:eps=NaN", "not a finite number"},
		{"mcts:eps=1.5", "out of range"},
		{"mcts:gamma=-Inf", "not a finite number"},
		{"mcts:escale=-1", "out of range"},
		{"mcts:escale=1e400", "not a finite number"},
		{"mcts:cutoff=-1", "out of range"},
		{"mcts:threads=0", "out of range"},
		{"mcts:maxnodes=15", "option maxnodes=15 is out of range: use an integer from 16 to 67108864"},
		{"mcts:maxnodes=4294967297", "out of range"},
		{"mcts:rollout", "mcts: option rollout needs a value, e.g. rollout=egreedy"},
		{"mcts:iters=10,maxdepth=4", ""},
		{"mcts:time=50ms,first=1s", ""},
		{"mcts:first=0s", "option first=0s is out of range: use a duration from 1ms to 24h"},
		{"mcts:maxdepth=0", "option maxdepth=0 is out of range: use an integer from 1 to 1000"},
		{"mcts:maxdepth=1001", "out of range"},
		{"mcts:sel", "needs a value"},
		{"mcts:final", "needs a value"},
		{"cg:cmd", "cmd= is required"},
		{"cg:cmd=./bot,turn=0s", "option turn=0s is out of range"},
		{"cg:cmd=./bot,first", "option first needs a value"},
		{"cg:cmd=./bot,first=25h", "out of range"},
	}
	for _, tt := range tests {
		err := Validate(tt.spec)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("Validate(%q): %v", tt.spec, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("Validate(%q) = %v, want an error containing %q", tt.spec, err, tt.want)
		}
	}
}
