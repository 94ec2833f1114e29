package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// formatArgs are the command lines of the format tests: a Swiss
// tournament of five agents (a bye a round) and a knockout of five with
// tie-break pairs.
var formatArgs = map[string][]string{
	"swiss": {"tournament", "--game", "othello6", "--agents", "random", "greedy", "greedy:name=g2", "random:name=r2", "random:name=r3",
		"--swiss", "3", "--bye", "draw", "--games", "2", "--seed", "4", "--bootstrap", "0"},
	"knockout": {"tournament", "--game", "othello6", "--agents", "random", "greedy", "greedy:name=g2", "random:name=r2", "random:name=r3",
		"--knockout", "--extra-pairs", "2", "--games", "2", "--seed", "4", "--bootstrap", "0"},
}

// TestTournamentFormats: arena tournament --swiss and --knockout play the
// same record with one worker and with two, print their standings,
// resume a cut record to the uninterrupted run's games and standings,
// and arena rate and report read their records.
func TestTournamentFormats(t *testing.T) {
	for name, args := range formatArgs {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			var outs [2]string
			var stdouts [2]string
			for w := 1; w <= 2; w++ {
				outs[w-1] = filepath.Join(dir, name+string(rune('0'+w))+".jsonl")
				code, stdout, stderr := runArena(append(args, "--out", outs[w-1], "--concurrency", string(rune('0'+w)))...)
				if code != 0 {
					t.Fatalf("%d workers: exit %d: %s", w, code, stderr)
				}
				stdouts[w-1] = stdout
			}
			one, two := readRecords(t, outs[0]), readRecords(t, outs[1])
			if err := sameGames(one.Games, two.Games); err != nil {
				t.Fatalf("1 and 2 workers: %v", err)
			}
			if stdouts[0] != stdouts[1] {
				t.Errorf("1 and 2 workers print different tables:\n%s\n%s", stdouts[0], stdouts[1])
			}
			c := one.Header.Config
			switch name {
			case "swiss":
				if c.Kind != results.Swiss || c.Rounds != 3 || c.Bye != "draw" || len(one.Games) != 3*2*2 {
					t.Errorf("header %+v, %d games", c, len(one.Games))
				}
				if !strings.Contains(stdouts[0], "Swiss standings after 3 of 3 rounds") || !strings.Contains(stdouts[0], "buchholz") {
					t.Errorf("no Swiss standings:\n%s", stdouts[0])
				}
			case "knockout":
				if c.Kind != results.Knockout || c.ExtraPairs != 2 || len(one.Games) < 4*2 {
					t.Errorf("header %+v, %d games", c, len(one.Games))
				}
				if !strings.Contains(stdouts[0], "Knockout bracket:") || !strings.Contains(stdouts[0], "round 3 match 1:") || !strings.Contains(stdouts[0], "Knockout places:\n    1  ") {
					t.Errorf("no knockout standings:\n%s", stdouts[0])
				}
			}

			// Cut after the header and three games, with a torn fourth
			// line, and resume with the file alone.
			data, _ := os.ReadFile(outs[1])
			lines := strings.SplitAfter(string(data), "\n")
			cut := filepath.Join(dir, "cut.jsonl")
			os.WriteFile(cut, []byte(lines[0]+lines[1]+lines[2]+lines[3]+lines[4][:20]), 0o644)
			code, stdout, stderr := runArena("tournament", "--resume", cut, "--bootstrap", "0", "--concurrency", "2")
			if code != 0 || !strings.Contains(stderr, "3 already recorded") {
				t.Fatalf("resume: exit %d: %s", code, stderr)
			}
			if err := sameGames(one.Games, readRecords(t, cut).Games); err != nil {
				t.Errorf("resumed run differs from the uninterrupted one: %v", err)
			}
			if stdout != stdouts[0] {
				t.Errorf("resumed run's tables differ:\n%s\nwant\n%s", stdout, stdouts[0])
			}

			// rate and report read the record as ordinary games.
			code, text, stderr := runArena("rate", outs[0], "--bootstrap", "0")
			if code != 0 || !strings.Contains(text, "Crosstable") || !strings.Contains(text, "r3") {
				t.Errorf("rate: exit %d: %s %s", code, text, stderr)
			}
			page := filepath.Join(dir, "r.html")
			if code, _, stderr := runArena("report", outs[0], "--out", page, "--bootstrap", "0"); code != 0 {
				t.Errorf("report: exit %d: %s", code, stderr)
			}
		})
	}
}

// TestTournamentFormatFlags: the formats' flags are checked and their
// errors name them.
func TestTournamentFormatFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--swiss", "2", "--knockout"}, "--gauntlet, --swiss and --knockout choose the kind"},
		{[]string{"--swiss", "5"}, "--swiss 5 is out of range: use 1 to 3"},
		{[]string{"--swiss", "2", "--bye", "half"}, "--bye half"},
		{[]string{"--knockout", "--bye", "draw"}, "--bye draw"},
		{[]string{"--extra-pairs", "1"}, "--extra-pairs 1: tie-break pairs belong to a knockout"},
		{[]string{"--knockout", "--extra-pairs", "-1"}, "--extra-pairs -1 is out of range"},
		{[]string{"--swiss", "2", "--shard", "1/2"}, "--shard 1/2: a swiss cannot be sharded"},
		{[]string{"--knockout", "--broker", "embedded"}, "--broker: a knockout runs on this machine's workers only"},
	} {
		args := append([]string{"tournament", "--agents", "random", "greedy", "random:name=r2", "random:name=r3", "--games", "2"}, tc.args...)
		code, _, stderr := runArena(args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d: %s\nwant %q", tc.args, code, stderr, tc.want)
		}
	}
}
