package results

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/boardgame-arena/arena/option"
)

// MaxMetaGamePlayers bounds the players of a meta-game: its payoff matrix
// is dense, its Nash equilibrium a linear program of 4n rows and 7n
// columns per resample, and its cycles a pass over all triples.
const MaxMetaGamePlayers = 200

// DefaultCycles is how many cycles a meta-game lists when not told.
const DefaultCycles = 5

// MetaGameOptions configure Nash averaging and α-Rank (RateMetaGame).
type MetaGameOptions struct {
	Population int     // α-Rank's population size m; 0 means DefaultPopulation
	Alpha      float64 // α-Rank's ranking intensity; 0 sweeps it (SweepAlpha)
	Cycles     int     // the most probable cycles to list; 0 means DefaultCycles
}

// Check reports the first option out of its range.
func (o MetaGameOptions) Check() error {
	switch {
	case o.Population != 0 && (o.Population < 2 || o.Population > 10_000):
		return option.New("Population", o.Population, "want an α-Rank population of 2 to 10000 (0 for %d)", DefaultPopulation)
	case math.IsNaN(o.Alpha) || o.Alpha < 0 || o.Alpha > alphaMax:
		return option.New("Alpha", o.Alpha, "want a ranking intensity from 0 (sweep) to %g", float64(alphaMax))
	case o.Cycles < 0:
		return option.New("Cycles", o.Cycles, "want 0 or more cycles")
	}
	return nil
}

// MetaGame is the empirical meta-game of a set of players and its
// game-theoretic rankings: Nash averaging and α-Rank, with bootstrap
// intervals, and the most probable non-transitive triples. Per-player
// slices are indexed by player and hold NaN for the players left out of
// the meta-game (see Players).
type MetaGame struct {
	// Players are the players in the meta-game, every two of whom met;
	// Excluded are the players with games left out because some pair
	// never met (see metaPlayers).
	Players, Excluded []int
	// Payoff[i][j] is Players[i]'s score against Players[j] minus ½,
	// over all their games (both colours; a draw is half a point).
	Payoff *mat.Dense
	// Nash is the maximum-entropy Nash mixture's mass; NashScore each
	// player's expected score share (0 to 1) against that mixture.
	Nash, NashLow, NashHigh                []float64
	NashScore, NashScoreLow, NashScoreHigh []float64
	// AlphaRank is α-Rank's stationary distribution.
	AlphaRank, AlphaRankLow, AlphaRankHigh []float64
	Alpha                                  float64 // the ranking intensity used
	AlphaSwept                             bool    // α came from SweepAlpha
	AlphaConverged                         bool    // the sweep's distribution stopped changing
	Population                             int
	Replicates                             int     // resamples behind the intervals
	Level                                  float64 // the intervals' coverage
	Cycles                                 []Cycle
}

// Cycle is a non-transitive triple: Players[0] scored over ½ against
// Players[1], Players[1] against Players[2], Players[2] against
// Players[0]. Edge[k] is the posterior probability that edge k holds
// (Players[k]'s expected score against the next is over ½), from a Beta
// posterior with Jeffreys' prior on its points: Beta(½ + points, ½ +
// opponent's points). The pairs' games are independent, so Probability,
// the chance the whole cycle holds, is the edges' product.
type Cycle struct {
	Players     [3]int
	Score       [3]float64 // the observed score of each edge
	Edge        [3]float64
	Probability float64
}

// pairTotals returns, for n players, each pair's points (draws count
// half) and games over both colours, from the ordered cells.
func pairTotals(n int, cells []cell, keep []int) (points, games *mat.Dense) {
	pos := make([]int, n)
	for i := range pos {
		pos[i] = -1
	}
	for k, p := range keep {
		pos[p] = k
	}
	points, games = mat.NewDense(len(keep), len(keep), nil), mat.NewDense(len(keep), len(keep), nil)
	for _, c := range cells {
		a, b := pos[c.a], pos[c.b]
		if a < 0 || b < 0 {
			continue
		}
		g := c.w + c.d + c.l
		points.Set(a, b, points.At(a, b)+c.w+c.d/2)
		points.Set(b, a, points.At(b, a)+c.l+c.d/2)
		games.Set(a, b, games.At(a, b)+g)
		games.Set(b, a, games.At(b, a)+g)
	}
	return points, games
}

