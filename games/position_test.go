package games_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
)

func TestParsePosition(t *testing.T) {
	if got, want := games.PositionGames(), []string{"erdos", "gravity", "othello6", "pyrga"}; !slices.Equal(got, want) {
		t.Errorf("PositionGames() = %v, want %v", got, want)
	}
	for _, tc := range []struct{ spec, text, want string }{
		{"othello6", "  ", "othello6: empty position"},
		{"tryangle", "x", "tryangle has no position format: only erdos, gravity, othello6, pyrga read positions"},
		{"erdos:algol", "x", "erdos: bad position"},
	} {
		v, err := games.Lookup(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := games.ParsePosition(v, tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePosition(%s, %q) = %v, want an error containing %q", tc.spec, tc.text, err, tc.want)
		}
	}
	// Surrounding spaces are not part of the position; the variant's rules
	// come along.
	v, _ := games.Lookup("pyrga:bga")
	s, err := games.ParsePosition(v, "  ............/............/............/............ -\n")
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := s.(interface{ BGA() bool }); !ok || !b.BGA() {
		t.Errorf("a position read for pyrga:bga does not play the bga rule")
	}
}
