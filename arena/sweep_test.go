package arena

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// A sweep plays every value against every opponent and nothing else, each
// value with the same seeds against the same opponent in the same game.
func TestSweepScheduleKind(t *testing.T) {
	const agents, swept, games = 5, 3, 4
	s, err := SweepSchedule(agents, swept, games, 17)
	if err != nil {
		t.Fatal(err)
	}
	fx := slices.Collect(s.All())
	if len(fx) != swept*(agents-swept)*games {
		t.Fatalf("%d fixtures, want %d", len(fx), swept*(agents-swept)*games)
	}
	type key struct{ opp, game int }
	type seeds struct{ game, opp, value uint64 }
	seen := map[key]seeds{}
	count := map[[2]int]int{}
	for i, f := range fx {
		if f.Index != i {
			t.Fatalf("fixture %d has index %d", i, f.Index)
		}
		v, vs := f.Seats[0], 0
		if v >= swept {
			v, vs = f.Seats[1], 1
		}
		o := f.Seats[1-vs]
		if v >= swept || o < swept {
			t.Fatalf("fixture %+v is not a value against an opponent", f)
		}
		count[[2]int{v, o}]++
		got := seeds{f.Seed, f.Agents[1-vs], f.Agents[vs]}
		if first, ok := seen[key{o, f.Game}]; ok && first != got {
			t.Errorf("value %d against %d, game %d: seeds %+v; another value had %+v", v, o, f.Game, got, first)
		}
		seen[key{o, f.Game}] = got
	}
	for v := range swept {
		for o := swept; o < agents; o++ {
			if count[[2]int{v, o}] != games {
				t.Errorf("value %d against opponent %d: %d games, want %d", v, o, count[[2]int{v, o}], games)
			}
		}
	}
	// Different opponents and games get different seeds.
	distinct := map[uint64]bool{}
	for _, s := range seen {
		distinct[s.game] = true
	}
	if len(distinct) != len(seen) {
		t.Errorf("%d distinct game seeds for %d (opponent, game) keys", len(distinct), len(seen))
	}
}

