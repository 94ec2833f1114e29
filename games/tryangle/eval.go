package tryangle

import (
	"math/bits"

	"github.com/boardgame-arena/arena/games"
)

// Evaluate implements games.Evaluator from player p's view, in tenths of a
// point of final score, with the weights of weights.go (defaults there)
// named in brackets:
//
//	score·(score difference)                                  [score]
//	+ owned·min(horizon, turns left)·(owned triangle difference) [owned, horizon]
//	+ U(p's units) − U(opponent's units),  U(u) = unit_first·min(u,3)
//	    + unit_next·min((u−3)⁺,9) + unit_extra·(u−12)⁺      [unit_first, unit_next, unit_extra]
//	+ reach·(opponent's reach − p's reach)                    [reach]
//	+ houses·(houses owned difference)                        [houses]
//	+ near·(difference in triangles a player may capture with
//	    two of their corners owned and the third not the opponent's) [near]
//	− danger for a player with no triangle and at most two units (§9) [danger]
//
// where reach is the cost of the player's cheapest capture (units missing ×
// hops, as the march plans rank targets; 20 when none). Units weigh heavily:
// a lead in points is worth nothing once a player is swept off the board,
// and every unit spreads to hold more corners. A finished game is
// ±(WinScore/2 + 10·|score difference|).
func (s *State) Evaluate(p int) int {
	o := 1 - p
	if s.over {
		d := int(s.score[p] - s.score[o])
		switch {
		case d > 0:
			return games.WinScore/2 + 10*d
		case d < 0:
			return -games.WinScore/2 + 10*d
		}
		return 0
	}
	w := s.weights
	if w == nil {
		w = defaultWeights
	}
	w = w[:numWeights]
	units, owned, _ := s.counts()
	own0, own1 := s.ownership()
	var reach [2]int
	for q := 0; q < 2; q++ {
		c := int(s.analyze(q, own0, own1))
		if c < 0 || c > 20 {
			c = 20
		}
		reach[q] = c
	}
	horizon := min(MaxTurns-s.ply-1, w[wHorizon])
	v := w[wScore]*int(s.score[p]-s.score[o]) + w[wOwned]*horizon*(owned[p]-owned[o]) +
		unitValue(w, units[p]) - unitValue(w, units[o]) + w[wReach]*(reach[o]-reach[p]) +
		danger(w, units[o], owned[o]) - danger(w, units[p], owned[p])
	if w[wHouses] != 0 || w[wNear] != 0 {
		houses, near := s.territory(own0, own1)
		if p == 1 {
			houses, near = -houses, -near
		}
		v += w[wHouses]*houses + w[wNear]*near
	}
	const bound = games.WinScore/2 - 1
	return max(-bound, min(bound, v))
}

// unitValue rates a unit count: the first three units matter most.
func unitValue(w []int, u int) int {
	return w[wUnitFirst]*min(u, 3) + w[wUnitNext]*min(max(u-3, 0), 9) + w[wUnitExtra]*max(u-12, 0)
}

// danger rates how close a player is to the early losses of §9 (no
// triangle and hardly any unit left).
func danger(w []int, units, owned int) int {
	if owned > 0 || units > 2 {
		return 0
	}
	return w[wDanger]
}

// territory returns, as player 0's minus player 1's count, the houses owned
// and the triangles a player may capture (not his, eligible) with two
// corners owned and the third not owned by the opponent.
func (s *State) territory(own0, own1 uint64) (houses, near int) {
	houses = bits.OnesCount64(own0) - bits.OnesCount64(own1)
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		if t.owner != 0 && t.canCap[0] && bits.OnesCount64(t.mask&own0) == 2 && t.mask&own1 == 0 {
			near++
		}
		if t.owner != 1 && t.canCap[1] && bits.OnesCount64(t.mask&own1) == 2 && t.mask&own0 == 0 {
			near--
		}
	}
	return houses, near
}
