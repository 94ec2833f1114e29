package results

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testHeader = `{"record":"header","version":1,"created":"2025-01-01T00:00:00Z","concurrency":2,"config":{"kind":"round-robin","game":"othello6","agents":[{"name":"a","spec":"random:name=a"},{"name":"b","spec":"greedy:name=b"}],"games_per_pair":4,"seed":1,"openings":"random:2","move_time_ms":0,"move_margin_ms":100,"max_plies":1000,"total_games":4}}`

func testGame(index int, result string, winner int) string {
	g := GameRecord{Record: KindGame, Index: index, Game: "othello6", Result: result, Winner: winner, Termination: Normal, Forfeit: -1,
		Players: [2]Player{{Agent: index % 2, Name: []string{"a", "b"}[index%2]}, {Agent: 1 - index%2, Name: []string{"a", "b"}[1-index%2]}},
		Opening: []string{"c2"}, Moves: []string{"c2", "b2"}, Plies: 2}
	line, err := MarshalLine(g)
	if err != nil {
		panic(err)
	}
	return string(line)
}

func TestReadGoodFile(t *testing.T) {
	data := testHeader + "\n" + testGame(0, "1-0", 0) + testGame(1, "1/2-1/2", -1) + "\n" +
		`{"record":"resume","time":"x","concurrency":1,"done":2}` + "\n" + strings.TrimSuffix(testGame(3, "0-1", 1), "\n")
	f, err := Read(strings.NewReader(data), "run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Games) != 3 || len(f.Resumes) != 1 || f.Torn || !f.NeedsNewline || f.GoodSize != int64(len(data)) {
		t.Errorf("read %d games, %d resumes, torn %t, needs newline %t, size %d/%d", len(f.Games), len(f.Resumes), f.Torn, f.NeedsNewline, f.GoodSize, len(data))
	}
	if f.Header.Config.Agents[1].Spec != "greedy:name=b" {
		t.Errorf("header %+v", f.Header)
	}
}

func TestReadErrors(t *testing.T) {
	g0 := testGame(0, "1-0", 0)
	cases := []struct{ name, data, want string }{
		{"empty", "", "run.jsonl:1: empty record file"},
		{"no header", g0, "run.jsonl:1: the first line must be the header record"},
		{"not json", testHeader + "\n{oops\n" + g0, "run.jsonl:2: not a JSON record"},
		{"newer", strings.Replace(testHeader, `"version":1`, `"version":7`, 1), "version 7 is newer"},
		{"wrong type", testHeader + "\n" + strings.Replace(g0, `"plies":2`, `"plies":"two"`, 1), `run.jsonl:2: game record: field "plies" should be int, found string`},
		{"unknown field", testHeader + "\n" + strings.Replace(g0, `"plies":2`, `"plies":2,"colour":"red"`, 1), `unknown field "colour"`},
		{"inconsistent", testHeader + "\n" + strings.Replace(g0, `"result":"1-0"`, `"result":"0-1"`, 1), `run.jsonl:2: game 0: result "0-1" does not match winner 0`},
		{"duplicate", testHeader + "\n" + g0 + testGame(1, "1-0", 0) + g0, "run.jsonl:4: game 0 is recorded twice (also on line 2)"},
		{"out of schedule", testHeader + "\n" + testGame(9, "1-0", 0), "game index 9 is outside the planned 4 games"},
		{"unknown kind", testHeader + "\n" + `{"record":"note"}` + "\n", `run.jsonl:2: unknown record kind "note"`},
		{"second header", testHeader + "\n" + testHeader + "\n", "run.jsonl:2: a second header"},
		{"bad termination", testHeader + "\n" + strings.Replace(g0, `"termination":"normal"`, `"termination":"resigned"`, 1), `unknown termination "resigned"`},
		{"sweep without values", strings.Replace(testHeader, `"kind":"round-robin"`, `"kind":"sweep"`, 1), "the swept values are 1 to 1 of the agents"},
		{"sweep of every agent", strings.Replace(testHeader, `"total_games":4`, `"total_games":4,"swept":2`, 1), "only a sweep has swept values"},
		// A run killed while writing its header: no newline, part of a
		// header; the error says so and what to do.
		{"torn header", testHeader[:40], "run.jsonl:1: the file holds only part of a header line (40 bytes, no newline) and no game: the run that created it was interrupted"},
		{"torn header, start of the kind", `{"rec`, "delete the file and start the run again"},
		{"long worker name", testHeader + "\n" + strings.Replace(g0, `"plies":2`, `"plies":2,"worker":"`+strings.Repeat("w", 101)+`"`, 1), "worker name of 101 bytes"},
	}
	// A first line of another file, or a header line with its newline,
	// is not called a torn header.
	for _, data := range []string{`{"name":"x"`, "hello", testHeader[:40] + "\n"} {
		if _, err := Read(strings.NewReader(data), "run.jsonl"); err == nil || strings.Contains(err.Error(), "part of a header") {
			t.Errorf("%q: error %v, want one that does not speak of a torn header", data, err)
		}
	}
	for _, c := range cases {
		_, err := Read(strings.NewReader(c.data), "run.jsonl")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		var pe *ParseError
		if c.name != "empty" && err != nil && !errors.As(err, &pe) {
			t.Errorf("%s: %T is not a ParseError", c.name, err)
		}
	}
}

