package games_test

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
)

// TestFormatMoveDoesNotAllocate: a referee formats every move it records,
// so the games with small move sets keep their notation in tables.
func TestFormatMoveDoesNotAllocate(t *testing.T) {
	for _, name := range []string{"othello6", "erdos", "gravity"} {
		b, err := games.New(name)
		if err != nil {
			t.Fatal(err)
		}
		s := b.(games.State)
		moves := s.LegalMoves(nil)
		if n := testing.AllocsPerRun(100, func() {
			for _, m := range moves {
				_ = s.FormatMove(m)
			}
		}); n != 0 {
			t.Errorf("%s: FormatMove allocates %.1f times per call batch", name, n)
		}
	}
}
