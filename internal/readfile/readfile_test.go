package readfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/option"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("12345678"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := Read(small, "--x", "an x file", 8); err != nil || string(data) != "12345678" {
		t.Errorf("a file at the limit: %q %v", data, err)
	}
	_, err := Read(small, "--x", "an x file", 7)
	if want := "--x " + small + ": more than 7 bytes; an x file is at most 7 bytes"; err == nil || err.Error() != want || !isTooLarge(err) {
		t.Errorf("a file beyond the limit: %v, want %q", err, want)
	}
	// A device whose Stat size is 0 and that never ends.
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := Read("/dev/zero", "--file", "a moves file", 16*MiB)
		if want := "--file /dev/zero: more than 16 MiB; a moves file is at most 16 MiB"; err == nil || err.Error() != want {
			t.Errorf("/dev/zero: %v, want %q", err, want)
		}
	}
	missing := filepath.Join(dir, "missing")
	for path, want := range map[string]string{
		"":      "tryangle:map=: no file named",
		missing: "tryangle:map=" + missing + ": no such file or directory",
	} {
		if _, err := Read(path, "tryangle:map=", "a map file", MiB); err == nil || err.Error() != want || isTooLarge(err) {
			t.Errorf("%q: %v, want %q", path, err, want)
		}
	}
	if _, err := Read(missing, "--file", "a moves file", MiB); err == nil || err.Error() != "--file "+missing+": no such file or directory" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing --file: %v", err)
	}
}

// TestReadOption: a file an option names is refused with an *option.Error
// of that option and the path, which a command line shows as its flag; the
// cause stays reachable.
func TestReadOption(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	flag := func(name string) string { return "--tls-ca" }
	_, err := Read(missing, "CA", "a PEM file", MiB)
	var oe *option.Error
	if err == nil || err.Error() != "CA "+missing+": no such file or directory" || !errors.As(err, &oe) || oe.Name != "CA" || oe.Value != missing || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing CA: %v", err)
	}
	if got, want := option.Render(err, flag), "--tls-ca "+missing+": no such file or directory"; got != want {
		t.Errorf("rendered %q, want %q", got, want)
	}
	_, err = Read("", "CA", "a PEM file", MiB)
	if got, want := option.Render(err, flag), "--tls-ca: no file named"; got != want {
		t.Errorf("no file: rendered %q, want %q", got, want)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Read(big, "CA", "a PEM file", 1024)
	if !isTooLarge(err) || err.Error() != "CA "+big+": more than 1 KiB; a PEM file is at most 1 KiB" {
		t.Errorf("too large: %v", err)
	}
	if got, want := option.Render(fmt.Errorf("worker: %w", err), flag), "worker: --tls-ca "+big+": more than 1 KiB; a PEM file is at most 1 KiB"; got != want {
		t.Errorf("too large: rendered %q, want %q", got, want)
	}
}

func TestFrom(t *testing.T) {
	if _, err := From(strings.NewReader(strings.Repeat("x", 2048)), "-", "--file", "a moves file", 1024); err == nil || err.Error() != "--file -: more than 1 KiB; a moves file is at most 1 KiB" {
		t.Errorf("stdin beyond the limit: %v", err)
	}
}

func isTooLarge(err error) bool {
	var t *tooLarge
	return errors.As(err, &t)
}
