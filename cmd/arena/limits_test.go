package main

import (
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// TestFlagLimits: every numeric flag outside its documented range is
// refused, before anything runs, with an error naming the flag and range.
func TestFlagLimits(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"tournament", "--games", "100000000000"}, "--games 100000000000: use an even number from 2 to 1000000"},
		{[]string{"tournament", "--games", "0"}, "--games 0: use an even number from 2"},
		{[]string{"tournament", "--games", "-4"}, "--games -4: use an even number"},
		{[]string{"tournament", "--games", "3"}, "--games 3: use an even number"},
		{[]string{"tournament", "--agents", "random", "greedy", "random", "--games", "400000"}, "--games 400000 with 3 agents makes 1200000 games in a round-robin; one run plays at most 1000000"},
		{[]string{"tournament", "--games", "500000"}, "with 4 agents makes 3000000 games"}, // the demo agents
		{[]string{"tournament", "--concurrency", "0"}, "--concurrency 0 is out of range: use 1 to 256"},
		{[]string{"tournament", "--concurrency", "100000"}, "--concurrency 100000 is out of range"},
		{[]string{"tournament", "--move-time", "-1s"}, "--move-time -1s is out of range: use 0 or 1ms to 24h"},
		{[]string{"tournament", "--move-time", "1000h"}, "--move-time 1000h is out of range"},
		{[]string{"tournament", "--move-margin", "0s"}, "--move-margin 0s is out of range: use 1ms to 1h"},
		{[]string{"tournament", "--max-plies", "-1"}, "--max-plies -1 is out of range: use 0 to 20000 (0: no cap)"},
		{[]string{"tournament", "--max-plies", "2000000"}, "--max-plies 2000000 is out of range: use 0 to 20000 (0: no cap)"},
		{[]string{"tournament", "--rating-interval", "-2"}, "--rating-interval -2 is out of range"},
		{[]string{"tournament", "--openings", "random:1000000000"}, "--openings random:1000000000: want random:K with K from 0 to 1000"},
		{[]string{"match", "--agents", "random", "greedy", "--games", "100000000000"}, "--games 100000000000: use an even number"},
		{[]string{"match", "--agents", "random", "greedy", "--concurrency", "-3"}, "--concurrency -3 is out of range"},
		{[]string{"match", "--agents", "random", "greedy", "--sprt", "elo0=NaN,elo1=5"}, "not a finite number"},
		{[]string{"match", "--agents", "random", "greedy", "--report", "/nonexistent/r.html"}, "--report /nonexistent/r.html cannot be written: the directory /nonexistent does not exist"},
		{[]string{"tournament", "--report", "/nonexistent/r.html"}, "--report /nonexistent/r.html cannot be written"},
		{[]string{"perft", "--depth", "65"}, "--depth 65 is out of range: use 1 to 64 plies"},
		{[]string{"solve", "--threads", "257"}, "--threads 257: use 1 to 256"},
		{[]string{"solve", "--generic", "--tt", "100000000"}, "--tt 100000000: use 1 to 65536 MB"},
		{[]string{"solve", "--tt", "-1"}, "--tt -1: use 1 to 65536 MB (0: the solver's choice)"},
		// 512 GB of tables in all: one per thread with --plies.
		{[]string{"solve", "--game", "erdos", "--plies", "1", "--threads", "256", "--tt", "2048", "--time", "10ms"}, "(with --plies each thread has its own table) = 524288 MB is more than this machine can hold"},
		{[]string{"solve", "--time", "-1s"}, "--time -1s is out of range: use 0 or 1ns to 8760h"},
		{[]string{"analyse", "--player", "2"}, "--player 2 is out of range: use 0 to 1"},
	}
	for _, tt := range tests {
		start := time.Now()
		code, _, errOut := runArena(tt.args...)
		if code != 1 || !strings.Contains(errOut, tt.want) {
			t.Errorf("arena %v: exit %d, stderr %q; want exit 1 and %q", tt.args, code, errOut, tt.want)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("arena %v took %v to refuse", tt.args, el)
		}
	}
}

