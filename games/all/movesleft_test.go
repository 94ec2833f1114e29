package all

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// TestMovesLeft checks every game's estimate of the mover's moves left
// (games.MovesLeftEstimator, which the search agents' clock shares their
// time over): its value at the start, and against random games, that it
// is an upper bound of the moves the mover really made afterwards (give
// or take slack: Othello's passes give a player extra moves, and Gravity
// expects at most 20 of the board's 41).
func TestMovesLeft(t *testing.T) {
	for _, tc := range []struct {
		game  string
		start int
		slack int
	}{
		{"othello6", 16, 3},
		{"erdos", 13, 0},
		{"pyrga", 15, 0},
		{"gravity", 20, 21},
		{"tryangle:seed=7", 200, 0},
	} {
		t.Run(tc.game, func(t *testing.T) {
			v, err := games.Lookup(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			if got := games.MovesLeft(v.New()); got != tc.start {
				t.Fatalf("start: MovesLeft = %d, want %d", got, tc.start)
			}
			r := rng.New(11)
			n := 30
			if _, sim := v.New().(games.SimState); sim {
				n = 2 // 200 turns each
			}
			for g := range n {
				checkGame(t, v.New(), r, tc.slack, g)
			}
		})
	}
}

// checkGame plays a random game from b, then compares every position's
// estimate with the moves its mover made from there on.
func checkGame(t *testing.T, b games.Base, r *rng.Rand, slack, g int) {
	t.Helper()
	type seen struct{ mover, estimate int }
	var plies []seen
	var buf []games.Move
	for !b.Terminal() {
		switch s := b.(type) {
		case games.State:
			plies = append(plies, seen{s.ToMove(), games.MovesLeft(s)})
			buf = s.LegalMoves(buf[:0])
			s.Play(buf[r.IntN(len(buf))])
		case games.SimState:
			plies = append(plies, seen{0, games.MovesLeft(s)})
			buf = s.LegalMovesFor(0, buf[:0])
			m0 := buf[r.IntN(len(buf))]
			buf = s.LegalMovesFor(1, buf[:0])
			s.PlayJoint(m0, buf[r.IntN(len(buf))])
		}
	}
	if got := games.MovesLeft(b); got != 0 {
		t.Errorf("game %d: over, MovesLeft = %d, want 0", g, got)
	}
	var made [2]int // moves of each player from ply i on
	for i := len(plies) - 1; i >= 0; i-- {
		made[plies[i].mover]++
		if actual := made[plies[i].mover]; actual > plies[i].estimate+slack {
			t.Fatalf("game %d, ply %d: estimate %d, but the mover made %d more moves", g, i+1, plies[i].estimate, actual)
		}
	}
}
