package othello6

import (
	"math/bits"
	"sync/atomic"
)

// The last move of a solve, counted rather than played.
//
// With one empty cell i left, every other cell holds a disc, so the discs
// of either side on a line through i are fixed by the mover's discs alone,
// and so is the number of discs a move on i turns along that line. For each
// cell and each of the four lines through it, lastLines holds a mask and a
// multiplier that gather the mover's discs on the line into the top six
// bits of a word (a perfect hash: the partial products land on distinct
// bits), and a table of 64 entries gives the discs the mover turns on that
// line, and those the opponent would turn if he played there instead. The
// count of the last move is four gathers and four loads, against eight ray
// scans and a population count for Flips.

// lastLine is one line through a cell for the count-only last move.
type lastLine struct {
	mask, magic uint64
	// count[x] holds, for the mover's line pattern x (see lastIndex), the
	// discs the mover turns in the low nibble and the opponent's in the
	// high one.
	count [64]uint8
}

// lastLines[i] are the four lines through cell i (row, column, two
// diagonals); lines too short to turn a disc have a zero mask and table.
var lastLines [Size * Size][4]lastLine

func lastIndex(me uint64, l *lastLine) uint64 { return (me & l.mask) * l.magic >> 58 }

func init() {
	// Directions as steps in cells: along the row, the column, and the
	// two diagonals.
	type dir struct{ df, dr int }
	dirs := [4]dir{{1, 0}, {0, 1}, {1, 1}, {-1, 1}}
	for i := 0; i < Size*Size; i++ {
		f0, r0 := i%Size, i/Size
		for d, st := range dirs {
			// The line's cells, lowest first.
			f, r := f0, r0
			for f-st.df >= 0 && f-st.df < Size && r-st.dr >= 0 {
				f, r = f-st.df, r-st.dr
			}
			var cells []int
			for ; f >= 0 && f < Size && r < Size; f, r = f+st.df, r+st.dr {
				cells = append(cells, sq(f, r))
			}
			if len(cells) < 3 {
				continue
			}
			// Cell k goes to bit 58+k, or 63−k on the anti-diagonals (there
			// the forward order would put two partial products on one bit).
			l := &lastLines[i][d]
			for k, c := range cells {
				l.mask |= bit(c)
				t := 58 + k
				if st.df < 0 {
					t = 63 - k
				}
				l.magic |= 1 << uint(t-c)
			}
			l.mask &^= bit(i)
			seen := [64]bool{}
			// Every pattern of the mover's discs on the line, the opponent
			// holding the rest of the board.
			for sub := l.mask; ; sub = (sub - 1) & l.mask {
				x := lastIndex(sub, l)
				if seen[x] {
					panic("othello6: lastLines gather is not one to one")
				}
				seen[x] = true
				opp := full &^ sub &^ bit(i)
				mine := bits.OnesCount64(Flips(i, sub, opp) & l.mask)
				theirs := bits.OnesCount64(Flips(i, opp, sub) & l.mask)
				l.count[x] = uint8(mine | theirs<<4)
				if sub == 0 {
					break
				}
			}
		}
	}
}

// lastFlipCounts returns the discs turned by a move on the last empty cell
// i by the side owning me (in the low nibble of each line's entry summed)
// and by the other side (high nibble). Only valid when every other cell is
// filled. A line turns at most 4 discs, four lines at most 13 (fewer than
// 16), so the nibbles never carry.
func lastFlipCounts(i int, me uint64) (mine, theirs int) {
	ls := &lastLines[i]
	s := uint(ls[0].count[lastIndex(me, &ls[0])]) + uint(ls[1].count[lastIndex(me, &ls[1])]) +
		uint(ls[2].count[lastIndex(me, &ls[2])]) + uint(ls[3].count[lastIndex(me, &ls[3])])
	return int(s & 15), int(s >> 4)
}

