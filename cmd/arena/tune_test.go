package main

import (
	"strings"
	"testing"
)

// TestTuneMethods: arena tune without a method, and with --help, lists the
// methods aligned with the reference; a mistyped method is told in two
// lines with the nearest one, as a mistyped command is (it exited 1 with
// the list of methods and no suggestion).
func TestTuneMethods(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{{[]string{"tune"}, 2}, {[]string{"tune", "--help"}, 0}, {[]string{"help", "tune"}, 0}} {
		code, stdout, stderr := runArena(tc.args...)
		if code != tc.code || stdout != "" || !strings.Contains(stderr, "\n  spsa   SPSA on ") || !strings.Contains(stderr, "\n  texel  fit ") ||
			!strings.Contains(stderr, "Reference: docs/tuning.md") {
			t.Errorf("arena %s: exit %d (want %d), stdout %q, stderr:\n%s", strings.Join(tc.args, " "), code, tc.code, stdout, stderr)
		}
	}
	code, _, stderr := runArena("tune", "spas", "--games", "2")
	want := "arena tune: unknown method \"spas\"; did you mean spsa?\nRun 'arena tune --help' for the methods; the reference is docs/tuning.md.\n"
	if code != 2 || stderr != want {
		t.Errorf("arena tune spas: exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
}
