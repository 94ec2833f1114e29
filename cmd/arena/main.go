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
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/games"
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
			fmt.Fprintf(stderr, "arena %s: %v\n", name, err)
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

// newFlagSet returns a flag set whose usage text names the command and its
// synopsis, written to stderr.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: arena %s %s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, letting list flags (such as --agents) take every
// following argument up to the next flag, as in "--agents greedy random".
// Positional arguments are returned.
func parseFlags(fs *flag.FlagSet, args []string, lists ...string) ([]string, error) {
	var out []string
	isList := func(a string) (string, bool) {
		name := strings.TrimLeft(a, "-")
		if name == a || strings.Contains(name, "=") {
			return "", false
		}
		for _, l := range lists {
			if l == name {
				return name, true
			}
		}
		return "", false
	}
	for i := 0; i < len(args); i++ {
		name, ok := isList(args[i])
		if !ok {
			out = append(out, args[i])
			continue
		}
		j := i + 1
		for ; j < len(args) && !strings.HasPrefix(args[j], "-"); j++ {
			out = append(out, "--"+name+"="+args[j])
		}
		if j == i+1 {
			out = append(out, args[i]) // let flag report the missing value
		}
		i = j - 1
	}
	if err := parse(fs, out); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errUsage
	}
	return fs.Args(), nil
}

// parse is fs.Parse, with the flag package's message about a bad value
// (written before the usage) rewritten where it says too little: for a
// duration flag, "invalid value "1" for flag -time: parse error" becomes
// `--time: "1" needs a unit, such as 1s or 500ms`. Every command parses
// here, so every duration flag of every command gets the message.
func parse(fs *flag.FlagSet, args []string) error {
	w := fs.Output()
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	err := fs.Parse(args)
	fs.SetOutput(w)
	text := buf.String()
	if err != nil {
		if msg := durationFlagError(fs, err); msg != "" {
			text = strings.Replace(text, err.Error(), msg, 1)
		}
	}
	io.WriteString(w, text)
	return err
}

// badValue matches the flag package's error for a value its flag's Set
// refused.
var badValue = regexp.MustCompile(`^invalid value ("(?:[^"\\]|\\.)*") for flag -(\S+): `)

// durationFlagError returns the message for err when it is a bad value of
// a duration flag of fs, else "".
func durationFlagError(fs *flag.FlagSet, err error) string {
	m := badValue.FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	f := fs.Lookup(m[2])
	if f == nil {
		return ""
	}
	if g, ok := f.Value.(flag.Getter); !ok {
		return ""
	} else if _, ok := g.Get().(time.Duration); !ok {
		return ""
	}
	value, uerr := strconv.Unquote(m[1])
	if uerr != nil {
		value = m[1]
	}
	if _, nerr := strconv.ParseFloat(strings.TrimSpace(value), 64); nerr == nil {
		return fmt.Sprintf("--%s: %q needs a unit, such as 1s or 500ms", f.Name, value)
	}
	return fmt.Sprintf("--%s: %q is not a duration: write a number and a unit (ns, us, ms, s, m, h), such as 1s, 500ms or 1m30s", f.Name, value)
}

// parseFilesAndFlags parses args where file names and flags may be mixed
// (rate and report: "run1.jsonl --format json run2.jsonl"): it parses, takes
// a file, and parses the rest, returning the files in order.
func parseFilesAndFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	rest, err := parseFlags(fs, args)
	for err == nil && len(rest) > 0 {
		files = append(files, rest[0])
		rest, err = parseFlags(fs, rest[1:])
	}
	return files, err
}

// listFlag collects repeated values of a flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// checkFormat validates a --format value against the allowed ones.
func checkFormat(f string, allowed ...string) error {
	for _, a := range allowed {
		if f == a {
			return nil
		}
	}
	return fmt.Errorf("unknown --format %q (valid: %s)", f, strings.Join(allowed, ", "))
}

// sequentialPosition resolves a sequential game spec and plays the
// space-separated moves from its start, for commands (named by cmd) that
// examine one position.
func sequentialPosition(cmd, game, moves string) (games.Variant, games.State, error) {
	v, err := games.Lookup(game)
	if err != nil {
		return v, nil, err
	}
	s, ok := v.New().(games.State)
	if !ok {
		return v, nil, fmt.Errorf("%s needs a sequential game; %s is simultaneous", cmd, v)
	}
	if _, err := games.Replay(v.String(), s, strings.Fields(moves)); err != nil {
		return v, nil, fmt.Errorf("--moves: %w", err)
	}
	return v, s, nil
}

// parseNoArgs is parseFlags for commands that take no positional arguments.
func parseNoArgs(fs *flag.FlagSet, args []string, lists ...string) error {
	rest, err := parseFlags(fs, args, lists...)
	if err != nil {
		return err
	}
	return noPositional(rest)
}

// noPositional rejects stray positional arguments.
func noPositional(rest []string) error {
	if len(rest) > 0 {
		return fmt.Errorf("unexpected argument %q (flags start with --; see --help)", rest[0])
	}
	return nil
}
