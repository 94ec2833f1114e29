package arena

import (
	"fmt"
	"iter"
	"slices"
	"sort"

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

// Schedule plans every game of a run without holding them: a fixture is
// computed from its position (At), so that the plan costs memory in the
// number of pairings, not of games. Each pairing plays gamesPerPair games
// (even) as colour-swapped pairs: game 2r has the pairing's first agent
// moving first, game 2r+1 the other, both from opening r. The order
// interleaves the pairings: round by round, and within a round the
// pairings in circle-method order (consecutive pairings share no agent
// where possible), so that whenever the run stops every pairing has played
// about as many games as any other. Seeds depend only on (seed, pairing,
// game), never on the order in which games happen to run. A shard's
// schedule (Restrict) holds only its games, found by arithmetic.
//
// A Schedule is read-only once built and safe for concurrent use.
type Schedule struct {
	kind         string
	swept        int
	gamesPerPair int
	seed         uint64
	pairs        [][2]int
	order        []int // pairing numbers in circle order
	total        int   // games of the whole run
	shard        *shardPlan
	// list, if not nil, is the schedule instead: given fixtures (the
	// tests' schedules of another shape).
	list []Fixture
}

// listSchedule is a schedule of the given fixtures, in index order.
func listSchedule(fx []Fixture) *Schedule {
	return &Schedule{list: fx, total: len(fx)}
}

// NewSchedule plans a run of the given kind (see Pairings) between agents
// agents. For a sweep, see SweepSchedule.
func NewSchedule(kind string, agents, gamesPerPair int, seed uint64) (*Schedule, error) {
	return newSchedule(kind, agents, 0, gamesPerPair, seed)
}

func newSchedule(kind string, agents, swept, gamesPerPair int, seed uint64) (*Schedule, error) {
	if gamesPerPair < 2 || gamesPerPair%2 != 0 {
		return nil, option.New("GamesPerPair", gamesPerPair, "use an even number, at least 2 (games come in colour-swapped pairs)")
	}
	pairs, err := pairings(kind, agents, swept)
	if err != nil {
		return nil, err
	}
	s := &Schedule{kind: kind, swept: swept, gamesPerPair: gamesPerPair, seed: seed, pairs: pairs, order: circleOrder(pairs, agents)}
	s.total = len(pairs) * gamesPerPair
	return s, nil
}

// Len is the number of games planned (a shard's, if restricted).
func (s *Schedule) Len() int {
	if s.list != nil {
		return len(s.list)
	}
	if s.shard != nil {
		return s.shard.len
	}
	return s.total
}

// Total is the number of games of the whole run, shards or not.
func (s *Schedule) Total() int { return s.total }

// At returns the fixture at position pos, 0 ≤ pos < Len(): the game with
// index pos in a whole run, a shard's pos-th game in index order.
func (s *Schedule) At(pos int) Fixture {
	if s.list != nil {
		return s.list[pos]
	}
	index := pos
	if s.shard != nil {
		index = s.shard.index(pos)
	}
	return s.fixture(index)
}

// Pos returns the position (see At) of the game with the given index
// (Fixture.Index, the record's index), and whether it is planned.
func (s *Schedule) Pos(index int) (int, bool) {
	if s.list != nil {
		return slices.BinarySearchFunc(s.list, index, func(f Fixture, i int) int { return f.Index - i })
	}
	if index < 0 || index >= s.total {
		return -1, false
	}
	if s.shard != nil {
		return s.shard.pos(index)
	}
	return index, true
}

// All yields every fixture in order: for small schedules and tests (a
// caller that keeps them all holds what Schedule avoids holding).
func (s *Schedule) All() iter.Seq[Fixture] {
	return func(yield func(Fixture) bool) {
		for pos := range s.Len() {
			if !yield(s.At(pos)) {
				return
			}
		}
	}
}

// fixture computes the game with the given index of the whole run.
func (s *Schedule) fixture(index int) Fixture {
	perRound := 2 * len(s.pairs)
	r, rem := index/perRound, index%perRound
	k, side := s.order[rem/2], rem%2
	pr := s.pairs[k]
	g := 2*r + side
	f := Fixture{Index: index, Pair: k, Round: r, Game: g, Seats: [2]int{pr[side], pr[1-side]}}
	f.Seed = rng.Derive(s.seed, streamGame, uint64(k), uint64(g))
	for seat := 0; seat < 2; seat++ {
		f.Agents[seat] = rng.Derive(s.seed, streamAgent, uint64(k), uint64(g), uint64(seat))
	}
	if s.kind == results.Sweep {
		sweepSeeds(&f, s.swept, s.seed)
	}
	return f
}

// Restrict limits the schedule to shard sh of the run (nil or 1/1: the
// whole run), dealt as results.Shard.Holds says; positions then count the
// shard's games only, indices stay the run's.
func (s *Schedule) Restrict(sh *results.Shard) {
	if sh == nil || sh.Count == 1 {
		s.shard = nil
		return
	}
	s.shard = newShardPlan(len(s.pairs), s.gamesPerPair/2, sh.Count, sh.Index-1)
}

// shardPlan finds a shard's game pairs by arithmetic. The run's game pair
// k = r·P + slot (round r, slot-th pairing of the circle order, P
// pairings, R rounds) goes to the shard c with (slot·R + r) mod N = c, so
// in round r the shard holds the slots with slot·R ≡ c − r (mod N): none,
// or every m-th slot from a first one. That depends on r mod N only, so
// a cycle of N rounds is tabulated once: memory O(N), not O(games).
type shardPlan struct {
	pairings, rounds, n int
	first               []int // per t = (c − r) mod N: the first slot held, or -1
	step                int   // m = N / gcd(R mod N, N)
	cum                 []int // pairs held in the first q rounds of a cycle, q = 0..N
	c                   int
	len                 int
}

func newShardPlan(pairings, rounds, n, c int) *shardPlan {
	p := &shardPlan{pairings: pairings, rounds: rounds, n: n, c: c, first: make([]int, n), cum: make([]int, n+1)}
	a := rounds % n
	g := gcd(a, n)
	p.step = n / g
	inv := modInverse((a/g)%p.step, p.step)
	for t := range n {
		p.first[t] = -1
		if t%g == 0 {
			if s0 := (t / g) * inv % p.step; s0 < pairings {
				p.first[t] = s0
			}
		}
	}
	for q := range n {
		p.cum[q+1] = p.cum[q] + p.inRound(q)
	}
	p.len = 2 * p.held(rounds)
	return p
}

// inRound counts the pairs the shard holds in round r.
func (p *shardPlan) inRound(r int) int {
	s0 := p.first[p.t(r)]
	if s0 < 0 {
		return 0
	}
	return (p.pairings-1-s0)/p.step + 1
}

func (p *shardPlan) t(r int) int { return ((p.c-r)%p.n + p.n) % p.n }

// held counts the pairs the shard holds in rounds before r.
func (p *shardPlan) held(r int) int {
	return r/p.n*p.cum[p.n] + p.cum[r%p.n]
}

func (p *shardPlan) index(pos int) int {
	j := pos / 2
	// The round whose pairs include the shard's j-th.
	r := sort.Search(p.rounds, func(r int) bool { return p.held(r+1) > j })
	slot := p.first[p.t(r)] + (j-p.held(r))*p.step
	return 2*(r*p.pairings+slot) + pos%2
}

func (p *shardPlan) pos(index int) (int, bool) {
	k := index / 2
	r, slot := k/p.pairings, k%p.pairings
	s0 := p.first[p.t(r)]
	if s0 < 0 || slot < s0 || (slot-s0)%p.step != 0 {
		return -1, false
	}
	return 2*(p.held(r)+(slot-s0)/p.step) + index%2, true
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// modInverse returns x with a·x ≡ 1 (mod m), for a and m coprime (0 when m
// is 1).
func modInverse(a, m int) int {
	if m == 1 {
		return 0
	}
	// Extended Euclid.
	old, r := a, m
	oldS, s := 1, 0
	for r != 0 {
		q := old / r
		old, r = r, old-q*r
		oldS, s = s, oldS-q*s
	}
	return ((oldS % m) + m) % m
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
