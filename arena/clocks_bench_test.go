package arena

import (
	"context"
	"slices"
	"testing"
)

// BenchmarkClockedTournament: othello6 games between random agents, one
// worker, games reused as the arena command does: without clocks (the
// fast path), and with both players on a clock (every move timed
// precisely, charged to the clock, recorded in clocks_ms and move_stats).
// One op is one game.
func BenchmarkClockedTournament(b *testing.B) {
	for _, bc := range []struct {
		name   string
		agents []string
	}{
		{"no-clock", []string{"random", "random:name=b"}},
		{"tc=1h+1s", []string{"random:tc=1h+1s", "random:tc=1h+1s,name=b"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			tour, err := New(Options{Game: "othello6", Agents: bc.agents, GamesPerPair: 1 << 14, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			all := slices.Collect(tour.Schedule.All())
			for played := 0; played < b.N; played += len(all) {
				todo := all
				if n := b.N - played; n < len(todo) {
					todo = todo[:n]
				}
				t := *tour
				t.Schedule = listSchedule(todo)
				if _, err := t.Run(context.Background(), RunOptions{Concurrency: 1, ReuseGames: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
