package gravity

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// checkReadBack reads s's text back and compares everything observable,
// then plays the read state to the end and back.
func checkReadBack(t *testing.T, s *State, rand *rng.Rand) {
	t.Helper()
	text := s.Position()
	c, err := ParsePosition(text)
	if err != nil {
		t.Fatalf("own position %q rejected: %v\n%s", text, err, s)
	}
	if c.Position() != text || c.Hash() != s.Hash() || c.Hash() != c.ComputeHash() ||
		c.String() != s.String() || c.ToMove() != s.ToMove() || c.Ply() != 0 || c.Outcome() != s.Outcome() ||
		games.FormatMoves(c, c.LegalMoves(nil)) != games.FormatMoves(s, s.LegalMoves(nil)) {
		t.Fatalf("%q reads back as %q:\n%s\nwant\n%s", text, c.Position(), c, s)
	}
	for n := 0; !c.Terminal(); n++ {
		moves := c.LegalMoves(nil)
		c.Play(moves[rand.IntN(len(moves))])
		if c.Hash() != c.ComputeHash() || c.Ply() != n+1 {
			t.Fatalf("playing on from %q: hash or ply drifts", text)
		}
	}
	for c.Ply() > 0 {
		c.Undo()
	}
	if c.Position() != text || c.Hash() != s.Hash() {
		t.Fatalf("undoing back to %q gives %q", text, c.Position())
	}
}

// TestPositionRandomGames reads back every position of many seeded random
// games.
func TestPositionRandomGames(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 40
	}
	for g := range n {
		rand := rng.New(rng.Derive(13, uint64(g)))
		s := New()
		for {
			checkReadBack(t, s, rand)
			if s.Terminal() {
				break
			}
			moves := s.LegalMoves(nil)
			s.Play(moves[rand.IntN(len(moves))])
		}
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
		checkReadBack(t, s, rng.New(uint64(len(text))))
	})
}
