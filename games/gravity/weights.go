package gravity

import "github.com/boardgame-arena/arena/games"

// The evaluation's weights (games.Weighted), in the order of weightList.
const (
	wWindow1 = iota // wWindow1+n−1 scores a window with n tiles
	wWindow2
	wWindow3
	wWindow4
	wWinCell
	wThreat
	numWeights
)

// weightList is Weights' answer; the ranges keep every heuristic value far
// below winInOne (140 windows and 100 cells at most 10 000 each, twice).
var weightList = []games.Weight{
	{Name: "window1", Default: 1, Min: 0, Max: 10000, Help: "a 5-cell window holding 1 tile of one player only"},
	{Name: "window2", Default: 3, Min: 0, Max: 10000, Help: "a window holding 2 tiles of one player only"},
	{Name: "window3", Default: 9, Min: 0, Max: 10000, Help: "a window holding 3 tiles of one player only"},
	{Name: "window4", Default: 27, Min: 0, Max: 10000, Help: "a window holding 4 tiles of one player only"},
	{Name: "wincell", Default: 40, Min: 0, Max: 10000, Help: "an empty cell that completes five (once however many windows)"},
	{Name: "threat", Default: 150, Min: 0, Max: 10000, Help: "a winning cell the player not to move can land on, on top of wincell"},
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
		panic("gravity: UseWeights needs 6 weights (see Weights)")
	}
	previous, s.weights = s.weights, w
	return previous
}
