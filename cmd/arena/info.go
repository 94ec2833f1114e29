package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
)

func init() {
	register(command{"games", groupInfo, "list the games and their variants", runGames})
	register(command{"agents", groupInfo, "list the agents and the keys each takes", runAgents})
}

func runGames(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("games", "", stderr)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	for _, g := range games.All() {
		fmt.Fprintf(stdout, "%-10s %s\n           moves: %s\n", g.Name, g.Title, g.Notation)
		for _, o := range g.Options {
			fmt.Fprintf(stdout, "           %s:%s — %s\n", g.Name, o.Key, o.Help)
		}
		writeWeights(stdout, g.Name)
	}
	return nil
}

// writeWeights lists the evaluation weights of game's default variant
// (games.Weighted), which alphabeta, greedy and mcts take as eval.NAME keys.
func writeWeights(w io.Writer, game string) {
	v, err := games.Lookup(game)
	if err != nil {
		return
	}
	wd, ok := v.New().(games.Weighted)
	if !ok {
		return
	}
	ws := wd.Weights()
	fmt.Fprintf(w, "           evaluation weights (agent keys eval.NAME=V, e.g. alphabeta:eval.%s=%d):\n", ws[0].Name, ws[0].Default)
	width, rwidth := 0, 0
	for _, x := range ws {
		width = max(width, len(x.Name))
		rwidth = max(rwidth, len(fmt.Sprintf("[%d, %d]", x.Min, x.Max)))
	}
	for _, x := range ws {
		fmt.Fprintf(w, "             %-*s %6d  %-*s  %s\n", width, x.Name, x.Default, rwidth, fmt.Sprintf("[%d, %d]", x.Min, x.Max), x.Help)
	}
}

func runAgents(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("agents", "", stderr)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "Agent specs are kind:key=value,key=value. Every kind also takes name=DISPLAY (default:")
	fmt.Fprintln(stdout, "the program's name for cmd= agents, else the spec) and tc=BASE[+INC], its own game clock.")
	for _, k := range agents.Kinds() {
		fmt.Fprintf(stdout, "\n%s — %s\n", k.Name, k.Help)
		for _, key := range k.Keys {
			fmt.Fprintf(stdout, "    %-10s %s\n", key.Name, strings.TrimSpace(key.Help))
		}
	}
	return nil
}
