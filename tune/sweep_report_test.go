package tune

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

// The report writes its notes under the table, as text or markdown, and
// leaves them out of the JSON document.
func TestSweepReportWrite(t *testing.T) {
	r := SweepReport{SweepResult{Param: "c", Points: []Point{{"0.5", 12, -20, 40, 30}, {"1.4", 30, 2, 60, 30}}}, []string{"time losses: 2"}}
	for format, want := range map[string]string{"text": "┘\nNote: time losses: 2\n", "markdown": "|\n\n> Note: time losses: 2\n"} {
		var b bytes.Buffer
		if err := r.Write(&b, format); err != nil || !strings.HasSuffix(b.String(), want) {
			t.Errorf("%s: %v\n%s", format, err, b.String())
		}
	}
	var b bytes.Buffer
	if err := r.Write(&b, "json"); err != nil || strings.Contains(b.String(), "Note") || !strings.HasPrefix(b.String(), `{`) {
		t.Errorf("json: %v\n%s", err, b.String())
	}
}

// The figure is written whole, or not at all.
func TestSweepSVGFile(t *testing.T) {
	r := SweepResult{Param: "c", Level: 0.95, Points: []Point{{"0.5", 12, -20, 40, 30}, {"1.4", 30, 2, 60, 30}}}
	dir := t.TempDir()
	path := filepath.Join(dir, "c.svg")
	if err := r.WriteSVGFile(path); err != nil {
		t.Fatal(err)
	}
	if svg, _ := os.ReadFile(path); !strings.Contains(string(svg), "Elo against c") || !strings.HasSuffix(strings.TrimSpace(string(svg)), "</svg>") {
		t.Errorf("figure: %.100q", svg)
	}
	if err := r.WriteSVGFile(filepath.Join(dir, "missing", "c.svg")); err == nil {
		t.Error("a figure in a missing directory: no error")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want the figure alone", len(entries))
	}
}

// A sweep's record file is rated to its curve; a file of another run is
// refused, naming the option that gave it.
func TestSweepRecords(t *testing.T) {
	s, err := NewSweep("mcts:iters=10", "iters", []string{"2", "40"}, []string{"random"})
	if err != nil {
		t.Fatal(err)
	}
	o := s.Options(arena.Options{Game: "othello6", GamesPerPair: 4, Seed: 2})
	tour, err := arena.New(o)
	if err != nil {
		t.Fatal(err)
	}
	recs := play(t, o)
	path := writeRecords(t, o, recs)
	names, err := s.CheckRecords([]string{path})
	if err != nil || strings.Join(names, " ") != strings.Join(tour.Names(), " ") {
		t.Fatalf("names %q, %v", names, err)
	}
	file, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Rate(results.NewDataset(file.Header.Config.Game, names, ptrs(file.Games)), names, results.AnalysisOptions{})
	if err != nil || r.Param != "iters" || len(r.Points) != 2 || r.Points[0].Games != 4 || r.Points[1].Games != 4 || r.Anchor != "random" {
		t.Errorf("rated %+v, %v", r, err)
	}
	other := writeRecords(t, arena.Options{Game: "othello6", Agents: []string{"greedy", "random"}, GamesPerPair: 2}, nil)
	_, err = s.CheckRecords([]string{path, other})
	var oe *option.Error
	if !errors.As(err, &oe) || oe.Name != "Records" || !strings.HasPrefix(option.Render(err, flag), "--records "+other+": the file records a round-robin of greedy, random, not a sweep") {
		t.Errorf("another run's file: %v", err)
	}
}

func ptrs(gs []results.GameRecord) []*results.GameRecord {
	out := make([]*results.GameRecord, len(gs))
	for i := range gs {
		out[i] = &gs[i]
	}
	return out
}
