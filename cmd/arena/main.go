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
	"slices"
	"strings"

	_ "github.com/boardgame-arena/arena/games/all"
)

// command is one subcommand of arena.
type command struct {
	name    string
	group   string // the task it serves, a heading of arena help
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// The headings of arena help, in its order.
const (
	groupPlay        = "Play"
	groupRate        = "Rate and report"
	groupTune        = "Tune"
	groupEngines     = "Engines"
	groupSolve       = "Solve and check"
	groupDistributed = "Distributed"
	groupInfo        = "Information"
)

var groupOrder = []string{groupPlay, groupRate, groupTune, groupEngines, groupSolve, groupDistributed, groupInfo}

// commands lists the subcommands in the order help shows them.
var commands []command

func register(c command) { commands = append(commands, c) }

// defaultCommand runs when arena is started without arguments: a short
// othello6 round robin of the agents that exist, with its standings.
var defaultCommand = []string{"tournament"}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// commandError is the error of a command below the top level ("tune
// spsa"), which run names in its message.
type commandError struct {
	command string
	err     error
}

func (e *commandError) Error() string { return e.err.Error() }
func (e *commandError) Unwrap() error { return e.err }

// errUsage marks errors already explained by a usage message.
var errUsage = errors.New("usage")

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		args = defaultCommand
	}
	name := args[0]
	if name == "--version" || name == "-version" {
		name, args = "version", []string{"version"}
	}
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		if len(args) > 1 {
			return run(append(args[1:len(args):len(args)], "--help"), stdout, stderr)
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
			}
			var ue *usageError
			if errors.As(err, &ue) {
				fmt.Fprintf(stderr, "arena %s: %s\n", ue.command, errorText(ue))
				fmt.Fprintf(stderr, "Run 'arena %s --help' for its flags; the reference is %s.\n", ue.command, docPage(ue.command))
				return 2
			}
			if errors.Is(err, errUsage) {
				return 2
			}
			var ce *commandError
			if errors.As(err, &ce) {
				name, err = ce.command, ce.err
			}
			fmt.Fprintf(stderr, "arena %s: %s\n", name, errorText(err))
			return 1
		}
	}
	fmt.Fprintf(stderr, "arena: unknown command %q", name)
	if near := nearestCommand(name); near != "" {
		fmt.Fprintf(stderr, "; did you mean %s?", near)
	}
	fmt.Fprintln(stderr, "\nRun 'arena help' for the commands.")
	return 2
}

// nearestCommand is the command name closest to name, "" if none is near.
func nearestCommand(name string) string { return nearest(name, commands) }

// usage is arena help: the commands grouped by task, aligned.
func usage(w io.Writer) {
	fmt.Fprintln(w, "arena — play, check and measure two-player board-game AI")
	fmt.Fprintln(w, "\nUsage: arena <command> [flags]      arena <command> --help for its flags")
	type line struct{ name, summary string }
	byGroup := map[string][]line{}
	width := 0
	add := func(group, name, summary string) {
		byGroup[group] = append(byGroup[group], line{name, summary})
		width = max(width, len(name))
	}
	for _, c := range commands {
		if c.name == "tune" {
			for _, t := range tuneCommands {
				add(c.group, "tune "+t.name, t.summary)
			}
			continue
		}
		add(c.group, c.name, c.summary)
	}
	for _, g := range groupOrder {
		slices.SortFunc(byGroup[g], func(a, b line) int { return strings.Compare(a.name, b.name) })
		fmt.Fprintf(w, "\n%s:\n", g)
		for _, l := range byGroup[g] {
			fmt.Fprintf(w, "  %-*s  %s\n", width, l.name, l.summary)
		}
	}
	fmt.Fprintf(w, "\nWith no arguments arena runs a short othello6 round robin: arena %s.\n", strings.Join(defaultCommand, " "))
	fmt.Fprintln(w, "The reference is in docs/ (docs/README.md); a command's page is docs/commands/<command>.md.")
}
