package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/boardgame-arena/arena/spec"
	"github.com/boardgame-arena/arena/ugi/server"
)

func init() {
	register(command{"engine", groupEngines, "serve any agent as a UGI engine on stdin and stdout", runEngine})
}

// engineInput is what arena engine reads its commands from (tests give
// their own).
var engineInput io.Reader = os.Stdin

func runEngine(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("engine", "--agent SPEC [--game GAME] [--seed N]", stderr)
	agent := fs.String("agent", "", "agent `SPEC` to serve, e.g. mcts:time=100ms (required)")
	fs.alias("agents", "agent")
	game := fs.String("game", "othello6", "`GAME` played until the GUI sets the UGI_Game option")
	seed := fs.Uint64("seed", 1, "seed of the agent's random choices (the k-th uginewgame reseeds it from N, k)")
	fs.group("Core", "agent game seed")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *agent == "" {
		return fmt.Errorf("--agent is required, e.g. arena engine --agent mcts:time=100ms")
	}
	if sp, err := spec.Parse(*agent); err == nil && sp.Name == "human" {
		return errors.New("--agent human: the engine's stdin carries UGI, so nobody can type moves there; play against an agent with arena play --agents human A")
	}
	return server.Serve(server.Config{Game: *game, Agent: *agent, Seed: *seed}, engineInput, stdout)
}
