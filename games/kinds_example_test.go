package games_test

import (
	"fmt"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/othello6"
	_ "github.com/boardgame-arena/arena/games/tryangle"
)

// The kind helpers treat sequential and simultaneous games alike: list a
// player's moves, play one for that player, and work on a clone.
func ExampleLegalMovesFor() {
	for _, spec := range []string{"othello6", "tryangle:seed=1"} {
		b, err := games.New(spec)
		if err != nil {
			panic(err)
		}
		work := games.Clone(b)
		mine := games.LegalMovesFor(work, 0, nil)
		theirs := games.LegalMovesFor(work, 1, nil)
		var other games.Move
		if len(theirs) > 0 {
			other = theirs[0] // a simultaneous game needs the opponent's move too
		}
		games.PlayFor(work, 0, mine[0], other)
		fmt.Printf("%s: simultaneous %v, player 1 has moves %v, clone at ply %d, original at ply %d\n",
			spec, games.Simultaneous(b), len(theirs) > 0, work.Ply(), b.Ply())
	}
	// Output:
	// othello6: simultaneous false, player 1 has moves false, clone at ply 1, original at ply 0
	// tryangle:seed=1: simultaneous true, player 1 has moves true, clone at ply 1, original at ply 0
}
