package arena

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

func raceOptions() Options {
	s := results.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05, Model: results.Logistic}
	return Options{Kind: results.Gauntlet, Game: "t-sum", Agents: []string{"random", "random", "t-max", "random"}, GamesPerPair: 400, Seed: 3, SPRT: &s}
}

// runRace runs a race and returns it with the games recorded, in order.
func runRace(t *testing.T, o Options, opts RunOptions) (*results.Race, []results.GameRecord) {
	t.Helper()
	var mu sync.Mutex
	var recs []results.GameRecord
	opts.Sink = func(batch []*results.GameRecord) error {
		mu.Lock()
		defer mu.Unlock()
		for _, g := range batch {
			recs = append(recs, *g)
		}
		return nil
	}
	race, _, err := mustNew(t, o).RunRace(context.Background(), opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	return race, recs
}

// TestRunRace: the strong candidate wins, the others leave, their later
// fixtures are skipped, and the race does not depend on how many games
// run at once, nor on being resumed from part of its games.
func TestRunRace(t *testing.T) {
	o := raceOptions()
	a, recs := runRace(t, o, RunOptions{Concurrency: 1})
	if !a.Decided() || a.Winner() != 1 {
		t.Fatalf("%s", a.Status(nil))
	}
	per := make([]int, 4)
	for _, g := range recs {
		per[candidateOf([2]int{g.Players[0].Agent, g.Players[1].Agent})]++
	}
	for i, c := range a.Candidates {
		// After a candidate left, at most the games already claimed or
		// held back for the sink (claimChunk, holdMax) are played.
		if c.State != results.Qualified && per[i+1] > 2*c.LeftAt+claimChunk+holdMax {
			t.Errorf("candidate %d left at stage %d but played %d games", i, c.LeftAt, per[i+1])
		}
	}
	b, _ := runRace(t, o, RunOptions{Concurrency: 3})
	if b.Stage != a.Stage || b.Winner() != a.Winner() {
		t.Fatalf("1 worker: %s; 3 workers: %s", a.Status(nil), b.Status(nil))
	}
	for i := range a.Candidates {
		if a.Candidates[i].Penta != b.Candidates[i].Penta || a.Candidates[i].State != b.Candidates[i].State {
			t.Errorf("candidate %d: %v %v, with 3 workers %v %v", i, a.Candidates[i].Penta, a.Candidates[i].State, b.Candidates[i].Penta, b.Candidates[i].State)
		}
	}
	c, _ := runRace(t, o, RunOptions{Concurrency: 2, Done: NewRecorded(mustNew(t, o), recs[:len(recs)/3])})
	if c.Status(nil) != a.Status(nil) {
		t.Errorf("resumed: %s, want %s", c.Status(nil), a.Status(nil))
	}
	// All the games recorded: nothing is played.
	d, st, err := mustNew(t, o).RunRace(context.Background(), RunOptions{Done: NewRecorded(mustNew(t, o), recs)}, nil)
	if err != nil || st.Played != 0 || d.Status(nil) != a.Status(nil) {
		t.Errorf("resumed when decided: %v, %+v, %s", err, st, d.Status(nil))
	}
}

func TestRaceOptions(t *testing.T) {
	o := raceOptions()
	o.Agents = o.Agents[:2]
	var oe *option.Error
	if err := o.Check(); !errors.As(err, &oe) || oe.Name != "Agents" {
		t.Errorf("race of one candidate: %v", err)
	}
	o = raceOptions()
	o.Kind = results.RoundRobin
	if err := o.Check(); !errors.As(err, &oe) || oe.Name != "SPRT" {
		t.Errorf("round robin with an SPRT: %v", err)
	}
	tour := mustNew(t, raceOptions())
	// A runner (a broker's coordinator) is handed the race's Skip.
	var skip func(Fixture) bool
	runner := func(_ context.Context, _ *Tournament, opts RunOptions) (RunStats, error) {
		skip = opts.Skip
		return RunStats{}, nil
	}
	if _, _, err := tour.RunRace(context.Background(), RunOptions{Runner: runner}, nil); err != nil || skip == nil {
		t.Errorf("race on a runner: %v, Skip given: %v", err, skip != nil)
	}
}
