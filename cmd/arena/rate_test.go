package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRateReprintsTournamentTable: "arena rate FILE" on a tournament's
// record file prints the very table the tournament printed, bootstrap
// intervals included (rate used seed 1 whatever the tournament's seed).
// Three random players, so that the intervals are finite and depend on the
// seed.
func TestRateReprintsTournamentTable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "run.jsonl")
	code, tour, errOut := runArena("tournament", "--game", "othello6", "--agents", "random", "random:name=rnd2", "random:name=rnd3",
		"--games", "20", "--seed", "7", "--concurrency", "2", "--bootstrap", "300", "--format", "csv", "--no-progress", "--out", file)
	if code != 0 {
		t.Fatalf("tournament: exit %d: %s", code, errOut)
	}
	if strings.Contains(tour, "inf") {
		t.Fatalf("open intervals, on which the seed has no effect:\n%s", tour)
	}
	code, rated, errOut := runArena("rate", file, "--bootstrap", "300", "--format", "csv")
	if code != 0 {
		t.Fatalf("rate: exit %d: %s", code, errOut)
	}
	if tour != rated {
		t.Errorf("tournament printed\n%s\nrate printed\n%s", tour, rated)
	}
	// An explicit seed still wins.
	if _, other, _ := runArena("rate", file, "--bootstrap", "300", "--format", "csv", "--seed", "8"); other == tour {
		t.Error("--seed 8 printed the seed-7 table: the flag is ignored")
	}
}

// TestRatingFlagLimits: the rating flags reach results' checks (whose
// cases are its unit tests) and are refused in flag names, before any file
// is read or made.
func TestRatingFlagLimits(t *testing.T) {
	file := filepath.Join(t.TempDir(), "none.jsonl") // never read: the flags fail first
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--bootstrap", "1000000000"}, "--bootstrap 1000000000: want 0 to 1000000 resamples"},
		{[]string{"--prior", "+Inf"}, "--prior +Inf: want a number of virtual draws"},
		{[]string{"--anchor", "random=NaN"}, `--anchor "random=NaN": the rating must be a finite number`},
		{[]string{"--draws", "third"}, `unknown --draws "third" (valid: half, davidson)`},
	}
	for _, tt := range tests {
		for _, cmd := range []string{"rate", "tournament"} {
			args := append([]string{cmd}, tt.args...)
			if cmd == "rate" {
				args = append(args, file)
			}
			code, _, errOut := runArena(args...)
			if code != 1 || !strings.Contains(errOut, tt.want) {
				t.Errorf("arena %v: exit %d, stderr %q (want %q)", args, code, errOut, tt.want)
			}
		}
	}
	if _, err := os.Stat(file); err == nil {
		t.Error("a record file appeared")
	}
}

// TestTournamentChecksAnchorFirst: an --anchor that names no agent fails
// before any game is played or a record file is created.
func TestTournamentChecksAnchorFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "run.jsonl")
	code, out, errOut := runArena("tournament", "--game", "othello6", "--agents", "random", "greedy",
		"--games", "1000", "--anchor", "grdy=0", "--no-progress", "--out", file)
	if code != 1 || !strings.Contains(errOut, "--anchor grdy: no such player (players: random, greedy)") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if strings.Contains(errOut, "played") || out != "" {
		t.Errorf("games were played: %q %q", out, errOut)
	}
	if _, err := os.Stat(file); err == nil {
		t.Error("the record file was created")
	}
	// A valid anchor names an agent by its (possibly given) name.
	code, _, errOut = runArena("tournament", "--game", "othello6", "--agents", "random", "greedy:name=g",
		"--games", "2", "--anchor", "g=1500", "--bootstrap", "0", "--no-progress", "--format", "csv")
	if code != 0 {
		t.Errorf("anchor g=1500: exit %d: %s", code, errOut)
	}
}

// TestRateExportKeepsRecords: --export --out refuses to write over one of
// the record files it reads, or over any other record file.
func TestRateExportKeepsRecords(t *testing.T) {
	dir := t.TempDir()
	rec, other := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for _, p := range []string{rec, other} {
		if code, _, stderr := runArena("tournament", "--agents", "random", "greedy", "--games", "2", "--bootstrap", "0", "--out", p); code != 0 {
			t.Fatal(stderr)
		}
	}
	before, _ := os.ReadFile(other)
	for _, tc := range []struct{ out, want string }{
		{rec, "would overwrite the record file"},
		{other, "is a record file of games"},
		{filepath.Join(dir, "missing", "games.csv"), "cannot be written: the directory"},
	} {
		code, _, stderr := runArena("rate", rec, "--export", "csv", "--out", tc.out)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("--out %s: exit %d, stderr %q", tc.out, code, stderr)
		}
	}
	if after, _ := os.ReadFile(other); string(after) != string(before) {
		t.Error("the other record file changed")
	}
	if code, _, stderr := runArena("rate", rec, "--export", "csv", "--out", filepath.Join(dir, "games.csv")); code != 0 {
		t.Errorf("export to a new file: %s", stderr)
	}
}

// TestRateTellsNameClashes: rate and report say when one name stands for
// different specs in the files they pool (as two engines named after
// their program, engine.py, would), with both specs and files.
func TestRateTellsNameClashes(t *testing.T) {
	dir := t.TempDir()
	one, two := filepath.Join(dir, "one.jsonl"), filepath.Join(dir, "two.jsonl")
	for _, run := range [][]string{{one, "random:name=x"}, {two, "greedy:name=x"}} {
		if code, _, errOut := runArena("tournament", "--agents", run[1], "random:name=r", "--games", "2", "--no-progress", "--out", run[0]); code != 0 {
			t.Fatalf("tournament: exit %d: %s", code, errOut)
		}
	}
	want := `arena rate: note: the name x stands for "random:name=x" in ` + one + ` and "greedy:name=x" in ` + two + `: their games are pooled`
	for _, args := range [][]string{{"rate", one, two}, {"rate", one, two, "--format", "json"}} {
		if code, _, errOut := runArena(args...); code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("arena %s: exit %d, stderr %q; want %q", strings.Join(args, " "), code, errOut, want)
		}
	}
	if code, _, errOut := runArena("rate", one); code != 0 || strings.Contains(errOut, "stands for") {
		t.Errorf("one file: exit %d, %q", code, errOut)
	}
}
