package arena

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
)

// TestNoGameNames: the arena knows no game by name. What differs between
// games (opening plies, per-round board seeds, move limits) comes from
// games.Game, so a game registered in another module gets the same
// treatment. Fails if a non-test source of the package names a registered
// game (in any case, so "TryAngle" counts too).
func TestNoGameNames(t *testing.T) {
	names := games.Names()
	if len(names) < 5 {
		t.Fatalf("registry has %v; the test needs the five games registered", names)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	scanned := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		scanned++
		text := strings.ToLower(string(b))
		for _, n := range names {
			if i := strings.Index(text, strings.ToLower(n)); i >= 0 {
				line := strings.Count(text[:i], "\n") + 1
				t.Errorf("%s:%d names the game %q: take that knowledge from games.Game instead", f, line, n)
			}
		}
	}
	if scanned == 0 {
		t.Fatal("no source file scanned")
	}
}

// TestLimitsFromAgentAndGame: in automatic mode the limit of every move is
// the agent's own budget (agents.Budgeter), else the game's, else the cap.
func TestLimitsFromAgentAndGame(t *testing.T) {
	const margin = DefaultMargin
	tests := []struct {
		game, agent string
		want        Limits
	}{
		{"othello6", "alphabeta:time=30ms", Limits{Move: 30 * time.Millisecond, First: 30 * time.Millisecond, Margin: margin}},
		{"othello6", "mcts:time=40ms", Limits{Move: 40 * time.Millisecond, First: 40 * time.Millisecond, Margin: margin}},
		{"othello6", "mcts:iters=100", Limits{Move: DefaultMoveCap, Margin: margin}},
		{"othello6", "random", Limits{Move: DefaultMoveCap, Margin: margin}},
		{"tryangle", "random", Limits{Move: 50 * time.Millisecond, First: time.Second, Margin: margin}},
		{"tryangle", "alphabeta:time=200ms", Limits{Move: 200 * time.Millisecond, First: 200 * time.Millisecond, Margin: margin}},
		{"tryangle", "cg:cmd=true,turn=500ms", Limits{Move: 500 * time.Millisecond, First: time.Second, Margin: margin}},
		{"tryangle", "cg:cmd=true,first=2s,turn=300ms", Limits{Move: 300 * time.Millisecond, First: 2 * time.Second, Margin: margin}},
	}
	for _, tt := range tests {
		tour, err := New(Options{Game: tt.game, Agents: []string{tt.agent, "random"}, GamesPerPair: 2})
		if err != nil {
			t.Fatalf("%s %s: %v", tt.game, tt.agent, err)
		}
		if got := tour.Limits[0]; got != tt.want {
			t.Errorf("%s %s: limits %+v, want %+v", tt.game, tt.agent, got, tt.want)
		}
	}
}

// TestOpeningsFromGame: the default number of random plies and the per-round
// board seed come from the game's metadata.
func TestOpeningsFromGame(t *testing.T) {
	for _, tt := range []struct {
		game  string
		plies int
		spec  string
	}{
		{"othello6", DefaultOpeningPlies, "random:2"},
		{"tryangle", 0, "random:0+seed"},
		{"tryangle:seed=4", 0, "random:0"},
	} {
		v, err := games.Lookup(tt.game)
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewBook(v, "", 1, false)
		if err != nil {
			t.Fatal(err)
		}
		if b.Spec != tt.spec {
			t.Errorf("%s: book %q, want %q", tt.game, b.Spec, tt.spec)
		}
		if o := b.Opening(0); o.Len() != tt.plies {
			t.Errorf("%s: opening of %d plies, want %d", tt.game, o.Len(), tt.plies)
		}
	}
}
