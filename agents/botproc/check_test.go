package botproc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "notexec")
	os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644)
	for _, tc := range []struct {
		cfg  Config
		want string // "" for no error
	}{
		{Config{Argv: []string{"sh", "-c", "true"}}, ""},
		{Config{Argv: []string{"sh"}, StderrFile: filepath.Join(dir, "err.log")}, ""},
		{Config{}, "no command"},
		{Config{Argv: []string{"no-such-program-here"}}, "the program no-such-program-here cannot be run"},
		{Config{Argv: []string{plain}}, "cannot be run"},
		{Config{Argv: []string{"./notexec"}, Dir: dir}, "cannot be run"},
		{Config{Argv: []string{"sh"}, Dir: filepath.Join(dir, "missing")}, "working directory"},
		{Config{Argv: []string{"sh"}, StderrFile: filepath.Join(dir, "missing", "err.log")}, "stderr file's directory"},
	} {
		err := Check(tc.cfg)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Check(%+v) = %v, want %q", tc.cfg, err, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "err.log")); err == nil {
		t.Error("Check created the stderr file")
	}
}
