package main

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/option"
)

func TestFlagName(t *testing.T) {
	for name, want := range map[string]string{
		"MoveTime":        "--move-time",
		"Seed":            "--seed",
		"TTMB":            "--ttmb",
		"OpeningPlies":    "--opening-plies",
		"SPSA.Iterations": "--iterations",
	} {
		if got := flagName(name); got != want {
			t.Errorf("flagName(%q) = %q, want %q", name, got, want)
		}
	}
	for name, flag := range flagNames {
		if got := flagName(name); got != "--"+flag {
			t.Errorf("flagName(%q) = %q, want --%s", name, got, flag)
		}
	}
}

func TestErrorText(t *testing.T) {
	err := fmt.Errorf("resume: %w", option.New("MoveMargin", "0s", "use 1ms to 1h, or leave {MoveTime} at 0"))
	if got, want := errorText(err), "resume: --move-margin 0s: use 1ms to 1h, or leave --move-time at 0"; got != want {
		t.Errorf("errorText = %q, want %q", got, want)
	}
}

// TestArenaOptionsAreFlags: every option the arena library names in its
// errors (arena.Options, arena.SessionOptions) is a flag of tournament or
// match, so that errorText shows what to type.
func TestArenaOptionsAreFlags(t *testing.T) {
	rf, _, _, err := parseTournament(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	mf, _, err := parseMatch([]string{"--agents", "a", "b"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Agents", "GamesPerPair", "Seed", "Openings", "ShuffleOpenings", "MoveTime", "MoveMargin", "MaxPlies",
		"Adjudicate", "TimeControl", "Shard", "Concurrency", "Remote", "Out", "Resume", "SPRT"} {
		f := strings.TrimPrefix(flagName(name), "--")
		if rf.fs.Lookup(f) == nil && mf.fs.Lookup(f) == nil {
			t.Errorf("option %s is shown as --%s, which tournament and match do not have", name, f)
		}
	}
}
