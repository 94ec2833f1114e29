package erdos

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
	name := "erdos"
	if s.Rules() == Algol {
		name = "erdos:algol"
	}
	v, err := games.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := gamestest.CheckPosition(v, s, seed); err != nil {
		t.Fatal(err)
	}
}

// TestPositionRandomGames reads back every position of many seeded random
// games under both rule sets, more games than the conformance suite plays.
func TestPositionRandomGames(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 100
	}
	for _, name := range []string{"erdos", "erdos:algol"} {
		v, err := games.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := gamestest.CheckPositions(v, gamestest.Games(n), gamestest.Seed(11)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPositionAlgolCount: on a full board under the algol rules the third
// field is the count the outcome uses (quirk Q2), within one column of the
// board's.
func TestPositionAlgolCount(t *testing.T) {
	const board = "12345/23451/34512/45123/51234 2---- "
	for _, tc := range []struct {
		count  string
		winner int
		err    bool
	}{
		{"-1", 1, false},
		{"0", games.Draw, false}, // the last placement captured column a for player 2
		{"+1", 0, true},
		{"-2", 0, true},
	} {
		s, err := ParsePosition(Algol, board+tc.count)
		if tc.err {
			if err == nil {
				t.Errorf("count %s accepted", tc.count)
			}
			continue
		}
		if err != nil {
			t.Fatalf("count %s: %v", tc.count, err)
		}
		if o := s.Outcome(); !s.Terminal() || s.EndReason() != ColumnCount || o.Winner != tc.winner {
			t.Errorf("count %s: terminal %v by %v, outcome %+v; want winner %d", tc.count, s.Terminal(), s.EndReason(), o, tc.winner)
		}
		checkReadBack(t, s, 1)
	}
}

func TestPositionStart(t *testing.T) {
	const want = "...../...../...../...../..... -----"
	if got := New(Algol).Position(); got != want {
		t.Fatalf("start %q, want %q", got, want)
	}
	v, err := games.Lookup("erdos:algol")
	if err != nil {
		t.Fatal(err)
	}
	s, err := games.ParsePosition(v, "...../...../..3../...../..... -----")
	if err != nil {
		t.Fatal(err)
	}
	if s.(*State).Rules() != Algol || s.ToMove() != 1 || s.Ply() != 0 {
		t.Fatalf("read state: rules %v, to move %d, ply %d", s.(*State).Rules(), s.ToMove(), s.Ply())
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Undo on a read position did not panic")
		}
	}()
	s.Undo()
}

func TestPositionErrors(t *testing.T) {
	fullStd := "12345/23451/34512/45123/51234 -----"
	for _, tc := range []struct {
		r          Rules
		text, want string
	}{
		{Standard, "", "0 fields"},
		{Standard, "...../...../...../...../.....", "1 fields"},
		{Standard, "...../...../...../..... -----", "4 ranks"},
		{Standard, "...../...../...../...../.... -----", "rank 1 has 4 cells"},
		{Standard, "...../...../...../...../...6. -----", "cell d1 is '6'"},
		{Standard, "...../...../...../...../1...1 -----", "level 1 stands twice"},
		{Standard, "...../...1./...../...../...1. -----", "level 1 stands twice"},
		{Standard, "...../...../...../...../..... ----", "4 column controllers"},
		{Standard, "...../...../...../...../..... --x--", "controller of column c"},
		{Standard, "...../...../...../...../..... 1----", "player 1 controls column a"},
		{Standard, "3..../2..../1..../...../..... 2----", "player 2 controls column a"},
		{Standard, "3..../2..../1..../...../..... -----", "column a holds a run"},
		{Standard, "...../...../...../...../..... ----- +1", "3 fields"},
		{Algol, fullStd, "needs a third field"},
		{Algol, "12345/23451/34512/45123/51234 ----- x", "counted difference"},
		{Algol, "12345/23451/34512/45123/51234 ----- 1", "counted difference"},
	} {
		_, err := ParsePosition(tc.r, tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePosition(%v, %q) = %v, want an error containing %q", tc.r, tc.text, err, tc.want)
		}
	}
}

// FuzzPosition: no text makes the reader panic, and any text it accepts
// reads back from its canonical form to the same position.
func FuzzPosition(f *testing.F) {
	f.Add(false, "...../...../...../...../..... -----")
	f.Add(true, "3..../2..../1..../...../..... -----")
	f.Add(true, "12345/23451/34512/45123/51234 ----- 0")
	f.Add(false, "...../...../...../...../1.... 1----")
	f.Fuzz(func(t *testing.T, algol bool, text string) {
		r := Standard
		if algol {
			r = Algol
		}
		s, err := ParsePosition(r, text)
		if err != nil {
			return
		}
		checkReadBack(t, s, uint64(len(text)))
	})
}
