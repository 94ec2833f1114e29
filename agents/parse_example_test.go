package agents_test

import (
	"context"
	"fmt"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
)

// Reading an agent spec once and building agents from it: the kind and
// keys, the display name and the agent's own clock are read by Parse; the
// kind and its keys are checked when an agent is built.
func ExampleParse() {
	s, err := agents.Parse("greedy:name=g,tc=10s+100ms")
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Spec.Name, s.Name(), s.Clock, s.HasClock)

	a, err := s.New(1) // one agent per seed; s is read only once
	if err != nil {
		panic(err)
	}
	b, _ := games.New("othello6")
	m, _ := a.Move(context.Background(), b, 0)
	fmt.Println(a.Name(), "plays", b.FormatMove(m))

	bad, _ := agents.Parse("greedy:dept=3")
	_, err = bad.New(1)
	fmt.Println(err)
	// Output:
	// greedy g 10s+100ms true
	// g plays c2
	// greedy: unknown option "dept" (valid: name, tc, eval.)
}
