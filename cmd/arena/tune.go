package main

import (
	"fmt"
	"io"
	"strings"
)

func init() {
	register(command{"tune", groupTune, "tune agent parameters (spsa, sweep, texel)", runTune})
}

// tuneCommands are the subcommands of tune, each registered by its own
// file with registerTune.
var tuneCommands []command

func registerTune(c command) { tuneCommands = append(tuneCommands, c) }

// runTune runs "arena tune METHOD [flags]".
func runTune(args []string, stdout, stderr io.Writer) error {
	var names []string
	for _, c := range tuneCommands {
		names = append(names, c.name)
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help" {
		w := stderr // as every command's --help (the flag package's)
		fmt.Fprintln(w, "Usage: arena tune METHOD [flags]      arena tune METHOD --help for its flags")
		fmt.Fprintln(w, "\nMethods:")
		for _, c := range tuneCommands {
			fmt.Fprintf(w, "  %-5s  %s\n", c.name, c.summary)
		}
		fmt.Fprintln(w, "\nReference: docs/tuning.md")
		if len(args) == 0 {
			return fmt.Errorf("%w: name a method (%s)", errUsage, strings.Join(names, ", "))
		}
		return nil
	}
	for _, c := range tuneCommands {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	return fmt.Errorf("unknown method %q (valid: %s)", args[0], strings.Join(names, ", "))
}
