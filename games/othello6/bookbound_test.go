package othello6

import (
	"math/bits"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

var _ games.BookBounder = (*State)(nil)

// parentsByBruteForce lists the positions one move of the opponent before
// (me to move, opp) by trying every set of the opponent's discs on the
// lines through each of his discs as the discs that move turned.
func parentsByBruteForce(me, opp uint64) map[[3]uint64]bool {
	found := map[[3]uint64]bool{}
	for cells := opp &^ centre; cells != 0; cells &= cells - 1 {
		cell := bits.TrailingZeros64(cells)
		var lines uint64
		for _, r := range rays[cell] {
			lines |= r
		}
		lines &= opp
		for t := lines; t != 0; t = (t - 1) & lines {
			p0, p1 := opp&^(t|bit(cell)), me|t
			if Flips(cell, p0, p1) == t {
				found[[3]uint64{p0, p1, uint64(cell)}] = true
			}
		}
	}
	return found
}

// TestTakeBacks: takeBacks lists exactly the positions from which one
// move of the opponent leads to the position, each once (checked against
// a brute force), and among them the one a random game came from.
func TestTakeBacks(t *testing.T) {
	r := rng.New(21)
	tested, several := 0, 0
	for tested < 400 {
		s := randomPosition(r, 4+r.IntN(27))
		me, opp := s.discs[s.side], s.discs[1-s.side]
		moves := Moves(me, opp)
		if moves == 0 {
			continue
		}
		// One random move from the parent (me, opp) to the child, whose
		// mover is the other side.
		for k := r.IntN(bits.OnesCount64(moves)); k > 0; k-- {
			moves &= moves - 1
		}
		i := bits.TrailingZeros64(moves)
		f := Flips(i, me, opp) | bit(i)
		cme, copp := opp&^f, me|f
		want := parentsByBruteForce(cme, copp)
		got := map[[3]uint64]bool{}
		for p, cell := range takeBacks(cme, copp) {
			k := [3]uint64{p[0], p[1], uint64(cell)}
			if got[k] {
				t.Fatalf("%v listed twice", k)
			}
			got[k] = true
		}
		if len(got) != len(want) {
			t.Fatalf("me %#x opp %#x: %d positions before, brute force %d", cme, copp, len(got), len(want))
		}
		for k := range want {
			if !got[k] {
				t.Fatalf("me %#x opp %#x: missed %v", cme, copp, k)
			}
		}
		if !got[[3]uint64{me, opp, uint64(i)}] {
			t.Fatalf("me %#x opp %#x: the game's own position before is missing", cme, copp)
		}
		if len(got) > 1 {
			several++
		}
		tested++
	}
	if several < 50 {
		t.Fatalf("only %d of %d positions had more than one position before", several, tested)
	}
}

// TestBookBound: a child X of a position P on the book's bottom layer is
// bounded by -v(P) at least, exactly when P's book move leads to X; a
// few such bounds, exact and not, are checked by solving X. Positions far
// below the book get none.
func TestBookBound(t *testing.T) {
	b, err := DefaultBook()
	if err != nil {
		t.Fatal(err)
	}
	bottom := bottomLayer(b)
	r := rng.New(9)
	var exact, bound, solvedExact, solvedBound int
	for n := 0; n < 300; n++ {
		e := bottom[r.IntN(len(bottom))]
		for moves := Moves(e.me, e.opp); moves != 0; moves &= moves - 1 {
			i := bits.TrailingZeros64(moves)
			f := Flips(i, e.me, e.opp) | bit(i)
			me, opp := e.opp&^f, e.me|f // the child, the other side to move
			if Moves(me, opp) == 0 {
				continue // he passes: not a position the agent moves in
			}
			v, ex, ok := b.Bound(me, opp)
			if !ok || v < -int(e.value) {
				t.Fatalf("child %s of a book position worth %d: bound %d (%t), want at least %d", FormatMove(games.Move(i)), e.value, v, ok, -e.value)
			}
			if i == int(e.move) && (!ex || v != -int(e.value)) {
				t.Fatalf("the book's move %s from a position worth %d: bound %d exact %t, want exact %d", FormatMove(games.Move(i)), e.value, v, ex, -e.value)
			}
			if ex {
				exact++
			} else {
				bound++
			}
			// Solve a few: the bound never exceeds the value, and is it
			// when exact.
			if ex && solvedExact < 2 || !ex && solvedBound < 2 {
				got := newSolver(t.Context(), 2, newSolveTT(64)).root(me, opp)
				if got < v || ex && got != v {
					t.Fatalf("me %#x opp %#x: value %d, bound %d exact %t", me, opp, got, v, ex)
				}
				if ex {
					solvedExact++
				} else {
					solvedBound++
				}
			}
		}
	}
	if exact < 100 || bound < 100 {
		t.Fatalf("%d exact bounds and %d others, want 100 of each", exact, bound)
	}
	s := randomPosition(r, 15)
	if _, _, ok := s.BookBound(); ok {
		t.Fatalf("a bound for a position with 15 empty cells:\n%s", s)
	}
}

// BenchmarkBookBound times the book's bound for 100 random positions with
// 23 empty cells (one ply below the book).
func BenchmarkBookBound(b *testing.B) {
	book, err := DefaultBook()
	if err != nil {
		b.Fatal(err)
	}
	r := rng.New(7)
	var ps [][2]uint64
	for len(ps) < 100 {
		s := randomPosition(r, 23)
		if s.Empties() == 23 {
			ps = append(ps, [2]uint64{s.discs[s.side], s.discs[1-s.side]})
		}
	}
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		p := ps[n%len(ps)]
		if _, _, ok := book.Bound(p[0], p[1]); !ok {
			b.Fatal("no bound")
		}
	}
}
