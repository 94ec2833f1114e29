package games_test

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
)

// TestEstimatePerft: Knuth's estimate of a tree's positions from 1000
// random lines is within 15 % of the exact count (the sum of perft(k) for
// k = 0 … d) on every sequential game, leaves the position as it was, and
// is the same from the same seed.
func TestEstimatePerft(t *testing.T) {
	for _, tc := range []struct {
		game  string
		depth int
	}{{"othello6", 9}, {"gravity", 4}, {"erdos", 3}, {"pyrga", 5}} {
		v, err := games.Lookup(tc.game)
		if err != nil {
			t.Fatal(err)
		}
		s := v.New().(games.State)
		est := games.EstimatePerft(s, tc.depth, 1000, 1)
		if s.Ply() != 0 {
			t.Fatalf("%s: the estimate left the position at ply %d", tc.game, s.Ply())
		}
		if again := games.EstimatePerft(s, tc.depth, 1000, 1); again[tc.depth] != est[tc.depth] {
			t.Errorf("%s: %g, then %g from the same seed", tc.game, est[tc.depth], again[tc.depth])
		}
		exact := 0.0
		for d := 0; d <= tc.depth; d++ {
			exact += float64(games.Perft(s, d))
			if r := est[d] / exact; r < 0.85 || r > 1.15 {
				t.Errorf("%s depth %d: estimate %.4g positions, exact %.0f (ratio %.3f)", tc.game, d, est[d], exact, r)
			}
		}
	}
}

// TestDivideEach: each sees the entries so far after every root move, and
// they sum to perft.
func TestDivideEach(t *testing.T) {
	v, _ := games.Lookup("othello6")
	s := v.New().(games.State)
	calls := 0
	out := games.DivideEach(s, 4, nil, func(done []games.DivideEntry, total int) {
		calls++
		if len(done) != calls || total != 4 {
			t.Errorf("call %d: %d entries of %d", calls, len(done), total)
		}
	})
	var sum uint64
	for _, e := range out {
		sum += e.Leaves
	}
	if calls != 4 || sum != games.Perft(s, 4) {
		t.Errorf("%d calls, %d leaves, want 4 and %d", calls, sum, games.Perft(s, 4))
	}
}