// shallow searches the last few empties without table or sorting, trying
// cells in odd quadrants first; parity holds the quadrant parity bits.
func (sv *solver) shallow(me, opp uint64, alpha, beta, empties int, parity uint8) int {
	empty := ^(me | opp) & full
	if empties == 2 {
		return sv.lastTwo(me, opp, alpha, beta, empty)
	}
	if empties == 1 {
		return lastMove(me, bits.TrailingZeros64(empty))
	}
	if empties >= 4 {
		// The stability cut-off, as in fastestFirst: 1-2 % fewer nodes
		// here (at 5 empties, leaving it out took 0.4-15 % more).
		var cut bool
		if beta, cut = stabilityBound(me, opp, alpha, beta); cut {
			return beta
		}
	}
	odd := empty & oddQuadrants[parity]
	best := -solveInf
	moved := false
	for pass := 0; pass < 2; pass++ {
		set := odd
		if pass == 1 {
			set = empty &^ odd
		}
		for ; set != 0; set &= set - 1 {
			i := bits.TrailingZeros64(set)
			if opp&neighbours[i] == 0 {
				continue // nothing to flip: cheaper than Flips finding so
			}
			f := Flips(i, me, opp)
			if f == 0 {
				continue
			}
			moved = true
			f |= bit(i)
			sv.nodes++
			v := -sv.shallow(opp&^f, me|f, -beta, -alpha, empties-1, parity^quadrantBit[i])
			if v > best {
				best = v
				if v > alpha {
					alpha = v
					if v >= beta {
						return v
					}
				}
			}
		}
	}
	if moved {
		return best
	}
	if Moves(opp, me) == 0 {
		return final(me, opp)
	}
	sv.nodes++
	return -sv.shallow(opp, me, -beta, -alpha, empties, parity)
}

// lastTwo solves a position with two empty cells, me to move.
func (sv *solver) lastTwo(me, opp uint64, alpha, beta int, empty uint64) int {
	i := bits.TrailingZeros64(empty)
	j := bits.TrailingZeros64(empty & (empty - 1))
	best := -solveInf
	if f := Flips(i, me, opp); f != 0 {
		f |= bit(i)
		sv.nodes++
		best = -lastMove(opp&^f, j)
		if best >= beta {
			return best
		}
	}
	if f := Flips(j, me, opp); f != 0 {
		f |= bit(j)
		sv.nodes++
		if v := -lastMove(opp&^f, i); v > best {
			best = v
		}
	}
	if best > -solveInf {
		return best
	}
	if Flips(i, opp, me) == 0 && Flips(j, opp, me) == 0 {
		return final(me, opp)
	}
	sv.nodes++
	return -sv.lastTwo(opp, me, -beta, -alpha, empty)
}

// lastMove scores the position with one empty cell i, the other cells
// filled, me to move (the opponent holds every other disc).
func lastMove(me uint64, i int) int {
	n := bits.OnesCount64(me)
	mine, theirs := lastFlipCounts(i, me)
	if mine != 0 {
		return 2*(n+mine+1) - Size*Size
	}
	if theirs != 0 {
		return 2*(n-theirs) - Size*Size
	}
	// Nobody can fill the last cell: it goes to the winner (35 discs, no draw).
	if d := 2*n - (Size*Size - 1); d > 0 {
		return d + 1
	} else {
		return d - 1
	}
}

// fastestFirst searches positions with more than parityEmpties empties, up
// to shallowEmpties, me to move with the given moves: moves sorted
// fastest-first, bounds in lastTable, with search's stability cut-off, but
// none of its bookkeeping (no stop or split checks: from 10 empties a
// random position took 835 nodes and 19 µs on average, see
// BenchmarkLastPlies; a list of at most shallowEmpties moves, sorted as it
// goes). parity holds the quadrant parity bits.
//
// Sorting pays from 5 empties: from 6 (parity below) it took 15 % fewer
// nodes than from 7 and 5-10 % less CPU on the mid-size solves, from 5
// another 13-18 % fewer nodes at the same CPU.
//
// The key is the opponent's replies, corners counting twice: search's
// orderKey also adds the empty cells next to my discs and a corner bonus,
// which here took 1–4 % more nodes and the CPU to compute them. The
// replies are the child's moves, so they are passed down, not generated
// again.
func (sv *solver) fastestFirst(me, opp, moves uint64, alpha, beta, empties int, parity uint8) int {
	if moves == 0 {
		om := Moves(opp, me)
		if om == 0 {
			return final(me, opp)
		}
		sv.nodes++
		return -sv.fastestFirst(opp, me, om, -beta, -alpha, empties, parity)
	}
	var cut bool
	if beta, cut = stabilityBound(me, opp, alpha, beta); cut {
		return beta
	}
	t := sv.last
	key := posKey(me, opp)
	lo, hi := t.probe(key)
	if v, ok := boundsCut(lo, hi, alpha, beta); ok {
		return v
	}
	alpha0, beta0 := alpha, beta
	alpha, beta = max(alpha, lo), min(beta, hi)
	best := sv.fastestChildren(me, opp, moves, alpha, beta, empties, parity)
	lo, hi = narrowBounds(lo, hi, best, alpha0, beta0)
	t.store(key, lo, hi)
	return best
}

