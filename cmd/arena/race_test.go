package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
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
		checkAccepted(t, args, rf, pairs)
	})
}

// TestRaceBrokerKilled: a race through the embedded broker, its games
// played by an arena worker process (the coordinator plays none), killed
// (SIGKILL) in the middle and resumed on the same address, decides as the
// local race with the same seed (its games depend only on the seed).
func TestRaceBrokerKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("a run of several seconds")
	}
	dir := t.TempDir()
	// raceArgs with a candidate slow enough (some 50 ms a game) that the
	// kill comes in the middle; mcts with a number of iterations plays
	// the same games from the same seed.
	args := slices.Clone(raceArgs)
	args[slices.Index(args, "greedy")] = "mcts:iters=3000"
	code, out, errOut := runArena(args...)
	if code != 0 {
		t.Fatalf("local race: exit %d: %s", code, errOut)
	}
	want := decodeRace(t, out)
	if want.Decision != "winner" {
		t.Fatalf("the local race: %+v", want)
	}
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	listen := fmt.Sprintf("127.0.0.1:%d", port)
	w := startArena(t, dir, "worker", "--broker", url, "--concurrency", "1", "--patience", "60s")
	broker := []string{"--concurrency", "0", "--broker", "embedded", "--ack-wait", "2s", "--listen", listen, "--rating-interval", "-1"}
	first := startArena(t, dir, append(append(args, broker...), "--out", "race.jsonl")...)
	path := filepath.Join(dir, "race.jsonl")
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if b, _ := os.ReadFile(path); bytes.Count(b, []byte(`"record":"game"`)) > 10 {
			break
		}
	}
	// Both stopped before the kill, so that the race cannot end meanwhile
	// on a machine that gives the test no processor for a while.
	for _, p := range []*proc{first, w} {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGSTOP)
	}
	syscall.Kill(-first.cmd.Process.Pid, syscall.SIGKILL)
	first.wait(t, 10*time.Second)
	syscall.Kill(-w.cmd.Process.Pid, syscall.SIGCONT)
	b, _ := os.ReadFile(path)
	if n := bytes.Count(b, []byte(`"record":"game"`)); n == 0 || n >= 2*want.Pairs {
		t.Fatalf("%d games recorded when the coordinator was killed, the race counts %d: the kill was to come in the middle", n, 2*want.Pairs)
	} else {
		t.Logf("killed after %d games (the race counts %d)", n, 2*want.Pairs)
	}
	var stdout bytes.Buffer
	second := startArenaOut(t, dir, &stdout, append([]string{"race", "--resume", "race.jsonl", "--format", "json"}, broker...)...)
	if err := second.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("resumed coordinator: %v\n%s", err, second.stderr.String())
	}
	if err := w.wait(t, 30*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, w.stderr.String())
	}
	got := decodeRace(t, stdout.String())
	got.Uncounted, want.Uncounted = 0, 0 // games in flight differ
	if a, b := mustJSON(t, got), mustJSON(t, want); a != b {
		t.Errorf("through the broker, killed and resumed:\n%s\nwant\n%s\n%s", a, b, second.stderr.String())
	}
}

// TestRaceLiveReport: race --report keeps the page of arena report, with
// its race section: the final page names the winner, as arena report of
// the record does.
func TestRaceLiveReport(t *testing.T) {
	dir := t.TempDir()
	page, rec := filepath.Join(dir, "live.html"), filepath.Join(dir, "race.jsonl")
	code, _, errOut := runArena(append(slices.Clone(raceArgs), "--out", rec, "--report", page)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "arena race: report in "+page) {
		t.Errorf("stderr does not name the page: %s", errOut)
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	const section = `<div class="race" data-decision="winner" data-winner="greedy">`
	if s := string(data); !strings.Contains(s, section) || strings.Contains(s, "Live:") || strings.Contains(s, "Interrupted") {
		t.Errorf("the final page lacks %s, or says it is live or interrupted", section)
	}
	after := filepath.Join(dir, "after.html")
	if code, _, errOut := runArena("report", rec, "--out", after); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	if data, _ := os.ReadFile(after); !strings.Contains(string(data), section) {
		t.Errorf("arena report of the record lacks %s", section)
	}
}
