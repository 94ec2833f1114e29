package tune_test

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/tune"
)

// Fit othello6's evaluation weights to 40 games of greedy against random:
// sample the positions of the games (past the two random opening plies),
// fit K, then the weights, and compare the errors.
func ExampleTexel() {
	t, err := arena.New(arena.Options{Game: "othello6", Agents: []string{"greedy", "random"}, GamesPerPair: 40, Seed: 1})
	if err != nil {
		panic(err)
	}
	var mu sync.Mutex
	var recs []results.GameRecord
	if _, err := t.Run(context.Background(), arena.RunOptions{Concurrency: 2, Sink: func(b []*results.GameRecord) error {
		mu.Lock()
		defer mu.Unlock()
		for _, g := range b {
			recs = append(recs, *g)
		}
		return nil
	}}); err != nil {
		panic(err)
	}
	// In schedule order (they arrive as they finish).
	slices.SortFunc(recs, func(a, b results.GameRecord) int { return a.Index - b.Index })
	v, _ := games.Lookup("othello6")
	pos, err := tune.SamplePositions(v, recs, tune.SampleOptions{SkipPlies: -1, Seed: 1})
	if err != nil {
		panic(err)
	}
	fit, err := tune.Texel(pos, nil, tune.FitOptions{Evaluations: 200})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d games (%d held out), %d+%d positions\n", pos.Games, pos.HeldOutGames, len(pos.Train), len(pos.Test))
	fmt.Println("K > 0:", fit.K > 0)
	fmt.Println("training error fell:", fit.MSE < fit.MSEStart)
	fmt.Println("weights:", len(fit.Tuned), "first:", pos.Weights[0].Name)
	// Output:
	// 36 games (4 held out), 1087+127 positions
	// K > 0: true
	// training error fell: true
	// weights: 16 first: corner_open
}
