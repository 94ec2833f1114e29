package agents_test

import (
	"context"
	"fmt"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
)

// A UGI GUI's "go depth 3" for one move of an agent whose spec says depth
// 8: the limits in the move's context replace the spec's budget for that
// move only. MoveLimiter tells which limits an agent honours.
func ExampleWithMoveLimits() {
	a, err := agents.New("alphabeta:depth=8", 1)
	if err != nil {
		panic(err)
	}
	depth, nodes := a.(agents.MoveLimiter).MoveLimitKeys()
	v, err := games.Lookup("othello6")
	if err != nil {
		panic(err)
	}
	s := v.New().(games.State)
	ctx := agents.WithMoveLimits(context.Background(), agents.MoveLimits{Depth: 3})
	if _, err := a.Move(ctx, s, s.ToMove()); err != nil {
		panic(err)
	}
	fmt.Println(depth, nodes, a.(agents.Reporter).LastStats().Depth)
	// Output: true true 3
}
