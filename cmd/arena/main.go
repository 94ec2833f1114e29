// Command arena plays, checks and measures two-player board games and the
// agents that play them.
//
// Usage:
//
//	arena <command> [flags]
//
// Run "arena help" for the list of commands and "arena <command> --help" for
// the flags of one. With no arguments arena runs its default demonstration.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	_ "github.com/boardgame-arena/arena/games/all"
)

// command is one subcommand of arena.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands lists the subcommands in the order help shows them.
var commands []command

func register(c command) { commands = append(commands, c) }

// defaultCommand runs when arena is started without arguments: a short
// othello6 round robin of the agents that exist, with its standings.
var defaultCommand = []string{"tournament"}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks errors already explained by a usage message.
var errUsage = errors.New("usage")

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		args = defaultCommand
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		if len(args) > 1 {
			return run([]string{args[1], "--help"}, stdout, stderr)
		}
		usage(stdout)
		return 0
	}
	if strings.HasPrefix(name, "-") {
		// Flags without a command belong to the default command.
		args = append([]string{defaultCommand[0]}, args...)
		name = args[0]
	}
	for _, c := range commands {
		if c.name == name {
			err := c.run(args[1:], stdout, stderr)
			switch {
			case err == nil:
				return 0
			case errors.Is(err, flag.ErrHelp):
				return 0
			case errors.Is(err, errUsage):
				return 2
			}
			fmt.Fprintf(stderr, "arena %s: %s\n", name, errorText(err))
			return 1
		}
	}
	fmt.Fprintf(stderr, "arena: unknown command %q\n\n", name)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "arena — play, check and measure two-player board-game AI")
	fmt.Fprintln(w, "\nUsage: arena <command> [flags]   (arena <command> --help for its flags)")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nWith no arguments arena runs: arena %s\n", strings.Join(defaultCommand, " "))
}
