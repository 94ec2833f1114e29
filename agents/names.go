package agents

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/boardgame-arena/arena/spec"
)

// DisplayName returns the name of the agent s describes: its name= key;
// else, for an agent that runs a program (a cmd= key, as ugi and cg
// have), the program's name (ProgramName), so that tables stay narrow;
// else the spec text itself. The name depends on the spec alone, never
// on what a program answers, so that every process of a run (a
// coordinator that plays no game, its workers, the shards) names the
// agents alike without starting them.
func DisplayName(s spec.Spec) string {
	if n := s.Vals["name"]; n != "" {
		return n
	}
	if n := programName(s); n != "" {
		return n
	}
	return s.String()
}

// programName is ProgramName of s's cmd= key, or "" without one.
func programName(s spec.Spec) string {
	if s.Vals["name"] != "" || s.Bare("cmd") {
		return ""
	}
	return ProgramName(s.Vals["cmd"])
}

// ProgramName returns the name of the program a command line runs (split
// on blanks, as the ugi and cg agents split it): the base name of its
// first word, or, when that is a launcher — an interpreter (python3,
// node, java …), a build tool's run (go run, cargo run) or a wrapper
// (env, nice, taskset, timeout …) — the name of what it launches, its
// first argument that is not an option: "python3 bots/engine.py" is
// engine.py, "java -jar bot.jar" bot.jar, "taskset -c 2 ./engine" engine.
// A launcher that names no program ("go run .") gives its own name; an
// empty command "".
func ProgramName(cmd string) string {
	argv := strings.Fields(cmd)
	name := ""
	for len(argv) > 0 {
		base := filepath.Base(argv[0])
		if base == "." || base == ".." || base == string(filepath.Separator) {
			break
		}
		name = base
		l, ok := launchers[launcherKey(base)]
		if !ok {
			break
		}
		i := l.program(argv[1:])
		if i < 0 {
			break
		}
		argv = argv[1+i:]
	}
	return name
}

// launcherKey is the key of a program in launchers: without a Windows
// .exe, and without the version of an interpreter that has versions
// (python3.12 and pypy3 are python and pypy; sh2 is not sh).
func launcherKey(base string) string {
	base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	if k := strings.TrimRight(base, "0123456789."); k != base && launchers[k].versioned {
		return k
	}
	return base
}

// launcher describes how a program that runs another one names it.
type launcher struct {
	subs   []string // subcommands before the program, skipped ("run")
	skip   int      // positional arguments before the program (a duration, a CPU mask)
	values []string // options whose value is the next argument
	assign bool     // NAME=VALUE arguments before the program (env)
	// versioned: the launcher's program may carry a version (python3.12).
	versioned bool
}

// program returns the index in args of the program l runs, or -1.
func (l launcher) program(args []string) int {
	skip, first := l.skip, true
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return i + 1
			}
			return -1
		case len(a) > 1 && a[0] == '-':
			if slices.Contains(l.values, a) {
				i++
			}
		case l.assign && strings.Contains(a, "="):
		case first && slices.Contains(l.subs, a):
			first = false
		case skip > 0:
			first = false
			skip--
		default:
			return i
		}
	}
	return -1
}

// launchers are the programs whose name is not what users call their
// engine: the program they launch names it instead.
var launchers = func() map[string]launcher {
	run := launcher{subs: []string{"run"}}
	m := map[string]launcher{
		"python":  {values: []string{"-W", "-X"}, versioned: true},
		"pypy":    {values: []string{"-W", "-X"}, versioned: true},
		"node":    {values: []string{"-r", "--require", "--import", "--loader"}, versioned: true},
		"java":    {values: []string{"-cp", "-classpath", "--class-path", "-p", "--module-path"}},
		"ruby":    {values: []string{"-I", "-r"}, versioned: true},
		"perl":    {values: []string{"-I"}, versioned: true},
		"php":     {versioned: true},
		"lua":     {versioned: true},
		"luajit":  {versioned: true},
		"dotnet":  {subs: []string{"run", "exec"}},
		"env":     {values: []string{"-u", "--unset", "-C", "--chdir"}, assign: true},
		"nice":    {values: []string{"-n", "--adjustment"}},
		"ionice":  {values: []string{"-c", "--class", "-n", "--classdata"}},
		"stdbuf":  {values: []string{"-i", "-o", "-e"}},
		"timeout": {skip: 1, values: []string{"-k", "--kill-after", "-s", "--signal"}},
		"taskset": {skip: 1},
		"chrt":    {skip: 1},
		"numactl": {values: []string{"-C", "-N", "-m", "-p", "-i", "--physcpubind", "--cpunodebind", "--membind", "--preferred", "--interleave"}},
	}
	for _, name := range []string{"go", "cargo", "deno", "bun", "uv", "poetry", "pipenv"} {
		m[name] = run
	}
	for _, name := range []string{"nodejs", "tsx", "ts-node", "npx", "kotlin", "scala", "mono", "rscript", "julia", "elixir", "escript", "racket", "guile", "sbcl",
		"ocaml", "runghc", "runhaskell", "swift", "pwsh", "sh", "bash", "dash", "zsh", "ksh", "fish",
		"tclsh", "nohup", "setsid", "time"} {
		m[name] = launcher{}
	}
	return m
}()

// Names returns the display names of the agents of one run, in order and
// unique among them: each spec's Name, with "#2", "#3" … added to a name
// already taken. A name taken from a program (ProgramName) also yields to
// every name given by name= or a spec's text anywhere in the list, so
// that the built-in agents keep their names: "ugi:cmd=./greedy" beside
// "greedy" is greedy#2.
func Names(specs []Spec) []string {
	fixed := map[string]bool{}
	for _, s := range specs {
		if programName(s.Spec) == "" {
			fixed[s.Name()] = true
		}
	}
	used := map[string]bool{}
	out := make([]string, len(specs))
	for i, s := range specs {
		derived := programName(s.Spec) != ""
		base := s.Name()
		name := base
		for k := 2; used[name] || derived && fixed[name]; k++ {
			name = fmt.Sprintf("%s#%d", base, k)
		}
		used[name] = true
		out[i] = name
	}
	return out
}

// Named returns s with the display name name (its name= key): a run
// builds each agent under the name the run gives it (Names), so that
// what the agent says of itself (a forfeit's detail) names it as the
// tables do.
func (s Spec) Named(name string) Spec {
	if s.Vals["name"] == name {
		return s
	}
	s.Vals = maps.Clone(s.Vals)
	if s.Vals == nil {
		s.Vals = map[string]string{}
	}
	s.Vals["name"] = name
	if !slices.Contains(s.Keys, "name") {
		s.Keys = append(slices.Clone(s.Keys), "name")
	}
	return s
}
