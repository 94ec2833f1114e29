package pyrga

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// TestEmpties checks Empties against the pieces left in both stocks, and that
// it bounds the plies left, on random games.
func TestEmpties(t *testing.T) {
	var _ games.EmptiesCounter = New()
	r := rng.New(7)
	for g := 0; g < 100; g++ {
		s := New()
		var seen []int
		for {
			n := 0
			for p := 0; p < 2; p++ {
				n += s.Stock(p, Square) + s.Stock(p, Triangle) + s.Stock(p, Cylinder)
			}
			if got := s.Empties(); got != n {
				t.Fatalf("game %d ply %d: Empties %d, want %d pieces in stock", g, s.Ply(), got, n)
			}
			seen = append(seen, n)
			if s.Terminal() {
				break
			}
			games.RandomPlies(s, 1, r)
		}
		left := len(seen) - 1
		for i, e := range seen {
			if e < left-i {
				t.Fatalf("game %d ply %d: Empties %d < %d plies left", g, i, e, left-i)
			}
		}
	}
}
