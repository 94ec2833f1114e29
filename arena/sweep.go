package arena

import (
	"fmt"

	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

// A sweep (results.Sweep) is the schedule of arena tune sweep: the first
// Options.Swept agents, the values of one parameter, each play every other
// agent, their opponents, and never each other. It is a kind of its own,
// recorded in the header (Config.Kind and Config.Swept), so that everything
// that rebuilds a run from its header (a resumed session, broker workers, shards)
// plans exactly the sweep's games.

// Seed streams of a sweep's games. Every value meets opponent j in game g
// with the same seeds, (seed, opponent j, g) alone, and the same opening
// (round g/2), so the comparison between values is paired. The numbers are
// those the sweep used when it was a filtered round robin, so a sweep plays
// the same games as before (under other indices).
const (
	streamSweepGame  = 1301 // (opponent, game in pairing)
	streamSweepAgent = 1302 // (opponent, game in pairing, 0 for the opponent, 1 for the value)
)

// sweepPairings lists a sweep's pairings: (value i, opponent j) for every
// value i < swept and opponent j ≥ swept, in lexicographic order.
func sweepPairings(agents, swept int) ([][2]int, error) {
	if swept < 1 || swept >= agents {
		return nil, fmt.Errorf("a sweep of %d agents needs 1 to %d swept values (the first agents) and at least one opponent, got %d values", agents, agents-1, swept)
	}
	out := make([][2]int, 0, swept*(agents-swept))
	for i := range swept {
		for j := swept; j < agents; j++ {
			out = append(out, [2]int{i, j})
		}
	}
	return out, nil
}

// sweepSeeds gives fixture f of a sweep with swept values the seeds of
// (opponent, game) alone.
func sweepSeeds(f *Fixture, swept int, seed uint64) {
	oppSeat := 1
	if f.Seats[0] >= swept {
		oppSeat = 0
	}
	opp := uint64(f.Seats[oppSeat] - swept)
	f.Seed = rng.Derive(seed, streamSweepGame, opp, uint64(f.Game))
	f.Agents[oppSeat] = rng.Derive(seed, streamSweepAgent, opp, uint64(f.Game), 0)
	f.Agents[1-oppSeat] = rng.Derive(seed, streamSweepAgent, opp, uint64(f.Game), 1)
}

// SweepSchedule plans a sweep of agents agents whose first swept are the
// values: gamesPerPair games (even) of every value against every opponent,
// in colour-swapped pairs and in the interleaved order of Schedule.
func SweepSchedule(agents, swept, gamesPerPair int, seed uint64) (*Schedule, error) {
	return newSchedule(results.Sweep, agents, swept, gamesPerPair, seed)
}
