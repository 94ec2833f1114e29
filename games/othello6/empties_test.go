package othello6

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

var _ games.EmptiesCounter = (*State)(nil)

// TestEmpties follows random games: the start has 32 empty cells, a
// placement takes one, a pass none, and a full board has none.
func TestEmpties(t *testing.T) {
	r := rng.New(7)
	var buf []games.Move
	for game := 0; game < 50; game++ {
		s := New()
		if got := s.Empties(); got != 32 {
			t.Fatalf("start: %d empties, want 32", got)
		}
		for !s.Terminal() {
			buf = s.LegalMoves(buf[:0])
			m := buf[r.IntN(len(buf))]
			before := s.Empties()
			s.Play(m)
			want := before - 1
			if m == Pass {
				want = before
			}
			if got := s.Empties(); got != want {
				t.Fatalf("game %d ply %d: %d empties after %s, want %d", game, s.Ply(), got, FormatMove(m), want)
			}
		}
	}
	full, _ := FromDiscs(full, 0, 0)
	if got := full.Empties(); got != 0 {
		t.Fatalf("full board: %d empties", got)
	}
}
