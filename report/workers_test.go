package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

// TestWorkersTable: a run played by broker workers gets a Workers table
// with each worker's games, speed and time scale, and the worker whose
// results are forged far off (the first mover wins every game) is the
// one flagged; a run without remote workers has no table.
func TestWorkersTable(t *testing.T) {
	f := readTestFile(t, "match.jsonl")
	template := f.Games[0]
	r := rng.New(11)
	var games []*results.GameRecord
	add := func(worker string, scale, nps float64, winner int) {
		g := template
		g.Index, g.Worker, g.TCScale, g.WorkerNPS = len(games), worker, scale, nps
		g.Players = template.Players
		if len(games)/4%2 == 1 { // each worker plays both seatings
			g.Players[0], g.Players[1] = g.Players[1], g.Players[0]
		}
		g.Winner, g.Result = winner, map[int]string{0: "1-0", 1: "0-1", -1: "1/2-1/2"}[winner]
		games = append(games, &g)
	}
	honest := func() int {
		switch u := r.Float64(); {
		case u < 0.45:
			return 0
		case u < 0.65:
			return -1
		}
		return 1
	}
	for range 200 {
		add("", 1, 2e6, honest())
		add("fast", 0.5, 4e6, honest())
		add("slow", 2, 1e6, honest())
		add("forger", 1, 2e6, 0)
	}
	names := []string{template.Players[0].Name, template.Players[1].Name}
	var buf bytes.Buffer
	if _, err := Write(&buf, results.NewDataset("othello6", names, games), Options{NoViewer: true}); err != nil {
		t.Fatal(err)
	}
	root := parsePage(t, buf.String())
	table := root.byID("workers-table")
	if table == nil {
		t.Fatal("no workers table")
	}
	rows := table.find(func(n *node) bool { return n.name == "tr" && n.attr["data-worker"] != "" })
	want := map[string]string{"this machine": "2000000 1", "fast": "4000000 0.5", "slow": "1000000 2", "forger": "2000000 1"}
	if len(rows) != len(want) {
		t.Fatalf("%d worker rows, want %d", len(rows), len(want))
	}
	for _, row := range rows {
		name := row.attr["data-worker"]
		cells := row.find(func(n *node) bool { return n.name == "td" })
		speed := strings.TrimSpace(cells[5].allText()) + " " + strings.TrimSpace(cells[6].allText())
		if speed != want[name] {
			t.Errorf("worker %s: speed and scale %q, want %q", name, speed, want[name])
		}
		if flagged := row.attr["class"] == "flagged"; flagged != (name == "forger") {
			t.Errorf("worker %s: flagged %v (residual %s, flag %q)", name, flagged, cells[7].allText(), cells[8].allText())
		}
	}
	// The same games played here: no table.
	for _, g := range games {
		g.Worker, g.TCScale, g.WorkerNPS = "", 0, 0
	}
	buf.Reset()
	if _, err := Write(&buf, results.NewDataset("othello6", names, games), Options{NoViewer: true}); err != nil {
		t.Fatal(err)
	}
	if parsePage(t, buf.String()).byID("workers") != nil {
		t.Error("a workers table without remote workers")
	}
}
