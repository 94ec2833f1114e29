package gamestest_test

import (
	"fmt"
	"testing"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/games/gamestest"
)

// TestConformance runs the suite on every registered game and on every
// variant each game declares.
func TestConformance(t *testing.T) {
	n := gamestest.DefaultGames
	if testing.Short() {
		n = 4
	}
	checkers := 0
	for _, g := range games.All() {
		if b, err := games.New(g.Name); err == nil {
			if _, ok := b.(games.LegalChecker); ok {
				checkers++
			}
		}
		for _, spec := range append([]string{g.Name}, g.Variants...) {
			t.Run(spec, func(t *testing.T) {
				v, err := games.Lookup(spec)
				if err != nil {
					t.Fatalf("game %s declares variant %q: %v", g.Name, spec, err)
				}
				if v.Game != g {
					t.Fatalf("game %s declares variant %q of game %s", g.Name, spec, v.Game.Name)
				}
				gamestest.Run(t, v, gamestest.Games(n))
			})
		}
	}
	// Referees check every move; the games with small move sets answer
	// without listing all moves (the suite checks that they agree).
	if checkers < 3 {
		t.Errorf("only %d games have a Legal fast path; othello6, erdos and gravity should", checkers)
	}
}

// TestConformanceSequentialized runs the suite on games.Sequentialize over
// every simultaneous game, with either player choosing first.
func TestConformanceSequentialized(t *testing.T) {
	n := 4
	if testing.Short() {
		n = 1
	}
	for _, g := range games.All() {
		v, err := games.Lookup(g.Name)
		if err != nil {
			t.Fatal(err)
		}
		if !games.Simultaneous(v.New()) {
			continue
		}
		for first := range 2 {
			name := fmt.Sprintf("%s/first=%d", v, first)
			t.Run(name, func(t *testing.T) {
				w := gamestest.Variant(name, func() games.Base { return games.Sequentialize(v.New().(games.SimState), first) })
				gamestest.Run(t, w, gamestest.Games(n), gamestest.SkipNotation())
			})
		}
	}
}
