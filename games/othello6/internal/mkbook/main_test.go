package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games/othello6"
)

// TestRunRefuses: bad flags and files are refused with what was wrong.
func TestRunRefuses(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.bin")
	if err := os.WriteFile(junk, []byte("not a book"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "book.bin")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-min-empties", "0"}, "-min-empties 0"},
		{[]string{"-threads", "0"}, "-threads 0"},
		{[]string{"-tt", "0"}, "-tt 0"},
		{[]string{"-every", "1ms"}, "-every"},
		{[]string{"extra"}, "unexpected arguments"},
		{[]string{"-known", filepath.Join(dir, "missing.bin"), "-out", out}, "-known"},
		{[]string{"-known", junk, "-out", out}, "not an othello6 book"},
		{[]string{"-paths-only", "-min-empties", "30", "-out", out}, "paths"},
	} {
		err := run(c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error saying %q", c.args, err, c.want)
		}
	}
}

// TestRunFromKnownBook: with every position and reply value known (the
// embedded book as -known, down to its own minimum) nothing is solved,
// and the book written is the same file.
func TestRunFromKnownBook(t *testing.T) {
	src := filepath.Join("..", "..", "book.bin")
	want, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	b, err := othello6.LoadBook(want)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "book.bin")
	if err := run([]string{"-min-empties", strconv.Itoa(b.MinEmpties()), "-known", src, "-paths-only", "-reply-values", "-out", out}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("wrote %d bytes, not the %d of the known book", len(got), len(want))
	}
}
