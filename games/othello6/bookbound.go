package othello6

import (
	"iter"
	"math/bits"
)

// What the book says about a position just below it, without its history.
//
// A position X one ply below the book (23 empty cells) is not in it, but
// the positions one move of the opponent before X are: whoever handed X
// over, X arose from one of them. Each such position P, worth v to its
// mover, bounds X: the opponent's move to X left X's mover at least -v,
// and exactly -v when it was P's optimal move. So the book bounds X
// through every position the last move can be taken back to, which the
// discs alone determine (takeBacks); the agent needs no history.
//
// Measured on 100 random positions with 23 empty cells (rng.New(7)
// through randomPosition, the positions of BenchmarkPerfectBelowBook):
// every one has a parent in the book (usually one), the bound is the
// exact value for 27, and 18 of those are known to be exact (the book's
// move leads to X).

// takeBacks lists the positions one move of the opponent before the
// position (me to move, opp): the opponent's discs and the mover's in that
// position, and the cell the opponent placed on. The move turned a run of
// the mover's discs in at least one direction, each run closed by an
// opponent disc that stayed his; so the cell holds an opponent disc that
// is not one of the four centre cells (never empty), and in each
// direction the discs it turned are a run of opponent discs next to it
// that an opponent disc still follows. A choice of runs is a parent when
// placing the cell there turns exactly those runs and nothing else.
func takeBacks(me, opp uint64) iter.Seq2[[2]uint64, int] {
	return func(yield func([2]uint64, int) bool) {
		for cells := opp &^ centre; cells != 0; cells &= cells - 1 {
			cell := bits.TrailingZeros64(cells)
			// runs[d][k] turns the first k+1 cells beyond cell in direction d.
			var runs [8][Size - 2]uint64
			var count [8]int
			for d := range 8 {
				var run uint64
				for ray := rays[cell][d]; ; {
					next := nearest(ray, d)
					if next&opp == 0 {
						break
					}
					ray &^= next
					if nearest(ray, d)&opp == 0 {
						break // no opponent disc after this one to close the run
					}
					run |= next
					runs[d][count[d]] = run
					count[d]++
				}
			}
			// Every choice of a run (or none) in each direction, by a
			// counter whose digit d counts the cells turned in direction d.
			var pick [8]int
			for {
				var turned uint64
				for d, k := range pick {
					if k > 0 {
						turned |= runs[d][k-1]
					}
				}
				before := [2]uint64{opp &^ (turned | bit(cell)), me | turned}
				if turned != 0 && Flips(cell, before[0], before[1]) == turned && !yield(before, cell) {
					return
				}
				d := 0
				for ; d < 8; d++ {
					if pick[d]++; pick[d] <= count[d] {
						break
					}
					pick[d] = 0
				}
				if d == 8 {
					break
				}
			}
		}
	}
}

// nearest returns the cell of ray closest to its origin, or 0 for an
// empty ray: directions 0–3 go towards higher squares (see rays).
func nearest(ray uint64, d int) uint64 {
	if d < 4 || ray == 0 {
		return ray & -ray
	}
	return 1 << uint(63-bits.LeadingZeros64(ray))
}

// Bound returns the highest lower bound the book gives the position (me to
// move, opp) through the positions one move of the opponent before it
// (takeBacks) whose value it knows (Value), from the mover's view, and
// whether it is the position's exact value: one of those positions' book
// move leads to it (up to the board's symmetries). ok is false when the
// book knows none of them. Its history does not matter.
func (b *Book) Bound(me, opp uint64) (value int, exact, ok bool) {
	if bits.OnesCount64(^(me|opp)&full)+1 < b.minEmpties-1 {
		return 0, false, false // no parent in the book or its reply values
	}
	cme, copp, _ := canonical(me, opp)
	// leadsHere reports whether the book's move in p leads to the position.
	leadsHere := func(p [2]uint64) bool {
		m, _, inBook := b.Lookup(p[0], p[1])
		if !inBook {
			return false // known through the reply values only: no move
		}
		f := Flips(m, p[0], p[1]) | bit(m)
		cm, co, _ := canonical(p[1]&^f, p[0]|f)
		return cm == cme && co == copp
	}
	value = -solveInf
	for p := range takeBacks(me, opp) {
		v, known := b.Value(p[0], p[1])
		switch {
		case !known || -v < value:
		case -v > value:
			value, exact = -v, leadsHere(p)
		case !exact:
			exact = leadsHere(p)
		}
	}
	return value, exact, value > -solveInf
}

// BookBound implements games.BookBounder with the embedded book (see
// Book.Bound): for a position with 23 empty cells, just below it, and
// a few with 22. It panics if the embedded book is corrupt, as BookMove.
func (s *State) BookBound() (value int, exact, ok bool) {
	b, err := defaultBook()
	if err != nil {
		panic(err)
	}
	if s.over || s.moves == 0 {
		return 0, false, false
	}
	return b.Bound(s.discs[s.side], s.discs[1-s.side])
}
