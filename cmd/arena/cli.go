package main

// The helpers every command shares: flag parsing, output paths, words.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/linelog"
)

// parseFlags parses args, letting list flags (such as --agents) take every
// following argument up to the next flag, as in "--agents greedy random".
// Positional arguments are returned.
func parseFlags(fs *flagSet, args []string, lists ...string) ([]string, error) {
	var out []string
	isList := func(a string) (string, bool) {
		name := strings.TrimLeft(a, "-")
		if name == a || strings.Contains(name, "=") {
			return "", false
		}
		for _, l := range lists {
			if l == fs.canonical(name) {
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
	if err := fs.parse(out); err != nil {
		return nil, err
	}
	return fs.Args(), nil
}

// parseFilesAndFlags parses args where file names and flags may be mixed
// (rate and report: "run1.jsonl --format json run2.jsonl"): it parses, takes
// a file, and parses the rest, returning the files in order.
func parseFilesAndFlags(fs *flagSet, args []string) ([]string, error) {
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
		return v, nil, fmt.Errorf("--game %s has simultaneous moves: %s needs a game of alternating moves", v, cmd)
	}
	if _, err := games.Replay(v.String(), s, strings.Fields(moves)); err != nil {
		return v, nil, fmt.Errorf("--moves: %w", err)
	}
	return v, s, nil
}

// parseNoArgs is parseFlags for commands that take no positional arguments.
func parseNoArgs(fs *flagSet, args []string, lists ...string) error {
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

// checkOutputPath refuses an output path (a page, a plot, a history, an
// export) that names one of the record files, or any other record file
// that exists (writing it would lose the games), or that cannot be written
// (checkWritable), before any work is done.
func checkOutputPath(flagName, page string, records ...string) error {
	if page == "" {
		return nil
	}
	for _, r := range records {
		if r != "" && sameFile(page, r) {
			return fmt.Errorf("%s %s would overwrite the record file %s: give the output a name of its own", flagName, page, r)
		}
	}
	if isRecordFile(page) {
		return fmt.Errorf("%s %s is a record file of games, which this would overwrite: give the output a name of its own", flagName, page)
	}
	return checkWritable(flagName, page)
}

// isRecordFile reports whether path exists and begins as a record file
// (a header line) or an SPSA run file does.
func isRecordFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	h := string(head[:n])
	return strings.HasPrefix(h, `{"record":"header"`) || strings.HasPrefix(h, `{"record":"spsa"`)
}

// checkWritable refuses an output file path that cannot be written, so
// that a long run does not fail only when it writes the file at its end:
// the path must not be a directory, an existing file must open for
// writing, and its directory must take a new file (the file may be
// written through a temporary file renamed over it). It leaves the file
// system as it was.
func checkWritable(flagName, path string) error {
	if path == "" {
		return nil
	}
	fail := func(err error) error {
		return fmt.Errorf("%s %s cannot be written: %v; name a file in an existing, writable directory", flagName, path, err)
	}
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return fmt.Errorf("%s %s is a directory; name a file", flagName, path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fail(err)
		}
		f.Close()
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return fail(fmt.Errorf("the directory %s does not exist", dir))
	} else if err != nil {
		return fail(err)
	} else if !st.IsDir() {
		return fail(fmt.Errorf("%s is not a directory", dir))
	}
	probe, err := os.CreateTemp(dir, ".arena-probe-*")
	if err != nil {
		return fail(err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// sameFile reports whether two paths name the same file: the same path
// once cleaned, or (both existing) the same file on disk.
func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// writeJSON writes v as the one indented JSON document a command's
// --format json prints.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// plural is "n one" or "n many".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// shellQuote quotes s for a POSIX shell, for the commands printed to
// continue a run.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// interrupts is arena.Interrupts on this process's Ctrl-C and SIGTERM,
// its notes on stderr prefixed with the command's name (through a writer
// of their own, so a note is never held up behind a library's line): the
// first stops softly, the second at once. release undoes the signal
// handling.
func interrupts(stderr io.Writer, command string) (ctx context.Context, stop <-chan struct{}, release func()) {
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	ctx, stop, done := arena.Interrupts(context.Background(), sig, linelog.New(stderr, "arena "+command+": "))
	return ctx, stop, func() {
		signal.Stop(sig)
		done()
	}
}
