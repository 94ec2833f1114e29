package agents_test

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/search/alphabeta"
)

// BenchmarkPerfectBelowBook measures how often the perfect agent's move is
// optimal where its solve may run out of its 1 s: Othello positions with
// 23 empty cells (just below the book) reached by random moves and handed
// over without history. Of 200 positions, the 50 whose solve from a cold
// table takes the most nodes (the same 50 on any machine; the others
// finish well inside the budget) get every move solved; then a fresh
// agent moves in each, and, for comparison, a fresh agent without the
// book's bound through the positions before (games.BookBounder:
// "nobound") and the depth-4 search that answered before the solver's own
// answers did. It reports the positions, the moves of each that were not
// optimal and the discs they lost in all (against the position's value),
// and how the agent's were found. A command, not a test (several minutes;
// how many solves finish in time depends on the machine's speed):
//
//	go test ./agents -run '^$' -bench PerfectBelowBook -benchtime 1x
func BenchmarkPerfectBelowBook(b *testing.B) {
	r := rng.New(7)
	type solved struct {
		s     *othello6.State
		nodes int64
	}
	var all []solved
	for range 200 {
		s := randomOthello(r, 23)
		res, err := othello6.Solve(context.Background(), s, 1, 64)
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, solved{s, res.Nodes})
	}
	slices.SortStableFunc(all, func(x, y solved) int { return cmp.Compare(y.nodes, x.nodes) })
	var hard []*othello6.State
	for _, p := range all[:50] {
		hard = append(hard, p.s)
	}
	loss := make([]map[games.Move]int, len(hard))
	for i, s := range hard {
		loss[i] = moveLosses(b, s)
	}
	b.ResetTimer()
	for range b.N {
		var agentMissed, unboundMissed, depth4Missed, agentLoss, unboundLoss, depth4Loss int
		how := map[string]int{}
		for i, s := range hard {
			first, second := s.Discs()
			fresh, err := othello6.FromDiscs(first, second, s.ToMove()) // no history
			if err != nil {
				b.Fatal(err)
			}
			a, _ := agents.New("perfect", 1)
			m, err := a.Move(context.Background(), fresh, fresh.ToMove())
			if err != nil {
				b.Fatal(err)
			}
			how[strings.Fields(a.(agents.Reporter).LastStats().Info)[0]]++
			if l := loss[i][m]; l > 0 {
				agentMissed++
				agentLoss += l
			}
			a, _ = agents.New("perfect", 1)
			if m, err = a.Move(context.Background(), withoutBookBound{fresh}, fresh.ToMove()); err != nil {
				b.Fatal(err)
			}
			if l := loss[i][m]; l > 0 {
				unboundMissed++
				unboundLoss += l
			}
			res, err := alphabeta.New(alphabeta.Options{Depth: 4, TTMB: 1}).Search(context.Background(), fresh)
			if err != nil {
				b.Fatal(err)
			}
			if l := loss[i][res.Move]; l > 0 {
				depth4Missed++
				depth4Loss += l
			}
		}
		b.ReportMetric(float64(len(hard)), "positions")
		b.ReportMetric(float64(agentMissed), "perfect-not-optimal")
		b.ReportMetric(float64(unboundMissed), "nobound-not-optimal")
		b.ReportMetric(float64(depth4Missed), "depth4-not-optimal")
		b.ReportMetric(float64(agentLoss), "perfect-discs-lost")
		b.ReportMetric(float64(unboundLoss), "nobound-discs-lost")
		b.ReportMetric(float64(depth4Loss), "depth4-discs-lost")
		reportHow(b, how)
	}
}

// reportHow reports how the perfect agent's moves were found, from the
// first word of their stats (solved, kept, not proven).
func reportHow(b *testing.B, how map[string]int) {
	for _, k := range []string{"solved", "kept", "not"} {
		name := k
		if k == "not" {
			name = "not-proven"
		}
		b.ReportMetric(float64(how[k]), name)
	}
}

