package ugitest

import (
	"context"
	"io"
	"sync"
	"testing"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// PlayGames plays n games of setup between the agents of specs (seed 1),
// the first mover alternating, on workers goroutines that each build the
// agents once and reuse them from game to game, as a tournament's workers
// do; it closes them and returns the games' records, in no particular
// order. Each seat plays under limits, or, when limits is zero, under its
// agent's own budget (agents.MoveTime) with arena.DefaultMargin, as a
// tournament's automatic limits. A forfeit is in its record, not an
// error; an agent that cannot be built, or a game that cannot be played,
// fails the test.
func PlayGames(t testing.TB, setup arena.Setup, limits arena.Limits, specs [2]string, n, workers int) []*results.GameRecord {
	t.Helper()
	var mu sync.Mutex
	var recs []*results.GameRecord
	var wg sync.WaitGroup
	next := 0
	for w := 0; w < workers; w++ {
		var pair [2]agents.Agent
		for i, sp := range specs {
			a, err := agents.New(sp, 1)
			if err != nil {
				t.Fatal(err)
			}
			pair[i] = a
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				for _, a := range pair {
					if c, ok := a.(io.Closer); ok {
						c.Close()
					}
				}
			}()
			for {
				mu.Lock()
				g := next
				next++
				mu.Unlock()
				if g >= n {
					return
				}
				var seats [2]arena.Seat
				for i, a := range pair {
					seats[i] = arena.Seat{Agent: a, Limits: limits}
					if limits == (arena.Limits{}) {
						seats[i].Limits = arena.Limits{Move: agents.MoveTime(a, false), First: agents.MoveTime(a, true), Margin: arena.DefaultMargin}
					}
				}
				if g%2 == 1 {
					seats[0], seats[1] = seats[1], seats[0]
				}
				res, err := arena.Play(context.Background(), setup, seats, nil)
				if res.Record == nil {
					t.Errorf("game %d: %v", g, err)
					continue
				}
				mu.Lock()
				recs = append(recs, res.Record)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return recs
}
