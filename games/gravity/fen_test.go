package gravity

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
)

// checkReadBack runs the conformance suite's text-position check on s:
// read back, compared, played on to the end and undone (seed draws that game).
func checkReadBack(t *testing.T, s *State, seed uint64) {
	t.Helper()
	v, err := games.Lookup("gravity")
	if err != nil {
		t.Fatal(err)
	}
	if err := gamestest.CheckPosition(v, s, seed); err != nil {
		t.Fatal(err)
	}
}

// TestPositionRandomGames reads back every position of many seeded random
// games, more games than the conformance suite plays.
func TestPositionRandomGames(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 40
	}
	v, err := games.Lookup("gravity")
	if err != nil {
		t.Fatal(err)
	}
	if err := gamestest.CheckPositions(v, gamestest.Games(n), gamestest.Seed(13)); err != nil {
		t.Fatal(err)
	}
}

func TestPositionStart(t *testing.T) {
	empty := strings.Repeat("........./", 8) + "........."
	if got, want := New().Position(), empty+" -- -"; got != want {
		t.Fatalf("start %q, want %q", got, want)
	}
	s := New()
	s.Play(Top*Size + 4) // TE lands on E9
	if got, want := s.Position(), strings.Repeat("........./", 8)+"....X.... T- TE>E9"; got != want {
		t.Fatalf("after TE: %q, want %q", got, want)
	}
	c, err := ParsePosition(s.Position())
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Undo on a read position did not panic")
		}
	}()
	c.Undo()
}

func TestPositionErrors(t *testing.T) {
	rows := strings.Repeat("........./", 8)
	for _, tc := range []struct{ text, want string }{
		{"", "0 fields"},
		{rows + "......... --", "2 fields"},
		{strings.Repeat("........./", 7) + "......... -- -", "8 rows"},
		{rows + "........ -- -", "row 9 has 8 cells"},
		{rows + "....Y.... -- -", "cell E9 is 'Y'"},
		{rows + "....O.... -T TE>E9", "X has 0 tiles and O 1"},
		{rows + "....X.... -- TE>E9", "X has 1 tiles and last side -"},
		{rows + "....X.... TT TE>E9", "O has 0 tiles and last side T"},
		{rows + "....X.... Q- TE>E9", "last side is 'Q'"},
		{rows + "....X.... T- -", "last move \"-\""},
		{rows + "....X.... T- TE", "want slot>cell"},
		{rows + "....X.... T- TZ>E9", "bad move"},
		{rows + "....X.... T- TD>D9", "holds no X tile"},
		{rows + "....X.... T- BE>E9", "is from the bottom"},
		{rows + "....X.... L- L9>E9", "lands elsewhere"},
		{rows + "......... -- - x", "4 fields"},
		// X's five on row 9 was there before its last move.
		{strings.Repeat("........./", 6) + "O......../OOOO...../XXXXXX... TB TF>F9", "before the last move"},
		// O has five but X moved last.
		{strings.Repeat("........./", 7) + "XXX.XX.../OOOOO...X TB TI>I9", "did not move last"},
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
	rows := strings.Repeat("........./", 8)
	f.Add(rows + "......... -- -")
	f.Add(rows + "....X.... T- TE>E9")
	f.Add(strings.Repeat("........./", 7) + "OOOO...../XXXXX.... TB TE>E9")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParsePosition(text)
		if err != nil {
			return
		}
		checkReadBack(t, s, uint64(len(text)))
	})
}
