package linelog

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

func TestPrefixesEveryLine(t *testing.T) {
	for _, tt := range []struct {
		writes []string
		want   string
	}{
		{[]string{"a\n"}, "p: a\n"},
		{[]string{"a\nb\n"}, "p: a\np: b\n"},
		{[]string{"a", "b\n", "c\n"}, "p: ab\np: c\n"},
		{[]string{"a\n\n"}, "p: a\n\n"},
		{[]string{"\nb\n"}, "\np: b\n"},
		{[]string{""}, ""},
		{[]string{"no end"}, "p: no end"},
	} {
		var out bytes.Buffer
		w := New(&out, "p: ")
		for _, s := range tt.writes {
			if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
				t.Fatalf("Write(%q) = %d, %v", s, n, err)
			}
		}
		if out.String() != tt.want {
			t.Errorf("%q: wrote %q, want %q", tt.writes, out.String(), tt.want)
		}
	}
}

// TestConcurrentLinesStayWhole: lines written at once from many
// goroutines come out whole, each with its prefix (run with -race).
func TestConcurrentLinesStayWhole(t *testing.T) {
	var out bytes.Buffer
	w := New(&out, "x: ")
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				fmt.Fprintf(w, "goroutine %d line %d\n", g, i)
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 800 {
		t.Fatalf("%d lines, want 800", len(lines))
	}
	for _, l := range lines {
		var g, i int
		if _, err := fmt.Sscanf(l, "x: goroutine %d line %d", &g, &i); err != nil {
			t.Errorf("torn line %q", l)
		}
	}
}

func ExampleNew() {
	w := New(os.Stdout, "arena worker: ")
	fmt.Fprintln(w, "took games 3 4")
	fmt.Fprint(w, "run 1 is over\n")
	// Output:
	// arena worker: took games 3 4
	// arena worker: run 1 is over
}
