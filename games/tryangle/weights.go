package tryangle

import (
	"fmt"

	"github.com/boardgame-arena/arena/games"
)

// The evaluation's weights (games.Weighted), in the order of weightList;
// Evaluate's comment gives the formula they enter.
const (
	wScore = iota
	wOwned
	wUnitFirst
	wUnitNext
	wUnitExtra
	wReach
	wDanger
	wHouses
	wNear
	wHorizon
	numWeights
)

// weightList is Weights' answer. Evaluate clamps its value below
// games.WinScore/2, so no weight can make a heuristic value outrank a win.
var weightList = []games.Weight{
	{Name: "score", Default: 10, Min: 0, Max: 1000, Help: "a point of score difference"},
	{Name: "owned", Default: 10, Min: 0, Max: 1000, Help: "an owned triangle (own minus opponent's) per turn left, counting at most 8 turns"},
	{Name: "unit_first", Default: 150, Min: 0, Max: 10000, Help: "each of a player's first 3 units (own minus opponent's)"},
	{Name: "unit_next", Default: 150, Min: 0, Max: 10000, Help: "each of a player's units 4 to 12"},
	{Name: "unit_extra", Default: 150, Min: 0, Max: 10000, Help: "each unit beyond 12"},
	{Name: "reach", Default: 10, Min: -1000, Max: 1000, Help: "a unit-hop of the opponent's cheapest capture cost minus one's own"},
	{Name: "danger", Default: 1500, Min: 0, Max: 100000, Help: "penalty for a player with no triangle and at most two units (close to an early loss)"},
	{Name: "houses", Default: 0, Min: -1000, Max: 1000, Help: "a house owned (own minus opponent's)"},
	{Name: "near", Default: 40, Min: -1000, Max: 1000, Help: "a capturable triangle with two corners owned and the third not the opponent's (own minus opponent's)"},
	{Name: "horizon", Default: 8, Min: 0, Max: MaxTurns, Help: "turns an owned triangle is counted for (fewer when the game ends sooner)"},
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
		panic(fmt.Sprintf("tryangle: UseWeights needs %d weights (see Weights), got %d", numWeights, len(w)))
	}
	previous, s.weights = s.weights, w
	return previous
}