// TestTornLastLine: a write cut short by a kill leaves a partial line; it
// is ignored on reading and cut off when the file is continued.
func TestTornLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	good := testHeader + "\n" + testGame(0, "1-0", 0) + testGame(1, "0-1", 1)
	torn := testGame(2, "1-0", 0)
	os.WriteFile(path, []byte(good+torn[:len(torn)/2]), 0o644)
	f, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Torn || len(f.Games) != 2 || f.GoodSize != int64(len(good)) {
		t.Fatalf("torn %t, %d games, good size %d (want %d)", f.Torn, len(f.Games), f.GoodSize, len(good))
	}
	w, err := Append(f, 3)
	if err != nil {
		t.Fatal(err)
	}
	var g GameRecord
	if err := strictUnmarshal([]byte(torn), &g); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteGames(&g); err != nil {
		t.Fatal(err)
	}
	w.Close()
	f2, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if f2.Torn || len(f2.Games) != 3 || len(f2.Resumes) != 1 || f2.Resumes[0].Done != 2 || f2.Resumes[0].Concurrency != 3 {
		t.Errorf("after appending: torn %t, %d games, resumes %+v", f2.Torn, len(f2.Games), f2.Resumes)
	}
	// A complete last line without its newline gets one before appending.
	os.WriteFile(path, []byte(good[:len(good)-1]), 0o644)
	f3, _ := ReadFile(path)
	w3, err := Append(f3, 1)
	if err != nil {
		t.Fatal(err)
	}
	w3.Close()
	data, _ := os.ReadFile(path)
	if !bytes.HasPrefix(data, []byte(good)) {
		t.Error("the missing newline was not restored")
	}
	if _, err := ReadFile(path); err != nil {
		t.Error(err)
	}
}

func TestCreateRefusesToOverwrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	os.WriteFile(path, []byte("precious"), 0o644)
	if _, err := Create(path, Header{}); err == nil || !strings.Contains(err.Error(), "already exists") || !errors.Is(err, fs.ErrExist) {
		t.Errorf("Create over an existing file: %v", err)
	}
	// A directory is not a record to resume.
	dir := t.TempDir()
	if _, err := Create(dir, Header{}); err == nil || !strings.Contains(err.Error(), "is a directory: name a file") {
		t.Errorf("Create on a directory: %v", err)
	}
}

