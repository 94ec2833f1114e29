package arena

import (
	"cmp"
	"slices"
	"sync"

	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/rng"
)

// Knockout is a single-elimination tournament. The bracket has P slots, P
// the smallest power of two at least Agents, seeded so that seed 1 meets
// seed P, seed 2 seed P-1, and so on, and the first two seeds can meet only
// in the final; the slots beyond Agents are byes, so the top seeds get them.
// A match is GamesPerMatch games as colour-swapped pairs (Board: the higher
// seed starts the first pair, the pairs alternate). If it is level after
// them, it goes on one extra game pair at a time, up to ExtraPairs pairs,
// until a pair leaves it not level; level after them all, it is decided by
// lot, drawn from the seed. The winner advances; a match starts as soon as
// both its agents are known.
//
// Set the fields before the first call: they are checked once. Knockout
// is safe for concurrent use; do not copy it after first use.
type Knockout struct {
	Agents        int    // number of agents, at least 2
	GamesPerMatch int    // games of a match before any tie-break, even, at least 2
	ExtraPairs    int    // tie-break game pairs at most, 0 or more
	Seed          uint64 // seeds the games and the lots
	// Seeding is the agents' order, best first (agent indices); nil is the
	// agents' own order.
	Seeding []int

	once    sync.Once
	err     error
	seeding []int
	slots   []int // seed (0-based) in each slot of the first round
}

// maxExtraPairs bounds ExtraPairs.
const maxExtraPairs = 1000

// KnockoutMatch is one match of the bracket.
type KnockoutMatch struct {
	Round, Match int
	// Agents are the agents, the higher seed first; Agents[1] is -1 for a
	// bye, and either is -1 while it is not known.
	Agents [2]int
	Points [2]float64 // game points of Agents[0] and Agents[1]
	Games  int        // games finished
	Winner int        // the agent that advances, or -1 while undecided
	ByLot  bool       // level after every tie-break pair: decided by lot
}

// Check checks the options.
func (k *Knockout) Check() error {
	k.once.Do(func() { k.err = k.check() })
	return k.err
}

func (k *Knockout) check() error {
	if k.Agents < 2 {
		return option.New("Agents", k.Agents, "a knockout needs at least two agents")
	}
	if err := checkGamesPerBoard("GamesPerMatch", k.GamesPerMatch); err != nil {
		return err
	}
	if k.ExtraPairs < 0 || k.ExtraPairs > maxExtraPairs {
		return option.OutOfRange("ExtraPairs", k.ExtraPairs, 0, maxExtraPairs, "")
	}
	var err error
	if k.seeding, err = checkSeeding(k.Seeding, k.Agents); err != nil {
		return err
	}
	k.slots = bracketOrder(k.size())
	return nil
}

// size is the bracket's number of slots.
func (k *Knockout) size() int {
	p := 1
	for p < k.Agents {
		p *= 2
	}
	return p
}

// Rounds is the number of rounds: log₂ of the bracket's size.
func (k *Knockout) Rounds() int {
	r := 0
	for p := k.size(); p > 1; p /= 2 {
		r++
	}
	return r
}

// bracketOrder lists the seeds (0-based) in the slots of a bracket of p
// slots: slots 2j and 2j+1 meet in the first round; seeds s and p-1-s meet
// there, and the better half of the seeds is spread so that seeds 0 and 1
// meet only in the final, 0 to 3 only from the semi-finals, and so on.
func bracketOrder(p int) []int {
	order := []int{0}
	for len(order) < p {
		m := 2 * len(order)
		next := make([]int, 0, m)
		for _, s := range order {
			next = append(next, s, m-1-s)
		}
		order = next
	}
	return order
}

// maxGames is the most games a match can take.
func (k *Knockout) maxGames() int { return k.GamesPerMatch + 2*k.ExtraPairs }

// Plan implements Format. Board j of round r is match j of the round (the
// winners of matches 2j and 2j+1 of round r-1 meet in it); its game g is
// game number offset(r) + j·M + g, where M = GamesPerMatch + 2·ExtraPairs
// and offset(r) counts M games for every match of the rounds before, and
// plays opening r·M/2 + g/2.
func (k *Knockout) Plan(finished []FormatResult) ([]FormatGame, bool, error) {
	matches, pending, err := k.bracket(finished)
	if err != nil {
		return nil, false, err
	}
	return pending, matches[len(matches)-1].Winner >= 0, nil
}

// Matches rebuilds the bracket from the finished games: every match, round
// by round.
func (k *Knockout) Matches(finished []FormatResult) ([]KnockoutMatch, error) {
	matches, _, err := k.bracket(finished)
	return matches, err
}

