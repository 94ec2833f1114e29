package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sync"

	"github.com/boardgame-arena/arena/results"
)

// Collector gathers, game by game, what a page shows besides the ratings:
// counts and histograms (game lengths, times per move by value, forfeits,
// clocks by ply, workers, a match's pairs in round order) and the viewer's
// games, replayed as they come. It keeps no game: its memory grows with the
// players, the distinct values and the viewer's limits, not with the games,
// so that a report of a million games, or the live page of a long run,
// needs no more memory than one of a thousand. It is safe for concurrent
// use (a live run adds games while its page is written).
type Collector struct {
	mu           sync.Mutex
	games        int
	lengths      map[int]int // plies → games
	players      map[string]*playerFigures
	forfeitBy    map[string]map[string]int // termination → who → games
	forfeits     []forfeitRow              // the first maxForfeitRows
	moreForfeits int
	workers      results.WorkerTally
	remote       bool
	matches      map[int]*matchPairs // by file, for match records
	races        map[int]*racePairs  // by file, for race records
	viewer       *viewerBuilder      // nil: no viewer

	// A snapshot's tables, made once from the above.
	view        *viewerData
	workerTable []workerRow
	workerLevel string
}

// playerFigures are one player's sums and histograms, by name.
type playerFigures struct {
	moves            int
	timeMS           float64
	nodes            int64
	maxMS            float64
	times            valueCounts // each move's time (move_stats)
	depthSum         float64     // reported depths, and how many
	depthN           int
	clockSum         []float64 // s left after each ply, summed over games
	clockN           []int
	anyStats, anyClk bool
}

// NewCollector returns an empty Collector whose viewer takes the games
// opt allows; noViewer keeps no viewer at all. opt.MaxGames must not be
// negative.
func NewCollector(opt ViewerOptions, noViewer bool) (*Collector, error) {
	c := &Collector{lengths: map[int]int{}, players: map[string]*playerFigures{}, forfeitBy: map[string]map[string]int{}, matches: map[int]*matchPairs{}, races: map[int]*racePairs{}}
	if !noViewer {
		v, err := newViewerBuilder(opt)
		if err != nil {
			return nil, fmt.Errorf("game viewer: %w", err)
		}
		c.viewer = v
	}
	return c, nil
}

// StartFile gives the header of file (the number Add is given, the
// file's place in Source.Files) before its games: a match's games are then
// counted in pairs in round order, as the match did, and a race's
// (a gauntlet with an SPRT) as the race did.
func (c *Collector) StartFile(file int, h *results.Header) {
	cfg := &h.Config
	isRace := cfg.Kind == results.Gauntlet && cfg.SPRT != nil && len(cfg.Agents) >= 3
	if !isRace && (cfg.Kind != results.Match || len(cfg.Agents) != 2) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if isRace {
		if r := newRacePairs(*cfg.SPRT, len(cfg.Agents)-1); r != nil {
			c.races[file] = r
		}
		return
	}
	c.matches[file] = newMatchPairs(cfg.SPRT)
}

// Follow makes t hand each game it counts to c (t.OnGame), after its
// file's header (StartFile): one pass over the files then counts both the
// ratings and the page.
func (c *Collector) Follow(t *results.Tally) {
	started := -1
	t.OnGame = func(file int, g *results.GameRecord) {
		if file != started {
			c.StartFile(file, &t.Files[file].Header)
			started = file
		}
		c.Add(file, g)
	}
}

// TallySource is the Source of the files t read, which c followed, rated
// as rep.
func TallySource(t *results.Tally, rep *results.Analysis, c *Collector) Source {
	src := Source{Game: t.Game, Analysis: rep, Games: c}
	for _, f := range t.Files {
		src.Files = append(src.Files, FileHead{Path: f.Path, Header: f.Header, Resumes: f.Resumes})
	}
	return src
}

