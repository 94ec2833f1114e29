package othello6

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
)

func TestPositionStart(t *testing.T) {
	const want = "....../....../..OX../..XO../....../...... x"
	if got := New().Position(); got != want {
		t.Fatalf("start position %q, want %q", got, want)
	}
	s, err := ParsePosition(want)
	if err != nil {
		t.Fatal(err)
	}
	if s.Hash() != New().Hash() || s.String() != New().String() || s.Ply() != 0 {
		t.Fatalf("read start differs:\n%s", s)
	}
}

// A finished game keeps its side to move (the hash covers it) and a pass
// position reads back with the pass as its only move.
func TestPositionPassAndOver(t *testing.T) {
	// Nobody can place: the game is over.
	s, err := ParsePosition("XXXXXX/XXXXXX/XXXXXX/XXXXXX/XXXXXX/XXXXX. o")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Terminal() {
		t.Fatalf("no placement for either player, want a finished game:\n%s", s)
	}
	// X has no placement, O has f6 (over e5 to d4): X must pass.
	s, err = ParsePosition("XXXXXX/XXXXXX/XXOOXX/XXOOXX/XXXXXX/XXXXX. x")
	if err != nil {
		t.Fatal(err)
	}
	if got := games.FormatMoves(s, s.LegalMoves(nil)); got != "pass" {
		t.Fatalf("legal moves %q, want pass:\n%s", got, s)
	}
	if got := s.Position(); got != "XXXXXX/XXXXXX/XXOOXX/XXOOXX/XXXXXX/XXXXX. x" {
		t.Fatalf("position %q", got)
	}
}

func TestPositionErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "0 fields"},
		{"....../....../..OX../..XO../....../......", "1 fields"},
		{"....../....../..OX../..XO../...... x", "5 ranks"},
		{"....../....../..OX../..XO../....../..... x", "rank 6 has 5 cells"},
		{"....../....../..OX../..XO../....../.....Y x", `cell f6 is 'Y'`},
		{"....../....../..OX../..XO../....../...... X", `side to move "X"`},
		{"....../....../..O.../..XO../....../...... x", "centre cell"},
		{"....../....../..OX../..XO../....../...... x o", "3 fields"},
	} {
		_, err := ParsePosition(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePosition(%q) = %v, want an error containing %q", tc.text, err, tc.want)
		}
	}
}

// FuzzPosition: no text makes the reader panic, and any text it accepts
// reads back from its canonical form to the same position.
func FuzzPosition(f *testing.F) {
	f.Add(New().Position())
	f.Add("XXXXXX/XXXXXX/XXOOXX/XXOOXX/XXXXXX/XXXXX. x")
	f.Add("OOOOOO/OOOOOO/OOXOOO/OOOXOO/OOOOO./OOOO.X o")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParsePosition(text)
		if err != nil {
			return
		}
		checkReadBack(t, s)
	})
}

// checkReadBack runs the conformance suite's text-position check on s:
// read back, compared, played on to the end and undone.
func checkReadBack(t *testing.T, s *State) {
	t.Helper()
	v, err := games.Lookup("othello6")
	if err != nil {
		t.Fatal(err)
	}
	if err := gamestest.CheckPosition(v, s, 1); err != nil {
		t.Fatal(err)
	}
}
