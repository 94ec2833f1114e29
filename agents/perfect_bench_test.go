package agents_test

import (
	"context"
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
// over without history. Of 200 positions, those whose solve takes over
// 0.7 s (the others finish well inside the budget) get every move solved;
// then a fresh agent moves in each, and, for comparison, the depth-4
// search that answered before the solver's own answers did. It reports
// the positions, the moves of each that were not optimal, and how the
// agent's were found. A command, not a test (several minutes on a quiet
// machine; the split depends on the machine's speed):
//
//	go test ./agents -run '^$' -bench PerfectBelowBook -benchtime 1x
func BenchmarkPerfectBelowBook(b *testing.B) {
	r := rng.New(7)
	var hard []*othello6.State
	for range 200 {
		s := randomOthello(r, 23)
		start := time.Now()
		if _, err := othello6.Solve(context.Background(), s, 1, 64); err != nil {
			b.Fatal(err)
		}
		if time.Since(start) > 700*time.Millisecond {
			hard = append(hard, s)
		}
	}
	optimal := make([]map[games.Move]bool, len(hard))
	for i, s := range hard {
		optimal[i] = optimalMoves(b, s)
	}
	b.ResetTimer()
	for range b.N {
		var agentMissed, depth4Missed int
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
			if !optimal[i][m] {
				agentMissed++
			}
			res, err := alphabeta.New(alphabeta.Options{Depth: 4, TTMB: 1}).Search(context.Background(), fresh)
			if err != nil {
				b.Fatal(err)
			}
			if !optimal[i][res.Move] {
				depth4Missed++
			}
		}
		b.ReportMetric(float64(len(hard)), "positions")
		b.ReportMetric(float64(agentMissed), "perfect-not-optimal")
		b.ReportMetric(float64(depth4Missed), "depth4-not-optimal")
		for _, k := range []string{"solved", "kept", "not"} {
			name := k
			if k == "not" {
				name = "not-proven"
			}
			b.ReportMetric(float64(how[k]), name)
		}
	}
}

// optimalMoves returns the moves of s that keep its value, each solved.
func optimalMoves(b *testing.B, s *othello6.State) map[games.Move]bool {
	value := func(c *othello6.State) int {
		v, _, _, err := c.SolveExact(context.Background(), 1)
		if err != nil {
			b.Fatal(err)
		}
		return v
	}
	best, out := -1000, map[games.Move]bool{}
	vals := map[games.Move]int{}
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
			v = -value(c) // the opponent moves (or passes) next
		}
		vals[m] = v
		best = max(best, v)
	}
	for m, v := range vals {
		out[m] = v == best
	}
	return out
}
