package othello6

import (
	"math/bits"
	"testing"

	"github.com/boardgame-arena/arena/rng"
)

// refLastMove is the plain last move: both sides' flips from Flips.
func refLastMove(me, opp uint64, i int) int {
	n := bits.OnesCount64(me)
	if f := Flips(i, me, opp); f != 0 {
		return 2*(n+bits.OnesCount64(f)+1) - Size*Size
	}
	if f := Flips(i, opp, me); f != 0 {
		return 2*(n-bits.OnesCount64(f)) - Size*Size
	}
	if d := 2*n - (Size*Size - 1); d > 0 {
		return d + 1
	} else {
		return d - 1
	}
}

// The count-only last move agrees with Flips on random full boards (any
// split of the discs, reachable or not), every cell as the empty one.
func TestLastMoveMatchesFlips(t *testing.T) {
	r := rng.New(2026)
	for n := 0; n < 20000; n++ {
		for i := 0; i < Size*Size; i++ {
			me := r.Uint64() & full &^ bit(i)
			opp := full &^ me &^ bit(i)
			mine, theirs := lastFlipCounts(i, me)
			if w := bits.OnesCount64(Flips(i, me, opp)); mine != w {
				t.Fatalf("cell %d, me %#x: %d flips counted, %d by Flips", i, me, mine, w)
			}
			if w := bits.OnesCount64(Flips(i, opp, me)); theirs != w {
				t.Fatalf("cell %d, me %#x: opponent's %d flips counted, %d by Flips", i, me, theirs, w)
			}
			if got, want := lastMove(me, i), refLastMove(me, opp, i); got != want {
				t.Fatalf("cell %d, me %#x: lastMove %d, want %d", i, me, got, want)
			}
		}
	}
}

// The per-line counts of a cell add up to less than 16 for either side, so
// lastFlipCounts's nibbles never carry.
func TestLastFlipCountsFitNibbles(t *testing.T) {
	for i := range lastLines {
		mine, theirs := 0, 0
		for d := range lastLines[i] {
			m, o := 0, 0
			for _, c := range lastLines[i][d].count {
				m, o = max(m, int(c&15)), max(o, int(c>>4))
			}
			mine, theirs = mine+m, theirs+o
		}
		if mine > 15 || theirs > 15 {
			t.Fatalf("cell %d: up to %d and %d flips", i, mine, theirs)
		}
	}
}
