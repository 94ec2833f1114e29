package results_test

import (
	"fmt"

	"github.com/boardgame-arena/arena/results"
)

// Rock, paper and scissors, each beating the next 6 games to 2 (seated[i][j]
// is i's results when i moves first against j), and a copy of rock that
// plays exactly as rock. Nash averaging gives every player a score of ½
// against the Nash mixture whatever the copies, and splits rock's third
// between rock and its copy; α-Rank's mass moves with the copy.
func ExampleRateMetaGame() {
	const rock, paper, scissors, rock2 = 0, 1, 2, 3
	seated := make([][]results.WDL, 4)
	for i := range seated {
		seated[i] = make([]results.WDL, 4)
	}
	beats := func(a, b int) { // each moving first in 4 of the 8 games
		seated[a][b] = results.WDL{Wins: 3, Losses: 1}
		seated[b][a] = results.WDL{Wins: 1, Losses: 3}
	}
	even := func(a, b int) {
		seated[a][b] = results.WDL{Wins: 2, Losses: 2}
		seated[b][a] = results.WDL{Wins: 2, Losses: 2}
	}
	beats(paper, rock)
	beats(paper, rock2)
	beats(scissors, paper)
	beats(rock, scissors)
	beats(rock2, scissors)
	even(rock, rock2)
	g, err := results.RateMetaGame(seated, results.MetaGameOptions{}, results.BootstrapOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, p := range g.Players {
		fmt.Printf("%-8s Nash %.3f  score %.3f  α-Rank %.3f\n", []string{"rock", "paper", "scissors", "rock2"}[p], g.Nash[k], g.NashScore[k], g.AlphaRank[k])
	}
	fmt.Println("cycles:", len(g.Cycles))
	// Output:
	// rock     Nash 0.167  score 0.500  α-Rank 0.200
	// paper    Nash 0.333  score 0.500  α-Rank 0.400
	// scissors Nash 0.333  score 0.500  α-Rank 0.200
	// rock2    Nash 0.167  score 0.500  α-Rank 0.200
	// cycles: 2
}
