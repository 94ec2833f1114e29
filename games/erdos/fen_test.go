package erdos

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
)

// The position format's vectors (start, errors, fuzz seeds, random games
// read back) are in testdata/gamestest.json, run by games/gamestest.

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

// TestPositionKeepsRules: a position read under erdos:algol plays by the
// algol rules.
func TestPositionKeepsRules(t *testing.T) {
	v, err := games.Lookup("erdos:algol")
	if err != nil {
		t.Fatal(err)
	}
	s, err := games.ParsePosition(v, "...../...../..3../...../..... -----")
	if err != nil {
		t.Fatal(err)
	}
	if s.(*State).Rules() != Algol {
		t.Fatalf("read state: rules %v", s.(*State).Rules())
	}
}
