package arena_test

import (
	"context"
	"fmt"
	"sort"

	"github.com/boardgame-arena/arena/arena"
	_ "github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/results"
)

// A round robin of three agents on othello6, two games per pairing, two
// workers; the finished games arrive in the sink as they end. The pairings
// come in circle-method order, each as a colour-swapped pair of games from
// the same random opening.
func ExampleTournament_Run() {
	t, err := arena.New(arena.Options{
		Game:         "othello6",
		Agents:       []string{"random", "greedy", "random:name=rnd"},
		GamesPerPair: 2,
		Seed:         42,
	})
	if err != nil {
		panic(err)
	}
	var finished []*results.GameRecord
	stats, err := t.Run(context.Background(), arena.RunOptions{
		Concurrency: 2,
		Sink: func(batch []*results.GameRecord) error {
			finished = append(finished, batch...) // keep the games, not the slice
			return nil
		},
	})
	if err != nil {
		panic(err)
	}
	sort.Slice(finished, func(i, j int) bool { return finished[i].Index < finished[j].Index })
	for _, g := range finished {
		fmt.Printf("game %d: %s (first) vs %s, opening %v\n", g.Index, g.Players[0].Name, g.Players[1].Name, g.Opening)
	}
	fmt.Println("complete:", stats.Complete)
	// Output:
	// game 0: greedy (first) vs rnd, opening [b3 d2]
	// game 1: rnd (first) vs greedy, opening [b3 d2]
	// game 2: random (first) vs rnd, opening [b3 d2]
	// game 3: rnd (first) vs random, opening [b3 d2]
	// game 4: random (first) vs greedy, opening [b3 d2]
	// game 5: greedy (first) vs random, opening [b3 d2]
	// complete: true
}
