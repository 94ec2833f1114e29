package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// viewerLimits reads the game viewer's data from a report page: the games
// it holds, those left out, and its size budget in bytes (-1: none).
func viewerLimits(t *testing.T, page string) (games, omitted, maxBytes int) {
	t.Helper()
	const open = `<script type="application/json" id="gv-data">`
	_, rest, ok := strings.Cut(page, open)
	data, _, ok2 := strings.Cut(rest, "</script>")
	if !ok || !ok2 {
		t.Fatal("the page has no game viewer data")
	}
	var d struct {
		Games    []json.RawMessage `json:"games"`
		Omitted  int               `json:"omitted"`
		MaxBytes int               `json:"max_bytes"`
	}
	if err := json.Unmarshal([]byte(data), &d); err != nil {
		t.Fatalf("viewer data: %v", err)
	}
	return len(d.Games), d.Omitted, d.MaxBytes
}

// TestReportViewerGames: by default the viewer holds the games within about
// 10 MB; --viewer-games N holds exactly the first N, whatever they weigh.
func TestReportViewerGames(t *testing.T) {
	file := filepath.Join(reportTestdata, "tournament.jsonl")
	for _, c := range []struct {
		flags                  []string
		games, omitted, budget int
	}{
		{nil, 24, 0, 10_000_000},
		{[]string{"--viewer-games", "5"}, 5, 19, -1},
		{[]string{"--viewer-games", "0"}, 24, 0, -1},
	} {
		out := filepath.Join(t.TempDir(), "r.html")
		code, _, stderr := runArena(append([]string{"report", file, "--out", out, "--bootstrap", "0"}, c.flags...)...)
		if code != 0 {
			t.Fatalf("report %v: exit %d: %s", c.flags, code, stderr)
		}
		page, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		games, omitted, budget := viewerLimits(t, string(page))
		if games != c.games || omitted != c.omitted || budget != c.budget {
			t.Errorf("report %v: viewer holds %d games, %d left out, budget %d; want %d, %d, %d",
				c.flags, games, omitted, budget, c.games, c.omitted, c.budget)
		}
	}
}
