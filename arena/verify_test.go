package arena_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/arena"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/results"
)

// playAll plays a tournament in this process and returns its games by index.
func playAll(t *testing.T, o arena.Options) (*arena.Tournament, []*results.GameRecord) {
	t.Helper()
	tour, err := arena.New(o)
	if err != nil {
		t.Fatal(err)
	}
	games := make([]*results.GameRecord, tour.Schedule.Len())
	if _, err := tour.Run(context.Background(), arena.RunOptions{Concurrency: 2, Sink: func(b []*results.GameRecord) error {
		for _, g := range b {
			games[g.Index] = g
		}
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	return tour, games
}

// TestCheckGame: the games a tournament plays pass its check, for a
// sequential and a simultaneous game and a ply cap; each kind of forgery
// is refused with a reason.
func TestCheckGame(t *testing.T) {
	for _, o := range []arena.Options{
		{Game: "othello6", Agents: []string{"random", "greedy"}, GamesPerPair: 4, Seed: 1},
		{Game: "tryangle", Agents: []string{"random", "random"}, GamesPerPair: 2, Seed: 2},
		{Game: "othello6", Agents: []string{"random", "random"}, GamesPerPair: 2, Seed: 3, MaxPlies: 10},
	} {
		tour, games := playAll(t, o)
		for _, g := range games {
			if err := tour.CheckGame(g); err != nil {
				t.Errorf("%s: a genuine game refused: %v", o.Game, err)
			}
		}
	}
	tour, games := playAll(t, arena.Options{Game: "othello6", Agents: []string{"random", "greedy"}, GamesPerPair: 2, Seed: 1})
	g := games[0]
	open := len(g.Opening)
	for _, c := range []struct {
		name string
		edit func(g *results.GameRecord)
		want string
	}{
		{"unknown index", func(g *results.GameRecord) { g.Index = 2 }, "not in the schedule"},
		{"negative index", func(g *results.GameRecord) { g.Index = -1 }, "not in the schedule"},
		{"other seed", func(g *results.GameRecord) { g.Seed++ }, "the schedule says"},
		{"swapped players", func(g *results.GameRecord) { g.Players[0], g.Players[1] = g.Players[1], g.Players[0] }, "the schedule says"},
		{"other agent seed", func(g *results.GameRecord) { g.Players[1].Seed++ }, "the schedule says"},
		{"other opening", func(g *results.GameRecord) { g.Opening = g.Opening[:open-1] }, "opening"},
		{"illegal move", func(g *results.GameRecord) { g.Moves[open] = "a1" }, "move"},
		{"unreadable move", func(g *results.GameRecord) { g.Moves[open] = "zz" }, "move"},
		{"move after the end", func(g *results.GameRecord) { g.Moves = append(g.Moves, g.Moves[open]); g.Plies++ }, "after the end"},
		{"cut short", func(g *results.GameRecord) { g.Moves = g.Moves[:len(g.Moves)-1]; g.Plies-- }, "not a finished game"},
		{"plies", func(g *results.GameRecord) { g.Plies++ }, "plies"},
		{"score", func(g *results.GameRecord) { g.Score += 2 }, "final position gives"},
		{"adjudicated", func(g *results.GameRecord) {
			g.Termination, g.Winner, g.Result, g.Score = results.Adjudication, -1, "1/2-1/2", 0
		}, "ply cap"},
		{"other game", func(g *results.GameRecord) { g.Game = "erdos" }, "variant"},
	} {
		f := *g
		f.Moves, f.Opening = slices.Clone(g.Moves), slices.Clone(g.Opening)
		c.edit(&f)
		err := tour.CheckGame(&f)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if err := tour.CheckGame(nil); err == nil {
		t.Error("no game accepted")
	}
}

// TestRunQueue: with RunOptions.Queue the workers play exactly the games
// whose indices arrive, in any order, the same games as the schedule's run.
func TestRunQueue(t *testing.T) {
	o := arena.Options{Game: "othello6", Agents: []string{"random", "greedy", "random"}, GamesPerPair: 2, Seed: 5}
	tour, want := playAll(t, o)
	q := make(chan int)
	go func() {
		for _, i := range []int{5, 0, 99, -1, 3} { // 99 and -1 are not planned: skipped
			q <- i
		}
		close(q)
	}()
	got := map[int]*results.GameRecord{}
	st, err := tour.Run(context.Background(), arena.RunOptions{Concurrency: 2, Queue: q, Done: arena.NewRecorded(tour, []results.GameRecord{{Index: 5}}), Sink: func(b []*results.GameRecord) error {
		for _, g := range b {
			got[g.Index] = g
		}
		return nil
	}})
	if err != nil || st.Played != 3 || st.Complete {
		t.Fatalf("Run: %v, %+v", err, st)
	}
	for _, i := range []int{0, 3, 5} {
		if got[i] == nil || !slices.Equal(got[i].Moves, want[i].Moves) {
			t.Errorf("game %d: not the schedule's game", i)
		}
	}
}

// A Runner takes the run over (package broker plays it on other machines):
// Run hands it the tournament and the options.
func ExampleRunOptions_runner() {
	t, err := arena.New(arena.Options{Game: "othello6", Agents: []string{"random", "greedy"}, GamesPerPair: 2, Seed: 1})
	if err != nil {
		panic(err)
	}
	st, err := t.Run(context.Background(), arena.RunOptions{
		Concurrency: 3,
		Runner: func(ctx context.Context, t *arena.Tournament, opts arena.RunOptions) (arena.RunStats, error) {
			fmt.Printf("the runner plays %d games with %d local workers\n", t.Schedule.Len(), opts.Concurrency)
			return arena.RunStats{Planned: t.Schedule.Len()}, nil
		},
	})
	fmt.Println(st.Planned, st.Played, err)
	// Output:
	// the runner plays 2 games with 3 local workers
	// 2 0 <nil>
}
