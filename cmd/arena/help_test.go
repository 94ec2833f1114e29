package main

import (
	"flag"
	"runtime/debug"
	"strings"
	"testing"
	"unicode/utf8"
)

// maxFlagText is the longest one-line flag text; the long story is the
// reference page's.
const maxFlagText = 80

// TestHelpFlagsGroupedAndShort: every flag of every command is in one of
// its help's groups (none falls under "Other"), once, with a one-line text
// of at most maxFlagText characters.
func TestHelpFlagsGroupedAndShort(t *testing.T) {
	for name, fs := range commandSets(t) {
		listed := map[string]string{}
		for _, g := range fs.groups {
			for _, n := range g.names {
				if prev, ok := listed[n]; ok {
					t.Errorf("arena %s: --%s is in the groups %q and %q", name, n, prev, g.title)
				}
				listed[n] = g.title
			}
		}
		fs.VisitAll(func(f *flag.Flag) {
			if fs.aliases[f.Name] != "" {
				return
			}
			if listed[f.Name] == "" {
				t.Errorf("arena %s: --%s is in no group of its help", name, f.Name)
			}
			_, usage := flag.UnquoteUsage(f)
			if strings.Contains(usage, "\n") || utf8.RuneCountInString(usage) > maxFlagText {
				t.Errorf("arena %s: --%s's help is %d characters (at most %d, one line; the rest goes to %s): %q",
					name, f.Name, utf8.RuneCountInString(usage), maxFlagText, docPage(name), usage)
			}
		})
	}
}

// TestHelpDistributedLast: a command that can coordinate a broker run
// lists its own flags first and the Distributed group last, as tournament
// does (a worker, whose flags are all about the broker, starts with them).
func TestHelpDistributedLast(t *testing.T) {
	for name, fs := range commandSets(t) {
		if fs.Lookup("broker") == nil || fs.Lookup("new-nkey") != nil {
			continue
		}
		if last := fs.groups[len(fs.groups)-1].title; last != "Distributed" {
			t.Errorf("arena %s --help: the last group is %q, not Distributed (groups: %v)", name, last, fs.groups)
		}
	}
}

func TestNearestFlag(t *testing.T) {
	fs := newFlagSet("x", "", nil)
	fs.String("agents", "", "")
	fs.String("games", "", "")
	fs.String("move-time", "", "")
	fs.Bool("no-progress", false, "")
	fs.alias("agent", "agents")
	for _, tt := range []struct{ typed, want string }{
		{"agnets", "agents"},
		{"agent", "agents"}, // an alias is told as its flag
		{"game", "games"},
		{"movetime", "move-time"},
		{"move", "move-time"},
		{"progress", ""},
		{"zzz", ""},
		{"Games", "games"},
	} {
		if got := fs.nearest(tt.typed); got != tt.want {
			t.Errorf("nearest(%q) = %q, want %q", tt.typed, got, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "", 3}, {"agents", "agnets", 2}, {"games", "game", 1}, {"kitten", "sitting", 3}} {
		if d := editDistance(tt.a, tt.b); d != tt.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, d, tt.d)
		}
	}
}

// TestAgentAliases: --agent and --agents are one flag wherever one or
// several agents make sense, and a resumed run sees --agent as --agents.
func TestAgentAliases(t *testing.T) {
	rf, _, _, err := parseTournament([]string{"--agent", "greedy", "random", "--games", "2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rf.agents, " "); got != "greedy random" {
		t.Errorf("--agent greedy random gave the agents %q", got)
	}
	if !rf.setFlags()["agents"] {
		t.Error("--agent is not seen as --agents by a resume")
	}
	for _, args := range [][]string{
		{"tournament", "--agent", "x", "--help"},
		{"match", "--agent", "x", "--help"},
		{"play", "--agent", "x", "--help"},
		{"engine", "--agents", "x", "--help"},
		{"check-engine", "--agents", "x", "--help"},
		{"analyse", "--agents", "x", "--help"},
		{"tune", "spsa", "--agents", "x", "--help"},
		{"tune", "texel", "--agents", "x", "--help"},
	} {
		if code, _, stderr := runArena(args...); code != 0 {
			t.Errorf("arena %s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
	}
}

func TestVersionText(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Path: "github.com/boardgame-arena/arena", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-29T00:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	got := versionText(info)
	for _, want := range []string{"arena v1.2.3 github.com/boardgame-arena/arena\n", "revision abc123 (2026-11-29T00:00:00Z), modified\n", "go1.99 "} {
		if !strings.Contains(got, want) {
			t.Errorf("versionText lacks %q:\n%s", want, got)
		}
	}
	// Without a revision it says so, and does not claim that any go build
	// records one: GOFLAGS=-buildvcs=false (or a build outside a clone)
	// makes none, and a newcomer who ran go build must learn why.
	if got := versionText(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}); !strings.Contains(got, "revision unknown") || !strings.Contains(got, "-buildvcs=false") {
		t.Errorf("no revision: %q", got)
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		if code, out, _ := runArena(args...); code != 0 || !strings.HasPrefix(out, "arena ") {
			t.Errorf("arena %s: exit %d, %q", strings.Join(args, " "), code, out)
		}
	}
}
