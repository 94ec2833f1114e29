package main

import (
	"fmt"
	"io"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/spec"
	"github.com/boardgame-arena/arena/ugi"
)

func init() {
	register(command{"check-engine", groupEngines, "check that a UGI engine follows the protocol the arena speaks", runCheckEngine})
}

func runCheckEngine(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("check-engine", "--agent SPEC [--game GAME] [--positions N] [--seed N] [flags]", stderr)
	agent := fs.String("agent", "", "the engine as a ugi agent `SPEC`, e.g. ugi:cmd='python3 engine.py' (required)")
	fs.alias("agents", "agent")
	game := fs.String("game", "othello6", "`GAME` the engine is checked on (a sequential game)")
	positions := fs.Int("positions", 10, "random positions the engine must answer with a legal move, 1 to 1000")
	seed := fs.Uint64("seed", 1, "seed of the random positions")
	movetime := fs.Duration("movetime", 100*time.Millisecond, "movetime of each go (1ms to 1m)")
	margin := fs.Duration("margin", 200*time.Millisecond, "how late after movetime (or after stop) a bestmove may come (0 to 1m)")
	clock := fs.Duration("clock", time.Second, "the mover's time left in the clock check (10ms to 1m)")
	handshake := fs.Duration("handshake", ugi.DefaultCheckHandshake, "longest wait for ugiok and readyok, 1ms to 1h (the agent's init= if shorter)")
	fs.group("Core", "agent game positions seed")
	fs.group("Limits", "movetime margin clock handshake")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if sp, err := spec.Parse(*agent); err != nil || sp.Name != "ugi" {
		return fmt.Errorf("--agent %q: want a ugi agent spec, e.g. --agent \"ugi:cmd='python3 engine.py'\"", *agent)
	}
	engine, err := agents.UGIEngine(*agent)
	if err != nil {
		return fmt.Errorf("--agent: %w", err)
	}
	res, err := ugi.Check(ugi.CheckOptions{
		Engine: engine, Game: *game, Positions: *positions, MoveTime: *movetime, Margin: *margin,
		Clock: *clock, Handshake: *handshake, Seed: *seed, Out: stdout, OptionName: flagName,
		Note: func(s string) { fmt.Fprintf(stderr, "arena check-engine: %s\n", s) },
	})
	if err != nil {
		return err
	}
	if res.Failed > 0 {
		return fmt.Errorf("%d of %d checks failed", res.Failed, res.Checks)
	}
	fmt.Fprintf(stdout, "all %d checks passed\n", res.Checks)
	return nil
}
