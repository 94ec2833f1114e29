package results

import (
	"os"
	"strconv"
	"testing"
)

func BenchmarkTmpFile(b *testing.B) {
	path := os.Getenv("POOLFILE")
	reps, _ := strconv.Atoi(os.Getenv("POOLREPS"))
	for b.Loop() {
		t := NewTally()
		if _, err := t.ReadFile(path); err != nil {
			b.Fatal(err)
		}
		if _, err := t.Analyse(AnalysisOptions{Bootstrap: reps, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
