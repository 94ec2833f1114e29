package gravity

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// benchPositions returns positions from seeded random games at every ply
// from 0 to 40, so the benchmarks see openings and crowded boards alike.
func benchPositions() []*State {
	var out []*State
	for seed := uint64(0); len(out) < 256; seed++ {
		r := rng.New(seed)
		s := New()
		for ply := range 41 {
			if s.Terminal() {
				break
			}
			if ply == int(seed%41) {
				out = append(out, s.Clone().(*State))
			}
			moves := s.LegalMoves(nil)
			s.Play(moves[r.IntN(len(moves))])
		}
	}
	return out
}

func BenchmarkRandomPlayout(b *testing.B) {
	s := New()
	r := rng.New(1)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.RandomPlayout(r)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

func BenchmarkPerft(b *testing.B) {
	s := New()
	var leaves uint64
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		leaves += s.PerftBulk(4)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}

func BenchmarkEvaluate(b *testing.B) {
	pos := benchPositions()
	n := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		n += pos[i%len(pos)].Evaluate(i & 1)
	}
	_ = n
}

// TestHotPathsDoNotAllocate backs the benchmarks' 0 allocs/op with a test.
func TestHotPathsDoNotAllocate(t *testing.T) {
	s := playAll(t, "R3", "L3", "TA")
	var buf [games.MaxMoves]games.Move
	r := rng.New(3)
	checks := map[string]func(){
		"LegalMoves": func() { s.LegalMoves(buf[:0]) },
		"Play+Undo":  func() { s.Play(s.LegalMoves(buf[:0])[5]); s.Undo() },
		"Playout":    func() { s.RandomPlayout(r) },
		"PerftBulk":  func() { s.PerftBulk(2) },
		"Evaluate":   func() { s.Evaluate(0) },
	}
	for name, f := range checks {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %.1f allocations per call", name, n)
		}
	}
}