// fastestChildren searches the children of a fastestFirst node.
func (sv *solver) fastestChildren(me, opp, moves uint64, alpha, beta, empties int, parity uint8) int {
	// The children as flips and their mover's moves, each with a key:
	// the order key above the square, so that the smallest key is the
	// first of the best (moves come lowest square first, and equal keys
	// keep that order, as a stable sort would).
	var flips, replies [shallowEmpties]uint64
	var keys [shallowEmpties]uint16
	n := 0
	for m := moves; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		f := Flips(i, me, opp) | bit(i)
		if empties-1 > parityEmpties {
			// A child known to refute the node ends it (enhanced
			// transposition cut-off, cheap in this small table: 1 % fewer
			// nodes).
			if _, chi := sv.last.probe(posKey(opp&^f, me|f)); -chi >= beta {
				return -chi
			}
		}
		om := Moves(opp&^f, me|f)
		// Even quadrants after odd ones among equal replies.
		key := 2*(bits.OnesCount64(om)+bits.OnesCount64(om&corners)) + int(^parity>>quadrantShift[i]&1)
		flips[n], replies[n], keys[n] = f, om, uint16(key<<6|i)
		n++
	}
	best := -solveInf
	for k := 0; k < n; k++ {
		// Sorted as it goes: most nodes end after their first move.
		b := k
		for j := k + 1; j < n; j++ {
			if keys[j] < keys[b] {
				b = j
			}
		}
		keys[k], keys[b] = keys[b], keys[k]
		flips[k], flips[b] = flips[b], flips[k]
		replies[k], replies[b] = replies[b], replies[k]
		i := int(keys[k] & 63)
		f, om := flips[k], replies[k]
		nm, no := opp&^f, me|f
		p := parity ^ quadrantBit[i]
		var v int
		sv.nodes++
		if k == 0 {
			v = -sv.lastChild(nm, no, om, -beta, -alpha, empties-1, p)
		} else {
			v = -sv.lastChild(nm, no, om, -alpha-1, -alpha, empties-1, p)
			if v > alpha && v < beta {
				sv.nodes++
				v = -sv.lastChild(nm, no, om, -beta, -v, empties-1, p)
			}
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best
}

// lastChild searches a child of fastestFirst, me to move with the given moves.
func (sv *solver) lastChild(me, opp, moves uint64, alpha, beta, empties int, parity uint8) int {
	if empties > parityEmpties {
		return sv.fastestFirst(me, opp, moves, alpha, beta, empties, parity)
	}
	return sv.shallowMoves(me, opp, moves, alpha, beta, empties, parity)
}

// shallowMoves is shallow for a position whose moves are known (a child of
// fastestFirst, which generated them for its key): it tries only those,
// in shallow's order, without testing the other cells. At 4 empties it
// applies shallow's stability cut-off too (most positions with 4 empties
// come here, not to shallow: 0.7-5 % fewer nodes on the mid-size solves).
func (sv *solver) shallowMoves(me, opp, moves uint64, alpha, beta, empties int, parity uint8) int {
	if empties <= 3 {
		return sv.shallow(me, opp, alpha, beta, empties, parity)
	}
	if moves == 0 {
		// A pass, as shallow plays it (the same bounds, nodes and order)
		// without its tests of every empty cell on both sides.
		var cut bool
		if beta, cut = stabilityBound(me, opp, alpha, beta); cut {
			return beta
		}
		om := Moves(opp, me)
		if om == 0 {
			return final(me, opp)
		}
		sv.nodes++
		me, opp, moves, alpha, beta = opp, me, om, -beta, -alpha
		if beta, cut = stabilityBound(me, opp, alpha, beta); cut {
			return -beta
		}
		return -sv.shallowLoop(me, opp, moves, alpha, beta, empties, parity)
	}
	var cut bool
	if beta, cut = stabilityBound(me, opp, alpha, beta); cut {
		return beta
	}
	return sv.shallowLoop(me, opp, moves, alpha, beta, empties, parity)
}

// shallowLoop tries the given moves in shallow's order.
func (sv *solver) shallowLoop(me, opp, moves uint64, alpha, beta, empties int, parity uint8) int {
	odd := moves & oddQuadrants[parity]
	best := -solveInf
	for pass := 0; pass < 2; pass++ {
		set := odd
		if pass == 1 {
			set = moves &^ odd
		}
		for ; set != 0; set &= set - 1 {
			i := bits.TrailingZeros64(set)
			f := Flips(i, me, opp) | bit(i)
			sv.nodes++
			v := -sv.shallow(opp&^f, me|f, -beta, -alpha, empties-1, parity^quadrantBit[i])
			if v > best {
				best = v
				if v > alpha {
					alpha = v
					if v >= beta {
						return v
					}
				}
			}
		}
	}
	return best
}

// stabilityBound applies the stability cut-off from alpha >= stabilityAlpha:
// the opponent's stable discs bound my score from above. It returns that
// bound and true when it is at most alpha (the node fails low with it),
// and otherwise beta lowered to it. The opponent's discs bound his stable
// ones, so when they alone leave the bound at or above beta, stableDiscs
// is not computed: the answer would be beta, not cut (20 % of its calls
// at 5-10 empties).
func stabilityBound(me, opp uint64, alpha, beta int) (int, bool) {
	if alpha < stabilityAlpha || Size*Size-2*bits.OnesCount64(opp) >= beta {
		return beta, false
	}
	maxScore := Size*Size - 2*bits.OnesCount64(stableDiscs(opp, me))
	if maxScore <= alpha {
		return maxScore, true
	}
	return min(beta, maxScore), false
}

// lastPlies searches a position with at most shallowEmpties empties.
func (sv *solver) lastPlies(me, opp uint64, alpha, beta, empties int, parity uint8) int {
	if empties > parityEmpties {
		return sv.fastestFirst(me, opp, Moves(me, opp), alpha, beta, empties, parity)
	}
	return sv.shallow(me, opp, alpha, beta, empties, parity)
}

var quadrantShift [Size * Size]uint8

func init() {
	for i := range quadrantShift {
		quadrantShift[i] = uint8(bits.TrailingZeros8(quadrantBit[i]))
	}
}

// lastTable is a small table of bounds for the positions of fastestFirst
// (5 to 10 empties) and, besides the main table, of search's up to
// lastSearchEmpties; one per thread (shared by two threads, the table's
// lines went back and forth between their caches on nearly every store:
// the start took 14.3 s on 2 threads against 16.0 s on 1; 10.4 s with a
// table each). The main table's probes are cache misses into many megabytes: from 7 or 8
// empties they had cost more than the nodes they saved. This one, 256 kB of
// one-word slots (the key's top 48 bits, then the lower and upper bound, 8
// bits each), stays in the second-level cache. Measured on the mid-size
// solves (1 thread): with fastestFirst at 6-8 empties it cut 10 % of the
// nodes and 3-6 % of the CPU (128 kB then; 64 kB and 1 MB did worse, and
// so did starting at 7 or 8 empties); taking over 9 and 10 empties from
// the main search, with 256 kB, 0.3-7 % more nodes but 9-12 % less CPU
// (11 empties: more of both). About 5 % of its probes hit, and nearly all
// of those end the node.
type lastTable struct{ slots [1 << 15]atomic.Uint64 }

const lastKeyMask = ^uint64(0xffff)

// probe returns the bounds stored for key, or the widest ones.
func (t *lastTable) probe(key uint64) (lo, hi int) {
	d := t.slots[key&(uint64(len(t.slots))-1)].Load()
	if d&lastKeyMask != key&lastKeyMask || d == 0 {
		return -solveInf, solveInf
	}
	return int(d>>8&255) - 64, int(d&255) - 64
}

func (t *lastTable) store(key uint64, lo, hi int) {
	t.slots[key&(uint64(len(t.slots))-1)].Store(key&lastKeyMask | uint64(lo+64)<<8 | uint64(hi+64))
}
