package pyrga

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// TestPositionRandomGames: the seeded random games that games/gamestest
// reads back at every ply (testdata/gamestest.json: 400 games from seed 12,
// with and without the bga rule) meet immediate wins, the reader's third
// tower branch.
func TestPositionRandomGames(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	wins := 0
	for _, bga := range []bool{false, true} {
		for g := range n {
			rand := rng.New(rng.Derive(12, uint64(g)))
			s := newState(bga)
			for {
				if s.Terminal() {
					break
				}
				moves := s.LegalMoves(nil)
				s.Play(moves[rand.IntN(len(moves))])
			}
			if tl := s.Tallies(); tl[0].Towers == 3 || tl[1].Towers == 3 {
				wins++
			}
		}
	}
	if wins == 0 {
		t.Errorf("no game ended with a third tower; that branch of the reader went untested")
	}
}

// TestPositionStart: a position read under pyrga:bga keeps the bga rule.
func TestPositionStart(t *testing.T) {
	v, err := games.Lookup("pyrga:bga")
	if err != nil {
		t.Fatal(err)
	}
	// White's first piece a Square on b2: under bga, no Square next.
	s, err := games.ParsePosition(v, "............/............/...s..S...../............ S@b2")
	if err != nil {
		t.Fatal(err)
	}
	if !s.(*State).BGA() {
		t.Fatal("read state: no bga rule")
	}
	for _, m := range s.LegalMoves(nil) {
		if k, _, _ := Decode(m); k == Square {
			t.Fatalf("bga: Square %s legal for White's second piece", FormatMove(m))
		}
	}
}

// TestPositionErrors: the example the reader's errors show is a position
// it accepts (the errors themselves are in testdata/gamestest.json).
func TestPositionErrors(t *testing.T) {
	if _, err := ParsePosition(false, positionExample); err != nil {
		t.Errorf("the example the errors show is rejected: %v", err)
	}
}

// TestPositionThirdTower: a third tower must be the last move's, and only
// one player can have three.
func TestPositionThirdTower(t *testing.T) {
	// White: towers a1, b1, c1 (S T C each) and a Square on d2, 10
	// pieces; Black 9 elsewhere.
	const board = "s.cs.cs.c.../.t..t..t..../.........S../STCSTCSTC... "
	s, err := ParsePosition(false, board+"C@c1")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Terminal() || s.Outcome().Winner != 0 || s.Outcome().Score != 3 {
		t.Fatalf("third tower: terminal %v, outcome %+v\n%s", s.Terminal(), s.Outcome(), s)
	}
	if _, err := ParsePosition(false, board+"S@d2"); err == nil || !strings.Contains(err.Error(), "did not complete") {
		t.Errorf("third tower not the last move's: %v", err)
	}
	// Black's three towers on a4, b4, c4 as well.
	both := "sTcstCStc.../.t..t......c/s..s..s...../STCSTCSTC... C@c4"
	if _, err := ParsePosition(false, both); err == nil || !strings.Contains(err.Error(), "both players") {
		t.Errorf("%q: %v, want both players with three towers refused", both, err)
	}
}
