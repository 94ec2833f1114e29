package othello6

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
)

// The position format's vectors (start, errors, fuzz seeds) are in
// testdata/gamestest.json, run by games/gamestest.

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