// payoffOf is the meta-game's payoff from pair totals: (points − games/2)
// / games, exactly antisymmetric; 0 for a pair without games (which only
// a resample can leave: the full data's meta-game has every pair).
func payoffOf(points, games *mat.Dense) *mat.Dense {
	n, _ := points.Dims()
	a := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if g := games.At(i, j); g > 0 {
				v := (points.At(i, j) - points.At(j, i)) / (2 * g)
				a.Set(i, j, v)
				a.Set(j, i, -v)
			}
		}
	}
	return a
}

// metaPlayers picks the meta-game's players: of those with games, it
// drops, one at a time, the player who never met the most of the others
// still in (the later player on ties), until every two remaining players
// met. A Nash equilibrium or an evolutionary dynamic needs every payoff,
// and a missing pairing has none: guessing it (½, or the Elo model's
// prediction) would make the result the guess's.
func metaPlayers(n int, cells []cell) (keep, dropped []int) {
	met := make([][]bool, n)
	for i := range met {
		met[i] = make([]bool, n)
	}
	in := make([]bool, n)
	for _, c := range cells {
		if c.w+c.d+c.l > 0 {
			met[c.a][c.b], met[c.b][c.a] = true, true
			in[c.a], in[c.b] = true, true
		}
	}
	for {
		worst, most := -1, 0
		for i := 0; i < n; i++ {
			if !in[i] {
				continue
			}
			missing := 0
			for j := 0; j < n; j++ {
				if j != i && in[j] && !met[i][j] {
					missing++
				}
			}
			if missing >= most && missing > 0 {
				worst, most = i, missing
			}
		}
		if worst < 0 {
			break
		}
		in[worst] = false
		dropped = append(dropped, worst)
	}
	for i := 0; i < n; i++ {
		if in[i] {
			keep = append(keep, i)
		}
	}
	slices.Sort(dropped)
	return keep, dropped
}

// metaSolution is one data set's Nash mixture, scores and α-Rank.
type metaSolution struct {
	nash, score, alpha []float64
}

func solveMeta(a *mat.Dense, m int, alpha float64) (metaSolution, error) {
	p, err := MaxEntNash(a)
	if err != nil {
		return metaSolution{}, err
	}
	score := NashScores(a, p)
	for i := range score {
		score[i] += 0.5
	}
	pi, err := AlphaRank(a, m, alpha)
	if err != nil {
		return metaSolution{}, err
	}
	return metaSolution{p, score, pi}, nil
}

// RateMetaGame builds the meta-game of seated's players (seated[a][b]:
// a's results moving first against b, as for RateCounts) and computes
// Nash averaging and α-Rank, with intervals from bo.Replicates bootstrap
// resamples drawn as RateCounts draws them (resample k from
// rng.Derive(bo.Seed, k)), each solved afresh at the full data's α.
func RateMetaGame(seated [][]WDL, o MetaGameOptions, bo BootstrapOptions) (*MetaGame, error) {
	cells, err := cellsOf(seated)
	if err != nil {
		return nil, err
	}
	return rateMetaCells(len(seated), cells, o, bo)
}

