//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents/botproc/botproctest"
)

// buildBot compiles the cg agent's test bot.
func buildBot(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "cgbot")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.Command(goTool, "build", "-o", bin, "../../agents/testdata/cgbot").CombinedOutput(); err != nil {
		t.Fatalf("building the test bot: %v\n%s", err, out)
	}
	return bin
}

// TestTournamentWithCodinGameBots runs unmodified-protocol bots through the
// cg agent in a tournament: a bot that plays properly finishes its games
// normally (its command lines accepted although they are not among the
// built-in plans), a garbage-printing bot loses by the game's rules (an
// illegal_move forfeit saying why) and a stalling one loses on time.
func TestTournamentWithCodinGameBots(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs external processes")
	}
	bot := buildBot(t)
	out := filepath.Join(t.TempDir(), "run.jsonl")
	// Generous limits but the staller's (CodinGame's 50 ms): the machine
	// may be loaded, and only the staller should time out.
	code, stdout, stderr := runArena("tournament", "--game", "tryangle:seed=3", "--games", "2", "--concurrency", "1",
		"--move-time", "2s", "--bootstrap", "10", "--out", out, "--agents",
		"cg:cmd="+bot+" play,turn=1s,name=player", "cg:cmd="+bot+" garbage 3,turn=1s,name=garbage", "cg:cmd="+bot+" stall 2,name=staller")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type player struct {
		Name string `json:"name"`
	}
	games := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var g struct {
			Record      string    `json:"record"`
			Players     [2]player `json:"players"`
			Winner      int       `json:"winner"`
			Termination string    `json:"termination"`
			Forfeit     int       `json:"forfeit"`
			Detail      string    `json:"detail"`
			Moves       []string  `json:"moves"`
		}
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		if g.Record != "game" {
			continue
		}
		games++
		names := g.Players[0].Name + " vs " + g.Players[1].Name
		has := func(n string) int {
			for i, p := range g.Players {
				if p.Name == n {
					return i
				}
			}
			return -1
		}
		switch {
		case has("staller") >= 0:
			if g.Termination != "timeout" || g.Winner != 1-has("staller") {
				t.Errorf("%s: %s, winner %d; the staller should lose on time", names, g.Termination, g.Winner)
			}
		case has("garbage") >= 0:
			// An unknown command is a move that loses by the rules (score
			// −1); the record says it was a forfeit, and why.
			if g.Termination != "illegal_move" || g.Forfeit != has("garbage") || g.Winner != 1-has("garbage") || len(g.Moves) != 3 ||
				!strings.Contains(g.Detail, `garbage lost by the game's rules with its move at ply 3: unknown command "HELLO WORLD"`) {
				t.Errorf("%s: %s (%s), forfeit %d, winner %d after %d turns; garbage should lose on turn 3", names, g.Termination, g.Detail, g.Forfeit, g.Winner, len(g.Moves))
			}
		}
		if has("player") >= 0 && has("staller") < 0 && has("garbage") < 0 {
			t.Errorf("unexpected pairing %s", names)
		}
		if has("player") >= 0 && !strings.Contains(strings.Join(g.Moves, "\n"), "MOVE") && g.Termination == "normal" && len(g.Moves) > 3 {
			t.Errorf("%s: the playing bot's MOVE commands are not in the record", names)
		}
	}
	if games != 6 {
		t.Errorf("%d games recorded, want 6", games)
	}
}

// TestStubbornBotsTournament runs cg bots through a shell script whose
// background child ignores SIGTERM, SIGINT and SIGHUP and keeps the bot's
// output open: the tournament still ends, records every game (timeouts and
// crashes with their reasons) and leaves no process behind.
func TestStubbornBotsTournament(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs external processes")
	}
	if runtime.GOOS != "linux" {
		t.Skip("checks processes in /proc")
	}
	bot := buildBot(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "bot.sh")
	text := fmt.Sprintf(`#!/bin/sh
trap '' TERM INT HUP
sh -c 'echo $$ >"$0.tmp" && mv "$0.tmp" "$0"; exec sleep 300' %[1]s/child.$$ &
until [ -s %[1]s/child.$$ ]; do sleep 0.01; done
echo $$ >%[1]s/shell.$$
%[2]s "$@"
`, dir, bot)
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	pids := func() []int {
		var out []int
		files, _ := filepath.Glob(filepath.Join(dir, "*.[0-9]*"))
		for _, f := range files {
			if strings.HasSuffix(f, ".tmp") {
				continue
			}
			b, _ := os.ReadFile(f)
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				out = append(out, pid)
			}
		}
		return out
	}
	t.Cleanup(func() {
		for _, pid := range pids() {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	out := filepath.Join(t.TempDir(), "run.jsonl")
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, stdout, stderr := runArena("tournament", "--game", "tryangle:seed=3", "--games", "2", "--concurrency", "2",
			"--move-time", "3s", "--bootstrap", "10", "--no-progress", "--out", out, "--agents",
			"cg:cmd="+script+" play,turn=1s,name=player", "cg:cmd="+script+" stall 2,turn=1s,name=staller",
			"cg:cmd="+script+" crash 3,turn=1s,name=crasher")
		done <- result{code, stdout, stderr}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the tournament has not ended after 2 minutes")
	}
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	games := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var g struct {
			Record  string `json:"record"`
			Players [2]struct {
				Name string `json:"name"`
			} `json:"players"`
			Termination string `json:"termination"`
			Forfeit     int    `json:"forfeit"`
			Detail      string `json:"detail"`
		}
		if err := json.Unmarshal([]byte(line), &g); err != nil {
			t.Fatal(err)
		}
		if g.Record != "game" {
			continue
		}
		games++
		names := g.Players[0].Name + " vs " + g.Players[1].Name
		// The staller fails on turn 2, before the crasher's turn 3.
		loser, want, detail := "crasher", "crash", "crashed choosing a move: cg crasher: bot crashed: exit status 3"
		if strings.Contains(names, "staller") {
			loser, want, detail = "staller", "timeout", "timed out choosing a move after"
		}
		if g.Termination != want || g.Forfeit < 0 || g.Players[g.Forfeit].Name != loser || !strings.Contains(g.Detail, detail) {
			t.Errorf("%s: %s by %d (%s); want %s by %s", names, g.Termination, g.Forfeit, g.Detail, want, loser)
		}
	}
	if games != 6 {
		t.Errorf("%d games recorded, want 6", games)
	}
	all := pids()
	if len(all) < 12 { // a shell and a child per bot per game
		t.Errorf("only %d bot processes recorded their pids", len(all))
	}
	deadline := time.Now().Add(time.Second)
	for _, pid := range all {
		for botproctest.Running(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("bot process %d is still running after the tournament", pid)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// A cg bot on a game without CodinGame protocol is refused before anything
// is played or written.
func TestCGMismatchRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.jsonl")
	for _, args := range [][]string{
		{"tournament", "--game", "othello6", "--out", out, "--agents", "cg:cmd=./bot", "random"},
		{"match", "--game", "othello6", "--out", out, "--agents", "random", "cg:cmd=./bot"},
		{"play", "--game", "othello6", "--agents", "cg:cmd=./bot", "random"},
	} {
		code, stdout, stderr := runArena(args...)
		if code == 0 || stdout != "" || !strings.Contains(stderr, `agent "cg:cmd=./bot": cg: bots speak the CodinGame protocol of tryangle; othello6 has none`) {
			t.Errorf("arena %v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a record file was written")
	}
}
