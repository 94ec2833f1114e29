package main

import (
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// TestSummariseSaysOneRight: the summary of a run names its command and
// says "1 game" and "1 agent goroutine was" (it said "1 agent goroutines
// were", and "arena:" for every command).
func TestSummariseSaysOneRight(t *testing.T) {
	for kind, cmd := range map[string]string{results.RoundRobin: "tournament", results.Gauntlet: "tournament", results.Match: "match"} {
		s, err := arena.OpenSession(arena.SessionOptions{Concurrency: 1,
			Options: arena.Options{Game: "othello6", Kind: kind, Agents: []string{"random", "greedy"}, GamesPerPair: 2}})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		summarise(&b, s, arena.RunStats{Played: 1, Abandoned: 1}, time.Second)
		want := "arena " + cmd + ": played 1 game in 1.0 s (1.0 games/s)\n" +
			"arena " + cmd + ": 1 agent goroutine was still stuck in a move when its game was forfeited\n"
		if b.String() != want {
			t.Errorf("%s: summary\n%s\nwant\n%s", kind, b.String(), want)
		}
		b.Reset()
		summarise(&b, s, arena.RunStats{Played: 3, Abandoned: 2}, time.Second)
		if !strings.Contains(b.String(), ": played 3 games in") || !strings.Contains(b.String(), ": 2 agent goroutines were still stuck in a move when their games were forfeited\n") {
			t.Errorf("%s: summary of 3 games, 2 stuck:\n%s", kind, b.String())
		}
		s.Close()
	}
	if got := runCommand(results.Sweep); got != "tune sweep" {
		t.Errorf("the notes of a sweep are %q's", got)
	}
}

// TestRunNotesNamedByCommand: every line tournament and match write on
// stderr starts with "arena <command>: ", a tournament's progress lines
// and a match's status lines too, and a match of one pair says "1 pair"
// (it said "arena:", nothing before a status line, and "1 pairs").
func TestRunNotesNamedByCommand(t *testing.T) {
	for _, args := range [][]string{
		{"tournament", "--agents", "random", "greedy", "--games", "2", "--bootstrap", "0"},                   // and progress lines
		{"match", "--agents", "random", "greedy", "--games", "2", "--no-progress", "--rating-interval", "2"}, // and a status line
	} {
		code, stdout, stderr := runArena(args...)
		if code != 0 {
			t.Fatalf("arena %s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if len(lines) < 3 {
			t.Errorf("arena %s: stderr %q: want the run, its records, its summary (and a match's status)", args[0], stderr)
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "arena "+args[0]+": ") {
				t.Errorf("arena %s: a note without the command's prefix: %q", args[0], l)
			}
		}
		if args[0] == "tournament" && !strings.Contains(stderr, "arena tournament: 2/2 games") {
			t.Errorf("arena tournament: no progress line in %q", stderr)
		}
		if args[0] == "match" && (!strings.Contains(stdout, "Fixed-length match: 1 pair (2 games)\n") || !strings.Contains(stderr, ": pairs     1 [")) {
			t.Errorf("arena match of one pair:\n%s", stdout)
		}
	}
}
