package results

import (
	"bytes"
	"testing"
)

// TestCounterIsAnalyse: a Counter fed a run's games gives the report
// Analyse gives on a Dataset of the same games, byte for byte, at the end
// and midway (a pair half played counts as unpaired, as in a record
// file cut there), and counting on after an Analyse changes nothing.
func TestCounterIsAnalyse(t *testing.T) {
	const players, n = 5, 301
	games := make([]*GameRecord, n)
	for i := range games {
		games[i] = new(GameRecord)
		syntheticGame(games[i], i, players, 7, i%5 == 0)
	}
	names := []string{"p0", "p1", "p2", "p3", "p4"}
	o := AnalysisOptions{Bootstrap: 50, Seed: 3}
	c := NewCounter("othello6", names)
	for k, g := range games {
		c.Add(g)
		if k != 100 && k != n-1 {
			continue
		}
		want, err := Analyse(NewDataset("othello6", names, games[:k+1]), o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Analyse(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"text", "json"} {
			var w, g bytes.Buffer
			if err := want.Write(&w, format); err != nil {
				t.Fatal(err)
			}
			if err := got.Write(&g, format); err != nil {
				t.Fatal(err)
			}
			if w.String() != g.String() {
				t.Errorf("after %d games, %s: the counter's report\n%s\nis not Analyse's\n%s", k+1, format, g.String(), w.String())
			}
		}
	}
	if c.Games() != n {
		t.Errorf("counted %d games, want %d", c.Games(), n)
	}
}
