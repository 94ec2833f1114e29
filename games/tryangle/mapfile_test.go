package tryangle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
)

// writeMap writes the map of a generator seed as a map file.
func writeMap(t *testing.T, path string, seed int64) {
	t.Helper()
	nodes, edges, units := GeneratedMap(seed).Params()
	if err := os.WriteFile(path, []byte("nodes="+nodes+"\nedges="+edges+"\nunits="+units+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMapFileReadOnce: tryangle:map=FILE is read when the spec is resolved;
// a file changed or broken afterwards changes nothing (it used to make
// Variant.New panic), and the variant's digest names the content it read.
func TestMapFileReadOnce(t *testing.T) {
	file := filepath.Join(t.TempDir(), "m.txt")
	writeMap(t, file, 42)
	v, err := games.Lookup("tryangle:map=" + file)
	if err != nil {
		t.Fatal(err)
	}
	want := New(GeneratedMap(42)).Hash()
	digest := v.Digest()
	if len(digest) != 64 {
		t.Fatalf("digest %q, want 64 hex digits", digest)
	}
	for _, tc := range []struct {
		name    string
		content func()
	}{
		{"another map", func() { writeMap(t, file, 43) }},
		{"garbage", func() { os.WriteFile(file, []byte("not a map\n"), 0o644) }},
		{"gone", func() { os.Remove(file) }},
	} {
		tc.content()
		b := v.New()
		if b.Hash() != want {
			t.Errorf("%s: the variant's start position changed with its file", tc.name)
		}
		if v.Digest() != digest {
			t.Errorf("%s: digest changed", tc.name)
		}
	}

	// Resolving the spec again reads the new file: another digest.
	writeMap(t, file, 43)
	v2, err := games.Lookup("tryangle:map=" + file)
	if err != nil {
		t.Fatal(err)
	}
	if v2.Digest() == digest || v2.New().Hash() == want {
		t.Error("a changed map file gives the same digest or map")
	}
	// Generated and inline maps are decided by the spec alone: no digest.
	for _, spec := range []string{"tryangle", "tryangle:seed=7"} {
		if v, err := games.Lookup(spec); err != nil || v.Digest() != "" {
			t.Errorf("%s: digest %q, %v; want none", spec, v.Digest(), err)
		}
	}
}

// TestMapFileErrors: a map file that cannot be read is refused naming the
// map= option; one that never ends (/dev/zero) at the size limit instead of
// being read whole.
func TestMapFileErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.txt")
	cases := map[string]string{
		"tryangle:map=":           "tryangle:map=: no file named",
		"tryangle:map=" + missing: "tryangle:map=" + missing + ": no such file or directory",
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		cases["tryangle:map=/dev/zero"] = "tryangle:map=/dev/zero: more than 1 MiB; a map file is at most 1 MiB"
	}
	for spec, want := range cases {
		if _, err := games.New(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
}
