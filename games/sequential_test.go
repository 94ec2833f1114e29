package games_test

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/tryangle"
	"github.com/boardgame-arena/arena/internal/rng"
)

// TestSequentialized walks random TryAngle Catch games through the wrapper:
// the chooser alternates First, other; two plies make one joint move; Undo
// and Clone restore positions and hashes; a pending choice changes the hash.
func TestSequentialized(t *testing.T) {
	for _, first := range []int{0, 1} {
		b, err := games.New("tryangle:seed=3")
		if err != nil {
			t.Fatal(err)
		}
		sim := b.(games.SimState)
		q := games.Sequentialize(sim, first)
		r := rng.New(uint64(first))
		var hashes []uint64
		for ply := 0; ply < 60 && !q.Terminal(); ply++ {
			want := first
			if ply%2 == 1 {
				want = 1 - first
			}
			if q.ToMove() != want || q.Ply() != ply || sim.Ply() != ply/2 {
				t.Fatalf("ply %d: to move %d (want %d), ply %d, sim ply %d", ply, q.ToMove(), want, q.Ply(), sim.Ply())
			}
			hashes = append(hashes, q.Hash())
			moves := q.LegalMoves(nil)
			if len(moves) == 0 {
				t.Fatalf("ply %d: no moves", ply)
			}
			clone := q.Clone()
			q.Play(moves[r.IntN(len(moves))])
			if clone.Hash() != hashes[ply] || clone.Ply() != ply {
				t.Fatalf("ply %d: playing changed a clone", ply)
			}
			if ply%2 == 0 && q.Hash() == hashes[ply] {
				t.Fatalf("ply %d: a pending choice left the hash unchanged", ply)
			}
		}
		for ply := q.Ply() - 1; ply >= 0; ply-- {
			q.Undo()
			if q.Hash() != hashes[ply] || q.Ply() != ply {
				t.Fatalf("undo to ply %d: hash or ply differs", ply)
			}
		}
	}
}
