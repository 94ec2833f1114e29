package erdos

import "github.com/boardgame-arena/arena/games"

// The evaluation's weights (games.Weighted), in the order of weightList.
const (
	wColumn = iota
	wThreat
	numWeights
)

// weightList is Weights' answer; the ranges keep every heuristic value far
// below games.WinScore/2, so a won position outranks any heuristic one.
var weightList = []games.Weight{
	{Name: "column", Default: 100, Min: 0, Max: 10000, Help: "a controlled column (own minus opponent's)"},
	{Name: "threat", Default: 10, Min: -1000, Max: 10000, Help: "an uncontrolled column the player would capture with some legal placement if it were their turn (own minus opponent's)"},
}

// defaultWeights are read by Evaluate when no weights were set.
var defaultWeights = games.DefaultWeights(weightList)

// Weights implements games.Weighted.
func (s *State) Weights() []games.Weight { return weightList }

// UseWeights implements games.Weighted. The state holds the slice itself
// (clones share it), so Evaluate stays allocation-free. A slice of the
// wrong length is a caller's bug and panics.
func (s *State) UseWeights(w []int) (previous []int) {
	if w != nil && len(w) != numWeights {
		panic("erdos: UseWeights needs 2 weights (see Weights)")
	}
	previous, s.weights = s.weights, w
	return previous
}