// TestFlagLimitsAccept: the edges of the ranges are accepted.
func TestFlagLimitsAccept(t *testing.T) {
	for _, args := range [][]string{
		{"--agents", "random", "greedy", "--games", "1000000", "--concurrency", "256", "--max-plies", "0", "--rating-interval", "-1"},
		{"--games", "2", "--move-time", "24h", "--move-margin", "1ms", "--openings", "random:1000"},
		{"--gauntlet", "--agents", "a", "b", "c", "--games", "500000"},
	} {
		if _, _, _, err := parseTournament(args, io.Discard); err != nil {
			t.Errorf("tournament %v: %v", args, err)
		}
	}
	if _, _, err := parseMatch([]string{"--agents", "a", "b", "--games", "1000000"}, io.Discard); err != nil {
		t.Errorf("match: %v", err)
	}
}

// FuzzFlags feeds argument vectors to the tournament and match flag
// parsing and validation (nothing is played): no input may panic, and what
// is accepted lies within the documented limits.
func FuzzFlags(f *testing.F) {
	for _, s := range []string{
		"--games 40", "--games 100000000000", "--agents a b c --gauntlet --games 8",
		"--concurrency 0", "--move-time 1ms --move-margin 1h", "--openings random:3+seed",
		"--sprt elo0=0,elo1=5 --agents a b", "--max-plies -1", "--rating-interval 9",
		"--agents --games", "--format json --bootstrap 10", "--anchor x=NaN", "--prior 1e400",
		"--tc 1s+10ms", "--tc 1s --move-time 1s", "--tc 10",
		"--shard 2/3", "--shard 0/3", "--shard 1/10001", "--shard 1/1", "--shard 3", "--agents a b --games 2 --shard 2/2",
	} {
		f.Add(false, s)
		f.Add(true, s)
	}
	f.Fuzz(func(t *testing.T, match bool, line string) {
		if !utf8.ValidString(line) {
			return
		}
		args := strings.Fields(line)
		if match {
			rf, _, err := parseMatch(args, io.Discard)
			if err == nil && slices.Contains(args, "--shard") {
				t.Fatalf("%q: a match accepted --shard", args)
			}
			if err == nil {
				checkAccepted(t, args, rf, 1)
			}
			return
		}
		rf, gauntlet, _, err := parseTournament(args, io.Discard)
		if err == nil {
			n := uint64(len(rf.agents))
			if n == 0 && *rf.resume == "" {
				n = uint64(len(demoCandidates))
			}
			pairs := n * (n - 1) / 2
			if gauntlet {
				pairs = n - 1
			}
			if n == 0 {
				pairs = 0 // resumed: the file has the agents
			}
			checkAccepted(t, args, rf, pairs)
		}
	})
}

func checkAccepted(t *testing.T, args []string, rf *runFlags, pairs uint64) {
	t.Helper()
	g := *rf.games
	switch {
	case g < 2 || g > maxGames || g%2 != 0:
		t.Fatalf("%q: accepted --games %d", args, g)
	case pairs*uint64(g) > maxGames:
		t.Fatalf("%q: accepted %d pairings × --games %d", args, pairs, g)
	case *rf.concurrency < 0 || (*rf.concurrency == 0 && !rf.broker.remote()) || *rf.concurrency > maxConcurrency:
		t.Fatalf("%q: accepted --concurrency %d", args, *rf.concurrency)
	case *rf.moveTime < 0 || *rf.moveTime > maxMoveTime:
		t.Fatalf("%q: accepted --move-time %v", args, *rf.moveTime)
	case *rf.moveMargin < time.Millisecond || *rf.moveMargin > arena.MaxMoveMargin:
		t.Fatalf("%q: accepted --move-margin %v", args, *rf.moveMargin)
	case *rf.maxPlies < 0 || *rf.maxPlies > maxMaxPlies:
		t.Fatalf("%q: accepted --max-plies %d", args, *rf.maxPlies)
	case *rf.interval < -1:
		t.Fatalf("%q: accepted --rating-interval %d", args, *rf.interval)
	case *rf.tc != "" && *rf.moveTime != 0:
		t.Fatalf("%q: accepted --tc with --move-time", args)
	}
	if rf.shard != nil && *rf.shard != "" {
		if s, err := results.ParseShard(*rf.shard); err != nil || (s != nil && (s.Index < 1 || s.Index > s.Count || s.Count > results.MaxShards)) {
			t.Fatalf("%q: accepted --shard %q (%v)", args, *rf.shard, err)
		}
	}
	if *rf.tc != "" {
		if _, err := agents.ParseTimeControl(*rf.tc); err != nil {
			t.Fatalf("%q: accepted --tc %q: %v", args, *rf.tc, err)
		}
	}
}

