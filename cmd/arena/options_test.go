package main

import (
	"fmt"
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
