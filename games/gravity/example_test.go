package gravity_test

import (
	"fmt"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gravity"
)

// The worked example of the original rules: R3 slides to A3, L3 enters at
// B3 and slides to I3, TA stops on A2 above the tile on A3. O played from
// the left last, so no L slot is open to O now.
func Example() {
	s := gravity.New()
	for _, text := range []string{"R3", "L3", "TA"} {
		m, err := games.ParseLegal(s, text)
		if err != nil {
			panic(err)
		}
		s.Play(m)
	}
	fmt.Println(s)
	fmt.Println(games.FormatMoves(s, s.LegalMoves(nil)))
	// Output:
	//   A B C D E F G H I
	// 1 . . . . . . . . .
	// 2 X . . . . . . . .
	// 3 X . . . . . . . O
	// 4 . . . . . . . . .
	// 5 . . . . . . . . .
	// 6 . . . . . . . . .
	// 7 . . . . . . . . .
	// 8 . . . . . . . . .
	// 9 . . . . . . . . .
	// last: X TA→A2; O (second player) to move, not from the left; 3 tiles
	// BA BB BC BD BE BF BG BH BI R1 R2 R3 R4 R5 R6 R7 R8 R9 TA TB TC TD TE TF TG TH TI
}

// Moves may also be given by the labels of the original rules text.
func ExampleParseMove() {
	for _, text := range []string{"tc", "12", "A", "3"} {
		m, err := gravity.ParseMove(text)
		fmt.Println(text, "→", gravity.FormatMove(m), err)
	}
	// Output:
	// tc → TC <nil>
	// 12 → R3 <nil>
	// A → TA <nil>
	// 3 → L3 <nil>
}
