package games_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/boardgame-arena/arena/games"
)

func TestDefaultWeights(t *testing.T) {
	ws := []games.Weight{{Name: "a", Default: 3, Min: 0, Max: 9}, {Name: "b", Default: -2, Min: -5, Max: 5}}
	if got := games.DefaultWeights(ws); !slices.Equal(got, []int{3, -2}) {
		t.Fatalf("DefaultWeights = %v, want [3 -2]", got)
	}
	if got := games.DefaultWeights(nil); len(got) != 0 {
		t.Fatalf("DefaultWeights(nil) = %v", got)
	}
}

func ExampleDefaultWeights() {
	ws := []games.Weight{
		{Name: "column", Default: 100, Min: 0, Max: 1000, Help: "a controlled column"},
		{Name: "threat", Default: 10, Min: -100, Max: 500, Help: "a column one could capture"},
	}
	fmt.Println(games.DefaultWeights(ws))
	// Output: [100 10]
}
