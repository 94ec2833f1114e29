package mcts

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/othello6"
	_ "github.com/boardgame-arena/arena/games/tryangle"
)

// TestSetBudget: a searcher's budgets change between searches (a clock
// gives every move its own share), down to a share so small that the
// search must still answer with a legal move at once.
func TestSetBudget(t *testing.T) {
	s := New(Options{Iterations: 500}, 1)
	st := othello6.New()
	res, err := s.Search(context.Background(), st)
	if err != nil || res.Iterations != 500 {
		t.Fatalf("iterations %d (%v), want 500", res.Iterations, err)
	}
	s.SetBudget(0, 30*time.Millisecond)
	start := time.Now()
	res, err = s.Search(context.Background(), st)
	if el := time.Since(start); err != nil || res.Iterations <= 500 || el > 300*time.Millisecond {
		t.Fatalf("time budget: %d iterations in %v (%v)", res.Iterations, el, err)
	}
	s.SetBudget(700, 0)
	if res, err = s.Search(context.Background(), st); err != nil || res.Iterations != 700 {
		t.Fatalf("iterations %d (%v), want 700", res.Iterations, err)
	}
	s.SetBudget(-1, 0)
	if _, err = s.Search(context.Background(), st); err == nil {
		t.Fatal("a search without any budget ran")
	}
	for _, tiny := range []time.Duration{time.Microsecond, 10 * time.Microsecond} {
		s.SetBudget(0, tiny)
		start := time.Now()
		res, err = s.Search(context.Background(), st)
		// "At once" is judged by the iterations, which a busy machine can
		// only lower (10µs allowed 2 to 14 on a quiet one); the wall
		// bound only catches a hang, with room for any stall.
		if el := time.Since(start); err != nil || !games.IsLegal(st, res.Move) || res.Iterations > 1000 || el > time.Second {
			t.Fatalf("budget %v: move %v after %d iterations in %v (%v)", tiny, res.Move, res.Iterations, el, err)
		}
		b, err := games.New("tryangle:seed=1")
		if err != nil {
			t.Fatal(err)
		}
		sim := b.(games.SimState)
		if res, err = s.SearchSim(context.Background(), sim, 1); err != nil || !slices.Contains(sim.LegalMovesFor(1, nil), res.Move) {
			t.Fatalf("budget %v, simultaneous: move %v (%v)", tiny, res.Move, err)
		}
	}
}
