package arena

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/rng"
)

// Swiss is a Swiss tournament, paired by a simplified Dutch system (FIDE
// C.04.3 in spirit; docs/tournament-formats.md says where it differs).
// Each round pairs every agent once (one gets a bye when their number is
// odd); a board plays GamesPerBoard games as colour-swapped pairs, and its
// points (a win 1, a draw ½ per game) are the agents' Swiss score. Players
// are ranked by score, then by seed; each round pairs, from the top, the
// highest-ranked unpaired player with an opponent whose pairing leaves the
// rest pairable, taken in this order:
//
//  1. the smallest score difference (the own score group first, then
//     floating down to the next group);
//  2. the fewest colour preferences left unmet (the stronger counts more);
//  3. the Dutch order: the top half of the score group against the bottom
//     half, the first of one against the first of the other, then the
//     rest of the bottom half in order, then the top half.
//
// Of the first lookaheadCandidates opponents in that order, it takes the
// one whose greedy completion of the round has the least total score
// difference (the first on a tie).
//
// Hard rules: no two agents meet twice, nobody gets a second bye, and no
// agent starts three boards in a row or more than two boards more than it
// seconds (or the reverse) — unless the round cannot be paired that way,
// in which case only the colour rule is dropped. The "colour" of a board is
// who starts it (Board); a player's colour history counts the boards it
// started and seconded.
//
// Set the fields before the first call: they are checked once. Swiss is
// safe for concurrent use; do not copy it after first use.
type Swiss struct {
	Agents        int    // number of agents, at least 2
	Rounds        int    // rounds to play: 1 to Agents-1 (Agents for an odd count)
	GamesPerBoard int    // games per board, even, at least 2
	Seed          uint64 // seeds the games and the initial colour
	// Seeding is the agents' initial order, best first (agent indices);
	// nil is the agents' own order. Sort the agents by rating to seed by
	// rating.
	Seeding []int
	Bye     ByeScore // what a bye earns

	once    sync.Once
	err     error
	seeding []int // checked Seeding
	rank    []int // rank[agent] = position in seeding
	mu      sync.Mutex
	memo    map[string]swissPairing
}

// ByeScore is what a bye earns, in points of the board it replaces.
type ByeScore int

const (
	ByeWin  ByeScore = iota // all of the board's points, as if every game were won
	ByeDraw                 // half of them
	ByeLoss                 // none
)

// SwissRound is one paired round, and its results once played.
type SwissRound struct {
	Boards []Board
	Bye    int // the agent with the bye, or -1
	// Points are each board's points in half-points (a win 2, a draw 1 per
	// game), of Agents[0] and Agents[1], once every game of it finished.
	Points [][2]int
}

// NoPairingError says that a round cannot be paired: every way of pairing
// the agents has two meet a second time (or gives a second bye). A Swiss
// tournament with as many rounds as a round robin can run into it.
type NoPairingError struct{ Round int }

func (e *NoPairingError) Error() string {
	return fmt.Sprintf("round %d cannot be paired without two agents meeting twice", e.Round+1)
}

// Check checks the options.
func (s *Swiss) Check() error {
	s.once.Do(func() { s.err = s.check() })
	return s.err
}

func (s *Swiss) check() error {
	if s.Agents < 2 {
		return option.New("Agents", s.Agents, "a Swiss tournament needs at least two agents")
	}
	most := s.Agents - 1 + s.Agents%2
	if s.Rounds < 1 || s.Rounds > most {
		return option.OutOfRange("Rounds", s.Rounds, 1, most, "")
	}
	if err := checkGamesPerBoard("GamesPerBoard", s.GamesPerBoard); err != nil {
		return err
	}
	if s.Bye < ByeWin || s.Bye > ByeLoss {
		return option.New("Bye", int(s.Bye), "want ByeWin, ByeDraw or ByeLoss")
	}
	var err error
	if s.seeding, err = checkSeeding(s.Seeding, s.Agents); err != nil {
		return err
	}
	s.rank = make([]int, s.Agents)
	for k, a := range s.seeding {
		s.rank[a] = k
	}
	s.memo = map[string]swissPairing{}
	return nil
}

