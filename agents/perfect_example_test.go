package agents_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// The perfect agent on a position with 12 empty cells: it solves it and
// says so in its stats, with the exact value of its move.
func ExamplePerfect() {
	a, err := agents.New("perfect:time=10s", 1)
	if err != nil {
		panic(err)
	}
	s := randomOthello(rng.New(2), 12)
	m, err := a.Move(context.Background(), s, s.ToMove())
	st := a.(agents.Reporter).LastStats()
	value, _, _, _ := s.SolveExact(context.Background(), games.SolveOptions{})
	fmt.Println(err, s.Legal(m), strings.Fields(st.Info)[0], st.Score == value)
	// Output: <nil> true solved true
}
