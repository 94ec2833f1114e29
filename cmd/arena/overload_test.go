package main

import (
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

func TestOverloadNote(t *testing.T) {
	agents := func(specs ...string) []results.AgentInfo {
		var out []results.AgentInfo
		for _, s := range specs {
			out = append(out, results.AgentInfo{Name: s, Spec: s})
		}
		return out
	}
	for _, tc := range []struct {
		name        string
		agents      []results.AgentInfo
		concurrency int
		cpus        int
		want        string // "" for no note
	}{
		{"one thread each, enough CPUs", agents("random", "alphabeta:time=200ms"), 2, 2, ""},
		{"more games than CPUs", agents("random", "alphabeta:time=200ms"), 4, 2, "4 games at once × up to 1 search threads = 4 busy threads on 2 CPUs"},
		{"threads", agents("greedy", "mcts:time=1s,threads=2"), 2, 2, "2 games at once × up to 2 search threads = 4 busy threads on 2 CPUs; "},
		{"threads that fit", agents("greedy", "alphabeta:depth=4,threads=4"), 2, 8, ""},
		{"advice", agents("greedy", "alphabeta:threads=4"), 3, 8, "use --concurrency 2 or fewer threads="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := overloadNote(tc.agents, tc.concurrency, tc.cpus)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestTournamentWarnsWhenOverloaded: more games at once than CPUs is said
// on stderr and in the report's notes; as many as the CPUs is not.
func TestTournamentWarnsWhenOverloaded(t *testing.T) {
	cpus := runtime.NumCPU()
	for _, tc := range []struct {
		concurrency int
		warn        bool
	}{{cpus + 1, true}, {cpus, false}} {
		code, stdout, stderr := runArena("tournament", "--game", "othello6", "--agents", "random", "greedy",
			"--games", "2", "--concurrency", strconv.Itoa(tc.concurrency), "--format", "json", "--bootstrap", "0", "--no-progress")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var rep results.Analysis
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		noted := strings.Contains(strings.Join(rep.Notes, "\n"), "the machine was overloaded")
		warned := strings.Contains(stderr, "arena tournament: warning: the machine was overloaded")
		if noted != tc.warn || warned != tc.warn {
			t.Errorf("--concurrency %d on %d CPUs: note %v, stderr warning %v; want %v\nnotes: %q\nstderr: %s",
				tc.concurrency, cpus, noted, warned, tc.warn, rep.Notes, stderr)
		}
	}
}