func TestMergeRejectsDuplicateGames(t *testing.T) {
	f1, err := Read(strings.NewReader(testHeader+"\n"+testGame(0, "1-0", 0)), "a.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	f2, _ := Read(strings.NewReader(testHeader+"\n"+testGame(0, "1-0", 0)+testGame(1, "1-0", 0)), "b.jsonl")
	if _, err := Merge(f1, f2); err == nil || !strings.Contains(err.Error(), "both hold game 0") {
		t.Errorf("merge of overlapping files: %v", err)
	}
	other := strings.Replace(testHeader, `"seed":1`, `"seed":2`, 1)
	f3, _ := Read(strings.NewReader(other+"\n"+testGame(0, "0-1", 1)), "c.jsonl")
	d, err := Merge(f1, f3)
	if err != nil || len(d.Games) != 2 || len(d.Players) != 2 {
		t.Fatalf("merge of two seeds: %v", err)
	}
	s := d.Summarize()
	if s.Players[0].All != (WDL{1, 0, 1}) || s.FirstPlayer != (WDL{1, 0, 1}) {
		t.Errorf("summary %+v", s)
	}
	f4, _ := Read(strings.NewReader(strings.Replace(other, "othello6", "pyrga", 1)+"\n"), "d.jsonl")
	if _, err := Merge(f1, f4); err == nil || !strings.Contains(err.Error(), "pyrga") {
		t.Errorf("merge of two games: %v", err)
	}
}

// padLine pads a record line with blanks before its newline to n bytes in
// all (blanks around a record are allowed).
func padLine(line string, n int) string {
	body := strings.TrimSuffix(line, "\n")
	return body + strings.Repeat(" ", n-len(body)-1) + "\n"
}

func TestReadLineLimit(t *testing.T) {
	g0, g1 := testGame(0, "1-0", 0), testGame(1, "1-0", 0)
	f, err := Read(strings.NewReader(testHeader+"\n"+padLine(g1, MaxLineBytes)), "run.jsonl")
	if err != nil || len(f.Games) != 1 {
		t.Fatalf("a line of MaxLineBytes: %v", err)
	}
	for _, c := range []struct{ name, data, want string }{
		{"game line", testHeader + "\n" + g0 + padLine(g1, MaxLineBytes+1), "run.jsonl:3: line longer than 16777216 bytes (results.MaxLineBytes)"},
		// A long last line is no torn write: it is refused too.
		{"last line without newline", testHeader + "\n" + strings.TrimSuffix(padLine(g1, MaxLineBytes+2), "\n"), "run.jsonl:2: line longer than"},
		{"header", padLine(testHeader, MaxLineBytes+1) + g0, "run.jsonl:1: line longer than"},
	} {
		_, err := Read(strings.NewReader(c.data), "run.jsonl")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// blanks is an endless stream of spaces, counting what was read.
type blanks struct{ n int64 }

func (b *blanks) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	b.n += int64(len(p))
	return len(p), nil
}

func TestReadStopsAtTheLineLimit(t *testing.T) {
	// A line with no end is refused after MaxLineBytes (and the reader's
	// buffer), not read to exhaustion. The stream stops at four times the
	// limit so that a reader without one ends too (reading a blank file).
	src := &blanks{}
	_, err := Read(io.LimitReader(src, 4*MaxLineBytes), "run.jsonl")
	if err == nil || !strings.Contains(err.Error(), "run.jsonl:1: line longer than") {
		t.Fatalf("error %v, want line 1 too long", err)
	}
	if src.n > MaxLineBytes+128<<10 {
		t.Errorf("read %d bytes of a line before refusing it; the limit is %d", src.n, MaxLineBytes)
	}
}

// TestSpecClashes: a name that stands for different specs in the merged
// files is told (an engine without name= is named after its program, so
// a/engine.py and b/engine.py would pool as one player); the same spec
// in several files is not.
func TestSpecClashes(t *testing.T) {
	read := func(header, path string) *File {
		f, err := Read(strings.NewReader(header+"\n"), path)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	f1 := read(testHeader, "1.jsonl")
	f2 := read(strings.Replace(testHeader, `"seed":1`, `"seed":2`, 1), "2.jsonl")
	f3 := read(strings.Replace(testHeader, `"spec":"random:name=a"`, `"spec":"ugi:cmd=b/engine.py"`, 1), "3.jsonl")
	d, err := Merge(f1, f2)
	if err != nil {
		t.Fatal(err)
	}
	if c := d.SpecClashes(); len(c) != 0 {
		t.Errorf("same specs in two files: clashes %+v", c)
	}
	if d, err = Merge(f1, f2, f3); err != nil {
		t.Fatal(err)
	}
	c := d.SpecClashes()
	if len(c) != 1 || c[0].Name != "a" || strings.Join(c[0].Specs, " ") != "random:name=a ugi:cmd=b/engine.py" || strings.Join(c[0].Paths, " ") != "1.jsonl 3.jsonl" {
		t.Errorf("clashes %+v", c)
	}
	want := `the name a stands for "random:name=a" in 1.jsonl and "ugi:cmd=b/engine.py" in 3.jsonl: their games are pooled as one player's; give each spec its own name= to keep them apart`
	if notes := d.MergeNotes(); len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q", notes)
	}
	tally := NewTally()
	for _, f := range []*File{f1, f2, f3} {
		tally.Files = append(tally.Files, &TallyFile{Path: f.Path, Header: f.Header})
	}
	if notes := tally.MergeNotes(); len(notes) != 1 || notes[0] != want {
		t.Errorf("tally notes %q", notes)
	}
}
