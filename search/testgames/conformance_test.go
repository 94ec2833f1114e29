package testgames

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
)

// TestConformance runs the games contract's suite on the test games, so
// that search is tested on games that keep it (their ComputeHash included).
func TestConformance(t *testing.T) {
	for name, f := range map[string]func() games.Base{
		"tictactoe":  func() games.Base { return NewTicTacToe() },
		"takeaway":   func() games.Base { return NewTakeAway(11) },
		"rps":        func() games.Base { return BiasedRPS() },
		"goofspiel5": func() games.Base { return NewGoofspiel(3, 1, 4, 2, 5) },
	} {
		t.Run(name, func(t *testing.T) { gamestest.Run(t, gamestest.Variant(name, f), gamestest.Games(8)) })
	}
}
