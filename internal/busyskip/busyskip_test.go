package busyskip

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRecordAppendsOneLineEach(t *testing.T) {
	path := filepath.Join(t.TempDir(), "skips")
	for _, name := range []string{"TestA", "TestB/sub"} {
		if err := record(path, name, "the control was late"); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "TestA: the control was late\nTestB/sub: the control was late\n"
	if string(b) != want {
		t.Fatalf("got %q, want %q", b, want)
	}
	if err := record("", "TestC", "x"); err != nil {
		t.Fatalf("an unset path: %v", err)
	}
}

// TestSkipfRecordsAndSkips runs Skipf in a subtest: the subtest is skipped
// and the file names it.
func TestSkipfRecordsAndSkips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "skips")
	t.Setenv(Env, path)
	t.Run("busy", func(t *testing.T) {
		Skipf(t, "the control took %dms", 120)
		t.Error("Skipf returned")
	})
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "TestSkipfRecordsAndSkips/busy: the machine is too busy to judge: the control took 120ms\n"; string(b) != want {
		t.Fatalf("got %q, want %q", b, want)
	}
}
