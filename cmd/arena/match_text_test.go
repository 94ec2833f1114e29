package main

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// TestMatchTextUncounted: games recorded beyond the counted pairs are
// "after the decision" only when the SPRT decided; a match stopped
// undecided says they wait for their pairs.
func TestMatchTextUncounted(t *testing.T) {
	tour, err := arena.New(arena.Options{Game: "othello6", Kind: results.Match, Agents: []string{"random", "greedy"}, GamesPerPair: 10})
	if err != nil {
		t.Fatal(err)
	}
	test := &results.SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05, Model: results.Logistic}
	for _, c := range []struct {
		decision results.Decision
		want     string
	}{
		{results.Continue, "(3 more games recorded but not counted yet: a game pair is counted once it and every pair before it are complete)"},
		{results.AcceptH1, "(3 more games finished after the decision; they are recorded but not counted)"},
	} {
		tr := results.NewPairTracker(test, 0)
		tr.Decision = c.decision
		r := buildMatchReport(tour, tr, 3)
		var b strings.Builder
		writeMatchText(&b, tour, tr, r)
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("%v: %s\nwant %q", c.decision, b.String(), c.want)
		}
	}
}