// byeHalf is a bye's points in half-points.
func (s *Swiss) byeHalf() int {
	switch s.Bye {
	case ByeDraw:
		return s.GamesPerBoard
	case ByeLoss:
		return 0
	}
	return 2 * s.GamesPerBoard
}

// swissPlayer is what the pairing knows of an agent.
type swissPlayer struct {
	score   int    // half-points, byes included
	colours []int8 // +1 started the board, -1 seconded it; byes leave none
	diff    int    // sum of colours
	bye     bool
}

// pref is the player's colour preference and its strength: 3 absolute
// (two boards more started than seconded or the reverse, or the same
// colour twice running), 2 strong (one more), 1 mild (alternate), 0 none.
func (p *swissPlayer) pref() (colour int8, strength int) {
	k := len(p.colours)
	if k == 0 {
		return 0, 0
	}
	last := p.colours[k-1]
	switch {
	case p.diff > 1:
		return -1, 3
	case p.diff < -1:
		return 1, 3
	case k >= 2 && p.colours[k-2] == last:
		return -last, 3
	case p.diff == 1:
		return -1, 2
	case p.diff == -1:
		return 1, 2
	}
	return -last, 1
}

type swissPairing struct {
	boards []Board
	bye    int
	err    error
}

// swissState is the pairing's view of a history.
type swissState struct {
	s       *Swiss
	players []swissPlayer
	met     [][]bool
	order   []int // agents by score, then seed
	pos     []int // pos[agent] = place in order
	initial int8  // the initial colour: +1 the higher-ranked starts
	// colourCosts[p][q] is colourCost(p, q) for p ranked above q.
	colourCosts [][]int
	// Scratch of greedy and candidates, by depth (0 the completions).
	trial, rollout *matcher
	gpos           []int // place in p's score group, or -1
	cands          [2][]cand
}

func (s *Swiss) state(history []SwissRound) (*swissState, error) {
	n := s.Agents
	st := &swissState{s: s, players: make([]swissPlayer, n), met: make([][]bool, n), pos: make([]int, n)}
	for i := range st.met {
		st.met[i] = make([]bool, n)
	}
	st.initial = 1
	if rng.Derive(s.Seed, streamSwissColour)&1 == 1 {
		st.initial = -1
	}
	for r, round := range history {
		if len(round.Points) != len(round.Boards) {
			return nil, fmt.Errorf("round %d has %d boards and %d results", r+1, len(round.Boards), len(round.Points))
		}
		if round.Bye >= 0 {
			if round.Bye >= n || st.players[round.Bye].bye {
				return nil, fmt.Errorf("round %d: bye to agent %d", r+1, round.Bye)
			}
			st.players[round.Bye].bye = true
			st.players[round.Bye].score += s.byeHalf()
		}
		for b, bd := range round.Boards {
			a, c := bd.Agents[0], bd.Agents[1]
			if a < 0 || a >= n || c < 0 || c >= n || a == c || st.met[a][c] {
				return nil, fmt.Errorf("round %d: board %d pairs agents %d and %d", r+1, b+1, a, c)
			}
			st.met[a][c], st.met[c][a] = true, true
			for side, ag := range bd.Agents {
				p := &st.players[ag]
				p.score += round.Points[b][side]
				col := int8(1 - 2*side)
				p.colours = append(p.colours, col)
				p.diff += int(col)
			}
		}
	}
	st.order = make([]int, n)
	copy(st.order, s.seeding)
	slices.SortStableFunc(st.order, func(a, b int) int { return cmp.Compare(st.players[b].score, st.players[a].score) })
	for i, a := range st.order {
		st.pos[a] = i
	}
	st.colourCosts = make([][]int, n)
	for p := range st.colourCosts {
		st.colourCosts[p] = make([]int, n)
	}
	for i, p := range st.order {
		for _, q := range st.order[i+1:] {
			st.colourCosts[p][q] = st.colourCost(p, q)
			st.colourCosts[q][p] = st.colourCosts[p][q]
		}
	}
	return st, nil
}

