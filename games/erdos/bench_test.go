package erdos

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// midgame returns a reproducible position after n random plies.
func midgame(n int) *State {
	s := New(Standard)
	games.RandomPlies(s, n, rng.New(99))
	return s
}

func BenchmarkPerftBulk4(b *testing.B) {
	s := New(Standard)
	var leaves uint64
	b.ReportAllocs()
	for b.Loop() {
		leaves = s.PerftBulk(4)
	}
	b.ReportMetric(float64(leaves)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
}

// BenchmarkRandomPlayout is one random game from the empty board on a bare
// copy of the masks.
func BenchmarkRandomPlayout(b *testing.B) {
	for _, rules := range bothRules {
		b.Run(rules.String(), func(b *testing.B) {
			s := New(rules)
			r := rng.New(1)
			b.ReportAllocs()
			for b.Loop() {
				s.RandomPlayout(r)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

func BenchmarkEvaluate(b *testing.B) {
	s := midgame(10)
	b.ReportAllocs()
	sink := 0
	for b.Loop() {
		sink += s.Evaluate(0)
	}
	_ = sink
}

// TestHotPathsDoNotAllocate backs the benchmarks' 0 allocs/op with a test.
func TestHotPathsDoNotAllocate(t *testing.T) {
	s := midgame(6)
	buf := make([]games.Move, 0, games.MaxMoves)
	moves := s.LegalMoves(nil)
	r := rng.New(5)
	for name, f := range map[string]func(){
		"LegalMoves":    func() { buf = s.LegalMoves(buf[:0]) },
		"Play+Undo":     func() { s.Play(moves[0]); s.Undo() },
		"RandomPlayout": func() { s.RandomPlayout(r) },
		"PerftBulk":     func() { s.PerftBulk(2) },
		"Evaluate":      func() { s.Evaluate(1) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %.1f times per call", name, n)
		}
	}
}
