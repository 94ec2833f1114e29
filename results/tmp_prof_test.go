package results

import (
	"io"
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
		a, err := t.Analyse(AnalysisOptions{Bootstrap: reps, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		a.Write(io.Discard, "text")
	}
}
