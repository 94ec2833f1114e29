package othello6

import "math/bits"

// The solver's ordering evaluation: a pattern evaluation fitted by least
// squares on exactly solved positions (see TestFitOrderEval in
// solve_fit_test.go, which writes solve_evalweights.go). It estimates the
// final disc margin from the side to move's view in 1/orderUnit discs. It
// is used only to order moves and to guess the root's value in the exact
// solver; the agents keep Evaluate and its weights.
//
// The patterns are lines of six cells read from the board and its
// transpose: the four edges, the four second lines, the two long diagonals,
// and eight 2×3 corner blocks (corner, the two cells along an edge, and the
// three cells beside them). A line reversed is the same pattern, so the
// fit gives a configuration and its reverse one weight; every table is
// indexed by the configuration in base 3 (0 empty, 1 mine, 2 the
// opponent's). Besides: the mobility difference, the difference of empty
// cells next to each side's discs, the parity of the empties, a constant.

// orderUnit is the evaluation's units per disc.
const orderUnit = 32

const numConfigs = 729 // 3^6

// orderEvalWeights holds the fitted weights (solve_evalweights.go).
type orderEvalWeights struct {
	edge, second, diag, corner       [numConfigs]int16
	mobility, frontier, parity, bias int32
}

var (
	base3  [64]uint16 // six bits read as base-3 digits 0/1
	rev6   [64]uint8  // six bits reversed
	spread [64]uint64 // bit f moved to bit Size·f (a row turned into a column)
)

func init() {
	for x := 0; x < 64; x++ {
		p := 1
		for k := 0; k < Size; k++ {
			if x&(1<<k) != 0 {
				base3[x] += uint16(p)
				rev6[x] |= 1 << (Size - 1 - k)
				spread[x] |= 1 << (Size * k)
			}
			p *= 3
		}
	}
}

// transpose swaps files and ranks.
func transpose(b uint64) uint64 {
	return spread[b&63] | spread[b>>6&63]<<1 | spread[b>>12&63]<<2 |
		spread[b>>18&63]<<3 | spread[b>>24&63]<<4 | spread[b>>30&63]<<5
}

// diagonals returns the cells of the long diagonals a1–f6 and f1–a6 as six
// bits each, from a1 (f1) on.
func diagonals(b uint64) (d1, d2 uint64) {
	d1 = b&1 | b>>6&2 | b>>12&4 | b>>18&8 | b>>24&16 | b>>30&32
	d2 = b>>5&1 | b>>9&2 | b>>13&4 | b>>17&8 | b>>21&16 | b>>25&32
	return
}

// cfg is the base-3 configuration of six cells given as my and the
// opponent's bits.
func cfg(me, opp uint64) int { return int(base3[me] + 2*base3[opp]) }

// cornerCfg is the configuration of the 2×3 block at the low end of the
// rows a (edge) and b (beside it).
func cornerCfg(ma, mb, oa, ob uint64) int {
	return cfg(ma&7|(mb&7)<<3, oa&7|(ob&7)<<3)
}

// orderPatterns calls f with every pattern instance of (me, opp): its group
// (0 edge, 1 second line, 2 diagonal, 3 corner) and configuration. It is
// the fit's view of the evaluation; orderEval is the same, unrolled.
func orderPatterns(me, opp uint64, f func(group, config int)) {
	tm, to := transpose(me), transpose(opp)
	for _, b := range [2][2]uint64{{me, opp}, {tm, to}} {
		m, o := b[0], b[1]
		for _, r := range [2][2]int{{0, 1}, {5, 4}} {
			ma, mb := m>>(Size*r[0])&63, m>>(Size*r[1])&63
			oa, ob := o>>(Size*r[0])&63, o>>(Size*r[1])&63
			f(0, cfg(ma, oa))
			f(1, cfg(mb, ob))
			f(3, cornerCfg(ma, mb, oa, ob))
			f(3, cornerCfg(uint64(rev6[ma]), uint64(rev6[mb]), uint64(rev6[oa]), uint64(rev6[ob])))
		}
	}
	m1, m2 := diagonals(me)
	o1, o2 := diagonals(opp)
	f(2, cfg(m1, o1))
	f(2, cfg(m2, o2))
}

// orderScalars returns the evaluation's other terms: mobility difference,
// frontier difference (empty cells next to the opponent's discs minus next
// to mine: his discs next to empties give me moves), and the empties'
// parity (1 when odd).
func orderScalars(me, opp, myMoves, oppMoves uint64) (mob, front, parity int) {
	empty := ^(me | opp) & full
	mob = bits.OnesCount64(myMoves) - bits.OnesCount64(oppMoves)
	front = bits.OnesCount64(frontierEmpties(opp, empty)) - bits.OnesCount64(frontierEmpties(me, empty))
	parity = bits.OnesCount64(empty) & 1
	return
}

// orderEval is the ordering evaluation of (me, opp), me to move, with both
// sides' legal placements.
func orderEval(me, opp, myMoves, oppMoves uint64) int {
	w := &orderWeights
	tm, to := transpose(me), transpose(opp)
	v := int(w.bias)
	// Rows 0/1 and 5/4 of the board and of its transpose.
	v += orderLines(w, me&63, me>>6&63, opp&63, opp>>6&63)
	v += orderLines(w, me>>30&63, me>>24&63, opp>>30&63, opp>>24&63)
	v += orderLines(w, tm&63, tm>>6&63, to&63, to>>6&63)
	v += orderLines(w, tm>>30&63, tm>>24&63, to>>30&63, to>>24&63)
	m1, m2 := diagonals(me)
	o1, o2 := diagonals(opp)
	v += int(w.diag[cfg(m1, o1)]) + int(w.diag[cfg(m2, o2)])
	mob, front, parity := orderScalars(me, opp, myMoves, oppMoves)
	return v + int(w.mobility)*mob + int(w.frontier)*front + int(w.parity)*parity
}

// orderLines adds the edge a, the line b beside it and the two corner
// blocks at its ends.
func orderLines(w *orderEvalWeights, ma, mb, oa, ob uint64) int {
	return int(w.edge[cfg(ma, oa)]) + int(w.second[cfg(mb, ob)]) +
		int(w.corner[cornerCfg(ma, mb, oa, ob)]) +
		int(w.corner[cornerCfg(uint64(rev6[ma]), uint64(rev6[mb]), uint64(rev6[oa]), uint64(rev6[ob]))])
}
