package arena_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// TestSearchAgentsReusedAcrossGames: the arena reuses one alphabeta and one
// mcts instance per worker for many games (agents.Seeder). With 1 and with 2
// workers the instances see different sequences of games, so any state
// leaking from one game into the next would change the records.
func TestSearchAgentsReusedAcrossGames(t *testing.T) {
	o := arena.Options{Game: "othello6", GamesPerPair: 4, Seed: 5,
		Agents: []string{"alphabeta:depth=3,tt=1", "mcts:iters=300", "random"}}
	var runs []map[int]string
	for _, workers := range []int{1, 2} {
		tour, err := arena.New(o)
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		moves := map[int]string{}
		_, err = tour.Run(context.Background(), arena.RunOptions{Concurrency: workers, ReuseGames: true, Sink: func(b []*results.GameRecord) error {
			mu.Lock()
			defer mu.Unlock()
			for _, g := range b {
				moves[g.Index] = strings.Join(g.Moves, " ") + " " + g.Result
			}
			return nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, moves)
	}
	if len(runs[0]) != 12 {
		t.Fatalf("%d games recorded, want 12", len(runs[0]))
	}
	for i := 0; i < 12; i++ {
		if runs[0][i] != runs[1][i] {
			t.Errorf("game %d differs between 1 and 2 workers:\n%s\n%s", i, runs[0][i], runs[1][i])
		}
	}
	if runs[0][0] == runs[0][2] {
		t.Error("games 0 and 2 are identical: openings or seeds are not varying")
	}
}
