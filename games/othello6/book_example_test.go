package othello6

import (
	"context"
	"fmt"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// A book of the positions reachable from a position with 14 empty cells
// down to 12, and what it says of its root (a random position here): the
// move and the exact value for the side to move, which the solver agrees
// with.
func ExampleBuildBook() {
	root := positionWithEmpties(rng.New(3), 14)
	book, err := BuildBook(context.Background(), BookBuild{Root: root, MinEmpties: 12, Threads: 1, TTMB: 16})
	if err != nil {
		panic(err)
	}
	me, opp := root.discs[root.side], root.discs[1-root.side]
	m, v, _ := book.Lookup(me, opp)
	r, _ := Solve(context.Background(), root, 1, 16)
	fmt.Println(book.Len(), book.MinEmpties(), root.Legal(games.Move(m)), v == r.Value)
	// Output: 55 12 true true
}
