package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// buildLine is a documented build of the command: go build -o PATH ./cmd/arena.
var buildLine = regexp.MustCompile(`go build -o (\S+) \./cmd/arena`)

// runsDir is a command line of the binary as ./arena (not go test ./arena).
var runsDir = regexp.MustCompile(`(^|[\s'"=])\./arena (tournament|match|worker|engine|tune|rate|report|play|sprt|solve|perft|bench)\b`)

// TestReadmeBuildsARunnableBinary: every `go build -o PATH ./cmd/arena` in
// the READMEs writes a file, not into a directory of the checkout (./arena
// is the arena package: `./arena tournament` then fails with "Is a
// directory"), and no command line runs ./arena.
func TestReadmeBuildsARunnableBinary(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, doc := range []string{"README.md", filepath.Join("benchmarks", "README.md")} {
		f, err := os.Open(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			for _, m := range buildLine.FindAllStringSubmatch(line, -1) {
				if st, err := os.Stat(filepath.Join(root, m[1])); err == nil && st.IsDir() {
					t.Errorf("%s:%d: go build -o %s writes into the directory %s of the checkout", doc, n, m[1], m[1])
				}
			}
			if runsDir.MatchString(line) {
				t.Errorf("%s:%d: runs ./arena, the arena package's directory: %s", doc, n, strings.TrimSpace(line))
			}
		}
		f.Close()
	}
}
