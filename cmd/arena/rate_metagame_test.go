package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestRateMetaGame: --meta-game adds the Nash averaging and α-Rank table
// and the per-player JSON keys; without it there are neither; its
// options' limits come back as flags.
func TestRateMetaGame(t *testing.T) {
	file := filepath.Join(t.TempDir(), "run.jsonl")
	code, _, errOut := runArena("tournament", "--game", "othello6", "--agents", "random", "greedy", "random:name=rnd2",
		"--games", "6", "--seed", "3", "--concurrency", "2", "--bootstrap", "0", "--no-progress", "--out", file)
	if code != 0 {
		t.Fatalf("tournament: exit %d: %s", code, errOut)
	}
	code, text, errOut := runArena("rate", file, "--meta-game", "--bootstrap", "40")
	if code != 0 || !strings.Contains(text, "Meta-game: Nash averaging") || !strings.Contains(text, "α-Rank %") {
		t.Fatalf("rate --meta-game: exit %d, stderr %s, stdout\n%s", code, errOut, text)
	}
	code, out, errOut := runArena("rate", file, "--meta-game", "--bootstrap", "40", "--alpha", "2", "--population", "20", "--format", "json")
	if code != 0 {
		t.Fatalf("rate --format json: exit %d: %s", code, errOut)
	}
	var doc struct {
		Players  []map[string]any `json:"players"`
		MetaGame struct {
			Players    []string    `json:"players"`
			Payoff     [][]float64 `json:"payoff"`
			Alpha      float64     `json:"alpha"`
			Population int         `json:"population"`
			Replicates int         `json:"replicates"`
		} `json:"metagame"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	mg := doc.MetaGame
	if len(mg.Players) != 3 || len(mg.Payoff) != 3 || mg.Alpha != 2 || mg.Population != 20 || mg.Replicates != 40 {
		t.Fatalf("metagame %+v", mg)
	}
	sum := 0.0
	for _, p := range doc.Players {
		for _, k := range []string{"nash_mass", "nash_mass_low", "nash_mass_high", "nash_score", "nash_score_low", "nash_score_high", "alpharank_mass", "alpharank_mass_low", "alpharank_mass_high"} {
			if _, ok := p[k]; !ok {
				t.Fatalf("player %v has no %s", p["name"], k)
			}
		}
		sum += p["alpharank_mass"].(float64)
	}
	if sum < 0.999999 || sum > 1.000001 {
		t.Fatalf("α-Rank masses sum to %g", sum)
	}
	_, plain, _ := runArena("rate", file, "--format", "json", "--bootstrap", "0")
	if strings.Contains(plain, "nash_mass") || strings.Contains(plain, "metagame") {
		t.Fatal("rate without --meta-game wrote meta-game keys")
	}
	for args, want := range map[[2]string]string{
		{"--population", "1"}: "--population 1: want an α-Rank population",
		{"--alpha", "-1"}:     "--alpha -1: want a ranking intensity",
	} {
		code, _, errOut := runArena("rate", file, "--meta-game", args[0], args[1])
		if code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("rate %v: exit %d, stderr %q (want %q)", args, code, errOut, want)
		}
	}
}
