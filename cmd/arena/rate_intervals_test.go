package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRateTwoPlayersAgreesWithMatch: on the records of a two-agent match,
// rate's intervals are half of match's for the difference, one each side
// of the mean: at 50-0-0 (alphabeta won every game) and at 47-0-3 (three
// games given to random, in three different pairs) the winner's lower
// bound is finite and positive and the upper one open (null), the
// loser's mirrored. Both used to be open both ways in rate.
func TestRateTwoPlayersAgreesWithMatch(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.jsonl")
	code, _, errOut := runArena("match", "--game", "othello6", "--agents", "alphabeta:depth=3", "random",
		"--games", "50", "--seed", "1", "--concurrency", "2", "--no-progress", "--out", file)
	if code != 0 {
		t.Fatalf("match: exit %d: %s", code, errOut)
	}
	type bounds struct {
		Wins    int      `json:"wins"`
		Elo     *float64 `json:"elo"`
		EloLow  *float64 `json:"elo_low"`
		EloHigh *float64 `json:"elo_high"`
	}
	check := func(path string, wantWins int) {
		t.Helper()
		code, out, errOut := runArena("match", "--resume", path, "--format", "json", "--no-progress")
		if code != 0 {
			t.Fatalf("match --resume %s: exit %d: %s", path, code, errOut)
		}
		var m bounds
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if m.Wins != wantWins {
			t.Fatalf("%s: alphabeta won %d games, want %d (the test needs a sweep)", path, m.Wins, wantWins)
		}
		if m.EloLow == nil || *m.EloLow <= 0 || m.EloHigh != nil {
			t.Fatalf("%s: match's interval %v to %v, want a positive lower bound and an open upper one", path, bound(m.EloLow), bound(m.EloHigh))
		}
		var r struct {
			Players []struct {
				Name string `json:"name"`
				bounds
			} `json:"players"`
		}
		// The same with a prior (it gave ± 0.0: every resample alike) and
		// under Davidson without draws (the half model's fit, which kept
		// the bootstrap's interval).
		for _, flags := range [][]string{{"--prior", "1"}, {"--draws", "davidson"}, {}} {
			code, out, errOut = runArena(append([]string{"rate", path, "--format", "json"}, flags...)...)
			if code != 0 {
				t.Fatalf("rate %s %v: exit %d: %s", path, flags, code, errOut)
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			for _, p := range r.Players {
				switch p.Name {
				case "alphabeta:depth=3":
					if p.EloLow == nil || math.Abs(*p.EloLow-*m.EloLow/2) > 1e-9 || p.EloHigh != nil {
						t.Errorf("%s %v: rate's winner %v to %v, want %v (half of match's %v) to null", path, flags, bound(p.EloLow), bound(p.EloHigh), *m.EloLow/2, *m.EloLow)
					}
				case "random":
					if p.EloHigh == nil || math.Abs(*p.EloHigh+*m.EloLow/2) > 1e-9 || p.EloLow != nil {
						t.Errorf("%s %v: rate's loser %v to %v, want null to %v", path, flags, bound(p.EloLow), bound(p.EloHigh), -*m.EloLow/2)
					}
				}
			}
		}
		// The text table: a finite − for the winner, ∞ for its +.
		_, text, _ := runArena("rate", path)
		var minus string
		for _, line := range strings.Split(text, "\n") {
			if f := strings.Split(line, "│"); len(f) > 5 && strings.TrimSpace(f[2]) == "alphabeta:depth=3" {
				minus = strings.TrimSpace(f[4])
				if strings.TrimSpace(f[5]) != "∞" {
					t.Errorf("%s: the winner's + is %q, want ∞", path, f[5])
				}
				break // the standings come first
			}
		}
		for _, p := range r.Players {
			if p.Name == "alphabeta:depth=3" && p.EloLow != nil && minus != fmt.Sprintf("%.1f", *p.Elo-*p.EloLow) {
				t.Errorf("%s: the winner's − is %q, want %.1f", path, minus, *p.Elo-*p.EloLow)
			}
		}
	}
	check(file, 50)

	// 47-0-3: random wins games 1, 10 and 21 (pairs 0, 5 and 10).
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for i, line := range lines[1:] {
		var g map[string]any
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber() // seeds are 64-bit
		if err := dec.Decode(&g); err != nil {
			t.Fatal(err)
		}
		if g["record"] != "game" {
			continue // a resume line (match --resume above)
		}
		switch g["index"].(json.Number) {
		case "1", "10", "21":
		default:
			continue
		}
		players := g["players"].([]any)
		winner := 0 // random's seat
		if players[0].(map[string]any)["name"] != "random" {
			winner = 1
		}
		g["winner"], g["result"] = winner, map[int]string{0: "1-0", 1: "0-1"}[winner]
		b, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		lines[i+1] = string(b)
	}
	edited := filepath.Join(dir, "m47.jsonl")
	if err := os.WriteFile(edited, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check(edited, 47)
}

// TestRateTwoPlayersLOSAndUncounted: on a two-agent match with mixed
// results, rate's intervals are half of match's and its likelihood of
// superiority is match's (it was the bootstrap's share of resamples);
// on a match whose SPRT decided before its last games, rate rates every
// recorded game and says how many match counted, in the numbers match
// --resume prints.
func TestRateTwoPlayersLOSAndUncounted(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.jsonl")
	code, _, errOut := runArena("match", "--game", "othello6", "--agents", "random", "random:name=r2",
		"--games", "40", "--seed", "3", "--concurrency", "2", "--no-progress", "--out", file)
	if code != 0 {
		t.Fatalf("match: exit %d: %s", code, errOut)
	}
	var m struct {
		Wins, Draws, Losses int
		EloLow              *float64 `json:"elo_low"`
		EloHigh             *float64 `json:"elo_high"`
		LOS                 float64  `json:"los"`
		Decision            string   `json:"decision"`
		Pairs               int      `json:"pairs"`
		Uncounted           int      `json:"uncounted_games"`
	}
	matchJSON := func(path string) {
		t.Helper()
		code, out, errOut := runArena("match", "--resume", path, "--format", "json", "--no-progress")
		if code != 0 {
			t.Fatalf("match --resume %s: exit %d: %s", path, code, errOut)
		}
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	matchJSON(file)
	if m.Losses == 0 || m.Wins == 0 || m.EloLow == nil || m.EloHigh == nil {
		t.Fatalf("the test needs a bounded match: %d-%d-%d, %v to %v", m.Wins, m.Draws, m.Losses, bound(m.EloLow), bound(m.EloHigh))
	}
	code, out, errOut := runArena("rate", file, "--format", "json")
	if code != 0 {
		t.Fatalf("rate: exit %d: %s", code, errOut)
	}
	var r struct {
		Players []struct {
			Name    string   `json:"name"`
			EloLow  *float64 `json:"elo_low"`
			EloHigh *float64 `json:"elo_high"`
		} `json:"players"`
		LOS []struct {
			Player string  `json:"player"`
			LOS    float64 `json:"los"`
		} `json:"los"`
		Notes []string `json:"notes"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Players {
		if p.Name == "random" && (p.EloLow == nil || p.EloHigh == nil || math.Abs(*p.EloLow-*m.EloLow/2) > 1e-9 || math.Abs(*p.EloHigh-*m.EloHigh/2) > 1e-9) {
			t.Errorf("rate's %s: %v to %v, want half of match's %v to %v", p.Name, bound(p.EloLow), bound(p.EloHigh), *m.EloLow, *m.EloHigh)
		}
	}
	for _, l := range r.LOS {
		if l.Player == "random" && math.Abs(l.LOS-m.LOS) > 1e-9 {
			t.Errorf("rate's LOS %v, match's %v", l.LOS, m.LOS)
		}
	}

	// The same record under an SPRT that decides within its 20 pairs:
	// the header says so (as if the test had been given), and the games
	// after the decision are the ones a concurrent match plays on.
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	header, rest, _ := strings.Cut(string(data), "\n")
	header = strings.Replace(header, `"total_games"`, `"sprt":{"elo0":0,"elo1":100,"alpha":0.2,"beta":0.2,"model":"logistic"},"total_games"`, 1)
	sprt := filepath.Join(dir, "sprt.jsonl")
	if err := os.WriteFile(sprt, []byte(header+"\n"+rest), 0o644); err != nil {
		t.Fatal(err)
	}
	matchJSON(sprt)
	if m.Uncounted == 0 {
		t.Fatalf("the SPRT counted all %d pairs; the test needs one that decides sooner", m.Pairs)
	}
	_, text, _ := runArena("rate", sprt)
	want := fmt.Sprintf("sprt.jsonl: arena match counted %d game pairs (%d games), up to its SPRT's decision (%s); the %d games that finished after the decision are rated here too", m.Pairs, 2*m.Pairs, m.Decision, m.Uncounted)
	if !strings.Contains(text, want) || !strings.Contains(text, "40 games") {
		t.Errorf("rate's text lacks %q (or the 40 games):\n%s", want, text)
	}
}

// bound prints a JSON bound: its value, or null.
func bound(v *float64) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(*v)
}
