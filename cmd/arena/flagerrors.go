package main

// This file says a command line the flags refused in this command line's
// words: the flag package's errors rewritten, and the nearest name to a
// mistyped flag, command or method.

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// usageError is a command line the flags refused: run prints it with the
// pointer to --help, and exits with status 2.
type usageError struct {
	command string
	msg     string
}

func (e *usageError) Error() string { return e.msg }

func (e *usageError) Unwrap() error { return errUsage }

// parse is fs.Parse with the flag package's errors said in this command
// line's words, and without the whole help after them: an unknown flag
// gets the nearest one ("did you mean --agents?"), a bad duration the unit
// it lacks. --help prints the help and returns flag.ErrHelp.
func (fs *flagSet) parse(args []string) error {
	w := fs.Output()
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	usage := fs.Usage
	fs.Usage = func() {} // the flag package calls it on every error
	err := fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(w)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fs.printHelp(w)
		return err
	}
	return &usageError{fs.name, fs.errorText(err)}
}

// errorText rewrites an error of the flag package.
func (fs *flagSet) errorText(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		text := "unknown flag --" + name
		if near := fs.nearest(name); near != "" {
			text += "; did you mean --" + near + "?"
		}
		return text
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "--" + name + " needs a value"
	}
	if m := badValue.FindStringSubmatch(msg); m != nil {
		if d := durationFlagError(fs.FlagSet, err); d != "" {
			return d
		}
		reason := strings.TrimPrefix(msg, m[0])
		if reason == "parse error" {
			reason = "not " + valueKind(fs.Lookup(m[2]))
		}
		return fmt.Sprintf("--%s %s: %s", m[2], m[1], reason)
	}
	if name, ok := strings.CutPrefix(msg, "bad flag syntax: "); ok {
		return fmt.Sprintf("bad flag syntax %q: write --name or --name=value", name)
	}
	return strings.ReplaceAll(msg, " -", " --")
}

// valueKind names what a flag's value must be, for "not a number".
func valueKind(f *flag.Flag) string {
	if f == nil {
		return "a valid value"
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return "a valid value"
	}
	switch g.Get().(type) {
	case int, int64, uint, uint64:
		return "a whole number"
	case float64:
		return "a number"
	case bool:
		return "true or false"
	case time.Duration:
		return "a duration"
	}
	return "a valid value"
}

// nearest is the flag of fs whose name is closest to name, "" if none is
// near (see nearestName).
func (fs *flagSet) nearest(name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	sort.Strings(names)
	if n := nearestName(name, names); n != "" {
		return fs.canonical(n)
	}
	return ""
}

// nearest is the command of list whose name is closest to name.
func nearest(name string, list []command) string {
	var names []string
	for _, c := range list {
		names = append(names, c.name)
	}
	return nearestName(name, names)
}

// nearestName is the name closest to typed, ignoring case: an edit
// distance of at most 2, or (3 letters or more) one is the other's prefix;
// the first of equals wins; "" if none is that near.
func nearestName(typed string, names []string) string {
	typed = strings.ToLower(typed)
	best, bestD := "", 3
	for _, n := range names {
		d := editDistance(typed, n)
		if d > 2 && len(typed) >= 3 && (strings.HasPrefix(n, typed) || strings.HasPrefix(typed, n)) {
			d = 2
		}
		if d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
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
