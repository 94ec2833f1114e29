package report

import (
	"io"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// BenchmarkWrite is the report of the test tournament (24 othello6 games,
// 200 bootstrap resamples) with and without the game viewer.
func BenchmarkWrite(b *testing.B) {
	f, err := results.ReadFile("testdata/tournament.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	d, err := results.Merge(f)
	if err != nil {
		b.Fatal(err)
	}
	for _, viewer := range []bool{true, false} {
		name := map[bool]string{true: "viewer", false: "noviewer"}[viewer]
		b.Run(name, func(b *testing.B) {
			opt := Options{Rating: results.AnalysisOptions{Bootstrap: 200, Seed: 1, Workers: 1}, NoViewer: !viewer}
			for b.Loop() {
				if _, err := Write(io.Discard, d, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