// Add counts game g of file file (the order of the files a page lists).
// It keeps nothing of g: the caller may reuse it.
func (c *Collector) Add(file int, g *results.GameRecord) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.games++
	c.lengths[g.Plies]++
	var seat [2]*playerFigures
	for p := range seat {
		pl := g.Players[p]
		f := c.player(pl.Name)
		f.moves += pl.Moves
		f.timeMS += pl.TimeMS
		f.nodes += pl.Nodes
		f.maxMS = math.Max(f.maxMS, pl.MaxMoveMS)
		seat[p] = f
	}
	if g.Forfeit >= 0 {
		who := "both"
		if g.Forfeit == 0 || g.Forfeit == 1 {
			who = g.Players[g.Forfeit].Name
		}
		if c.forfeitBy[g.Termination] == nil {
			c.forfeitBy[g.Termination] = map[string]int{}
		}
		c.forfeitBy[g.Termination][who]++
		if len(c.forfeits) < maxForfeitRows {
			c.forfeits = append(c.forfeits, forfeitRow{Index: g.Index, Reason: g.Termination, Player: who, Detail: g.Detail})
		} else {
			c.moreForfeits++
		}
	}
	for _, m := range g.MoveStats {
		if m.Player != 0 && m.Player != 1 {
			continue
		}
		f := seat[m.Player]
		f.times.add(m.MS)
		f.anyStats = true
		if m.Depth > 0 {
			f.depthSum += float64(m.Depth)
			f.depthN++
		}
	}
	for i, clk := range g.Clocks {
		for p, ms := range clk {
			if ms < 0 { // results.NoClock
				continue
			}
			f := seat[p]
			for len(f.clockSum) <= i {
				f.clockSum, f.clockN = append(f.clockSum, 0), append(f.clockN, 0)
			}
			f.clockSum[i] += ms / 1000
			f.clockN[i]++
			f.anyClk = true
		}
	}
	c.workers.Add(g)
	c.remote = c.remote || g.Worker != ""
	if m := c.matches[file]; m != nil {
		m.add(g)
	}
	if r := c.races[file]; r != nil {
		r.add(g)
	}
	if c.viewer != nil {
		c.viewer.offer(g)
	}
}

func (c *Collector) player(name string) *playerFigures {
	f := c.players[name]
	if f == nil {
		f = &playerFigures{}
		c.players[name] = f
	}
	return f
}

// snapshot is a copy of the counts that later Adds leave alone, for a
// page written while a run goes on.
func (c *Collector) snapshot() *Collector {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &Collector{games: c.games, lengths: maps.Clone(c.lengths), players: map[string]*playerFigures{},
		forfeitBy: map[string]map[string]int{}, forfeits: slices.Clone(c.forfeits), moreForfeits: c.moreForfeits,
		remote: c.remote, matches: map[int]*matchPairs{}, races: map[int]*racePairs{}}
	s.workerTable, s.workerLevel = workerRows(&c.workers, c.remote)
	for k, f := range c.players {
		cp := *f
		cp.times = f.times.clone()
		cp.clockSum, cp.clockN = slices.Clone(f.clockSum), slices.Clone(f.clockN)
		s.players[k] = &cp
	}
	for k, by := range c.forfeitBy {
		s.forfeitBy[k] = maps.Clone(by)
	}
	for k, m := range c.matches {
		s.matches[k] = m.clone()
	}
	for k, r := range c.races {
		s.races[k] = r.clone()
	}
	if c.viewer != nil {
		s.view = c.viewer.data()
	}
	return s
}

// Games is the number of games added.
func (c *Collector) Games() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.games
}

// valueCounts counts values by their exact value: a box plot made from
// it is the one made from the values themselves (quartiles are order
// statistics). Times are recorded to the microsecond, so the distinct
// values are bounded by the range of times, not by the moves; past
// maxDistinct of them (times spread over many decades) the values are
// kept to 4 significant digits, well below what a plot can show.
type valueCounts struct {
	counts map[float64]int
	n      int
	coarse bool
}

// maxDistinct bounds the distinct values a valueCounts holds exactly.
const maxDistinct = 1 << 16

