package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

func init() {
	register(command{"play", groupPlay, "play one game, showing the board after every move", runPlay})
}

func runPlay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("play", "[--game GAME] [--agents SPEC SPEC] [--seed N] [--tc BASE[+INC]] [--quiet] [--svg DIR]", stderr)
	game := fs.String("game", "othello6", "the `GAME` to play, a game spec (see 'arena games')")
	var specs listFlag
	fs.Var(&specs, "agents", "the two agents, `SPEC…`, first player first (default greedy random)")
	fs.alias("agent", "agents")
	seed := fs.Uint64("seed", 1, "seed of the agents' random choices")
	fs.group("Core", "game agents seed")
	tcText := fs.String("tc", "", "game clock `BASE[+INC]` for both agents (an agent's tc= key overrides it)")
	fs.group("Limits", "tc")
	quiet := fs.Bool("quiet", false, "print only the moves and the result, not the board")
	svgDir := fs.String("svg", "", "write a picture of every position to `DIR`/turn-NNN.svg (DIR is created)")
	fs.group("Output", "quiet svg")
	if err := parseNoArgs(fs, args, "agents"); err != nil {
		return err
	}
	if len(specs) == 0 {
		specs = listFlag{"greedy", "random"}
	}
	if len(specs) != 2 {
		return fmt.Errorf("--agents needs exactly two agent specs, got %d", len(specs))
	}
	v, err := games.Lookup(*game)
	if err != nil {
		return err
	}
	var tc agents.TimeControl
	if *tcText != "" {
		if tc, err = agents.ParseTimeControl(*tcText); err != nil {
			return fmt.Errorf("--tc: %v", err)
		}
	}
	var players [2]agents.Agent
	var seats [2]arena.Seat
	var parsed []agents.Spec
	for _, text := range specs {
		sp, err := agents.Parse(text)
		if err != nil {
			return err
		}
		parsed = append(parsed, sp)
	}
	names := agents.Names(parsed) // as a tournament names them
	for i, text := range specs {
		sp := parsed[i]
		a, err := sp.Named(names[i]).New(rng.Derive(*seed, uint64(i)))
		if err != nil {
			return err
		}
		if c, ok := a.(io.Closer); ok {
			defer c.Close()
		}
		if err := agents.CheckGame(a, v); err != nil {
			return fmt.Errorf("agent %q: %v", text, err)
		}
		if pc, ok := a.(agents.ProgramChecker); ok {
			if err := pc.CheckProgram(); err != nil {
				return fmt.Errorf("agent %q: %v", text, err)
			}
		}
		players[i] = a
		seats[i] = arena.Seat{Agent: a, Limits: arena.Limits{Clock: tc, Margin: arena.DefaultMargin}}
		if sp.HasClock {
			seats[i].Limits.Clock = sp.Clock
		}
	}
	fmt.Fprintf(stdout, "%s: %s (first) vs %s (second), seed %d\n", v, players[0].Name(), players[1].Name(), *seed)
	start := v.New()
	if !*quiet {
		fmt.Fprintf(stdout, "\n%s\n", start)
	}
	var svgErr error
	if *svgDir != "" {
		if _, ok := start.(games.Drawer); !ok {
			return fmt.Errorf("--svg: %s has no pictures (games with pictures: %s)", v,
				strings.Join(games.WithPosition(func(b games.Base) bool { _, ok := b.(games.Drawer); return ok }), ", "))
		}
		if err := os.MkdirAll(*svgDir, 0o755); err != nil {
			return fmt.Errorf("--svg: %v", err)
		}
		svgErr = writeSVG(*svgDir, start)
	}
	// Without a clock a move has no limit (play is for watching).
	res, err := arena.Play(context.Background(), arena.Setup{Variant: v}, seats, func(s games.Base, last string) {
		if *svgDir != "" && svgErr == nil {
			svgErr = writeSVG(*svgDir, s)
		}
		if *quiet {
			fmt.Fprintf(stdout, "%d. %s\n", s.Ply(), last)
			return
		}
		fmt.Fprintf(stdout, "\n%d. %s\n%s\n", s.Ply(), last, s)
	})
	if err != nil {
		return err
	}
	if svgErr != nil {
		return svgErr
	}
	winner := "draw"
	if w := res.Outcome.Winner; w != games.Draw {
		winner = players[w].Name() + " wins"
	}
	fmt.Fprintf(stdout, "\nresult %s (%s, score %+d) after %d plies\n", res.Outcome.Result(), winner, res.Outcome.Score, res.Plies)
	printClocks(stdout, res.Record, players)
	return nil
}

// writeSVG draws a position (a games.Drawer) to dir/turn-NNN.svg, NNN
// the moves (turns) played.
func writeSVG(dir string, s games.Base) error {
	name := filepath.Join(dir, fmt.Sprintf("turn-%03d.svg", s.Ply()))
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("--svg: %v", err)
	}
	if err := games.WriteSVG(f, s.(games.Drawer)); err != nil {
		f.Close()
		return fmt.Errorf("--svg: writing %s: %v", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--svg: writing %s: %v", name, err)
	}
	return nil
}

// printClocks prints the time each clocked player had left at the end.
func printClocks(w io.Writer, rec *results.GameRecord, players [2]agents.Agent) {
	if rec == nil || len(rec.Clocks) == 0 {
		return
	}
	for p, left := range rec.Clocks[len(rec.Clocks)-1] {
		if left != results.NoClock {
			fmt.Fprintf(w, "clock of %s (%s): %s left\n", players[p].Name(), rec.Players[p].TC, time.Duration(left*1e6).Round(time.Microsecond))
		}
	}
}
