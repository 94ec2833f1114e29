package results_test

import (
	"fmt"

	"github.com/boardgame-arena/arena/results"
)

// A race of three candidates against a base, fed game pairs in stages
// (each candidate's pairs repeat a pattern of four: the first scores 81 %
// against the base, the second 50 %, the third 25 %). The race ends when
// one candidate is proven better than the base and the others are out.
func ExampleNewRace() {
	race, err := results.NewRace(results.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: results.Logistic}, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	patterns := [3][4][2]float64{
		{{1, 1}, {1, 0.5}, {0.5, 1}, {1, 0}},
		{{1, 0}, {0.5, 0.5}, {0, 1}, {0.5, 0.5}},
		{{0, 0.5}, {0.5, 0}, {0, 0}, {1, 0}},
	}
	for stage := 0; !race.Decided(); stage++ {
		for _, i := range race.Live() {
			p := patterns[i][stage%4]
			race.Add(i, p[0], p[1])
		}
	}
	names := []string{"fast", "even", "weak"}
	fmt.Println("winner:", names[race.Winner()], "after", race.Pairs(), "pairs")
	fmt.Println(race.Status(names))
	// Output:
	// winner: fast after 215 pairs
	// stage 144 [-3.67, 4.07]: fast 4.08 qualified · even -1.31 eliminated@45 · weak -0.76 eliminated@26; winner fast
}
