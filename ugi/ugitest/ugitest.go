// Package ugitest helps test UGI clients and checkers with engines whose
// answers a test chooses: shell scripts that speak just enough UGI.
package ugitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Script writes a shell-script UGI engine for othello6 into dir and
// returns its path (run it with sh). The engine appends its PID to
// dir/pids (see Pids) and every command it reads to dir/log (see Log),
// names itself "script", advertises the options UGI_Game and Hash,
// answers ugi and isready, exits on quit, and runs goAction (shell code,
// the command in $line) on go.
func Script(t testing.TB, dir, goAction string) string {
	t.Helper()
	script := filepath.Join(dir, "engine.sh")
	body := `#!/bin/sh
echo $$ >> ` + filepath.Join(dir, "pids") + `
while read -r line; do
  echo "$line" >> ` + filepath.Join(dir, "log") + `
  case "$line" in
    ugi) echo "id name script"; echo "option name UGI_Game type string default othello6"; echo "option name Hash type spin default 1"; echo ugiok;;
    isready) echo readyok;;
    go*) ` + goAction + `;;
    quit) exit 0;;
  esac
done
`
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

// Pids returns the PIDs of the engines Script's engines in dir started.
func Pids(dir string) []string {
	b, _ := os.ReadFile(filepath.Join(dir, "pids"))
	return strings.Fields(string(b))
}

// PidFile is the file Script's engines in dir append their PIDs to (for
// botproctest.NoneRunning).
func PidFile(dir string) string { return filepath.Join(dir, "pids") }

// Log returns the commands Script's engines in dir have read, a line
// each.
func Log(dir string) string {
	b, _ := os.ReadFile(filepath.Join(dir, "log"))
	return string(b)
}
