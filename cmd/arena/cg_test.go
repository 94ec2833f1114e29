package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
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
// built-in plans), a garbage-printing bot loses by the game's rules and a
// stalling one loses on time.
func TestTournamentWithCodinGameBots(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs external processes")
	}
	bot := buildBot(t)
	out := filepath.Join(t.TempDir(), "run.jsonl")
	code, stdout, stderr := runArena("tournament", "--game", "tryangle:seed=3", "--games", "2", "--concurrency", "1",
		"--bootstrap", "10", "--out", out, "--agents",
		"cg:cmd="+bot+" play,name=player", "cg:cmd="+bot+" garbage 3,name=garbage", "cg:cmd="+bot+" stall 2,name=staller")
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
			// An unknown command is a move that loses by the rules (score −1).
			if g.Termination != "normal" || g.Winner != 1-has("garbage") || len(g.Moves) != 3 {
				t.Errorf("%s: %s, winner %d after %d turns; garbage should lose on turn 3", names, g.Termination, g.Winner, len(g.Moves))
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
