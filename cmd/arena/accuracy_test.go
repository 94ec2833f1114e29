package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAccuracyCommand: the JSON keys the issue names, the same table from
// a warm cache as from a cold one, and flag errors named as flags.
func TestAccuracyCommand(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.jsonl")
	var out, errb bytes.Buffer
	if code := run([]string{"tournament", "--agents", "random", "greedy", "--games", "4", "--openings", "random:18",
		"--out", rec, "--no-progress", "--bootstrap", "0"}, &out, &errb); code != 0 {
		t.Fatalf("tournament: %d %s", code, errb.String())
	}
	cache := filepath.Join(dir, "c")
	args := []string{"accuracy", rec, "--nodes", "1000000", "--cache", cache, "--format", "json", "--no-progress"}
	var tables [2]string
	for i := range tables {
		out.Reset()
		errb.Reset()
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("accuracy: %d %s", code, errb.String())
		}
		var rep map[string]any
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		players, _ := rep["players"].([]any)
		if len(players) != 2 {
			t.Fatalf("players: %v", rep["players"])
		}
		for _, key := range []string{"name", "moves", "moves_analysed", "unknown", "mean_loss", "blunders", "blunder_rate", "phases"} {
			if _, ok := players[0].(map[string]any)[key]; !ok {
				t.Errorf("no %q in %v", key, players[0])
			}
		}
		if i == 1 && rep["solved"].(float64) != 0 {
			t.Errorf("the warm run solved %v positions", rep["solved"])
		}
		p, _ := json.Marshal([]any{rep["players"], rep["worst"]})
		tables[i] = string(p)
	}
	if tables[0] != tables[1] {
		t.Errorf("cold and warm tables differ:\n%s\n%s", tables[0], tables[1])
	}
	// The report reads the cache: the section, and no solve needed.
	page := filepath.Join(dir, "r.html")
	if code := run([]string{"report", rec, "--out", page, "--accuracy", cache, "--accuracy-nodes", "1"}, &out, &errb); code != 0 {
		t.Fatalf("report: %d %s", code, errb.String())
	}
	if b, err := os.ReadFile(page); err != nil || !bytes.Contains(b, []byte(`<section id="accuracy">`)) || bytes.Contains(b, []byte("could not be scored")) {
		t.Errorf("the report has no accuracy section (%v)", err)
	}
	errb.Reset()
	if code := run([]string{"accuracy", rec, "--concurrency", "999"}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "--concurrency") {
		t.Errorf("--concurrency 999: %d %s", code, errb.String())
	}
}
