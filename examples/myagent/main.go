// Command myagent shows the public Go API for bot authors: it registers its
// own agent kind, "corner-first" for Othello 6×6, and plays a round robin
// against two built-in agents through package arena, printing the
// standings. It lives in its own module, as a bot author's code would:
//
//	cd examples/myagent && go run .
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/othello6" // registers the game
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

// cornerFirst takes a corner when it can, else a random legal move.
type cornerFirst struct {
	name string
	r    *rng.Rand
	buf  []games.Move
}

// Name implements agents.Agent.
func (a *cornerFirst) Name() string { return a.name }

// Move implements agents.Agent: every random choice flows from the seed the
// arena gave, so a game can be replayed from its record.
func (a *cornerFirst) Move(_ context.Context, s games.Base, p int) (games.Move, error) {
	a.buf = games.LegalMovesFor(s, p, a.buf[:0])
	if len(a.buf) == 0 {
		return 0, errors.New("corner-first: no legal move")
	}
	for _, m := range a.buf {
		switch s.FormatMove(m) {
		case "a1", "f1", "a6", "f6":
			return m, nil
		}
	}
	return a.buf[a.r.IntN(len(a.buf))], nil
}

// Seed implements agents.Seeder, so the arena may reuse one instance.
func (a *cornerFirst) Seed(seed uint64) { a.r = rng.New(seed) }

// CheckGame implements agents.GameChecker: the corners are Othello 6×6's.
func (a *cornerFirst) CheckGame(v games.Variant) error {
	if v.Game.Name != "othello6" {
		return fmt.Errorf("corner-first plays othello6 only, not %s", v)
	}
	return nil
}

func init() {
	agents.Register(&agents.Kind{
		Name: "corner-first",
		Help: "othello6: take a corner when possible, else a random move",
		New: func(s spec.Spec, seed uint64) (agents.Agent, error) {
			return &cornerFirst{name: agents.DisplayName(s), r: rng.New(seed)}, nil
		},
	})
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "myagent:", err)
		os.Exit(1)
	}
}

func run() error {
	t, err := arena.New(arena.Options{
		Game:         "othello6",
		Agents:       []string{"corner-first", "random", "greedy"},
		GamesPerPair: 20,
		Seed:         1,
	})
	if err != nil {
		return err
	}
	var played []*results.GameRecord
	if _, err := t.Run(context.Background(), arena.RunOptions{
		Concurrency: 2,
		Sink: func(batch []*results.GameRecord) error {
			played = append(played, batch...)
			return nil
		},
	}); err != nil {
		return err
	}
	analysis, err := results.Analyse(results.NewDataset(t.Config.Game, t.Names(), played), results.AnalysisOptions{})
	if err != nil {
		return err
	}
	fmt.Printf("%d games of %s (%s)\n\n", len(played), t.Config.Game, strings.Join(t.Names(), ", "))
	return analysis.Write(os.Stdout, "text")
}
