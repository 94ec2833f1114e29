package results_test

import (
	"fmt"
	"os"

	"github.com/boardgame-arena/arena/results"
)

// Fit ratings for three players from their games: A beat B 7–3, B beat C
// 6–4 and C drew A twice. One fit covers all games; ratings average 0.
func ExampleFitRatings() {
	var games []results.Result
	add := func(first, second int, score float64, times int) {
		for range times {
			games = append(games, results.Result{First: first, Second: second, Score: score})
		}
	}
	add(0, 1, 1, 7) // A beats B seven times
	add(0, 1, 0, 3)
	add(1, 2, 1, 6)
	add(1, 2, 0, 4)
	add(2, 0, 0.5, 2)
	fit, err := results.FitRatings(3, games, results.FitOptions{Anchor: -1})
	if err != nil {
		panic(err)
	}
	for i, name := range []string{"A", "B", "C"} {
		fmt.Printf("%s %+.0f\n", name, fit.Elo[i])
	}
	// Output:
	// A +89
	// B -24
	// C -65
}

// Rate adds bootstrap intervals and the likelihood of superiority.
func ExampleRate() {
	var games []results.Result
	for i := 0; i < 60; i++ {
		score := 0.0
		if i%3 != 0 { // the first player scores two thirds
			score = 1
		}
		games = append(games, results.Result{First: i % 2, Second: 1 - i%2, Score: score})
	}
	r, err := results.Rate(2, games, results.FitOptions{Anchor: 1, AnchorElo: 1000, FirstMove: true},
		results.BootstrapOptions{Replicates: 500, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("first-move advantage %+.0f Elo, interval contains 0: %t\n",
		r.FirstMove, r.FirstMoveLow < 0 && 0 < r.FirstMoveHigh)
	fmt.Printf("anchor stays at %.0f\n", r.Elo[1])
	// Output:
	// first-move advantage +120 Elo, interval contains 0: false
	// anchor stays at 1000
}

// A sequential probability ratio test on game pairs.
func ExampleSPRT() {
	s, err := results.ParseSPRT("elo0=0,elo1=10,alpha=0.05,beta=0.05", results.Logistic)
	if err != nil {
		panic(err)
	}
	counts := results.Penta{120, 900, 2200, 1050, 160} // [LL, LD, DD+WL, WD, WW]
	llr := s.LLR(counts)
	lo, hi := s.Bounds()
	fmt.Printf("LLR %.2f in (%.2f, %.2f): %s\n", llr, lo, hi, s.Decide(llr))
	// Output:
	// LLR 8.53 in (-2.94, 2.94): H1 accepted
}

// Write the standings of a tiny dataset as CSV.
func ExampleAnalysis_Write() {
	game := func(first, second, result string, winner int) *results.GameRecord {
		return &results.GameRecord{Record: results.KindGame, Game: "othello6", Result: result, Winner: winner,
			Termination: results.Normal, Forfeit: -1,
			Players: [2]results.Player{{Name: first}, {Name: second}}}
	}
	d := results.NewDataset("othello6", []string{"greedy", "random"}, []*results.GameRecord{
		game("greedy", "random", "1-0", 0),
		game("random", "greedy", "0-1", 1),
		game("greedy", "random", "1/2-1/2", -1),
		game("random", "greedy", "1-0", 0),
	})
	rep, err := results.Analyse(d, results.AnalysisOptions{})
	if err != nil {
		panic(err)
	}
	rep.Write(os.Stdout, "csv")
	// Output:
	// rank,name,elo,elo_low,elo_high,games,score,points,wins,draws,losses,draw_rate,group,forfeits
	// 1,greedy,44.37,44.37,44.37,4,0.625,2.5,2,1,1,0.25,0,0
	// 2,random,-44.37,-44.37,-44.37,4,0.375,1.5,1,1,2,0.25,0,0
}
