package solve_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/search/solve"
)

// Solve an Erdős Latino position 11 cells before the end, then every
// position two plies on, whose minimax is the same value.
func Example() {
	b, _ := games.New("erdos")
	s := b.(games.State)
	line := "c3:3 c4:4 c5:1 c1:5 d5:5 d1:4 d4:3 b5:4 d3:1 b4:2 a1:3 a2:2 b1:1 a4:1"
	if _, err := games.Replay("erdos", s, strings.Fields(line)); err != nil {
		panic(err)
	}
	r, err := solve.Position(context.Background(), s, solve.Options{})
	fmt.Println(r.Value, r.Result, err)

	p, err := solve.Plies(context.Background(), s, solve.PliesOptions{Plies: 2, Options: solve.Options{Threads: 2}})
	fmt.Println(len(p.Positions), p.Dedup, p.Solved, *p.Start, err)
	// Output:
	// 1 win <nil>
	// 93 symmetry 93 {1 win} <nil>
}