func TestSweepOptionsRefused(t *testing.T) {
	base := Options{Kind: results.Sweep, Game: "t-sum", Agents: []string{"random", "greedy", "t-max"}, GamesPerPair: 2}
	for _, tc := range []struct {
		name string
		edit func(o *Options)
		want string
	}{
		{"no values", func(o *Options) { o.Swept = 0 }, "1 to 2 swept values"},
		{"no opponent", func(o *Options) { o.Swept = 3 }, "1 to 2 swept values"},
		{"swept in a round robin", func(o *Options) { o.Kind, o.Swept = results.RoundRobin, 1 }, "only a sweep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := base
			tc.edit(&o)
			if _, err := New(o); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	o := base
	o.Swept = 2
	tour, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	if c := tour.Config; c.Kind != results.Sweep || c.Swept != 2 || c.TotalGames != 2*1*2 || CheckConfig(c) != nil {
		t.Errorf("config %+v (check: %v)", c, CheckConfig(c))
	}
	// A header whose swept count is out of range is refused.
	bad := tour.Config
	bad.Swept = 3
	if err := CheckConfig(bad); err == nil {
		t.Error("a header with swept 3 of 3 agents was accepted")
	}
}

// A sweep's file resumes from its header alone into the sweep's games; a
// file written the old way (a round-robin header over a sweep's games) is
// refused rather than resumed as a round robin.
func TestResumeSweepAndOldSweepFile(t *testing.T) {
	o := Options{Kind: results.Sweep, Swept: 2, Game: "t-sum", Agents: []string{"random", "greedy", "t-max", "random"}, GamesPerPair: 4, Seed: 5, Openings: "random:2"}
	whole, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	all := playSweep(t, whole, nil)
	// Stop after some games, then resume from the header alone.
	path := filepath.Join(t.TempDir(), "sweep.jsonl")
	w := createRecord(t, path, whole)
	if err := w.WriteGames(ptrs(all[:5])...); err != nil {
		t.Fatal(err)
	}
	w.Close()
	s, err := resume(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	rest := playSweep(t, s.Tournament(), s.Done())
	var got []results.GameRecord
	for _, g := range s.Games() {
		got = append(got, *g)
	}
	got = append(got, rest...)
	slices.SortFunc(got, func(a, b results.GameRecord) int { return a.Index - b.Index })
	if len(got) != len(all) {
		t.Fatalf("resumed run: %d games, want %d", len(got), len(all))
	}
	for i := range all {
		if sameGame(&got[i], &all[i]) != "" {
			t.Errorf("game %d: %s", i, sameGame(&got[i], &all[i]))
		}
	}

	// The old way: a round robin of the same agents, filtered to the
	// sweep's games and reseeded (what tune sweep did), under a round-robin
	// header.
	rr := o
	rr.Kind, rr.Swept = results.RoundRobin, 0
	old, err := New(rr)
	if err != nil {
		t.Fatal(err)
	}
	var kept []Fixture
	for f := range old.Schedule.All() {
		if (f.Seats[0] < 2) != (f.Seats[1] < 2) {
			sweepSeeds(&f, 2, o.Seed)
			kept = append(kept, f)
		}
	}
	old.Schedule = listSchedule(kept)
	oldPath := filepath.Join(t.TempDir(), "old.jsonl")
	w = createRecord(t, oldPath, old)
	games := playSweep(t, old, nil)
	w.WriteGames(ptrs(games[:3])...)
	w.Close()
	if _, err := resume(oldPath, nil); err == nil || !strings.Contains(err.Error(), "tune sweep") {
		t.Errorf("resuming an old sweep's file: %v, want a refusal that names tune sweep", err)
	}
	// It still reads (for rate and report).
	if f, err := results.ReadFile(oldPath); err != nil || len(f.Games) != 3 {
		t.Errorf("reading the old file: %v", err)
	}
}

// playSweep plays t's games not in done, in index order.
func playSweep(t *testing.T, tour *Tournament, done *Recorded) []results.GameRecord {
	t.Helper()
	var out []results.GameRecord
	st, err := tour.Run(context.Background(), RunOptions{Concurrency: 1, Done: done, Sink: func(b []*results.GameRecord) error {
		for _, g := range b {
			out = append(out, *g)
		}
		return nil
	}})
	if err != nil || !st.Complete {
		t.Fatalf("run: %v (complete %v)", err, st.Complete)
	}
	slices.SortFunc(out, func(a, b results.GameRecord) int { return a.Index - b.Index })
	return out
}

func ptrs(g []results.GameRecord) []*results.GameRecord {
	out := make([]*results.GameRecord, len(g))
	for i := range g {
		out[i] = &g[i]
	}
	return out
}

// sameGame says how two records of one game differ in what the schedule
// and the play decide ("" when they do not).
func sameGame(a, b *results.GameRecord) string {
	switch {
	case a.Index != b.Index || a.Seed != b.Seed || a.Players[0].Agent != b.Players[0].Agent || a.Players[1].Agent != b.Players[1].Agent:
		return "different fixtures"
	case a.Players[0].Seed != b.Players[0].Seed || a.Players[1].Seed != b.Players[1].Seed:
		return "different agent seeds"
	case !slices.Equal(a.Moves, b.Moves) || a.Result != b.Result:
		return "different moves or result"
	}
	return ""
}

// The shards of a sweep, each rebuilt from its own header, together plan
// exactly the sweep's games, each once.
func TestSweepShards(t *testing.T) {
	o := Options{Kind: results.Sweep, Swept: 3, Game: "t-sum", Agents: []string{"random", "greedy", "t-max", "random", "greedy"}, GamesPerPair: 6, Seed: 8}
	whole, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	var union []Fixture
	for i := 1; i <= 4; i++ {
		o.Shard = &results.Shard{Index: i, Count: 4}
		sh, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		again, err := New(OptionsFrom(sh.Config))
		if err != nil || !slices.Equal(slices.Collect(again.Schedule.All()), slices.Collect(sh.Schedule.All())) {
			t.Fatalf("shard %d rebuilt from its header: %v, or other fixtures", i, err)
		}
		union = slices.AppendSeq(union, sh.Schedule.All())
	}
	slices.SortFunc(union, func(a, b Fixture) int { return a.Index - b.Index })
	if !slices.Equal(union, slices.Collect(whole.Schedule.All())) {
		t.Errorf("the 4 shards plan %d fixtures, not the sweep's %d", len(union), whole.Schedule.Len())
	}
}
