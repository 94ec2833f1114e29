package accuracy

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

// agentGame plays a seeded random opening of othello6 down to empties
// cells, then first against second to the end.
func agentGame(t testing.TB, seed uint64, empties int, first, second string) *results.GameRecord {
	t.Helper()
	v, _ := games.Lookup("othello6")
	s := v.New().(games.State)
	r := rng.New(seed)
	g := &results.GameRecord{Game: "othello6", Index: int(seed), Players: [2]results.Player{{Name: first}, {Name: second}}}
	var seats [2]agents.Agent
	for i, spec := range []string{first, second} {
		a, err := agents.New(spec, rng.Derive(seed, uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		seats[i] = a
	}
	for !s.Terminal() {
		var m games.Move
		if s.(games.EmptiesCounter).Empties() > empties {
			ms := s.LegalMoves(nil)
			m = ms[r.IntN(len(ms))]
			g.Opening = append(g.Opening, s.FormatMove(m))
		} else {
			var err error
			if m, err = seats[s.ToMove()].Move(context.Background(), s, s.ToMove()); err != nil {
				t.Fatal(err)
			}
		}
		g.Moves = append(g.Moves, s.FormatMove(m))
		s.Play(m)
	}
	return g
}

// TestPerfectLosesNothing: the perfect agent's moves all lose 0, and it
// never blunders; its random opponent's losses add up to the game's swing.
func TestPerfectLosesNothing(t *testing.T) {
	var gs []*results.GameRecord
	for seed := uint64(1); seed <= 4; seed++ {
		first, second := "perfect", "random"
		if seed%2 == 0 {
			first, second = second, first
		}
		gs = append(gs, agentGame(t, seed, 16, first, second))
	}
	rep, err := Analyse(context.Background(), results.NewDataset("othello6", nil, gs), testOptions)
	if err != nil {
		t.Fatal(err)
	}
	var perfect *PlayerStats
	for i := range rep.Players {
		if rep.Players[i].Name == "perfect" {
			perfect = &rep.Players[i]
		}
	}
	if perfect == nil || perfect.MovesAnalysed == 0 || perfect.MovesAnalysed != perfect.Moves || perfect.MeanLoss != 0 || perfect.Blunders != 0 {
		t.Fatalf("perfect: %+v", perfect)
	}
	if rep.Players[0].Name != "perfect" {
		t.Errorf("the perfect agent is not first: %+v", rep.Players)
	}
	for _, w := range rep.Worst {
		if w.Player == "perfect" {
			t.Errorf("a worst move of the perfect agent: %+v", w)
		}
	}
}

// TestBlunder: a move that throws a won endgame is a blunder, with the
// exact loss (plain minimax's).
func TestBlunder(t *testing.T) {
	term := terminals["othello6"]
	for seed := uint64(1); seed < 200; seed++ {
		g := randomGame(t, "othello6", seed, 10)
		v, _ := games.Lookup("othello6")
		s := v.New().(games.State)
		for _, m := range g.Opening {
			mv, _ := s.ParseMove(m)
			s.Play(mv)
		}
		p := s.ToMove()
		before := minimax(s, p, term)
		if before <= 0 {
			continue
		}
		for _, m := range s.LegalMoves(nil) {
			s.Play(m)
			after := minimax(s, p, term)
			s.Undo()
			if after >= 0 {
				continue
			}
			// Play the losing move, then anything.
			g.Moves = append(append([]string{}, g.Opening...), s.FormatMove(m))
			s.Play(m)
			for !s.Terminal() {
				mv := s.LegalMoves(nil)[0]
				g.Moves = append(g.Moves, s.FormatMove(mv))
				s.Play(mv)
			}
			a, err := NewAnalyser("othello6", testOptions)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := a.Game(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			ply := sc.Plies[0]
			if !ply.Known || !ply.Blunder || ply.Before != before || ply.After != after || ply.Loss != before-after {
				t.Fatalf("seed %d: %+v; want a blunder from %d to %d", seed, ply, before, after)
			}
			sum := a.NewSummary()
			sum.Add(sc)
			rep := sum.Report()
			if len(rep.Worst) == 0 || rep.Worst[0].Loss != before-after || !rep.Worst[0].Blunder || rep.Worst[0].Ply != len(g.Opening) {
				t.Fatalf("seed %d: worst moves %+v", seed, rep.Worst)
			}
			return
		}
	}
	t.Fatal("no won position with a losing move found")
}

// tables is what must not change between runs: the per-player tables and
// the worst moves, as JSON.
func tables(t testing.TB, r *Report) string {
	b, err := json.Marshal(struct {
		P []PlayerStats
		W []WorstMove
	}{r.Players, r.Worst})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sampleGames(t testing.TB) *results.Dataset {
	var gs []*results.GameRecord
	for seed := uint64(1); seed <= 6; seed++ {
		g := randomGame(t, "othello6", seed, 18)
		g.Players[0].Name, g.Players[1].Name = []string{"x", "y", "z"}[seed%3], []string{"x", "y", "z"}[(seed+1)%3]
		gs = append(gs, g)
	}
	return results.NewDataset("othello6", nil, gs)
}

// TestCacheAndResume: a warm cache gives the cold run's table without a
// solve; a run interrupted after a game and resumed with its cache file
// gives it too; the cache file reads back what was written.
func TestCacheAndResume(t *testing.T) {
	d := sampleGames(t)
	cold, err := Analyse(context.Background(), d, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	if cold.Solved == 0 {
		t.Fatalf("nothing solved: %+v", cold)
	}
	want := tables(t, cold)

	path := filepath.Join(t.TempDir(), "cache")
	// Interrupted after the first game, one game at a time.
	c, err := OpenCache(path, "othello6")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	o := testOptions
	o.Concurrency, o.Cache = 1, c
	o.Progress = func(done, total int) {
		if done == 1 {
			cancel()
		}
	}
	if _, err := Analyse(ctx, d, o); err == nil {
		t.Fatal("an interrupted run returned no error")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	partial := c.Len()
	// Resumed.
	c, err = OpenCache(path, "othello6")
	if err != nil || c.Loaded == 0 || c.Len() != partial {
		t.Fatalf("reopened: %d of %d records, %v", c.Loaded, partial, err)
	}
	o = testOptions
	o.Cache = c
	resumed, err := Analyse(context.Background(), d, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := tables(t, resumed); got != want {
		t.Fatalf("resumed:\n%s\ncold:\n%s", got, want)
	}
	if resumed.CacheHits == 0 || resumed.Solved >= cold.Solved {
		t.Errorf("resumed run: %d cache hits, %d solved (cold %d)", resumed.CacheHits, resumed.Solved, cold.Solved)
	}
	c.Close()
	// Warm: nothing left to solve.
	c, err = OpenCache(path, "othello6")
	if err != nil {
		t.Fatal(err)
	}
	o.Cache = c
	warm, err := Analyse(context.Background(), d, o)
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got := tables(t, warm); got != want || warm.Solved != 0 || warm.Unsettled != 0 {
		t.Fatalf("warm: %d solved, %d unsettled:\n%s\ncold:\n%s", warm.Solved, warm.Unsettled, got, want)
	}
	var text bytes.Buffer
	if err := warm.WriteText(&text); err != nil || !bytes.Contains(text.Bytes(), []byte("mean loss")) {
		t.Fatalf("text: %v\n%s", err, text.String())
	}
	// Another game's cache is refused, naming the option.
	c, _ = OpenCache(filepath.Join(t.TempDir(), "e"), "erdos")
	o.Cache = c
	if _, err := Analyse(context.Background(), d, o); err == nil {
		t.Fatal("an erdos cache was taken for othello6")
	}
	c.Close()
}

// TestNodeBudget: with a small node budget the late positions are settled
// and the early ones unknown, never guessed, the same on every run.
func TestNodeBudget(t *testing.T) {
	d := sampleGames(t)
	o := testOptions
	o.Nodes = 3000
	first, err := Analyse(context.Background(), d, o)
	if err != nil {
		t.Fatal(err)
	}
	unknown := 0
	for _, p := range first.Players {
		unknown += p.Unknown
		if p.MovesAnalysed == 0 {
			t.Errorf("%s: nothing analysed with %d nodes", p.Name, o.Nodes)
		}
	}
	if unknown == 0 {
		t.Fatalf("no position left unknown with %d nodes: %+v", o.Nodes, first.Players)
	}
	o.Concurrency = 1
	again, err := Analyse(context.Background(), d, o)
	if err != nil {
		t.Fatal(err)
	}
	if tables(t, again) != tables(t, first) {
		t.Fatal("two runs with a node budget differ")
	}
}

// TestUnsupported: games without exact values are refused.
func TestUnsupported(t *testing.T) {
	for _, g := range []string{"tryangle", "gravity"} {
		if _, err := NewAnalyser(g, Options{}); err == nil {
			t.Errorf("%s accepted", g)
		}
	}
	if _, err := NewAnalyser("othello6", Options{Concurrency: -1}); err == nil {
		t.Error("Concurrency -1 accepted")
	}
	_ = time.Second
}
