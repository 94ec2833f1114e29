package benchmarks

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestTryangleLadderScript runs tryangle-ladder.sh end to end with
// stand-ins for the official bosses (they are not ours to ship): a fake
// mcs that writes an empty .exe and a fake mono that answers WAIT to every
// turn. It checks the summary's rows (one per pairing and record, 2 games
// each, no slowest move for an agent that reports no move times) and that
// a ladder is resumed only with the options it was played with.
func TestTryangleLadderScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the arena and plays 18 games through the ladder script")
	}
	if _, err := exec.LookPath("jq"); err != nil {
		if os.Getenv("ARENA_REQUIRE_JQ") != "" {
			t.Fatal("jq not found and ARENA_REQUIRE_JQ is set: the ladder script needs it (apt-get install jq)")
		}
		t.Skip("jq not found: the ladder script needs it")
	}
	dir := t.TempDir()
	arenaBin := filepath.Join(dir, "arena-cli")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.Command(goTool, "build", "-o", arenaBin, "../cmd/arena").CombinedOutput(); err != nil {
		t.Fatalf("building the arena: %v\n%s", err, out)
	}
	bin := filepath.Join(dir, "bin")
	clone := filepath.Join(dir, "clone")
	files := map[string]string{
		filepath.Join(bin, "mcs"):                           "#!/bin/sh\nfor a; do case $a in -out:*) : >\"${a#-out:}\" ;; esac; done\n",
		filepath.Join(bin, "mono"):                          "#!/bin/sh\ncat >/dev/null &\nexec yes WAIT\n",
		filepath.Join(clone, "config", "Boss.cs"):           "// final boss stand-in\n",
		filepath.Join(clone, "config", "level2", "Boss.cs"): "// Wood 1 boss stand-in\n",
	}
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "ladder")
	ladder := func(games string) (stdout, stderr string, err error) {
		// alphabeta first: in the round robin it is the first-listed
		// agent, so its row there has the same names as its gauntlet row
		// against greedy, and the two must stay apart.
		cmd := exec.Command("sh", "tryangle-ladder.sh", "-n", games, "-o", out, "-b", arenaBin, clone,
			"alphabeta:depth=1", "greedy")
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err = cmd.Run()
		return o.String(), e.String(), err
	}

	stdout, stderr, err := ladder("2")
	if err != nil {
		t.Fatalf("ladder: %v\n%s%s", err, stdout, stderr)
	}
	var rows []string
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(line, "| `") {
			rows = append(rows, line)
		}
	}
	if len(rows) != 9 {
		t.Fatalf("%d rows, want 9 (4 opponents for each of 2 agents, 1 pairing between them):\n%s", len(rows), stdout)
	}
	abGreedy := 0
	for _, r := range rows {
		f := strings.Split(r, "|")
		if len(f) != 11 || strings.TrimSpace(f[3]) != "2" {
			t.Errorf("row %q: want 9 columns and 2 games", r)
			continue
		}
		agent, opp := strings.TrimSpace(f[1]), strings.TrimSpace(f[2])
		if agent == "`alphabeta:depth=1`" && opp == "greedy" {
			abGreedy++
		}
		if agent == "`greedy`" && (strings.TrimSpace(f[8]) != "–" || strings.TrimSpace(f[9]) != "–") {
			t.Errorf("row %q: greedy records no move times, so no slowest move", r)
		}
	}
	if abGreedy != 2 {
		t.Errorf("alphabeta against greedy in %d rows, want 2 (gauntlet and round robin apart):\n%s", abGreedy, stdout)
	}

	// Other options on the same directory would keep the old games.
	stdout, stderr, err = ladder("4")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(stderr, "-n 2 -s 1") {
		t.Fatalf("ladder -n 4 on a -n 2 ladder: %v, want exit 2 naming its options\n%s%s", err, stdout, stderr)
	}
}
