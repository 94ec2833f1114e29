package main

import (
	"fmt"
	"io"
)

func init() {
	register(command{"tune", groupTune, "tune agent parameters (spsa, sweep, texel)", runTune})
}

// tuneCommands are the subcommands of tune, each registered by its own
// file with registerTune.
var tuneCommands []command

func registerTune(c command) { tuneCommands = append(tuneCommands, c) }

// tuneReference is the page on tuning, which every method's page links.
const tuneReference = "docs/tuning.md"

// runTune runs "arena tune METHOD [flags]".
func runTune(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help" {
		printTuneHelp(stderr) // as every command's --help
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	for _, c := range tuneCommands {
		if c.name == args[0] {
			if err := c.run(args[1:], stdout, stderr); err != nil {
				return &commandError{"tune " + c.name, err}
			}
			return nil
		}
	}
	// As an unknown command: the nearest method, and where to read more.
	fmt.Fprintf(stderr, "arena tune: unknown method %q", args[0])
	if near := nearest(args[0], tuneCommands); near != "" {
		fmt.Fprintf(stderr, "; did you mean %s?", near)
	}
	fmt.Fprintf(stderr, "\nRun 'arena tune --help' for the methods; the reference is %s.\n", tuneReference)
	return errUsage
}

// printTuneHelp lists the methods, aligned.
func printTuneHelp(w io.Writer) {
	width := 0
	for _, c := range tuneCommands {
		width = max(width, len(c.name))
	}
	fmt.Fprintln(w, "Usage: arena tune METHOD [flags]      arena tune METHOD --help for its flags")
	fmt.Fprintln(w, "\nMethods:")
	for _, c := range tuneCommands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
	fmt.Fprintf(w, "\nReference: %s (a method's page: %s)\n", tuneReference, docPage("tune METHOD"))
}
