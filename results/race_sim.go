package results

import (
	"math"

	"github.com/boardgame-arena/arena/rng"
)

// PairModel draws synthetic game pairs of a candidate against the base:
// independent games with the expected score of a logistic Elo difference
// and a draw rate that is Draw at equal strength and shrinks as the score
// leaves ½ (so that win and loss rates stay non-negative).
type PairModel struct{ win, draw float64 }

// NewPairModel is the model of a candidate elo logistic Elo over the base.
func NewPairModel(elo, draw float64) PairModel {
	s := eloToScore(elo)
	d := draw * (1 - 2*math.Abs(s-0.5))
	return PairModel{win: s - d/2, draw: d}
}

// Game draws one game's points for the candidate.
func (m PairModel) Game(r *rng.Rand) float64 {
	switch u := r.Float64(); {
	case u < m.win:
		return 1
	case u < m.win+m.draw:
		return 0.5
	}
	return 0
}

// Pair draws a colour-swapped pair's points for the candidate.
func (m PairModel) Pair(r *rng.Rand) (float64, float64) { return m.Game(r), m.Game(r) }

// RaceSim is a synthetic race: candidates of known logistic Elo over the
// base (Elos), the race's test, and the draw rate of the pair model.
type RaceSim struct {
	Test SPRT
	Elos []float64
	Draw float64
}

// maxSimPairs stops a simulated race or SPRT that has not decided (none
// does at the bounds the simulations use; it keeps a bad setting finite).
const maxSimPairs = 10_000_000

// RaceOutcome is one simulated race.
type RaceOutcome struct {
	Winner  int // −1: no candidate proven better than the base
	Pairs   int // game pairs played, over all candidates
	Decided bool
}

// Race runs one race, round-robin over the live candidates, drawing from
// r.
func (s RaceSim) Race(r *rng.Rand) RaceOutcome {
	race, err := NewRace(s.Test, len(s.Elos))
	if err != nil {
		panic(err)
	}
	models := make([]PairModel, len(s.Elos))
	for i, e := range s.Elos {
		models[i] = NewPairModel(e, s.Draw)
	}
	played := 0
	for !race.Decided() && played < maxSimPairs {
		for i := range models {
			if race.InRace(i) {
				a, b := models[i].Pair(r)
				race.Add(i, a, b)
				played++
			}
		}
	}
	return RaceOutcome{Winner: race.Winner(), Pairs: played, Decided: race.Decided()}
}

// SPRTs runs the alternative the race replaces: K independent SPRTs, each
// at α/K (so that the family keeps the race's false-selection rate) and
// beta, each played to its decision. The winner is the passing candidate
// with the highest score (−1 when none passes). At beta = β the best of
// the least favourable configuration is missed more often than β (a
// weaker candidate that also passes may outscore it); β/2, the race's own
// per-candidate test, keeps it within β.
func (s RaceSim) SPRTs(r *rng.Rand, beta float64) RaceOutcome {
	each := s.Test
	each.Alpha /= float64(len(s.Elos))
	each.Beta = beta
	out := RaceOutcome{Winner: -1, Decided: true}
	best := math.Inf(-1)
	for i, e := range s.Elos {
		m := NewPairModel(e, s.Draw)
		var p Penta
		d := Continue
		for d == Continue && p.Pairs() < maxSimPairs {
			p.Add(m.Pair(r))
			d = each.Decide(each.LLR(p))
		}
		out.Pairs += p.Pairs()
		out.Decided = out.Decided && d != Continue
		if score := p.Estimate(0.95).Score; d == AcceptH1 && score > best {
			out.Winner, best = i, score
		}
	}
	return out
}
