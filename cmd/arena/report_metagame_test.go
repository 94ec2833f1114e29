package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// metaRow matches a meta-game row of the page (the template writes the
// attributes in this order).
var metaRow = regexp.MustCompile(`<tr data-player="([^"]*)" data-nash="([^"]*)" data-nash-score="([^"]*)" data-alpharank="([^"]*)"`)

// TestReportMetaGame: a small pool's page has the meta-game without
// being asked, with rate --meta-game's numbers to the last digit;
// --meta-game=false leaves it out, and a pool over autoMetaGamePlayers
// has it only when asked. Bad meta-game flags are named.
func TestReportMetaGame(t *testing.T) {
	file := filepath.Join(reportTestdata, "tournament.jsonl") // 4 players
	page := func(args ...string) string {
		t.Helper()
		out := filepath.Join(t.TempDir(), "r.html")
		code, _, stderr := runArena(append([]string{"report", args[0], "--out", out, "--viewer-games", "-1"}, args[1:]...)...)
		if code != 0 {
			t.Fatalf("report %v: exit %d: %s", args, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	html := page(file, "--bootstrap", "50", "--alpha", "3", "--population", "20")
	code, js, stderr := runArena("rate", file, "--bootstrap", "50", "--alpha", "3", "--population", "20", "--meta-game", "--format", "json")
	if code != 0 {
		t.Fatalf("rate: exit %d: %s", code, stderr)
	}
	var doc struct {
		Players []struct {
			Name          string  `json:"name"`
			NashMass      float64 `json:"nash_mass"`
			NashScore     float64 `json:"nash_score"`
			AlphaRankMass float64 `json:"alpharank_mass"`
		} `json:"players"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	rows := metaRow.FindAllStringSubmatch(html, -1)
	if len(rows) != len(doc.Players) || len(rows) != 4 {
		t.Fatalf("%d meta-game rows on the page, rate has %d players (want 4)", len(rows), len(doc.Players))
	}
	for i, r := range rows {
		p := doc.Players[i]
		for k, want := range []float64{p.NashMass, p.NashScore, p.AlphaRankMass} {
			if got, err := strconv.ParseFloat(r[2+k], 64); r[1] != p.Name || err != nil || got != want {
				t.Errorf("row %d: %s %q, want rate's %s %v", i, r[1], r[2+k], p.Name, want)
			}
		}
	}
	if !strings.Contains(html, "α = 3, given") || !strings.Contains(html, "population 20") {
		t.Error("the page does not give the α and population asked for")
	}
	if html := page(file, "--bootstrap", "0", "--meta-game=false"); strings.Contains(html, `id="metagame"`) {
		t.Error("--meta-game=false: the page has the meta-game")
	}

	// A pool one player over the automatic limit.
	big := filepath.Join(t.TempDir(), "big.jsonl")
	agents := []string{"tournament", "--game", "othello6", "--agents"}
	for i := range autoMetaGamePlayers + 1 {
		agents = append(agents, fmt.Sprintf("random:name=r%d", i))
	}
	if code, _, errOut := runArena(append(agents, "--games", "2", "--seed", "5", "--bootstrap", "0", "--no-progress", "--out", big)...); code != 0 {
		t.Fatalf("tournament: exit %d: %s", code, errOut)
	}
	if html := page(big, "--bootstrap", "0"); strings.Contains(html, `id="metagame"`) {
		t.Errorf("%d players: the meta-game without --meta-game", autoMetaGamePlayers+1)
	}
	if html := page(big, "--bootstrap", "0", "--meta-game"); len(metaRow.FindAllString(html, -1)) != autoMetaGamePlayers+1 {
		t.Errorf("%d players with --meta-game: not every player in the meta-game", autoMetaGamePlayers+1)
	}

	for args, want := range map[[2]string]string{
		{"--population", "1"}: "--population 1: want an α-Rank population",
		{"--alpha", "-1"}:     "--alpha -1: want a ranking intensity",
	} {
		// Checked whether or not the pool's size turns the meta-game on.
		code, _, errOut := runArena("report", big, "--out", filepath.Join(t.TempDir(), "r.html"), args[0], args[1])
		if code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("report %v: exit %d, stderr %q (want %q)", args, code, errOut, want)
		}
	}
}

// TestReportMetaGameFailure: a meta-game that fails when the pool's size
// turned it on leaves the page without it, with a warning; asked for
// with --meta-game, it fails the command.
func TestReportMetaGameFailure(t *testing.T) {
	defer func(f func(*results.Tally, results.AnalysisOptions) (*results.Analysis, error)) { analyseTally = f }(analyseTally)
	analyseTally = func(tl *results.Tally, o results.AnalysisOptions) (*results.Analysis, error) {
		if o.MetaGame != nil {
			return nil, errors.New("no equilibrium")
		}
		return tl.Analyse(o)
	}
	file := filepath.Join(reportTestdata, "tournament.jsonl") // 4 players: on by default
	out := filepath.Join(t.TempDir(), "r.html")
	code, _, stderr := runArena("report", file, "--out", out, "--viewer-games", "-1", "--bootstrap", "0")
	if code != 0 || !strings.Contains(stderr, "warning: no meta-game: no equilibrium") {
		t.Fatalf("exit %d, stderr %q: want a page and a warning", code, stderr)
	}
	if b, err := os.ReadFile(out); err != nil || strings.Contains(string(b), `id="metagame"`) || !strings.Contains(string(b), `id="standings"`) {
		t.Errorf("the page (%v) is not the page without the meta-game", err)
	}
	code, _, stderr = runArena("report", file, "--out", out, "--viewer-games", "-1", "--bootstrap", "0", "--meta-game")
	if code != 1 || !strings.Contains(stderr, "no equilibrium") {
		t.Errorf("--meta-game: exit %d, stderr %q: want the error", code, stderr)
	}
}
