package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// TestAdjudicateFlag: bad --adjudicate values are refused before any game
// with what was wrong; a good one ends othello6 games by solving, is kept
// in the header, and a resume with another value is refused.
func TestAdjudicateFlag(t *testing.T) {
	for _, c := range []struct{ value, want string }{
		{"solve", "say from how many empty cells to solve, e.g. solve:empties=10"},
		{"solve:empties=0", "option empties=0 is out of range: use an integer from 1 to 100"},
		{"solve:empties=12,time=1h", "option time=1h is out of range"},
		{"solve:empties=12,depth=3", `unknown option "depth" (valid: empties, time)`},
		{"draw", `unknown kind "draw"`},
	} {
		for _, cmd := range []string{"tournament", "match"} {
			code, _, errOut := runArena(cmd, "--agents", "random", "greedy", "--games", "2", "--adjudicate", c.value, "--no-progress")
			if code != 1 || !strings.Contains(errOut, c.want) {
				t.Errorf("%s --adjudicate %s: exit %d, stderr %q; want %q", cmd, c.value, code, errOut, c.want)
			}
		}
	}
	out := filepath.Join(t.TempDir(), "run.jsonl")
	if code, _, errOut := runArena("match", "--agents", "greedy", "alphabeta:depth=2", "--games", "4", "--adjudicate", "solve:empties=12", "--out", out, "--no-progress"); code != 0 {
		t.Fatalf("match: exit %d: %s", code, errOut)
	}
	f, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.Header.Config.Adjudicate != "solve:empties=12,time=1s" {
		t.Errorf("header: adjudicate %q", f.Header.Config.Adjudicate)
	}
	for _, g := range f.Games {
		if g.Adjudicated != results.AdjudicatedSolved || g.Termination != results.Adjudication {
			t.Errorf("game %d: termination %s, adjudicated %q", g.Index, g.Termination, g.Adjudicated)
		}
	}
	code, _, errOut := runArena("match", "--resume", out, "--adjudicate", "solve:empties=10", "--no-progress")
	if code != 1 || !strings.Contains(errOut, "adjudicate") {
		t.Errorf("resume with another --adjudicate: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runArena("match", "--resume", out, "--no-progress"); code != 0 {
		t.Errorf("resume: exit %d: %s", code, errOut)
	}
}
