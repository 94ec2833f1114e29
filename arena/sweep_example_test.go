package arena_test

import (
	"fmt"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// A sweep of two values (agents 0 and 1) against two opponents (2 and 3),
// two games per pairing: every value meets every opponent, the values never
// meet, and the seeds of a game depend on the opponent and the game alone,
// so both values play opponent 2's game 0 with the same seed.
func ExampleSweepSchedule() {
	s, err := arena.SweepSchedule(4, 2, 2, 7)
	if err != nil {
		panic(err)
	}
	seed := map[[2]int]uint64{} // (opponent, game) → seed
	same := true
	for f := range s.All() {
		opp := max(f.Seats[0], f.Seats[1])
		fmt.Printf("game %d: agent %d moves first against agent %d\n", f.Index, f.Seats[0], f.Seats[1])
		if s, ok := seed[[2]int{opp, f.Game}]; ok && s != f.Seed {
			same = false
		}
		seed[[2]int{opp, f.Game}] = f.Seed
	}
	fmt.Println("same seeds for every value:", same)
	// A run of this kind records it in its header.
	t, _ := arena.New(arena.Options{Kind: results.Sweep, Swept: 2, Game: "othello6", Agents: []string{"mcts:c=0.5", "mcts:c=1", "random", "greedy"}, GamesPerPair: 2})
	fmt.Println(t.Config.Kind, t.Config.Swept, t.Config.TotalGames)
	// Output:
	// game 0: agent 0 moves first against agent 3
	// game 1: agent 3 moves first against agent 0
	// game 2: agent 1 moves first against agent 2
	// game 3: agent 2 moves first against agent 1
	// game 4: agent 0 moves first against agent 2
	// game 5: agent 2 moves first against agent 0
	// game 6: agent 1 moves first against agent 3
	// game 7: agent 3 moves first against agent 1
	// same seeds for every value: true
	// sweep 2 8
}
