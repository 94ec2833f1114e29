package main

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTournamentNamesEnginesByProgram: a tournament of two engines given
// by their specs alone names them by their program (this test binary,
// arena.test, twice: the second arena.test#2), so its tables are as
// narrow as the built-ins' rather than as wide as the specs; the record
// keeps each spec whole.
func TestTournamentNamesEnginesByProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	out := filepath.Join(t.TempDir(), "run.jsonl")
	specs := []string{"ugi:cmd=" + engineCommand(t, "greedy") + ",depth=1", "ugi:cmd=" + engineCommand(t, "random") + ",depth=1"}
	code, stdout, stderr := runArena("tournament", "--game", "othello6", "--agents", specs[0], specs[1],
		"--games", "2", "--concurrency", "1", "--bootstrap", "0", "--no-progress", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if strings.Contains(stdout, "ugi:cmd=") || !strings.Contains(stdout, "│ arena.test   ") || !strings.Contains(stdout, "│ arena.test#2 ") {
		t.Errorf("the tables do not name the engines arena.test and arena.test#2:\n%s", stdout)
	}
	for _, line := range strings.Split(stdout, "\n") {
		if n := utf8.RuneCountInString(line); n > 80 && strings.ContainsAny(line, "│┌└├") {
			t.Errorf("a table line of %d columns (at most 80 with two short names): %s", n, line)
		}
	}
	f := readRecords(t, out)
	names := []string{"arena.test", "arena.test#2"}
	for i, a := range f.Header.Config.Agents {
		if a.Name != names[i] || a.Spec != specs[i] {
			t.Errorf("header agent %d: %+v, want name %q and spec %q", i, a, names[i], specs[i])
		}
	}
}

// TestPlayNamesEnginesByProgram: play names its two agents as a
// tournament would, engines by their program and made unique.
func TestPlayNamesEnginesByProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	engine := "ugi:cmd=" + engineCommand(t, "greedy") + ",depth=1"
	code, stdout, stderr := runArena("play", "--game", "othello6", "--agents", engine, engine, "--quiet")
	if first, _, _ := strings.Cut(stdout, "\n"); code != 0 || first != "othello6: arena.test (first) vs arena.test#2 (second), seed 1" {
		t.Errorf("exit %d, first line %q\n%s", code, first, stderr)
	}
}