func (k *Knockout) bracket(finished []FormatResult) ([]KnockoutMatch, []FormatGame, error) {
	if err := k.Check(); err != nil {
		return nil, nil, err
	}
	idx, err := indexResults(finished)
	if err != nil {
		return nil, nil, err
	}
	var matches []KnockoutMatch
	var pending []FormatGame
	m := k.maxGames()
	offset := 0
	var prev []KnockoutMatch
	for r, n := 0, k.size()/2; n >= 1; r, n = r+1, n/2 {
		var cur []KnockoutMatch
		for j := 0; j < n; j++ {
			km := KnockoutMatch{Round: r, Match: j, Agents: [2]int{-1, -1}, Winner: -1}
			var seeds [2]int
			if r == 0 {
				seeds = [2]int{k.slots[2*j], k.slots[2*j+1]}
				for i, s := range seeds {
					if s < k.Agents {
						km.Agents[i] = k.seeding[s]
					}
				}
			} else {
				km.Agents = [2]int{prev[2*j].Winner, prev[2*j+1].Winner}
			}
			k.higherFirst(&km)
			switch {
			case r == 0 && km.Agents[1] == -1:
				km.Winner = km.Agents[0] // a bye
			case km.Agents[0] >= 0 && km.Agents[1] >= 0:
				games, err := k.play(&km, idx, offset+j*m, r*m/2)
				if err != nil {
					return nil, nil, err
				}
				pending = append(pending, games...)
			}
			cur = append(cur, km)
		}
		matches = append(matches, cur...)
		prev = cur
		offset += n * m
	}
	return matches, pending, idx.unplanned()
}

// higherFirst puts the better seed of a match first (a bye or an unknown
// agent last).
func (k *Knockout) higherFirst(km *KnockoutMatch) {
	a, b := km.Agents[0], km.Agents[1]
	if a == -1 || b != -1 && k.rank(b) < k.rank(a) {
		km.Agents = [2]int{b, a}
	}
}

func (k *Knockout) rank(agent int) int { return slices.Index(k.seeding, agent) }

// play scores a match from its finished games and returns its games still
// to play: the main games, then one tie-break pair at a time.
func (k *Knockout) play(km *KnockoutMatch, idx resultIndex, index, opening int) ([]FormatGame, error) {
	b := Board{Agents: km.Agents}
	var half [2]int
	from, to := 0, k.GamesPerMatch
	for {
		var pending []FormatGame
		for g := from; g < to; g++ {
			if _, ok := idx[formatKey{km.Round, km.Match, g}]; !ok {
				pending = append(pending, formatGame(k.Seed, km.Round, km.Match, g, index+g, opening+g/2, b))
			}
		}
		pts, err := idx.points(km.Round, km.Match, b, from, to)
		if err != nil {
			return nil, err
		}
		half[0] += pts.half[0]
		half[1] += pts.half[1]
		km.Games += pts.games
		km.Points = [2]float64{float64(half[0]) / 2, float64(half[1]) / 2}
		switch {
		case pending != nil:
			return pending, nil
		case half[0] != half[1]:
			km.Winner = km.Agents[0]
			if half[1] > half[0] {
				km.Winner = km.Agents[1]
			}
			return nil, nil
		case to == k.maxGames():
			km.ByLot = true
			km.Winner = km.Agents[rng.Derive(k.Seed, streamKnockoutLot, uint64(km.Round), uint64(km.Match))&1]
			return nil, nil
		}
		from, to = to, to+2
	}
}

// KnockoutStanding is one agent's place in a knockout.
type KnockoutStanding struct {
	Agent int
	// Place is 1 for the winner, 2 for the final's loser, 3 for the
	// semi-finals' losers, 5 for the quarter-finals', and so on (shared).
	// While the knockout runs, an agent still in is placed as if it lost
	// its current match.
	Place int
	Out   int // the round in which it lost or plays (0-based), -1 for the winner
}

// Standings places the agents after the finished games, best first, equal
// places by seed.
func (k *Knockout) Standings(finished []FormatResult) ([]KnockoutStanding, error) {
	matches, err := k.Matches(finished)
	if err != nil {
		return nil, err
	}
	rounds := k.Rounds()
	last := make([]KnockoutMatch, k.Agents) // each agent's latest match
	for _, km := range matches {
		for _, a := range km.Agents {
			if a >= 0 {
				last[a] = km
			}
		}
	}
	out := make([]KnockoutStanding, k.Agents)
	for a := range out {
		km := last[a]
		out[a] = KnockoutStanding{Agent: a, Out: km.Round, Place: 1<<(rounds-1-km.Round) + 1}
		if km.Round == rounds-1 && km.Winner == a {
			out[a].Out, out[a].Place = -1, 1
		}
	}
	slices.SortStableFunc(out, func(x, y KnockoutStanding) int {
		return cmp.Or(cmp.Compare(x.Place, y.Place), cmp.Compare(k.rank(x.Agent), k.rank(y.Agent)))
	})
	return out, nil
}
