package pyrga

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
	"github.com/boardgame-arena/arena/rng"
)

// checkReadBack runs the conformance suite's text-position check on s:
// read back, compared, played on to the end and undone (seed draws that game).
func checkReadBack(t *testing.T, s *State, seed uint64) {
	t.Helper()
	name := "pyrga"
	if s.BGA() {
		name = "pyrga:bga"
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
// games, with and without the bga rule, and counts the immediate wins met.
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
	// The same games (the suite draws its moves as the loop above does),
	// every position read back.
	for _, name := range []string{"pyrga", "pyrga:bga"} {
		v, err := games.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := gamestest.CheckPositions(v, gamestest.Games(n), gamestest.Seed(12)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPositionStart(t *testing.T) {
	const want = "............/............/............/............ -"
	if got := NewBGA().Position(); got != want {
		t.Fatalf("start %q, want %q", got, want)
	}
	v, err := games.Lookup("pyrga:bga")
	if err != nil {
		t.Fatal(err)
	}
	// White's first piece a Square on b2: under bga, no Square next.
	s, err := games.ParsePosition(v, "............/............/...s..S...../............ S@b2")
	if err != nil {
		t.Fatal(err)
	}
	if !s.(*State).BGA() || s.ToMove() != 0 || s.Ply() != 0 {
		t.Fatalf("read state: bga %v, to move %d, ply %d", s.(*State).BGA(), s.ToMove(), s.Ply())
	}
	for _, m := range s.LegalMoves(nil) {
		if k, _, _ := Decode(m); k == Square {
			t.Fatalf("bga: Square %s legal for White's second piece", FormatMove(m))
		}
	}
}

func TestPositionErrors(t *testing.T) {
	if _, err := ParsePosition(false, positionExample); err != nil {
		t.Errorf("the example the errors show is rejected: %v", err)
	}
	for _, tc := range []struct {
		bga        bool
		text, want string
	}{
		{false, "", "0 fields"},
		{false, "............/............/............/............", "1 fields"},
		{false, "............/............/............ -", "3 ranks"},
		{false, "............/............/............/........... -", "rank 1 has 11"},
		{false, "............/............/............/T........... T@a1>N", `cell a1 has 'T' in its Square slot`},
		{false, "............/............/............/S........... -", "no last move, but 1 pieces"},
		{false, "............/............/............/S........... C@a1", "no Cylinder of White on a1"},
		{false, "............/............/............/S........... S@b1", "no Square of White on b1"},
		{false, "............/............/............/S........... X@a1", "last move: pyrga: bad move"},
		{false, "............/............/............/s........... S@a1", "White has 0 pieces and Black 1"},
		{false, "............/............/S..S..S..S../S..S..S..... S@a1", "7 Squares"},
		{true, "............/............/............/S..S..s..... S@d1", "forbids"},
		{false, "............/............/............/............ - x", "3 fields"},
	} {
		_, err := ParsePosition(tc.bga, tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePosition(%v, %q) = %v, want an error containing %q", tc.bga, tc.text, err, tc.want)
		}
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

// FuzzPosition: no text makes the reader panic, and any text it accepts
// reads back from its canonical form to the same position.
func FuzzPosition(f *testing.F) {
	f.Add(false, "............/............/............/............ -")
	f.Add(true, "............/............/...s..S...../............ S@b2")
	f.Add(false, "s.cs.cs.c.../.t..t..t..../.........S../STCSTCSTC... C@c1")
	f.Fuzz(func(t *testing.T, bga bool, text string) {
		s, err := ParsePosition(bga, text)
		if err != nil {
			return
		}
		checkReadBack(t, s, uint64(len(text)))
	})
}
