package pyrga_test

import (
	"fmt"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/pyrga"
)

// Example plays the spec's Cylinder vector: after S@b2 C@b3 White must play
// on b3, and under the bga rule may not add a second Square there.
func Example() {
	for _, spec := range []string{"pyrga", "pyrga:bga"} {
		b, err := games.New(spec)
		if err != nil {
			panic(err)
		}
		s := b.(games.State)
		for _, text := range []string{"S@b2", "C@b3"} {
			m, err := games.ParseLegal(s, text)
			if err != nil {
				panic(err)
			}
			s.Play(m)
		}
		fmt.Printf("%s: %s\n", spec, games.FormatMoves(s, s.LegalMoves(nil)))
	}
	// Output:
	// pyrga: S@b3 T@b3>E T@b3>N T@b3>S T@b3>W
	// pyrga:bga: T@b3>E T@b3>N T@b3>S T@b3>W
}

func ExampleParseMove() {
	m, err := pyrga.ParseMove("t@b2>n")
	if err != nil {
		panic(err)
	}
	kind, cell, dir := pyrga.Decode(m)
	fmt.Println(pyrga.FormatMove(m), kind == pyrga.Triangle, cell, dir == pyrga.North)
	_, err = pyrga.ParseMove("T@a4>N")
	fmt.Println(err)
	// Output:
	// T@b2>N true 5 true
	// pyrga: bad move "T@a4>N": the Triangle points at the edge (want S@b2, C@b2 or T@b2>N)
}
