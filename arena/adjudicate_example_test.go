package arena_test

import (
	"fmt"

	"github.com/boardgame-arena/arena/arena"
)

// ParseAdjudicate reads Options.Adjudicate; String is the form the record
// header keeps.
func ExampleParseAdjudicate() {
	a, err := arena.ParseAdjudicate("solve:empties=12")
	fmt.Println(a.Empties, a.Time, a, err)
	_, err = arena.ParseAdjudicate("solve:empties=0")
	fmt.Println(err)
	// Output:
	// 12 1s solve:empties=12,time=1s <nil>
	// Adjudicate: solve: option empties=0 is out of range: use an integer from 1 to 100
}
