package erdos

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// TestEmpties checks Empties against the cells without a unit, and that it
// bounds the plies left, on random games of both rule sets.
func TestEmpties(t *testing.T) {
	var _ games.EmptiesCounter = New(Standard)
	for _, rules := range []Rules{Standard, Algol} {
		r := rng.New(7)
		for g := 0; g < 50; g++ {
			s := New(rules)
			var seen []int
			for {
				n := 0
				for i := 0; i < Cells; i++ {
					if s.Level(i) == 0 {
						n++
					}
				}
				if got := s.Empties(); got != n {
					t.Fatalf("%s game %d ply %d: Empties %d, want %d empty cells", rules, g, s.Ply(), got, n)
				}
				seen = append(seen, n)
				if s.Terminal() {
					break
				}
				games.RandomPlies(s, 1, r)
			}
			left := len(seen) - 1 // plies played after the first position
			for i, e := range seen {
				if e < left-i {
					t.Fatalf("%s game %d ply %d: Empties %d < %d plies left", rules, g, i, e, left-i)
				}
			}
		}
	}
}
