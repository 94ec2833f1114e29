package games_test

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/tryangle"
	"github.com/boardgame-arena/arena/rng"
)

// TestSequentialized walks random TryAngle Catch games through the wrapper:
// the chooser alternates First, other; two plies make one joint move; a
// pending choice changes the hash. Undo, clones and the rest of the
// contract are checked by games/gamestest's conformance suite.
func TestSequentialized(t *testing.T) {
	for _, first := range []int{0, 1} {
		b, err := games.New("tryangle:seed=3")
		if err != nil {
			t.Fatal(err)
		}
		sim := b.(games.SimState)
		q := games.Sequentialize(sim, first)
		r := rng.New(uint64(first))
		for ply := 0; ply < 60 && !q.Terminal(); ply++ {
			want := first
			if ply%2 == 1 {
				want = 1 - first
			}
			if q.ToMove() != want || q.Ply() != ply || sim.Ply() != ply/2 {
				t.Fatalf("ply %d: to move %d (want %d), ply %d, sim ply %d", ply, q.ToMove(), want, q.Ply(), sim.Ply())
			}
			h := q.Hash()
			moves := q.LegalMoves(nil)
			if len(moves) == 0 {
				t.Fatalf("ply %d: no moves", ply)
			}
			q.Play(moves[r.IntN(len(moves))])
			if ply%2 == 0 && q.Hash() == h {
				t.Fatalf("ply %d: a pending choice left the hash unchanged", ply)
			}
		}
	}
}
