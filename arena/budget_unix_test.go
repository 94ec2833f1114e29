//go:build unix

package arena

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// TestBotBudgetIsTheLimit: a cg bot given turn=500ms that takes 300 ms on
// one turn plays its tournament without a timeout: the arena holds it to
// the bot's own turn= (agents.Budgeter), not to the game's 50 ms. Before,
// both games ended "timeout … stopped by the arena".
func TestBotBudgetIsTheLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs external processes")
	}
	bin := filepath.Join(t.TempDir(), "cgbot")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.Command(goTool, "build", "-o", bin, "../agents/testdata/cgbot").CombinedOutput(); err != nil {
		t.Fatalf("building the test bot: %v\n%s", err, out)
	}
	tour, err := New(Options{
		Game: "tryangle:seed=3",
		Agents: []string{
			"cg:cmd=" + bin + " slow 2,turn=500ms,name=slow2",
			"cg:cmd=" + bin + " slow 3,turn=500ms,name=slow3",
		},
		GamesPerPair: 2,
		Seed:         1,
		MaxPlies:     6,
	})
	if err != nil {
		t.Fatal(err)
	}
	got, stats := collect(t, tour, RunOptions{Concurrency: 1})
	if !stats.Complete || len(got) != 2 {
		t.Fatalf("complete %v, %d games; want 2 complete games", stats.Complete, len(got))
	}
	for _, g := range got {
		if g.Termination == results.Timeout || g.Termination == results.Crash || g.Termination == results.Error {
			t.Errorf("game %d: %s (%s); a 300 ms answer is within turn=500ms", g.Index, g.Termination, g.Detail)
		}
		if len(g.Moves) < 3 {
			t.Errorf("game %d ended after %d plies, before both slow turns", g.Index, len(g.Moves))
		}
	}
}
