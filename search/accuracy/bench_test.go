package accuracy

import (
	"context"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/results"
)

// BenchmarkAnalyseCold scores 8 random othello6 games from 24 empty cells
// (the book ends there: the solver's hardest range) on one thread with a
// cold cache, settled by nodes; a op is the 8 games. Profile it with
// -cpuprofile to see where the analysis spends its time.
func BenchmarkAnalyseCold(b *testing.B) {
	var gs []*results.GameRecord
	for seed := uint64(1); seed <= 8; seed++ {
		gs = append(gs, randomGame(b, "othello6", seed, 24))
	}
	d := results.NewDataset("othello6", nil, gs)
	o := Options{Budget: time.Hour, Nodes: 100_000_000, Concurrency: 1, Bootstrap: -1}
	var nodes int64
	for b.Loop() {
		rep, err := Analyse(context.Background(), d, o)
		if err != nil {
			b.Fatal(err)
		}
		nodes = rep.NodesSearched
	}
	b.ReportMetric(float64(nodes), "nodes/op")
}
