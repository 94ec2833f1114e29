package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// endgame is a line from the start to a position with 16 empty cells whose
// exact value for the side to move is −4 (checked against the generic
// exact search below).
const endgame = "c2 b4 d5 e6 a4 b3 d6 c6 b5 d1 a3 d2 e4 f3 c1 b1"

func TestSolveJSON(t *testing.T) {
	for _, extra := range [][]string{nil, {"--threads", "2"}} {
		args := append([]string{"solve", "--moves", endgame, "--format", "json"}, extra...)
		code, out, errOut := runArena(args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var rep map[string]any
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"game", "value", "best", "pv", "nodes", "seconds"} {
			if _, ok := rep[k]; !ok {
				t.Errorf("missing key %q in %s", k, out)
			}
		}
		pv := rep["pv"].([]any)
		if rep["game"] != "othello6" || rep["value"].(float64) != -4 || rep["result"] != "loss" || len(pv) == 0 || pv[0] != rep["best"] {
			t.Fatalf("unexpected report %s", out)
		}
		// The principal variation is a legal line to the end of the game.
		moves := endgame
		for _, m := range pv {
			moves += " " + m.(string)
		}
		code, out, errOut = runArena("replay", "--moves", moves, "--format", "json")
		if code != 0 || !strings.Contains(out, `"terminal":true`) {
			t.Fatalf("replaying the PV: exit %d %s %s", code, out, errOut)
		}
	}
}

func TestSolveGenericAgrees(t *testing.T) {
	// With no empty cells left at the end of this line both conventions
	// agree; the generic search reports the margin of Outcome.Score.
	code, out, errOut := runArena("solve", "--moves", endgame, "--generic", "--format", "json", "--tt", "16")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep solveReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Value != -4 || rep.Result != "loss" {
		t.Fatalf("generic solve: %+v", rep)
	}
}

func TestSolveText(t *testing.T) {
	code, out, errOut := runArena("solve", "--moves", endgame)
	if code != 0 || !strings.Contains(out, "value -4 (loss for the side to move)") || !strings.Contains(out, "pv ") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
}

func TestSolveErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--moves", "a1"}, "illegal move"},
		{[]string{"solve", "--threads", "0"}, "--threads 0 is out of range: use 1 to 256"},
		{[]string{"solve", "--moves", endgame, "--time", "1ns"}, "solve stopped"},
		{[]string{"analyse", "--agent", "nobody"}, `unknown agent "nobody"`},
		{[]string{"analyse", "--moves", "a1"}, "illegal move"},
	} {
		code, _, errOut := runArena(tt.args...)
		if code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("arena %v: exit %d, stderr %q (want %q)", tt.args, code, errOut, tt.want)
		}
	}
}

func TestAnalyse(t *testing.T) {
	t.Run("alphabeta", func(t *testing.T) {
		code, out, errOut := runArena("analyse", "--agent", "alphabeta:depth=4,rootscores", "--moves", "c2 b4", "--format", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var rep analyseReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Moves) != 5 || rep.Moves[0].Move != rep.Move || rep.Depth != 4 || rep.Nodes == 0 {
			t.Fatalf("%+v", rep)
		}
		for _, m := range rep.Moves {
			if m.Score == nil || m.Bound != "exact" || *m.Score > *rep.Moves[0].Score {
				t.Fatalf("move %+v ranks above the choice %+v", m, rep.Moves[0])
			}
		}
	})
	t.Run("mcts", func(t *testing.T) {
		code, out, errOut := runArena("analyse", "--agent", "mcts:iters=3000", "--moves", "c2")
		if code != 0 || !strings.Contains(out, "visits") || !strings.Contains(out, "plays ") {
			t.Fatalf("exit %d: %s %s", code, out, errOut)
		}
	})
}
