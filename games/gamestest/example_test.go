package gamestest_test

import (
	"fmt"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
	_ "github.com/boardgame-arena/arena/games/pyrga"
)

// A game's tests run the suite through Run(t, v); Check returns the first
// breach instead, here none.
func ExampleCheck() {
	v, err := games.Lookup("pyrga:bga")
	if err != nil {
		panic(err)
	}
	fmt.Println(gamestest.Check(v, gamestest.Games(2), gamestest.Seed(7)))
	// Output:
	// <nil>
}
