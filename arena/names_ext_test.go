package arena_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/agents/botproc/botproctest"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/ugi/ugitest"
)

// TestEnginesNamedByProgram: UGI engines given by their specs alone are
// named by their program (the scripted engine's engine.sh, not its "id
// name script"), made unique, before any engine starts — alike at a
// coordinator that plays no game — and the record keeps their specs. A
// forfeit's detail names the engine as the tables do.
func TestEnginesNamedByProgram(t *testing.T) {
	dir := t.TempDir()
	engine := "ugi:cmd=sh " + ugitest.Script(t, dir, "echo 'bestmove z9'")
	o := arena.Options{Game: "othello6", GamesPerPair: 2, Seed: 1,
		Agents: []string{engine, engine + ",movetime=20ms", "greedy"}}
	want := []string{"engine.sh", "engine.sh#2", "greedy"}

	coord, err := arena.OpenSession(arena.SessionOptions{Options: o, Remote: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := coord.Tournament().Names(); !slices.Equal(got, want) {
		t.Errorf("a coordinator that plays no game names the agents %q, want %q", got, want)
	}
	coord.Abandon()
	if pids := ugitest.Pids(dir); len(pids) > 0 {
		t.Errorf("naming the agents started %d engines", len(pids))
	}

	s, err := arena.OpenSession(arena.SessionOptions{Options: o, Concurrency: 1, KeepMoves: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, a := range s.Header().Config.Agents {
		if a.Name != want[i] || a.Spec != o.Agents[i] {
			t.Errorf("header agent %d: %+v, want name %q and spec %q", i, a, want[i], o.Agents[i])
		}
	}
	st, err := s.Run(context.Background(), arena.RunOptions{})
	if err != nil || !st.Complete {
		t.Fatalf("run: %+v, %v", st, err)
	}
	for _, g := range s.Games() {
		if g.Forfeit < 0 || g.Forfeit == results.BothForfeit {
			t.Errorf("game %d: forfeit %d (%s), want one engine's", g.Index, g.Forfeit, g.Detail)
			continue
		}
		p := g.Players[g.Forfeit]
		if p.Name != want[p.Agent] || !strings.HasPrefix(g.Detail, p.Name+" ") {
			t.Errorf("game %d: %q (agent %d) forfeited with %q; want it named %q", g.Index, p.Name, p.Agent, g.Detail, want[p.Agent])
		}
	}
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}