// starts says whether p, ranked above q, starts their board: both get
// their preferences when they can; else the stronger preference wins, then
// the larger colour difference, then the colours alternate from the last
// round in which the two had different colours, then the higher-ranked
// player gets its way. Without preferences (first round) the higher-ranked
// player with an odd pairing number gets the initial colour, so that the
// boards of round one alternate.
func (st *swissState) starts(p, q int) bool {
	pp, qq := &st.players[p], &st.players[q]
	cp, sp := pp.pref()
	cq, sq := qq.pref()
	switch {
	case cp == 0 && cq == 0:
		return (st.pos[p]%2 == 0) == (st.initial == 1)
	case cp == 0:
		return cq == -1
	case cq == 0 || cp != cq:
		return cp == 1
	case sp != sq:
		return (sp > sq) == (cp == 1)
	case sp == 3 && abs(pp.diff) != abs(qq.diff):
		return (abs(pp.diff) > abs(qq.diff)) == (cp == 1)
	}
	for i, j := len(pp.colours)-1, len(qq.colours)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if pp.colours[i] != qq.colours[j] {
			return pp.colours[i] == -1
		}
	}
	return cp == 1
}

// colourCost weighs the preferences a board of p and q leaves unmet.
func (st *swissState) colourCost(p, q int) int {
	pStarts := st.starts(p, q)
	cost := 0
	for _, side := range [2]struct {
		a   int
		got int8
	}{{p, colourOf(pStarts)}, {q, colourOf(!pStarts)}} {
		if c, strength := st.players[side.a].pref(); c != 0 && c != side.got {
			cost += [4]int{0, 1, 2, 100}[strength]
		}
	}
	return cost
}

