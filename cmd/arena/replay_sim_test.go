package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/tryangle"
)

func writeTurns(t *testing.T, text string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "turns.txt")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestReplaySimultaneousJSON(t *testing.T) {
	file := writeTurns(t, "# two turns\nWAIT | WAIT\nMOVE 0 1 1;MSG hi | wait\n")
	code, out, errOut := runArena("replay", "--game", "tryangle:seed=7", "--file", file, "--format", "json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var tr struct {
		Game  string `json:"game"`
		Turns []struct {
			Turn  int           `json:"turn"`
			Moves [2]string     `json:"moves"`
			State tryangle.View `json:"state"`
		} `json:"turns"`
		Result string `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatal(err)
	}
	if tr.Game != "tryangle:seed=7" || len(tr.Turns) != 2 || tr.Result != "*" {
		t.Fatalf("transcript %+v", tr)
	}
	if tr.Turns[1].Moves[0] != "MOVE 0 1 1;MSG hi" || tr.Turns[1].State.Turn != 3 || len(tr.Turns[1].State.Houses) == 0 {
		t.Errorf("turn 2: %+v", tr.Turns[1])
	}
}

// TestReplayCGFormat: the cg format prints exactly what tryangle.State.Input
// gives each player before each turn.
func TestReplayCGFormat(t *testing.T) {
	file := writeTurns(t, "WAIT | WAIT\n")
	code, out, errOut := runArena("replay", "--game", "tryangle:seed=7", "--file", file, "--format", "cg")
	if code != 0 {
		t.Fatal(errOut)
	}
	b, _ := games.New("tryangle:seed=7")
	s := b.(*tryangle.State)
	want := "=== turn 1, input of player 0\n" + s.Input(0, true) + "=== turn 1, input of player 1\n" + s.Input(1, true)
	s.PlayJoint(tryangle.Hold, tryangle.Hold)
	want += "=== turn 2, input of player 0\n" + s.Input(0, false) + "=== turn 2, input of player 1\n" + s.Input(1, false)
	if out != want {
		t.Errorf("cg output differs; got %d bytes, want %d", len(out), len(want))
	}
}

// TestReplaySimultaneousErrors: the file's errors reach the user (the
// turns' checks are games.ReplaySim's tests), and the cg format is refused
// for a game without a CodinGame input.
func TestReplaySimultaneousErrors(t *testing.T) {
	code, _, errOut := runArena("replay", "--game", "tryangle", "--file", writeTurns(t, "WAIT\n"))
	if code != 1 || !strings.Contains(errOut, `line 1: want "player 0's command line | player 1's command line"`) {
		t.Errorf("a line without \" | \": exit %d, %q", code, errOut)
	}
	code, _, errOut = runArena("replay", "--game", "othello6", "--moves", "e4", "--format", "cg")
	if code != 1 || !strings.Contains(errOut, "othello6 has no CodinGame input (games with one: tryangle)") {
		t.Errorf("cg format on othello6: exit %d, %q", code, errOut)
	}
}
