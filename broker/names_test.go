package broker

import (
	"slices"
	"testing"

	"github.com/boardgame-arena/arena/arena"
)

// TestWorkerTakesTheRunsNames: a worker rebuilds a run with the names
// the coordinator's configuration gives (a resumed record's, which an
// older arena may have written, or another version), not names of its
// own, and so agrees that it plans the coordinator's games.
func TestWorkerTakesTheRunsNames(t *testing.T) {
	tour, err := arena.New(arena.Options{Game: "othello6", GamesPerPair: 2, Seed: 1,
		Agents: []string{"ugi:cmd=python3 engine.py", "greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	want := tour.Config
	want.Agents = slices.Clone(want.Agents)
	want.Agents[0].Name = "engine (v1)" // not what the spec would name it
	got, err := arena.New(arena.OptionsFrom(want))
	if err != nil {
		t.Fatal(err)
	}
	if err := sameRun(got.Config, want); err != nil {
		t.Errorf("the worker refuses the run: %v (its names %q)", err, got.Names())
	}
}
