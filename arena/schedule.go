package arena

import (
	"fmt"

	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

// Fixture is one planned game.
type Fixture struct {
	Index  int    // position in the schedule; also the record's index
	Pair   int    // pairing number (see Pairings)
	Round  int    // game pair within the pairing: games 2·Round and 2·Round+1
	Game   int    // game within the pairing, 2·Round or 2·Round+1
	Seats  [2]int // agent indices; Seats[0] moves first
	Seed   uint64 // the game's seed: rng.Derive(seed, 2, Pair, Game)
	Agents [2]uint64
}

// Pairings lists the pairs of agent indices that meet: every pair (i<j) in
// lexicographic order for a round robin, (0, j) for a gauntlet, (0, 1) for
// a match. The position in this list is the pairing number. A sweep's
// pairings depend on its swept count: see SweepSchedule.
func Pairings(kind string, agents int) ([][2]int, error) {
	return pairings(kind, agents, 0)
}

func pairings(kind string, agents, swept int) ([][2]int, error) {
	var out [][2]int
	switch kind {
	case results.Sweep:
		return sweepPairings(agents, swept)
	case results.RoundRobin:
		for i := 0; i < agents; i++ {
			for j := i + 1; j < agents; j++ {
				out = append(out, [2]int{i, j})
			}
		}
	case results.Gauntlet:
		for j := 1; j < agents; j++ {
			out = append(out, [2]int{0, j})
		}
	case results.Match:
		if agents != 2 {
			return nil, fmt.Errorf("a match is between two agents, got %d", agents)
		}
		out = [][2]int{{0, 1}}
	default:
		return nil, fmt.Errorf("unknown tournament kind %q", kind)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("a %s needs at least two agents", kind)
	}
	return out, nil
}

// Schedule plans every game. Each pairing plays gamesPerPair games (even)
// as colour-swapped pairs: game 2r has the pairing's first agent moving
// first, game 2r+1 the other, both from opening r. The order interleaves the
// pairings: round by round, and within a round the pairings in circle-method
// order (consecutive pairings share no agent where possible), so that
// whenever the run stops every pairing has played about as many games as
// any other. Seeds depend only on (seed, pairing, game), never on the order
// in which games happen to run. For a sweep, see SweepSchedule.
func Schedule(kind string, agents, gamesPerPair int, seed uint64) ([]Fixture, error) {
	return schedule(kind, agents, 0, gamesPerPair, seed)
}

func schedule(kind string, agents, swept, gamesPerPair int, seed uint64) ([]Fixture, error) {
	if gamesPerPair < 2 || gamesPerPair%2 != 0 {
		return nil, option.New("GamesPerPair", gamesPerPair, "use an even number, at least 2 (games come in colour-swapped pairs)")
	}
	pairs, err := pairings(kind, agents, swept)
	if err != nil {
		return nil, err
	}
	order := circleOrder(pairs, agents)
	var out []Fixture
	for r := 0; r < gamesPerPair/2; r++ {
		for _, k := range order {
			pr := pairs[k]
			for side := 0; side < 2; side++ {
				g := 2*r + side
				f := Fixture{Index: len(out), Pair: k, Round: r, Game: g, Seats: [2]int{pr[side], pr[1-side]}}
				f.Seed = rng.Derive(seed, streamGame, uint64(k), uint64(g))
				for seat := 0; seat < 2; seat++ {
					f.Agents[seat] = rng.Derive(seed, streamAgent, uint64(k), uint64(g), uint64(seat))
				}
				if kind == results.Sweep {
					sweepSeeds(&f, swept, seed)
				}
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// circleOrder orders pairing numbers by the circle method: the rounds of a
// round robin in which no agent plays twice, one after the other. Pairings
// that the method does not produce (a gauntlet's) keep their order.
func circleOrder(pairs [][2]int, agents int) []int {
	index := map[[2]int]int{}
	for k, p := range pairs {
		index[p] = k
	}
	m := agents + agents%2 // add a bye for an odd count
	ring := make([]int, m)
	for i := range ring {
		ring[i] = i
	}
	var order []int
	used := make([]bool, len(pairs))
	for round := 0; round < m-1; round++ {
		for i := 0; i < m/2; i++ {
			a, b := ring[i], ring[m-1-i]
			if a > b {
				a, b = b, a
			}
			if k, ok := index[[2]int{a, b}]; ok && !used[k] {
				used[k] = true
				order = append(order, k)
			}
		}
		// Keep ring[0] fixed and rotate the rest by one.
		last := ring[m-1]
		copy(ring[2:], ring[1:m-1])
		ring[1] = last
	}
	for k := range pairs {
		if !used[k] {
			order = append(order, k)
		}
	}
	return order
}
