package arena

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestExampleModule builds and runs examples/myagent, a module of its own
// that registers an agent kind and plays a tournament through the public
// API: it fails when an exported signature it uses changes or leaks an
// internal package (another module cannot import those).
func TestExampleModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds another module")
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	cmd := exec.Command(goTool, "run", ".")
	cmd.Dir = filepath.Join("..", "examples", "myagent")
	// -mod=mod: the example's go.sum lists the main module's dependencies;
	// GOWORK=off: a workspace must not replace what go.mod says.
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run in %s: %v\n%s", cmd.Dir, err, out)
	}
	text := string(out)
	for _, want := range []string{"60 games of othello6 (corner-first, random, greedy)", "corner-first", "Terminations: normal 60"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}
