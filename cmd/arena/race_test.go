package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// raceArgs is a race that greedy wins against random in about 60 pairs.
var raceArgs = []string{"race", "--base", "random", "--candidates", "greedy", "random", "random", "--sprt", "elo0=0,elo1=50", "--concurrency", "2", "--format", "json"}

func decodeRace(t *testing.T, out string) raceReport {
	t.Helper()
	var r raceReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return r
}

// TestRaceCommand: greedy wins; a record cut short, as a killed run
// leaves it, resumes to the same race; a decided record plays nothing.
func TestRaceCommand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "race.jsonl")
	code, out, errOut := runArena(append(raceArgs, "--out", path)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	full := decodeRace(t, out)
	if full.Decision != "winner" || full.Winner == nil || *full.Winner != "greedy" || len(full.Candidates) != 3 {
		t.Fatalf("%+v\n%s", full, errOut)
	}
	if !strings.Contains(errOut, "arena race: stage ") || !strings.Contains(errOut, "winner greedy") {
		t.Errorf("no status lines: %s", errOut)
	}
	// Keep the header and a third of the games, as a kill leaves a record.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	cut := filepath.Join(dir, "cut.jsonl")
	if err := os.WriteFile(cut, []byte(strings.Join(lines[:1+len(lines)/3], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runArena("race", "--resume", cut, "--format", "json")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errOut)
	}
	resumed := decodeRace(t, out)
	resumed.Uncounted, full.Uncounted = 0, 0 // games in flight differ
	if a, b := mustJSON(t, resumed), mustJSON(t, full); a != b {
		t.Errorf("resumed:\n%s\nwant\n%s", a, b)
	}
	code, _, errOut = runArena("race", "--resume", path)
	if code != 0 || strings.Contains(errOut, "played") {
		t.Errorf("resuming a decided race: exit %d: %s", code, errOut)
	}
	if code, _, errOut = runArena("tournament", "--resume", path); code == 0 || !strings.Contains(errOut, "arena race --resume") {
		t.Errorf("tournament --resume of a race: exit %d: %s", code, errOut)
	}
}

// TestRaceGamesRunOut: a race whose games run out before a decision says
// so and succeeds, as an undecided match does.
func TestRaceGamesRunOut(t *testing.T) {
	// The random candidates are eliminated (their later games skipped)
	// before greedy, 20 pairs in, has qualified.
	code, out, errOut := runArena("race", "--base", "random", "--candidates", "greedy", "random", "random", "--sprt", "elo0=0,elo1=50", "--games", "40", "--concurrency", "1")
	if code != 0 || !strings.Contains(out, "Undecided after") || !strings.Contains(out, "eliminated") {
		t.Errorf("exit %d: %s%s", code, out, errOut)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRaceFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"race", "--base", "random", "--candidates", "greedy", "random"}, "--sprt"},
		{[]string{"race", "--candidates", "greedy", "random", "--sprt", "elo0=0,elo1=5"}, "--base"},
		{[]string{"race", "--agents", "random", "greedy", "--base", "random", "--sprt", "elo0=0,elo1=5"}, "not both"},
		{[]string{"race", "--base", "random", "--candidates", "greedy", "--sprt", "elo0=0,elo1=5"}, "at least two candidates"},
		{[]string{"race", "--base", "random", "--candidates", "greedy", "random", "--sprt", "elo0=0,elo1=5", "--format", "csv"}, "--format"},
		// The broker's flags, checked as for match.
		{[]string{"race", "--base", "random", "--candidates", "greedy", "random", "--sprt", "elo0=0,elo1=5", "--listen", "127.0.0.1:0"}, "add --broker embedded"},
		{[]string{"race", "--base", "random", "--candidates", "greedy", "random", "--sprt", "elo0=0,elo1=5", "--concurrency", "0"}, "--broker"},
	} {
		code, _, errOut := runArena(tc.args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d: %s", tc.args, code, errOut)
		}
	}
}

// FuzzRaceFlags: race's flag parsing never panics, and what it accepts is
// within the limits (FuzzFlags covers tournament and match).
func FuzzRaceFlags(f *testing.F) {
	for _, s := range []string{
		"--base a --candidates b c --sprt elo0=0,elo1=5", "--agents a b c --sprt elo0=0,elo1=5 --games 100000000000",
		"--base a --candidates b --sprt elo0=0,elo1=5", "--resume r.jsonl", "--base a --candidates b c --sprt elo0=0,elo1=5 --model normalized",
		"--base a --candidates b c --sprt elo0=0,elo1=5 --broker embedded --concurrency 0 --listen 127.0.0.1:0",
		"--base a --candidates b c --sprt elo0=0,elo1=5 --ack-wait 0s --broker embedded", "--agents a b c --base a",
		"--base a --candidates b c --sprt elo0=5,elo1=0", "--base a --candidates b c --sprt elo0=0,elo1=5 --batch 0 --broker nats://h:1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if !utf8.ValidString(line) {
			return
		}
		args := strings.Fields(line)
		rf, test, err := parseRace(args, io.Discard)
		if err != nil {
			return
		}
		if test == nil && *rf.resume == "" {
			t.Fatalf("%q: a new race accepted without a test", args)
		}
		pairs := uint64(0) // resumed: the file has the agents
		if n := len(rf.agents); n > 0 {
			if n < 2 { // one candidate: the library's Candidates error
				t.Fatalf("%q: accepted a race of %d agents", args, n)
			}
			pairs = uint64(n - 1)
		}
		if *rf.concurrency == 0 && *rf.broker.broker != "" {
			*rf.concurrency = 1 // remote workers only: valid with a broker
		}
		checkAccepted(t, args, rf, pairs)
	})
}