func rateMetaCells(n int, cells []cell, o MetaGameOptions, bo BootstrapOptions) (*MetaGame, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if o.Population == 0 {
		o.Population = DefaultPopulation
	}
	if o.Cycles == 0 {
		o.Cycles = DefaultCycles
	}
	level := bo.Level
	if level == 0 {
		level = 0.95
	}
	if n > MaxMetaGamePlayers {
		return nil, fmt.Errorf("results: a meta-game of %d players: at most %d", n, MaxMetaGamePlayers)
	}
	keep, dropped := metaPlayers(n, cells)
	g := &MetaGame{Players: keep, Excluded: dropped, Population: o.Population, Level: level, Alpha: o.Alpha}
	all := func() []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = math.NaN()
		}
		return v
	}
	g.Nash, g.NashLow, g.NashHigh = all(), all(), all()
	g.NashScore, g.NashScoreLow, g.NashScoreHigh = all(), all(), all()
	g.AlphaRank, g.AlphaRankLow, g.AlphaRankHigh = all(), all(), all()
	g.Cycles = cyclesOf(n, cells, o.Cycles)
	if len(keep) == 0 {
		return g, nil
	}
	points, games := pairTotals(n, cells, keep)
	g.Payoff = payoffOf(points, games)
	var err error
	if g.Alpha == 0 {
		g.AlphaSwept = true
		if g.Alpha, _, g.AlphaConverged, err = SweepAlpha(g.Payoff, o.Population); err != nil {
			return nil, err
		}
	}
	full, err := solveMeta(g.Payoff, o.Population, g.Alpha)
	if err != nil {
		return nil, err
	}
	for k, p := range keep {
		g.Nash[p], g.NashScore[p], g.AlphaRank[p] = full.nash[k], full.score[k], full.alpha[k]
		g.NashLow[p], g.NashHigh[p] = full.nash[k], full.nash[k]
		g.NashScoreLow[p], g.NashScoreHigh[p] = full.score[k], full.score[k]
		g.AlphaRankLow[p], g.AlphaRankHigh[p] = full.alpha[k], full.alpha[k]
	}
	total := 0
	for _, c := range cells {
		total += int(c.w + c.d + c.l)
	}
	if bo.Replicates <= 0 || total == 0 {
		return g, nil
	}
	reps, err := metaBootstrap(n, cells, total, keep, g.Population, g.Alpha, bo)
	if err != nil {
		return nil, err
	}
	g.Replicates = len(reps)
	lo, hi := (1-level)/2, 1-(1-level)/2
	v := make([]float64, len(reps))
	bounds := func(k int, of func(metaSolution) []float64) (float64, float64) {
		for r, rep := range reps {
			v[r] = of(rep)[k]
		}
		slices.Sort(v)
		return stat.Quantile(lo, stat.Empirical, v, nil), stat.Quantile(hi, stat.Empirical, v, nil)
	}
	for k, p := range keep {
		g.NashLow[p], g.NashHigh[p] = bounds(k, func(s metaSolution) []float64 { return s.nash })
		g.NashScoreLow[p], g.NashScoreHigh[p] = bounds(k, func(s metaSolution) []float64 { return s.score })
		g.AlphaRankLow[p], g.AlphaRankHigh[p] = bounds(k, func(s metaSolution) []float64 { return s.alpha })
	}
	return g, nil
}

// metaBootstrap solves the meta-game of keep on bo.Replicates resamples,
// in parallel; resample k draws from rng.Derive(bo.Seed, k) whatever the
// parallelism, so the intervals depend on the seed alone.
func metaBootstrap(n int, cells []cell, games int, keep []int, m int, alpha float64, bo BootstrapOptions) ([]metaSolution, error) {
	reps := make([]metaSolution, bo.Replicates)
	k, err := eachResample(cells, games, bo, func(k int, sample []cell) error {
		var err error
		reps[k], err = solveMeta(payoffOf(pairTotals(n, sample, keep)), m, alpha)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("meta-game bootstrap replicate %d: %w", k, err)
	}
	return reps, nil
}

// cyclesOf lists the limit most probable cycles among every three
// players who all met (see Cycle), most probable first.
func cyclesOf(n int, cells []cell, limit int) []Cycle {
	everyone := make([]int, n)
	for i := range everyone {
		everyone[i] = i
	}
	points, games := pairTotals(n, cells, everyone)
	edge := func(i, j int) float64 { // P(i's expected score against j > ½)
		b := distuv.Beta{Alpha: 0.5 + points.At(i, j), Beta: 0.5 + points.At(j, i)}
		return 1 - b.CDF(0.5)
	}
	beats := func(i, j int) bool { return points.At(i, j) > points.At(j, i) }
	var out []Cycle
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if games.At(i, j) == 0 {
				continue
			}
			for k := j + 1; k < n; k++ {
				if games.At(i, k) == 0 || games.At(j, k) == 0 {
					continue
				}
				var c [3]int
				switch {
				case beats(i, j) && beats(j, k) && beats(k, i):
					c = [3]int{i, j, k}
				case beats(i, k) && beats(k, j) && beats(j, i):
					c = [3]int{i, k, j}
				default:
					continue
				}
				cy := Cycle{Players: c, Probability: 1}
				for e := 0; e < 3; e++ {
					a, b := c[e], c[(e+1)%3]
					cy.Score[e] = points.At(a, b) / games.At(a, b)
					cy.Edge[e] = edge(a, b)
					cy.Probability *= cy.Edge[e]
				}
				out = append(out, cy)
			}
		}
	}
	sort.SliceStable(out, func(x, y int) bool { return out[x].Probability > out[y].Probability })
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}
