package results

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestCounterIsAnalyse: a Counter fed a run's games gives the report
// Analyse gives on a Dataset of the same games, byte for byte, at the end
// and midway (a pair half played counts as unpaired, as in a record
// file cut there), and counting on after an Analyse changes nothing.
func TestCounterIsAnalyse(t *testing.T) {
	const players, n = 5, 301
	games := make([]*GameRecord, n)
	for i := range games {
		games[i] = new(GameRecord)
		syntheticGame(games[i], i, players, 7, i%5 == 0)
	}
	names := []string{"p0", "p1", "p2", "p3", "p4"}
	o := AnalysisOptions{Bootstrap: 50, Seed: 3}
	c := NewCounter("othello6", names)
	for k, g := range games {
		c.Add(g)
		if k != 100 && k != n-1 {
			continue
		}
		want, err := Analyse(NewDataset("othello6", names, games[:k+1]), o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Analyse(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"text", "json"} {
			var w, g bytes.Buffer
			if err := want.Write(&w, format); err != nil {
				t.Fatal(err)
			}
			if err := got.Write(&g, format); err != nil {
				t.Fatal(err)
			}
			if w.String() != g.String() {
				t.Errorf("after %d games, %s: the counter's report\n%s\nis not Analyse's\n%s", k+1, format, g.String(), w.String())
			}
		}
	}
	if c.Games() != n {
		t.Errorf("counted %d games, want %d", c.Games(), n)
	}
}

// TestReadFileLean: a lean read is ReadFile's games, the first ones
// whole and the others without their moves, opening and info text.
func TestReadFileLean(t *testing.T) {
	var b bytes.Buffer
	b.Write(syntheticHeader(3, 40, 5))
	b.WriteByte('\n')
	for i := range 40 {
		var g GameRecord
		syntheticGame(&g, i, 3, 5, i%3 == 0)
		line, err := MarshalLine(&g)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	full, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lean, err := ReadFileLean(path, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(lean.Games) != 40 || len(full.Games) != 40 {
		t.Fatalf("%d games lean, %d in full", len(lean.Games), len(full.Games))
	}
	infos := 0
	for i := range full.Games {
		f, l := full.Games[i], lean.Games[i]
		if i < 10 {
			if !reflect.DeepEqual(f, l) {
				t.Errorf("game %d, kept whole, read as %+v, want %+v", i, l, f)
			}
			continue
		}
		if l.Moves != nil || l.Opening != nil {
			t.Errorf("game %d kept its moves", i)
		}
		for k, m := range l.MoveStats {
			if m.Info != "" {
				t.Errorf("game %d kept its info text", i)
			}
			infos += len(f.MoveStats[k].Info)
			m.Info = f.MoveStats[k].Info
			l.MoveStats[k] = m
		}
		l.Moves, l.Opening = f.Moves, f.Opening
		if !reflect.DeepEqual(f, l) {
			t.Errorf("game %d read lean as %+v, want %+v", i, l, f)
		}
	}
	if infos == 0 {
		t.Error("no game had info text to drop: the test tests nothing")
	}
	// The same checks and messages as ReadFile.
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, append(b.Bytes(), b.Bytes()[bytes.IndexByte(b.Bytes(), '\n')+1:]...), 0o644)
	_, err1 := ReadFile(bad)
	_, err2 := ReadFileLean(bad, 0)
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
		t.Errorf("a game recorded twice: ReadFile says %v, ReadFileLean %v", err1, err2)
	}
}

// TestReadFileEach: a streaming read hands over ReadFileLean's games, in
// order, after the header, and keeps none; an error of the caller's stops
// it and comes back as it is, and a game recorded twice is named with the
// line of its first record.
func TestReadFileEach(t *testing.T) {
	var b bytes.Buffer
	b.Write(syntheticHeader(3, 40, 5))
	b.WriteByte('\n')
	for i := range 40 {
		var g GameRecord
		syntheticGame(&g, i, 3, 5, i%3 == 0)
		line, err := MarshalLine(&g)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	lean, err := ReadFileLean(path, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []GameRecord
	var header *Header
	f, err := ReadFileEach(path, 10, func(h *Header) error {
		header = h
		return nil
	}, func(g *GameRecord) error {
		if header == nil {
			t.Fatal("a game before the header")
		}
		got = append(got, *g)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Games) != 0 || f.NumGames != 40 || f.GoodSize != lean.GoodSize || !reflect.DeepEqual(header, &lean.Header) {
		t.Errorf("kept %d games, counted %d, good size %d (want 0, 40, %d), header %+v", len(f.Games), f.NumGames, f.GoodSize, lean.GoodSize, header)
	}
	if !reflect.DeepEqual(got, lean.Games) {
		t.Error("the games handed over are not ReadFileLean's")
	}
	stop := errors.New("enough")
	n := 0
	if _, err := ReadFileEach(path, 0, nil, func(*GameRecord) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	}); err != stop || n != 3 {
		t.Errorf("stopped after %d games with %v", n, err)
	}
	dup := filepath.Join(dir, "dup.jsonl")
	lines := bytes.SplitAfter(b.Bytes(), []byte("\n"))
	os.WriteFile(dup, append(append([]byte(nil), b.Bytes()...), lines[6]...), 0o644)
	if _, err := ReadFileEach(dup, 0, nil, func(*GameRecord) error { return nil }); err == nil || !strings.Contains(err.Error(), "is recorded twice (also on line 7)") {
		t.Errorf("a game recorded twice: %v", err)
	}
}
