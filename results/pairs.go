package results

// PairTracker turns the games of a match, arriving in any order, into
// pentanomial counts over the complete game pairs in round order, and runs
// the SPRT on them. Consuming pairs strictly in round order makes the
// stopping point independent of which games happened to finish first.
type PairTracker struct {
	Test     *SPRT // nil: count pairs without testing
	Agent    int   // the agent whose results are counted (Config.Agents index)
	Penta    Penta // pairs 0 … Next−1
	Next     int   // the first round not yet counted
	LLR      float64
	Decision Decision
	// DecidedAt is the number of pairs at which the test decided (0 while
	// it continues); pairs completed after that are not counted.
	DecidedAt int
	// WDL are the counted games' results for Agent.
	WDL WDL
	// OnPair, when not nil, sees each counted pair's points for Agent, in
	// round order (a race feeds them to results.Race).
	OnPair  func(points1, points2 float64)
	pending map[int][2]*GameRecord
}

// NewPairTracker tracks agent a's results under the test s (nil for none).
func NewPairTracker(s *SPRT, a int) *PairTracker {
	return &PairTracker{Test: s, Agent: a, pending: map[int][2]*GameRecord{}}
}

// Add takes one game and returns how many pairs it completed in order
// (usually 0 or 1; more when it fills a gap).
func (t *PairTracker) Add(g *GameRecord) int {
	p := t.pending[g.Round]
	if p[0] == nil {
		p[0] = g
	} else {
		p[1] = g
	}
	t.pending[g.Round] = p
	added := 0
	for t.Decision == Continue {
		p, ok := t.pending[t.Next]
		if !ok || p[1] == nil {
			break
		}
		delete(t.pending, t.Next)
		a, b := t.points(p[0]), t.points(p[1])
		t.Penta.Add(a, b)
		if t.OnPair != nil {
			t.OnPair(a, b)
		}
		t.WDL.add(a)
		t.WDL.add(b)
		t.Next++
		added++
		if t.Test == nil {
			continue
		}
		t.LLR = t.Test.LLR(t.Penta)
		if t.Decision = t.Test.Decide(t.LLR); t.Decision != Continue {
			t.DecidedAt = t.Penta.Pairs()
		}
	}
	return added
}

func (t *PairTracker) points(g *GameRecord) float64 {
	if g.Players[0].Agent == t.Agent {
		return g.Points(0)
	}
	return g.Points(1)
}

// MatchCount is what arena match counted of one of its record files:
// the complete game pairs in round order, up to its SPRT's decision
// (PairTracker). Ratings count every recorded game; Analysis.Notes says
// when the two differ.
type MatchCount struct {
	Path     string
	Test     *SPRT    // nil without a test
	Decision Decision // Continue when undecided or without a test
	Pairs    int      // the pairs match counted
	Games    int      // the games recorded
}

// matchCounter counts a match file's games as PairTracker does, feeding
// it only until the test decides (the games after that are not counted,
// and need not be kept).
type matchCounter struct {
	count MatchCount
	first string // the name of the agent whose results are counted
	tr    *PairTracker
}

// newMatchCounter returns a counter for a record with header h, nil
// unless it is a match's.
func newMatchCounter(path string, h *Header) *matchCounter {
	c := h.Config
	if c.Kind != Match || len(c.Agents) != 2 {
		return nil
	}
	return &matchCounter{count: MatchCount{Path: path, Test: c.SPRT}, first: c.Agents[0].Name, tr: NewPairTracker(c.SPRT, 0)}
}

// add counts game index of a match, whose first seat was agent first's
// (the counted agent) or not, and whose winner is a seat or -1.
func (m *matchCounter) add(index int, firstSeatCounted bool, winner int) {
	m.count.Games++
	if m.tr.Decision != Continue {
		return
	}
	g := &GameRecord{Round: index / 2, Winner: winner}
	g.Players[0].Agent, g.Players[1].Agent = 1, 0
	if firstSeatCounted {
		g.Players[0].Agent, g.Players[1].Agent = 0, 1
	}
	m.tr.Add(g)
}

func (m *matchCounter) result() MatchCount {
	c := m.count
	c.Decision, c.Pairs = m.tr.Decision, m.tr.Penta.Pairs()
	return c
}
