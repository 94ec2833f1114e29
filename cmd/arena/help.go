package main

// This file is how every command describes itself: its flags grouped by
// purpose in --help, a mistyped flag told in two lines, and the pointer
// to the command's reference page in docs/commands.

import (
	"flag"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
)

// flagSet is a command's flag.FlagSet with what its help shows: the flags
// in groups, in the order the command lists them, and aliases (such as
// --agent for --agents) that are accepted but not listed.
type flagSet struct {
	*flag.FlagSet
	name     string // "tournament", "tune spsa"
	synopsis string
	groups   []flagGroup
	aliases  map[string]string // alias → flag
}

// flagGroup is a titled list of flag names.
type flagGroup struct {
	title string
	names []string
}

// newFlagSet returns the flag set of the command name, whose --help
// prints "Usage: arena name synopsis", the command's summary and its flags
// by group to stderr. Errors are not printed by the flag package: parse
// returns them as a usageError, which run prints in two lines.
func newFlagSet(name, synopsis string, stderr io.Writer) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), name: name, synopsis: synopsis}
	fs.SetOutput(stderr)
	fs.Usage = func() { fs.printHelp(fs.Output()) }
	if newFlagSetHook != nil {
		newFlagSetHook(fs)
	}
	return fs
}

// newFlagSetHook, when set (by tests), sees every flag set made, to list
// the flags of a command from its --help run.
var newFlagSetHook func(*flagSet)

// group lists names (separated by blanks) under title in the help: the
// groups in the order of their first listing, a group's flags in the
// order listed. Shared flags (addRunFlags) list themselves; a command adds
// its own flags to the same titles.
func (fs *flagSet) group(title, names string) {
	for i := range fs.groups {
		if fs.groups[i].title == title {
			fs.groups[i].names = append(fs.groups[i].names, strings.Fields(names)...)
			return
		}
	}
	fs.groups = append(fs.groups, flagGroup{title, strings.Fields(names)})
}

// alias makes --alias another name of --name: accepted, not listed in the
// help.
func (fs *flagSet) alias(alias, name string) {
	f := fs.Lookup(name)
	if f == nil {
		panic("alias of an undefined flag --" + name)
	}
	fs.Var(f.Value, alias, "")
	if fs.aliases == nil {
		fs.aliases = map[string]string{}
	}
	fs.aliases[alias] = name
}

// Visit is flag.FlagSet's Visit with an alias reported as the flag it
// stands for, so that "was --agents given" holds for --agent too.
func (fs *flagSet) Visit(fn func(*flag.Flag)) {
	seen := map[string]bool{}
	fs.FlagSet.Visit(func(f *flag.Flag) {
		name := fs.canonical(f.Name)
		if !seen[name] {
			seen[name] = true
			fn(fs.Lookup(name))
		}
	})
}

// aliasesOf lists the aliases of the flag name, sorted.
func (fs *flagSet) aliasesOf(name string) []string {
	var out []string
	for a, n := range fs.aliases {
		if n == name {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// canonical is the flag an alias stands for (or name itself).
func (fs *flagSet) canonical(name string) string {
	if n, ok := fs.aliases[name]; ok {
		return n
	}
	return name
}

// docPage is the reference page of a command, relative to the checkout.
func docPage(command string) string {
	return "docs/commands/" + strings.ReplaceAll(command, " ", "-") + ".md"
}

// commandSummary is the one-line summary a command registered with.
func commandSummary(name string) string {
	for _, c := range commands {
		if c.name == name {
			return c.summary
		}
	}
	for _, c := range tuneCommands {
		if "tune "+c.name == name {
			return c.summary
		}
	}
	return ""
}

// helpWidth is the widest flag column; a longer flag puts its text on the
// next line.
const helpWidth = 24

// printHelp writes the command's help: usage, summary, the flags by group
// (flags no group lists come last, under "Other"), and the reference page.
func (fs *flagSet) printHelp(w io.Writer) {
	fmt.Fprintln(w, strings.TrimSpace("Usage: arena "+fs.name+" "+fs.synopsis))
	if s := commandSummary(fs.name); s != "" {
		fmt.Fprintf(w, "\n%s%s.\n", strings.ToUpper(s[:1]), s[1:])
	}
	listed := map[string]bool{}
	for _, g := range fs.groups {
		var flags []*flag.Flag
		for _, n := range g.names {
			f := fs.Lookup(n)
			if f == nil {
				panic(fmt.Sprintf("arena %s: group %q lists --%s, which is not a flag", fs.name, g.title, n))
			}
			flags = append(flags, f)
			listed[n] = true
		}
		fs.printGroup(w, g.title, flags)
	}
	var rest []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if !listed[f.Name] && fs.aliases[f.Name] == "" {
			rest = append(rest, f)
		}
	})
	fs.printGroup(w, "Other", rest)
	fmt.Fprintf(w, "\nReference: %s\n", docPage(fs.name))
}

func (fs *flagSet) printGroup(w io.Writer, title string, flags []*flag.Flag) {
	if len(flags) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, f := range flags {
		left := "  " + flagSynopsis(f)
		text := flagText(f)
		for _, a := range fs.aliasesOf(f.Name) {
			text += " (or --" + a + ")"
		}
		if len(left) > helpWidth {
			fmt.Fprintf(w, "%s\n%s  %s\n", left, strings.Repeat(" ", helpWidth), text)
			continue
		}
		fmt.Fprintf(w, "%-*s  %s\n", helpWidth, left, text)
	}
}

// flagSynopsis is "--name VALUE": the value's name is the usage text's
// word in back quotes, else a letter for its type (none for a switch).
func flagSynopsis(f *flag.Flag) string {
	name, _ := flag.UnquoteUsage(f)
	switch name {
	case "duration":
		name = "D"
	case "int", "uint":
		name = "N"
	case "float":
		name = "X"
	case "string":
		name = "S"
	case "value":
		name = "V"
	}
	if name == "" {
		return "--" + f.Name
	}
	return "--" + f.Name + " " + name
}

// flagText is the flag's usage text (back quotes removed) with its default
// when that is not the zero value.
func flagText(f *flag.Flag) string {
	_, usage := flag.UnquoteUsage(f)
	if isZeroDefault(f) {
		return usage
	}
	if _, ok := f.Value.(interface{ IsBoolFlag() bool }); ok {
		return usage + " (default " + f.DefValue + ")"
	}
	if g, ok := f.Value.(flag.Getter); ok {
		if _, ok := g.Get().(string); ok {
			return fmt.Sprintf("%s (default %q)", usage, f.DefValue)
		}
	}
	return usage + " (default " + f.DefValue + ")"
}

// isZeroDefault reports whether the flag's default is its type's zero
// value, which the help does not show.
func isZeroDefault(f *flag.Flag) bool {
	switch f.DefValue {
	case "", "0", "false", "0s", "[]":
		return true
	}
	// A value type's zero value, as the flag package finds it.
	t := reflect.TypeOf(f.Value)
	var z reflect.Value
	if t.Kind() == reflect.Pointer {
		z = reflect.New(t.Elem())
	} else {
		z = reflect.Zero(t)
	}
	if v, ok := z.Interface().(flag.Value); ok {
		defer func() { recover() }()
		return f.DefValue == v.String()
	}
	return false
}
