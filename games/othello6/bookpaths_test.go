package othello6

import (
	"math/bits"
	"testing"

	"github.com/boardgame-arena/arena/rng"
)

// TestBookPaths: every bottom position reached by random games in which
// the mover of a position two or three plies above the bottom plays the
// book's moves, and the other player random ones, is among bookPaths;
// bookPaths leaves out positions no such game reaches; and it says when
// the book lacks a move on the way.
func TestBookPaths(t *testing.T) {
	b, root := smallBook(t, 3)
	const bottom = 12
	layers := BookLayers(root, bottom)
	move := func(p [2]uint64) (int, bool) {
		m, _, ok := b.Lookup(p[0], p[1])
		return m, ok
	}
	paths, ok := bookPaths(layers, bottom, move)
	if !ok {
		t.Fatal("the book lacks a move")
	}
	inLayer := map[[2]uint64]bool{}
	for _, p := range layers[bottom] {
		inLayer[p] = true
	}
	for p := range paths {
		if !inLayer[p] {
			t.Fatalf("%x is not in the bottom layer", p)
		}
	}
	if len(paths) == 0 || len(paths) >= len(layers[bottom]) {
		t.Fatalf("%d paths of %d bottom positions: the agent's choices should leave some out", len(paths), len(layers[bottom]))
	}
	r := rng.New(8)
	reached := map[[2]uint64]bool{}
	for range 3000 {
		starts := layers[bottom+2+r.IntN(2)]
		p := starts[r.IntN(len(starts))]
		agent := true
		for bits.OnesCount64(^(p[0]|p[1])&full) > bottom {
			var i int
			if agent {
				i, _ = move(p)
			} else {
				moves := Moves(p[0], p[1])
				for k := r.IntN(bits.OnesCount64(moves)); k > 0; k-- {
					moves &= moves - 1
				}
				i = bits.TrailingZeros64(moves)
			}
			f := Flips(i, p[0], p[1]) | bit(i)
			nme, nopp, flip, over := settle(p[1]&^f, p[0]|f)
			if over {
				break
			}
			a, c, _ := canonical(nme, nopp)
			p, agent = [2]uint64{a, c}, agent == flip
		}
		if bits.OnesCount64(^(p[0]|p[1])&full) == bottom {
			if !paths[p] {
				t.Fatalf("a game reached %x, not in the paths", p)
			}
			reached[p] = true
		}
	}
	// Random games find most of them (a check that the walk does not
	// take in more than the games can reach).
	if len(reached) < len(paths)*3/4 {
		t.Errorf("random games reached %d of the %d paths", len(reached), len(paths))
	}
	t.Logf("%d of %d bottom positions on the paths, %d reached by random games", len(paths), len(layers[bottom]), len(reached))
	missing := layers[bottom+2][0]
	if _, ok := bookPaths(layers, bottom, func(p [2]uint64) (int, bool) {
		if p == missing {
			return 0, false
		}
		return move(p)
	}); ok {
		t.Error("a missing book move went unnoticed")
	}
}
