package benchmarks

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/rng"
)

// sequentialVariants lists every registered sequential game with each of its
// flag variants (e.g. erdos and erdos:algol).
func sequentialVariants(b *testing.B) []games.Variant {
	var out []games.Variant
	for _, g := range games.All() {
		specs := []string{g.Name}
		for _, o := range g.Options {
			if v, err := games.Lookup(g.Name + ":" + o.Key); err == nil && o.Key != "seed" && o.Key != "map" {
				specs = append(specs, v.String())
			}
		}
		for _, sp := range specs {
			v, err := games.Lookup(sp)
			if err != nil {
				b.Fatal(err)
			}
			if _, ok := v.New().(games.State); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

// midgame plays n seeded random plies (fewer if the game ends first).
func midgame(v games.Variant, n int) games.State {
	s := v.New().(games.State)
	games.RandomPlies(s, n, rng.New(99))
	return s
}

// contractOnly hides a game's fast paths (Playouter, BulkPerfter), leaving
// only the State interface that generic search code uses.
type contractOnly struct{ games.State }

// BenchmarkRandomPlayout plays one random game from the start per op,
// through games.RandomPlayout (the game's fast playout where it has one).
func BenchmarkRandomPlayout(b *testing.B) {
	for _, v := range sequentialVariants(b) {
		b.Run(v.String(), func(b *testing.B) {
			s := v.New().(games.State)
			r := rng.New(1)
			b.ReportAllocs()
			for b.Loop() {
				games.RandomPlayout(s, r)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkRandomPlayoutContract plays the same games through the State
// interface only (LegalMoves, Play, Undo), as generic search code does.
func BenchmarkRandomPlayoutContract(b *testing.B) {
	for _, v := range sequentialVariants(b) {
		b.Run(v.String(), func(b *testing.B) {
			s := &contractOnly{v.New().(games.State)}
			r := rng.New(1)
			b.ReportAllocs()
			for b.Loop() {
				games.RandomPlayout(s, r)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkLegalMoves generates the legal moves of a position after 8 plies.
func BenchmarkLegalMoves(b *testing.B) {
	for _, v := range sequentialVariants(b) {
		b.Run(v.String(), func(b *testing.B) {
			s := midgame(v, 8)
			buf := make([]games.Move, 0, games.MaxMoves)
			b.ReportAllocs()
			for b.Loop() {
				buf = s.LegalMoves(buf[:0])
			}
		})
	}
}

// BenchmarkPlayUndo plays and undoes each legal move of a position after 8 plies in turn.
func BenchmarkPlayUndo(b *testing.B) {
	for _, v := range sequentialVariants(b) {
		b.Run(v.String(), func(b *testing.B) {
			s := midgame(v, 8)
			moves := s.LegalMoves(nil)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				s.Play(moves[i])
				s.Undo()
				if i++; i == len(moves) {
					i = 0
				}
			}
		})
	}
}

// BenchmarkPerft runs perft to a fixed depth from the start with the game's
// fastest counter, and with the generic games.Perft through the State
// interface, reporting leaves per second.
func BenchmarkPerft(b *testing.B) {
	depths := map[string]int{"othello6": 9, "erdos": 4, "pyrga": 4, "gravity": 4}
	for _, v := range sequentialVariants(b) {
		d, ok := depths[v.Game.Name]
		if !ok {
			continue
		}
		for _, generic := range []bool{false, true} {
			name := v.String()
			if generic {
				name += "/generic"
			}
			b.Run(name, func(b *testing.B) {
				s := v.New().(games.State)
				count := games.Perft
				if bp, ok := s.(games.BulkPerfter); ok && !generic {
					count = func(games.State, int) uint64 { return bp.PerftBulk(d) }
				}
				var leaves uint64
				b.ReportAllocs()
				for b.Loop() {
					leaves = count(s, d)
				}
				b.ReportMetric(float64(leaves)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
			})
		}
	}
}

// BenchmarkEvaluate evaluates a position after 12 plies from both
// players' views (games.Evaluator, with its default weights).
func BenchmarkEvaluate(b *testing.B) {
	for _, v := range sequentialVariants(b) {
		s := midgame(v, 12)
		e, ok := s.(games.Evaluator)
		if !ok {
			continue
		}
		b.Run(v.String(), func(b *testing.B) {
			sink := 0
			b.ReportAllocs()
			for b.Loop() {
				sink += e.Evaluate(0) + e.Evaluate(1)
			}
			_ = sink
		})
	}
}

// BenchmarkSVGPieces draws the pieces of a position after 12 plies
// (games.Drawer), as a report does for every position it shows.
func BenchmarkSVGPieces(b *testing.B) {
	for _, v := range sequentialVariants(b) {
		d, ok := midgame(v, 12).(games.Drawer)
		if !ok {
			continue
		}
		b.Run(v.String(), func(b *testing.B) {
			var dst []string
			b.ReportAllocs()
			for b.Loop() {
				dst = d.SVGPieces(dst[:0])
			}
		})
	}
}