// TestTimeControlFlags: bad --tc values and --tc with --move-time are
// refused before anything runs, with errors saying what to type; a good
// --tc is recorded in the header, a resume with another --tc is refused,
// and play accepts --tc.
func TestTimeControlFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"tournament", "--tc", "10"}, `--tc: time control "10": the base is not a duration (write BASE or BASE+INC with units, e.g. 10s+100ms`},
		{[]string{"tournament", "--tc", "1s+fast"}, "the increment is not a duration"},
		{[]string{"tournament", "--tc", "0s"}, "the base is out of range"},
		{[]string{"tournament", "--tc", "48h"}, "the base is out of range"},
		{[]string{"tournament", "--tc", "1s+2h"}, "the increment is out of range"},
		{[]string{"tournament", "--tc", "1s+-1ms"}, "the increment is out of range"},
		{[]string{"tournament", "--tc", "1s", "--move-time", "50ms"}, "--tc 1s and --move-time 50ms cannot be used together"},
		{[]string{"match", "--agents", "random", "greedy", "--tc", "x"}, `--tc: time control "x"`},
		{[]string{"tournament", "--agents", "random:tc=1", "greedy", "--games", "2"}, `tc=time control "1"`},
		{[]string{"play", "--agents", "random", "greedy", "--tc", "1s+"}, `--tc: time control "1s+"`},
	} {
		code, _, errOut := runArena(tt.args...)
		if code != 1 || !strings.Contains(errOut, tt.want) {
			t.Errorf("arena %v: exit %d, stderr %q; want exit 1 and %q", tt.args, code, errOut, tt.want)
		}
	}
	out := filepath.Join(t.TempDir(), "run.jsonl")
	args := []string{"tournament", "--game", "othello6", "--agents", "random", "greedy:tc=5s", "--games", "2", "--tc", "2s+20ms", "--no-progress", "--out", out}
	if code, _, errOut := runArena(args...); code != 0 || !strings.Contains(errOut, "openings random:2, clock 2s+20ms\n") {
		t.Fatalf("arena %v: exit %d, stderr %q (want the clock in the first line)", args, code, errOut)
	}
	f, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.Header.Config.TimeControl != "2s+20ms" || len(f.Games) != 2 {
		t.Fatalf("header tc %q, %d games", f.Header.Config.TimeControl, len(f.Games))
	}
	for _, g := range f.Games {
		for _, p := range g.Players {
			if want := map[string]string{"random": "2s+20ms", "greedy:tc=5s": "5s"}[p.Name]; p.TC != want {
				t.Errorf("game %d: %s on a %q clock, want %q", g.Index, p.Name, p.TC, want)
			}
		}
		if len(g.Clocks) != g.Plies-len(g.Opening) || len(g.MoveStats) != g.Players[0].Moves+g.Players[1].Moves {
			t.Errorf("game %d: %d clock entries, %d move stats for %d plies", g.Index, len(g.Clocks), len(g.MoveStats), g.Plies)
		}
	}
	code, _, errOut := runArena("tournament", "--resume", out, "--tc", "2s")
	if code != 1 || !strings.Contains(errOut, "tc: 2s+20ms (file) ≠ 2s (now)") {
		t.Errorf("resume with another --tc: exit %d: %s", code, errOut)
	}
	code, stdout, errOut := runArena("play", "--agents", "random", "greedy:tc=3s", "--tc", "1s+5ms", "--quiet")
	if code != 0 || !strings.Contains(stdout, "clock of random (1s+5ms): ") || !strings.Contains(stdout, "clock of greedy:tc=3s (3s): ") {
		t.Errorf("play --tc: exit %d: %s%s", code, stdout, errOut)
	}
}
