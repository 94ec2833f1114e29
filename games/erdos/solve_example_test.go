package erdos_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/boardgame-arena/arena/games/erdos"
)

// ExampleSolver solves the spec's "starvation" line five plies before its
// end: the first player to move wins (+1, by starvation).
func ExampleSolver() {
	s := erdos.New(erdos.Standard)
	for _, text := range strings.Fields("c3:3 c4:4 c5:1 c1:5 d5:5 d1:4 d4:3 b5:4 d3:1 b4:2 a1:3 a2:2 b1:1 a4:1") {
		m, err := s.ParseMove(text)
		if err != nil {
			panic(err)
		}
		s.Play(m)
	}
	sv := erdos.NewSolver(1)
	value, pv, err := sv.Solve(context.Background(), s)
	if err != nil {
		panic(err)
	}
	fmt.Println("value", value, "in", len(pv), "plies")
	fmt.Println(s.CanonicalPosition())
	// Output:
	// value 1 in 7 plies
	// .1235/...4./.35../.2354/.51.2 -2121
}

// ExampleMirrorWins: the mirror strategy never starves the first player,
// but from the start the second player has a defence that beats it.
func ExampleMirrorWins() {
	res, err := erdos.MirrorWins(context.Background(), erdos.New(erdos.Standard))
	if err != nil {
		panic(err)
	}
	fmt.Println("wins:", res.Wins, "refutation ends", res.Outcome.Result(), "score", res.Outcome.Score)
	fmt.Println("first answer:", erdos.FormatMove(erdos.MirrorMove(res.Refutation[1])))
	// Output:
	// wins: false refutation ends 0-1 score -5
	// first answer: e5:5
}