func colourOf(starts bool) int8 {
	if starts {
		return 1
	}
	return -1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// allowed says whether p and q may meet: never twice, and, strictly, not
// when both must have the same colour.
func (st *swissState) allowed(p, q int, strict bool) bool {
	if p == q || st.met[p][q] {
		return false
	}
	if !strict {
		return true
	}
	cp, sp := st.players[p].pref()
	cq, sq := st.players[q].pref()
	return !(sp == 3 && sq == 3 && cp == cq)
}

// Pair pairs the next round after history (the rounds played, with their
// results). It fails with a *NoPairingError when no pairing exists.
func (s *Swiss) Pair(history []SwissRound) (boards []Board, bye int, err error) {
	if err := s.Check(); err != nil {
		return nil, -1, err
	}
	key := historyKey(history)
	s.mu.Lock()
	got, ok := s.memo[key]
	s.mu.Unlock()
	if !ok {
		got.boards, got.bye, got.err = s.pair(history)
		s.mu.Lock()
		s.memo[key] = got
		s.mu.Unlock()
	}
	return slices.Clone(got.boards), got.bye, got.err
}

func historyKey(history []SwissRound) string {
	var b strings.Builder
	for _, r := range history {
		b.WriteString(strconv.Itoa(r.Bye))
		for i, bd := range r.Boards {
			fmt.Fprintf(&b, ",%d-%d", bd.Agents[0], bd.Agents[1])
			if i < len(r.Points) {
				fmt.Fprintf(&b, ":%d-%d", r.Points[i][0], r.Points[i][1])
			}
		}
		b.WriteByte(';')
	}
	return b.String()
}

func (s *Swiss) pair(history []SwissRound) ([]Board, int, error) {
	st, err := s.state(history)
	if err != nil {
		return nil, -1, err
	}
	n := s.Agents
	for _, strict := range []bool{true, false} {
		m := newMatcher(n)
		for p := 0; p < n; p++ {
			for q := 0; q < n; q++ {
				m.edge[p][q] = st.allowed(p, q, strict)
			}
		}
		bye, ok := st.chooseBye(m)
		if !ok {
			continue
		}
		return st.boards(st.greedy(m, true)), bye, nil
	}
	return nil, -1, &NoPairingError{Round: len(history)}
}

// chooseBye gives the bye (for an odd count) to the lowest-ranked agent
// without one whose absence leaves the rest pairable, and leaves m with a
// perfect matching of the others; ok is false when there is none.
func (st *swissState) chooseBye(m *matcher) (bye int, ok bool) {
	reset := func(skip int) {
		for a := range m.active {
			m.active[a], m.match[a] = a != skip, -1
		}
	}
	if len(st.order)%2 == 0 {
		reset(-1)
		return -1, m.perfect()
	}
	for i := len(st.order) - 1; i >= 0; i-- {
		b := st.order[i]
		if st.players[b].bye {
			continue
		}
		reset(b)
		if m.perfect() {
			return b, true
		}
	}
	return -1, false
}

// greedy pairs from the top, each time the best opponent (in the order
// Swiss documents) that keeps a perfect matching of the rest; with
// lookahead, among the opponents that do, the one whose greedy completion
// of the round has the least total score difference.
func (st *swissState) greedy(m *matcher, lookahead bool) [][2]int {
	var pairs [][2]int
	depth := 0
	if lookahead {
		depth = 1
		st.trial, st.rollout = m.clone(), m.clone()
	}
	for _, p := range st.order {
		if !m.active[p] {
			continue
		}
		cands := st.candidates(m, p, depth)
		best, bestCost, tried := -1, 0, 0
		if !lookahead {
			// The first that fits, by selection: usually the first.
			for len(cands) > 0 && best == -1 {
				k := 0
				for i := range cands {
					if cands[i].before(cands[k]) < 0 {
						k = i
					}
				}
				if m.without(p, cands[k].q) {
					best = cands[k].q
				}
				cands[k] = cands[len(cands)-1]
				cands = cands[:len(cands)-1]
			}
		} else {
			slices.SortFunc(cands, cand.before)
		}
		for _, c := range cands {
			if !lookahead || tried == lookaheadCandidates {
				break
			}
			q := c.q
			t := st.trial
			t.copyFrom(m)
			if !t.without(p, q) {
				continue
			}
			tried++
			cost := st.diff(p, q)
			st.rollout.copyFrom(t)
			for _, pr := range st.greedy(st.rollout, false) {
				cost += st.diff(pr[0], pr[1])
			}
			if best == -1 || cost < bestCost {
				best, bestCost = q, cost
			}
		}
		// Some candidate always works: p's partner in the perfect matching.
		if lookahead && !m.without(p, best) {
			panic("swiss: a completed opponent no longer fits")
		}
		pairs = append(pairs, [2]int{p, best})
	}
	return pairs
}

// lookaheadCandidates bounds the opponents whose completions are tried.
const lookaheadCandidates = 6

func (st *swissState) diff(p, q int) int { return abs(st.players[p].score - st.players[q].score) }

// candidates lists p's possible opponents with their keys, unsorted.
func (st *swissState) candidates(m *matcher, p, depth int) []cand {
	// p's score group: the unpaired players with its score, p first.
	if st.gpos == nil {
		st.gpos = make([]int, len(st.order))
		for i := range st.gpos {
			st.gpos[i] = -1
		}
	}
	size := 0
	for _, a := range st.order[st.pos[p]:] {
		if m.active[a] && st.players[a].score == st.players[p].score {
			st.gpos[a] = size
			size++
		}
	}
	half := max(size/2, 1)
	cands := st.cands[depth][:0]
	for _, q := range st.order {
		if q == p || !m.active[q] || !m.edge[p][q] {
			continue
		}
		c := cand{q: q, dscore: st.diff(p, q), colour: st.colourCosts[p][q], dutch: len(st.order) + st.pos[q]}
		if i := st.gpos[q]; i >= half {
			c.dutch = i - half // the bottom half in order
		} else if i >= 0 {
			c.dutch = size + i // then the top half
		}
		cands = append(cands, c)
	}
	for _, a := range st.order[st.pos[p]:] {
		st.gpos[a] = -1
	}
	st.cands[depth] = cands
	return cands
}

// before is the candidates' order: by score difference, colour
// preferences unmet, then the Dutch order.
func (a cand) before(b cand) int {
	return cmp.Or(cmp.Compare(a.dscore, b.dscore), cmp.Compare(a.colour, b.colour), cmp.Compare(a.dutch, b.dutch))
}

// cand is a possible opponent, with its sort keys.
type cand struct{ q, dscore, colour, dutch int }

// boards gives each pair its colours and orders the boards: the top
// boards first, by the better-ranked agent of each.
func (st *swissState) boards(pairs [][2]int) []Board {
	boards := make([]Board, len(pairs))
	for i, pr := range pairs {
		p, q := pr[0], pr[1]
		if st.pos[q] < st.pos[p] {
			p, q = q, p
		}
		boards[i].Agents = [2]int{p, q}
		if !st.starts(p, q) {
			boards[i].Agents = [2]int{q, p}
		}
	}
	slices.SortFunc(boards, func(a, b Board) int {
		return cmp.Compare(min(st.pos[a.Agents[0]], st.pos[a.Agents[1]]), min(st.pos[b.Agents[0]], st.pos[b.Agents[1]]))
	})
	return boards
}

// Plan implements Format: round r's boards are paired once every game of
// round r-1 finished; board b of round r plays games
// (r·⌊Agents/2⌋ + b)·GamesPerBoard + g, g < GamesPerBoard, from openings
// r·GamesPerBoard/2 + g/2. A round that cannot be paired ends the plan
// with a *NoPairingError.
func (s *Swiss) Plan(finished []FormatResult) ([]FormatGame, bool, error) {
	hist, pending, err := s.replay(finished)
	if err != nil || pending != nil {
		return pending, false, err
	}
	return nil, len(hist) == s.Rounds, nil
}

// replay rebuilds the rounds played from the finished games: the complete
// rounds, and the games of the current round not finished (nil when every
// round is complete).
func (s *Swiss) replay(finished []FormatResult) ([]SwissRound, []FormatGame, error) {
	if err := s.Check(); err != nil {
		return nil, nil, err
	}
	idx, err := indexResults(finished)
	if err != nil {
		return nil, nil, err
	}
	g := s.GamesPerBoard
	var hist []SwissRound
	for r := 0; r < s.Rounds; r++ {
		boards, bye, err := s.Pair(hist)
		if err != nil {
			return hist, nil, err
		}
		round := SwissRound{Boards: boards, Bye: bye}
		var pending []FormatGame
		for b, bd := range boards {
			for k := 0; k < g; k++ {
				if _, ok := idx[formatKey{r, b, k}]; !ok {
					pending = append(pending, formatGame(s.Seed, r, b, k, (r*(s.Agents/2)+b)*g+k, r*g/2+k/2, bd))
				}
			}
			pts, err := idx.points(r, b, bd, 0, g)
			if err != nil {
				return hist, nil, err
			}
			round.Points = append(round.Points, pts.half)
		}
		if pending != nil {
			return hist, pending, idx.unplanned()
		}
		hist = append(hist, round)
	}
	return hist, nil, idx.unplanned()
}

// SwissStanding is one line of a Swiss tournament's standings.
type SwissStanding struct {
	Agent int
	Score float64 // game points, a bye's included
	// Buchholz is the sum of the final scores of the agents met (a bye
	// adds nothing); SonnebornBerger the sum over the agents met of their
	// final score times the share of the board's points the agent took.
	Buchholz, SonnebornBerger float64
	Starts, Seconds           int // boards started and seconded
	Bye                       bool
}

// Standings ranks the agents after history: by score, then Buchholz,
// then Sonneborn-Berger, then seed.
func (s *Swiss) Standings(history []SwissRound) ([]SwissStanding, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	st, err := s.state(history)
	if err != nil {
		return nil, err
	}
	out := make([]SwissStanding, s.Agents)
	for a := range out {
		p := &st.players[a]
		out[a] = SwissStanding{Agent: a, Score: float64(p.score) / 2, Bye: p.bye}
	}
	for _, round := range history {
		for b, bd := range round.Boards {
			total := round.Points[b][0] + round.Points[b][1]
			for side, a := range bd.Agents {
				opp := float64(st.players[bd.Agents[1-side]].score) / 2
				out[a].Buchholz += opp
				if total > 0 {
					out[a].SonnebornBerger += opp * float64(round.Points[b][side]) / float64(total)
				}
				if side == 0 {
					out[a].Starts++
				} else {
					out[a].Seconds++
				}
			}
		}
	}
	slices.SortStableFunc(out, func(x, y SwissStanding) int {
		return cmp.Or(cmp.Compare(y.Score, x.Score), cmp.Compare(y.Buchholz, x.Buchholz),
			cmp.Compare(y.SonnebornBerger, x.SonnebornBerger), cmp.Compare(s.rank[x.Agent], s.rank[y.Agent]))
	})
	return out, nil
}

// History rebuilds the complete rounds from the finished games (for
// Standings, and to resume).
func (s *Swiss) History(finished []FormatResult) ([]SwissRound, error) {
	hist, _, err := s.replay(finished)
	return hist, err
}
