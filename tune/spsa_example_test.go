package tune_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/boardgame-arena/arena/arena"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/tune"
)

// One SPSA iteration without games: plan it, pretend θ+ scored 5 wins,
// 2 draws and 1 loss, and update. By hand: c = 0.1·100^0.101 = 0.159221;
// A = 10, a = 0.002·0.1²·110^0.602 = 3.3878e-4, a_1 = a/11^0.602 = 7.998e-5;
// c ← 0.7 + (7.998e-5/0.159221)·(5−1)·(+1) = 0.70201.
func ExampleSPSA_Plan() {
	ps, err := tune.ParseParams(strings.NewReader("c, float, 0.7, 0.1, 3, 0.1, 0.002\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := tune.NewSPSA(tune.SPSAConfig{Game: "othello6", Agent: "mcts:iters=200", Params: ps, Iterations: 100, PairsPer: 4, A: -1, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	it, _ := s.Plan(1, s.Start())
	fmt.Printf("c_1 = %.4f, a_1 = %.6f, flip %+d\n", it.CK[0], it.AK[0], it.Flips[0])
	fmt.Println(it.PlusSpec, "vs", it.MinusSpec)
	it.Wins, it.Draws, it.Losses = 5, 2, 1
	s.Update(&it)
	fmt.Printf("c: %.4f -> %.4f\n", it.Before[0], it.After[0])
	// Output:
	// c_1 = 0.1592, a_1 = 0.000080, flip +1
	// mcts:iters=200,c=0.859221 vs mcts:iters=200,c=0.540779
	// c: 0.7000 -> 0.7020
}

// A verification match: greedy is far stronger than random on othello6.
func ExampleVerify() {
	r, err := tune.Verify(context.Background(), tune.VerifyOptions{
		Match: arena.Options{Game: "othello6", Seed: 1},
		Tuned: "greedy", Start: "random", Games: 2000,
		Run: arena.RunOptions{Concurrency: 2},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Decision, r.Estimate.Elo > 300)
	// Output: H1 accepted true
}