// moveLosses returns, for each move of s, how much less than the value
// of s it keeps (0 for an optimal move), each move's position solved.
func moveLosses(b *testing.B, s *othello6.State) map[games.Move]int {
	vals := map[games.Move]int{}
	best := -1000
	for _, m := range s.LegalMoves(nil) {
		c := s.Clone().(*othello6.State)
		c.Play(m)
		var v int
		if c.Terminal() {
			first, second := c.Discs()
			v = othello6.SolvedScore(first, second)
			if s.ToMove() == 1 {
				v = -v
			}
		} else {
			// The opponent moves (or passes) next.
			cv, _, _, err := c.SolveExact(context.Background(), games.SolveOptions{})
			if err != nil {
				b.Fatal(err)
			}
			v = -cv
		}
		vals[m] = v
		best = max(best, v)
	}
	for m, v := range vals {
		vals[m] = best - v
	}
	return vals
}

// withoutBookBound is an othello6 position whose book gives no bound
// through the positions before it (games.BookBounder), as before the
// agent used one.
type withoutBookBound struct{ *othello6.State }

func (withoutBookBound) BookBound() (int, bool, bool) { return 0, false, false }

// BenchmarkPerfectAnyPosition is BenchmarkPerfectBelowBook on positions
// drawn over the reachable ones rather than along random games: a position
// with 24 empty cells drawn from the book's bottom layer (one per symmetry
// class, each as likely), then one of its moves at random, so 23 empty
// cells, handed over without history; all 60 are played, not the hardest
// quarter. It reports the positions, the agent's moves that were not
// optimal and the discs they lost (each move's position is solved for the
// comparison), how its moves were found, and its slowest move. A command,
// not a test (about 3 minutes):
//
//	go test ./agents -run '^$' -bench PerfectAnyPosition -benchtime 1x
func BenchmarkPerfectAnyPosition(b *testing.B) {
	layer := othello6.BookLayers(nil, 24)[24]
	r := rng.New(11)
	var positions []*othello6.State
	var buf []games.Move
	for len(positions) < 60 {
		p := layer[r.IntN(len(layer))]
		s, err := othello6.FromDiscs(p[0], p[1], 0)
		if err != nil {
			b.Fatal(err)
		}
		buf = s.LegalMoves(buf[:0])
		s.Play(buf[r.IntN(len(buf))])
		first, second := s.Discs()
		fresh, err := othello6.FromDiscs(first, second, s.ToMove()) // no history
		if err != nil {
			b.Fatal(err)
		}
		if !fresh.Terminal() && fresh.LegalMask() != 0 { // a pass is no choice
			positions = append(positions, fresh)
		}
	}
	loss := make([]map[games.Move]int, len(positions))
	for i, s := range positions {
		loss[i] = moveLosses(b, s)
	}
	b.ResetTimer()
	for range b.N {
		var missed, lost int
		var slowest time.Duration
		how := map[string]int{}
		for i, s := range positions {
			a, _ := agents.New("perfect", 1)
			t0 := time.Now()
			m, err := a.Move(context.Background(), s, s.ToMove())
			if err != nil {
				b.Fatal(err)
			}
			slowest = max(slowest, time.Since(t0))
			info := a.(agents.Reporter).LastStats().Info
			how[strings.Fields(info)[0]]++
			if l := loss[i][m]; l > 0 {
				missed++
				lost += l
				b.Logf("position %d: %s loses %d discs (%s)", i, othello6.FormatMove(m), l, info)
			}
		}
		b.ReportMetric(float64(len(positions)), "positions")
		b.ReportMetric(float64(missed), "perfect-not-optimal")
		b.ReportMetric(float64(lost), "perfect-discs-lost")
		reportHow(b, how)
		b.ReportMetric(slowest.Seconds(), "slowest-move-s")
	}
}