func (v *valueCounts) add(x float64) {
	if v.counts == nil {
		v.counts = map[float64]int{}
	}
	if v.coarse {
		x = fourDigits(x)
	}
	v.counts[x]++
	v.n++
	if !v.coarse && len(v.counts) > maxDistinct {
		v.coarse = true
		old := v.counts
		v.counts = map[float64]int{}
		for x, k := range old {
			v.counts[fourDigits(x)] += k
		}
	}
}

func (v valueCounts) clone() valueCounts {
	v.counts = maps.Clone(v.counts)
	return v
}

// fourDigits rounds x to 4 significant digits.
func fourDigits(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	p := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

// sorted returns the distinct values in increasing order with their
// counts, each value at least floor (smaller ones counted at floor).
func (v *valueCounts) sorted(floor float64) (xs []float64, ks []int) {
	keys := slices.Sorted(maps.Keys(v.counts))
	for _, x := range keys {
		x2 := math.Max(x, floor)
		if n := len(xs); n > 0 && xs[n-1] == x2 {
			ks[n-1] += v.counts[x]
			continue
		}
		xs, ks = append(xs, x2), append(ks, v.counts[x])
	}
	return xs, ks
}

// matchPairs counts a match file's game pairs in round order, as the
// match did (results.PairTracker, counting agent 0's results), with the
// LLR after each pair. A game waits only until its pair's turn comes (the
// run's games in flight, not its games played), as the three facts a pair
// needs; once the test has decided, later games are only counted.
type matchPairs struct {
	tr      *results.PairTracker
	waiting map[int][]pairGame // round → its games not yet counted
	games   int
	llr     llrTrace
}

// pairGame is what PairTracker reads of a game.
type pairGame struct{ index, agent0, winner int }

func newMatchPairs(test *results.SPRT) *matchPairs {
	return &matchPairs{tr: results.NewPairTracker(test, 0), waiting: map[int][]pairGame{}}
}

func (m *matchPairs) add(g *results.GameRecord) {
	m.games++
	if m.tr.Decision != results.Continue {
		return
	}
	m.waiting[g.Round] = append(m.waiting[g.Round], pairGame{g.Index, g.Players[0].Agent, g.Winner})
	// Each whole pair in index order (as the games sorted by round and
	// index), so that each Add completes at most one pair.
	for m.tr.Decision == results.Continue {
		ws := m.waiting[m.tr.Next]
		if len(ws) < 2 {
			break
		}
		delete(m.waiting, m.tr.Next)
		slices.SortFunc(ws, func(a, b pairGame) int { return a.index - b.index })
		for _, w := range ws {
			var r results.GameRecord
			r.Round, r.Index, r.Winner = m.tr.Next, w.index, w.winner
			r.Players[0].Agent, r.Players[1].Agent = w.agent0, 1-w.agent0
			if m.tr.Add(&r) > 0 && m.tr.Test != nil {
				m.llr.add(m.tr.LLR)
			}
		}
	}
}

func (m *matchPairs) clone() *matchPairs {
	c := *m
	tr := *m.tr // its pending pairs are empty between Adds
	c.tr = &tr
	c.waiting = maps.Clone(m.waiting) // the copy only reads them
	c.llr.points = slices.Clone(m.llr.points)
	return &c
}

// racePairs counts a race file's games as arena's race did: each
// candidate's games against the base (agent 0) in game pairs in round
// order, fed to a results.Race, which counts them stage by stage and
// eliminates; with each candidate's LLR after each of its counted pairs.
// As matchPairs, a game waits only until its pair's turn comes; the
// games of a candidate that has left, and all games once the race is
// decided, are only counted.
type racePairs struct {
	race    *results.Race
	tr      []*results.PairTracker // per candidate, its pairs in round order
	waiting []map[int][]pairGame   // per candidate: round → games not yet counted
	llr     []llrTrace             // per candidate, by stage
	games   int
}

// newRacePairs returns nil when the header's test cannot run a race of k
// candidates (an edited file): the page then shows it as a gauntlet.
func newRacePairs(test results.SPRT, k int) *racePairs {
	race, err := results.NewRace(test, k)
	if err != nil {
		return nil
	}
	r := &racePairs{race: race, tr: make([]*results.PairTracker, k), waiting: make([]map[int][]pairGame, k), llr: make([]llrTrace, k)}
	for i := range k {
		r.tr[i] = results.NewPairTracker(nil, i+1)
		r.tr[i].OnPair = func(a, b float64) { race.Add(i, a, b) }
		r.waiting[i] = map[int][]pairGame{}
	}
	race.OnStage = func() {
		for i := range race.Candidates {
			// Those counted at this stage (the ones still in the race
			// before it, the ones that left at it included).
			if c := &race.Candidates[i]; c.Penta.Pairs() == race.Stage {
				r.llr[i].add(c.LLR)
			}
		}
	}
	return r
}

func (r *racePairs) add(g *results.GameRecord) {
	r.games++
	a0, a1 := g.Players[0].Agent, g.Players[1].Agent
	cand := a0
	if a0 == 0 {
		cand = a1
	}
	i := cand - 1
	if min(a0, a1) != 0 || i < 0 || i >= len(r.tr) || !r.race.InRace(i) {
		return
	}
	tr, waiting := r.tr[i], r.waiting[i]
	waiting[g.Round] = append(waiting[g.Round], pairGame{g.Index, a0, g.Winner})
	for r.race.InRace(i) {
		ws := waiting[tr.Next]
		if len(ws) < 2 {
			break
		}
		delete(waiting, tr.Next)
		slices.SortFunc(ws, func(a, b pairGame) int { return a.index - b.index })
		for _, w := range ws {
			var gr results.GameRecord
			gr.Round, gr.Index, gr.Winner = tr.Next, w.index, w.winner
			gr.Players[0].Agent, gr.Players[1].Agent = w.agent0, cand-w.agent0
			tr.Add(&gr)
		}
	}
	// Drop what no longer counts: a candidate that left, or all once decided.
	for j := range r.waiting {
		if len(r.waiting[j]) > 0 && !r.race.InRace(j) {
			r.waiting[j] = map[int][]pairGame{}
		}
	}
}

func (r *racePairs) clone() *racePairs {
	c := *r
	race := *r.race
	race.Candidates = slices.Clone(r.race.Candidates) // the copy only reads
	race.OnStage = nil
	c.race = &race
	c.tr, c.waiting = nil, nil // the page reads neither
	c.llr = slices.Clone(r.llr)
	for i := range c.llr {
		c.llr[i].points = slices.Clone(r.llr[i].points)
	}
	return &c
}

// llrTrace keeps the LLR after each pair, or after every stride-th pair
// once there are more than maxLLRPoints (the stride doubling as needed),
// with the last one: a plot of a million pairs draws a few thousand.
type llrTrace struct {
	points []llrPoint
	stride int
	pairs  int
	last   float64
}

type llrPoint struct {
	pair int // 1, 2, …
	llr  float64
}

// maxLLRPoints bounds the points of an LLR plot.
const maxLLRPoints = 4096

func (t *llrTrace) add(llr float64) {
	if t.stride == 0 {
		t.stride = 1
	}
	t.pairs++
	t.last = llr
	if t.pairs%t.stride != 0 {
		return
	}
	t.points = append(t.points, llrPoint{t.pairs, llr})
	if len(t.points) >= maxLLRPoints {
		t.stride *= 2
		kept := t.points[:0]
		for _, p := range t.points {
			if p.pair%t.stride == 0 {
				kept = append(kept, p)
			}
		}
		t.points = kept
	}
}

// trace returns the points to draw: every pair's while they are few,
// and always the last.
func (t *llrTrace) trace() []llrPoint {
	out := slices.Clone(t.points)
	if t.pairs > 0 && (len(out) == 0 || out[len(out)-1].pair != t.pairs) {
		out = append(out, llrPoint{t.pairs, t.last})
	}
	return out
}
