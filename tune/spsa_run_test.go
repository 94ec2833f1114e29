package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/option"
)

// TestSPSASession: a session writes its run file, resumes it exactly
// (a torn last line cut off first), reports, and writes its history and
// plot; a refused or abandoned session leaves no trace.
func TestSPSASession(t *testing.T) {
	dir := t.TempDir()
	cfg := SPSAConfig{Game: "othello6", Agent: "synthetic:opt=3,yopt=5,k=0.3", Params: mustParams(t, "x, float, 7, -5, 10, 0.5, 0.02\ny, int, -4, -20, 20, 2, 0.02"),
		Iterations: 6, PairsPer: 2, A: -1, Seed: 5}
	whole := filepath.Join(dir, "whole.jsonl")
	s, err := OpenSPSA(cfg, whole, "")
	if err != nil {
		t.Fatal(err)
	}
	heard := 0
	full, err := s.Run(context.Background(), RunOptions{Run: arena.RunOptions{Concurrency: 2}, Record: func(it Iteration) error {
		if heard++; it.K != heard {
			t.Errorf("iteration %d heard as the %dth", it.K, heard)
		}
		return nil
	}})
	s.Close()
	if err != nil || !full.Complete || heard != 6 {
		t.Fatalf("run: %v, complete %v, %d iterations heard", err, full.Complete, heard)
	}
	_, onDisk, err := ReadLog(whole)
	if err != nil || len(onDisk) != 6 {
		t.Fatalf("run file: %d iterations, %v", len(onDisk), err)
	}

	// The report, and its text.
	rep := s.Report(full)
	if !rep.Complete || rep.Iterations != 6 || rep.Planned != 6 || rep.Games != 24 || rep.Out != whole || len(rep.Params) != 2 || rep.Start != "synthetic:opt=3,yopt=5,k=0.3,x=7,y=-4" {
		t.Errorf("report %+v", rep)
	}
	if p := rep.Params[1]; p.Name != "y" || !p.Int || p.Tuned != full.Theta[1] || p.C != s.SPSA.C(1) {
		t.Errorf("parameter y: %+v", p)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	if !strings.HasPrefix(text.String(), "Tuned agent: "+rep.Agent+"\nStart agent: "+rep.Start+"\nothello6: 6 of 6 iterations, 24 games\n") || !strings.Contains(text.String(), "\ny           int           -4 ") {
		t.Errorf("text:\n%s", text.String())
	}

	// History and plot.
	hjson, hcsv, plot := filepath.Join(dir, "h.json"), filepath.Join(dir, "h.csv"), filepath.Join(dir, "p.svg")
	for _, err := range []error{s.SPSA.WriteHistory(hjson, full.Iterations), s.SPSA.WriteHistory(hcsv, full.Iterations), s.SPSA.WritePlot(plot, full.Iterations)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	var its []map[string]any
	data, _ := os.ReadFile(hjson)
	if err := json.Unmarshal(data, &its); err != nil || len(its) != 6 {
		t.Errorf("JSON history: %d iterations, %v", len(its), err)
	}
	data, _ = os.ReadFile(hcsv)
	if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); len(lines) != 7 || lines[0] != "k,wins,draws,losses,x.flip,x.plus,x.minus,x,y.flip,y.plus,y.minus,y" {
		t.Errorf("CSV history: %d lines, header %q", len(lines), lines[0])
	}
	if svg, _ := os.ReadFile(plot); !strings.Contains(string(svg), "<svg") || !strings.Contains(string(svg), "θ / c") {
		t.Errorf("plot: %.80q", svg)
	}

	// A file that exists is refused, named as the option.
	if _, err := OpenSPSA(cfg, whole, ""); err == nil || option.Render(err, flag) != "--out "+whole+" already exists: continue it with --resume "+whole+", or choose another file" {
		t.Errorf("an existing file: %v", err)
	}

	// Two iterations and part of a third: refused resumes leave the
	// file as it was; an accepted one cuts the torn line and ends where
	// the uninterrupted run ended.
	data, _ = os.ReadFile(whole)
	lines := strings.SplitAfter(string(data), "\n")
	torn := strings.Join(lines[:3], "") + lines[3][:30]
	path := filepath.Join(dir, "run.jsonl")
	for _, tc := range []struct{ name, old, new, want string }{
		{"a configuration NewSPSA refuses", `"pairs_per":2,`, `"pairs_per":0,`, "--resume " + path + ": --pairs-per 0: use 1 to"},
		{"an edited iteration", `"k":2,`, `"k":3,`, "iteration 2 of the file does not follow"},
	} {
		os.WriteFile(path, []byte(strings.Replace(torn, tc.old, tc.new, 1)), 0o644)
		if _, err := OpenSPSA(SPSAConfig{}, "", path); err == nil || !strings.Contains(option.Render(err, flag), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, option.Render(err, flag), tc.want)
		}
		if got, _ := os.ReadFile(path); string(got) != strings.Replace(torn, tc.old, tc.new, 1) {
			t.Errorf("%s: the refused resume changed the file", tc.name)
		}
	}
	os.WriteFile(path, []byte(torn), 0o644)
	if _, err := OpenSPSA(cfg, "x.jsonl", path); err == nil || option.Render(err, flag) != "--resume continues its own file; leave out --out" {
		t.Errorf("Out and Resume: %v", err)
	}
	r, err := OpenSPSA(SPSAConfig{}, "", path)
	if err != nil {
		t.Fatal(err)
	}
	r.Abandon()
	if got, _ := os.ReadFile(path); string(got) != torn {
		t.Errorf("an abandoned resume changed the file")
	}
	r, err = OpenSPSA(SPSAConfig{}, "", path)
	if err != nil || !r.Torn || len(r.Done) != 2 || r.Path != path {
		t.Fatalf("resume: torn %v, %d done, %v", r.Torn, len(r.Done), err)
	}
	res, err := r.Run(context.Background(), RunOptions{Run: arena.RunOptions{Concurrency: 1}})
	r.Close()
	if err != nil || !res.Complete || len(res.Iterations) != 6 {
		t.Fatalf("resumed run: %v, %d iterations", err, len(res.Iterations))
	}
	_, resumed, err := ReadLog(path)
	if err != nil || len(resumed) != 6 {
		t.Fatalf("resumed file: %d iterations, %v", len(resumed), err)
	}
	for k := range onDisk {
		if !equal(onDisk[k].After, resumed[k].After) {
			t.Errorf("iteration %d: θ %v uninterrupted, %v resumed", k+1, onDisk[k].After, resumed[k].After)
		}
	}

	// An abandoned new run leaves no file; one in memory has none.
	fresh := filepath.Join(dir, "fresh.jsonl")
	a, err := OpenSPSA(cfg, fresh, "")
	if err != nil {
		t.Fatal(err)
	}
	a.Abandon()
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an abandoned new run left its file: %v", err)
	}
	if m, err := OpenSPSA(cfg, "", ""); err != nil || m.Path != "" || m.Report(Result{Theta: m.SPSA.Start()}).Out != "" {
		t.Errorf("a run in memory: %v", err)
	}
}
