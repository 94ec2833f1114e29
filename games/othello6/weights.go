package othello6

import "github.com/boardgame-arena/arena/games"

// The evaluation's weights (games.Weighted), in the order of weightList:
// every term of the package comment has an opening value (32 empty cells)
// and an endgame value (0 empties), named TERM_open and TERM_end.
const (
	wCornerOpen = iota
	wCornerEnd
	wXSquareOpen
	wXSquareEnd
	wCSquareOpen
	wCSquareEnd
	wMobilityOpen
	wMobilityEnd
	wFrontierOpen
	wFrontierEnd
	wStableOpen
	wStableEnd
	wParityOpen
	wParityEnd
	wDiscOpen
	wDiscEnd
	numWeights
)

// weightList is Weights' answer. The ranges keep every heuristic value far
// below games.WinScore/2 (36 cells × 8 terms × 500 < 150 000), so a won
// position still outranks any heuristic one.
var weightList = []games.Weight{
	weight("corner_open", 110, 0, 500, "a corner held, with 32 empty cells (own minus opponent's)"),
	weight("corner_end", 90, 0, 500, "a corner held, with no empty cell"),
	weight("xsquare_open", -50, -300, 100, "an X-square (b2-type) next to an empty corner, opening"),
	weight("xsquare_end", -15, -300, 100, "an X-square next to an empty corner, endgame"),
	weight("csquare_open", -20, -200, 100, "a C-square (a2-type) next to an empty corner, opening"),
	weight("csquare_end", -5, -200, 100, "a C-square next to an empty corner, endgame"),
	weight("mobility_open", 14, -50, 100, "a legal move (own minus opponent's), opening"),
	weight("mobility_end", 6, -50, 100, "a legal move, endgame"),
	weight("frontier_open", -5, -50, 50, "a disc next to an empty cell, opening"),
	weight("frontier_end", -1, -50, 50, "a disc next to an empty cell, endgame"),
	weight("stable_open", 25, -50, 200, "a disc that can never be flipped, opening"),
	weight("stable_end", 12, -50, 200, "a disc that can never be flipped, endgame"),
	weight("parity_open", 0, -100, 200, "for the side to move when the number of empty cells is odd, opening"),
	weight("parity_end", 30, -100, 200, "for the side to move when the number of empty cells is odd, endgame"),
	weight("disc_open", -1, -50, 50, "a disc (own minus opponent's), opening"),
	weight("disc_end", 8, -50, 50, "a disc, endgame"),
}

func weight(name string, def, min, max int, help string) games.Weight {
	return games.Weight{Name: name, Default: def, Min: min, Max: max, Help: help}
}

// defaultWeights are weightList's defaults, read by Evaluate when no
// weights were set.
var defaultWeights = games.DefaultWeights(weightList)

// Weights implements games.Weighted.
func (s *State) Weights() []games.Weight { return weightList }

// UseWeights implements games.Weighted. The state holds the slice itself
// (clones share it), so Evaluate stays allocation-free. A slice of the
// wrong length is a caller's bug and panics.
func (s *State) UseWeights(w []int) (previous []int) {
	if w != nil && len(w) != numWeights {
		panic("othello6: UseWeights needs 16 weights (see Weights)")
	}
	previous, s.weights = s.weights, w
	return previous
}

// phase weighs a term's opening and endgame values for e empty cells.
func phase(open, end, e int) int { return (open*e + end*(32-e)) / 32 }
