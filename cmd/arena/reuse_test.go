package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gameMoves reads a record file and returns each game's moves by index.
func gameMoves(t *testing.T, file string) map[int]string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[int]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var g struct {
			Record string   `json:"record"`
			Index  int      `json:"index"`
			Moves  []string `json:"moves"`
			Result string   `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		if g.Record == "game" {
			out[g.Index] = strings.Join(g.Moves, " ") + " " + g.Result
		}
	}
	return out
}

// TestSearchAgentsReusedAcrossGames: the arena reuses one alphabeta and one
// mcts instance per worker for many games (agents.Seeder). With 1 and with 2
// workers the instances see different sequences of games, so any state
// leaking from one game into the next would change the records.
func TestSearchAgentsReusedAcrossGames(t *testing.T) {
	dir := t.TempDir()
	var runs []map[int]string
	for _, workers := range []string{"1", "2"} {
		out := filepath.Join(dir, "run"+workers+".jsonl")
		code, _, errOut := runArena("tournament", "--game", "othello6", "--games", "4", "--seed", "5",
			"--concurrency", workers, "--bootstrap", "0", "--no-progress", "--out", out,
			"--agents", "alphabeta:depth=3,tt=1", "mcts:iters=300", "random")
		if code != 0 {
			t.Fatal(errOut)
		}
		runs = append(runs, gameMoves(t, out))
	}
	if len(runs[0]) != 12 {
		t.Fatalf("%d games recorded, want 12", len(runs[0]))
	}
	for i := 0; i < 12; i++ {
		if runs[0][i] != runs[1][i] {
			t.Errorf("game %d differs between 1 and 2 workers:\n%s\n%s", i, runs[0][i], runs[1][i])
		}
	}
	if slices.Equal([]string{runs[0][0]}, []string{runs[0][2]}) {
		t.Error("games 0 and 2 are identical: openings or seeds are not varying")
	}
}
