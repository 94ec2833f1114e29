package pyrga

import "github.com/boardgame-arena/arena/games"

// The evaluation's weights (games.Weighted), in the order of weightList.
const (
	wTower = iota
	wPair
	wSingle
	wTempo
	wThreat
	numWeights
)

// weightList is Weights' answer; the ranges keep every heuristic value far
// below games.WinScore/2, so a won position outranks any heuristic one.
var weightList = []games.Weight{
	{Name: "tower", Default: 1000, Min: 0, Max: 100000, Help: "a completed tower (own minus opponent's)"},
	{Name: "pair", Default: 150, Min: -10000, Max: 100000, Help: "an own 2-piece stack (own minus opponent's)"},
	{Name: "single", Default: 20, Min: -10000, Max: 100000, Help: "an own 1-piece stack (own minus opponent's)"},
	{Name: "tempo", Default: 300, Min: -10000, Max: 100000, Help: "for the player to move when one of its moves completes a tower it would control"},
	{Name: "threat", Default: 5000, Min: -10000, Max: 100000, Help: "tempo instead, when that tower would be the mover's third (a win next move)"},
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
		panic("pyrga: UseWeights needs 5 weights (see Weights)")
	}
	previous, s.weights = s.weights, w
	return previous
}
