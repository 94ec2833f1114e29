package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// TestScaleTCFlag: --scale-tc gives the reference speed of a --broker
// run's clock (the coordinator's own workers play at scale 1, and the
// record says so), off leaves the record unscaled, and a value that is
// neither, or the flag without --broker, is refused.
func TestScaleTCFlag(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		scale     string
		wantScale float64
		wantNPS   float64
	}{{"1000", 1, 1000}, {"off", 0, 0}} {
		out := filepath.Join(dir, tc.scale+".jsonl")
		code, _, stderr := runArena("tournament", "--agents", "random", "greedy", "--games", "2", "--tc", "1s+10ms", "--concurrency", "1",
			"--broker", "embedded", "--listen", "127.0.0.1:0", "--scale-tc", tc.scale, "--no-progress", "--out", out)
		if code != 0 {
			t.Fatalf("--scale-tc %s: exit %d: %s", tc.scale, code, stderr)
		}
		f, err := results.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Games) != 2 {
			t.Fatalf("--scale-tc %s: %d games", tc.scale, len(f.Games))
		}
		for _, g := range f.Games {
			if g.TCScale != tc.wantScale || g.WorkerNPS != tc.wantNPS || g.Players[0].TC != "1s+10ms" {
				t.Errorf("--scale-tc %s: game %d: scale %v, speed %v, tc %q", tc.scale, g.Index, g.TCScale, g.WorkerNPS, g.Players[0].TC)
			}
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tournament", "--agents", "random", "random", "--broker", "embedded", "--scale-tc", "fast"}, `--scale-tc "fast": use on`},
		{[]string{"match", "--agents", "random", "random", "--broker", "embedded", "--scale-tc", "0"}, `--scale-tc "0": use on`},
		{[]string{"tournament", "--agents", "random", "random", "--scale-tc", "off"}, "--scale-tc is for a run through a broker"},
	} {
		code, _, stderr := runArena(tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("arena %q: exit %d, want an error with %q: %s", tc.args, code, tc.want, stderr)
		}
	}
}
