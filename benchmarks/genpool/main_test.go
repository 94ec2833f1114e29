package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// writeTest writes the rock–paper–scissors pool of docs/ratings.md and
// returns the file's bytes.
func writeTest(t *testing.T, exact bool, seed uint64) []byte {
	t.Helper()
	p, err := parsePool("rock,paper,scissors,rock2=rock", "paper>rock=0.65,scissors>paper=0.65,rock>scissors=0.65")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rps.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := writePool(f, p, 40, exact, seed); err != nil {
		t.Fatal(err)
	}
	f.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// With -exact every pairing scores exactly as given, the copy plays as
// its original (and evenly against it), and the file is a valid record
// file, reproducible from the seed.
func TestExactPool(t *testing.T) {
	data := writeTest(t, true, 3)
	file, err := results.Read(bytes.NewReader(data), "rps.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(file.Games) != 6*40 {
		t.Fatalf("%d games, want 240", len(file.Games))
	}
	points := map[[2]string]int{} // wins of the first name over the second
	first := map[[2]string]int{}  // games the first name moved first in
	for _, g := range file.Games {
		a, b := g.Players[0].Name, g.Players[1].Name
		first[[2]string{a, b}]++
		if g.Winner == 1 {
			a, b = b, a
		}
		points[[2]string{a, b}]++
	}
	for _, c := range []struct {
		a, b string
		wins int
	}{{"paper", "rock", 26}, {"paper", "rock2", 26}, {"scissors", "paper", 26}, {"rock", "scissors", 26}, {"rock2", "scissors", 26}, {"rock", "rock2", 20}} {
		if got := points[[2]string{c.a, c.b}]; got != c.wins {
			t.Errorf("%s won %d of 40 against %s, want %d", c.a, got, c.b, c.wins)
		}
		if first[[2]string{c.a, c.b}] != 20 {
			t.Errorf("%s moved first %d times against %s, want 20", c.a, first[[2]string{c.a, c.b}], c.b)
		}
	}
	if !bytes.Equal(data, writeTest(t, true, 3)) {
		t.Error("the same seed wrote another file")
	}
	if bytes.Equal(data, writeTest(t, true, 4)) || bytes.Equal(data, writeTest(t, false, 3)) {
		t.Error("another seed, or results drawn game by game, wrote the same file")
	}
}

func TestParsePoolRejects(t *testing.T) {
	for _, c := range [][2]string{
		{"rock", ""},
		{"rock,rock", ""},
		{"rock,paper,r2=stone", ""},
		{"rock,paper,r2=rock,r3=r2", ""},
		{"rock,paper,r2=rock", "paper>r2=0.6"},
		{"rock,paper", "paper>rock=1.5"},
		{"rock,paper", "paper-rock=0.6"},
		{"rock,paper", "paper>paper=0.6"},
	} {
		if _, err := parsePool(c[0], c[1]); err == nil {
			t.Errorf("-names %q -score %q: no error", c[0], c[1])
		}
	}
}
