package gravity

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
)

const goldenFile = "testdata/greedy_vs_greedy.golden"

// playAgents plays one game between two agent specs and returns the
// transcript: one line per ply, then the final board and the result.
func playAgents(t *testing.T, first, second string, seed uint64) (*State, string) {
	t.Helper()
	var players [2]agents.Agent
	for p, spec := range []string{first, second} {
		a, err := agents.New(spec, seed+uint64(p))
		if err != nil {
			t.Fatal(err)
		}
		players[p] = a
	}
	s := New()
	var b strings.Builder
	fmt.Fprintf(&b, "# gravity: X = %s (seed %d), O = %s (seed %d)\n", first, seed, second, seed+1)
	for !s.Terminal() {
		p := s.ToMove()
		m, err := players[p].Move(context.Background(), s, p)
		if err != nil {
			t.Fatal(err)
		}
		if !games.IsLegal(s, m) {
			t.Fatalf("ply %d: %s chose the illegal move %s", s.Ply()+1, players[p].Name(), FormatMove(m))
		}
		cell := s.Landing(m)
		s.Play(m)
		fmt.Fprintf(&b, "%2d %c %s %s\n", s.Ply(), "XO"[p], FormatMove(m), CellName(cell))
	}
	fmt.Fprintf(&b, "%s\nresult %s\n", s.String(), s.Outcome().Result())
	return s, b.String()
}

// TestGoldenGame replays one seeded greedy-versus-greedy game and compares
// it with the recorded transcript (go test -run TestGoldenGame -update
// rewrites it after a deliberate change to the rules or the evaluation).
func TestGoldenGame(t *testing.T) {
	_, got := playAgents(t, "greedy", "greedy", 42)
	if *update {
		if err := os.WriteFile(goldenFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("transcript differs from %s:\n%s", goldenFile, got)
	}
}

// TestGreedyBeatsRandom: the evaluation is worth something. A player that
// never misses a win in one and never leaves one (as far as one ply sees)
// should beat uniform random play almost always, from either seat.
func TestGreedyBeatsRandom(t *testing.T) {
	games := 100
	if testing.Short() {
		games = 30
	}
	for seat := range 2 {
		wins := 0
		for i := range games {
			specs := []string{"random", "random"}
			specs[seat] = "greedy"
			s, _ := playAgents(t, specs[0], specs[1], uint64(1000*seat+i))
			if s.Outcome().Winner == seat {
				wins++
			}
		}
		t.Logf("greedy in seat %d won %d of %d", seat, wins, games)
		if wins < games*9/10 {
			t.Errorf("greedy in seat %d won only %d of %d games against random", seat, wins, games)
		}
	}
}

// TestGreedyBlocks: X has A9–D9 and would win on E9; O (to move, last side
// left) must put a tile on E9, which only R9 and TE do.
func TestGreedyBlocks(t *testing.T) {
	s := playAll(t, strings.Fields("TA L1 R9 R1 TC L2 R9")...)
	for seed := range uint64(20) {
		a, err := agents.New("greedy", seed)
		if err != nil {
			t.Fatal(err)
		}
		m, err := a.Move(context.Background(), s, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatMove(m); got != "R9" && got != "TE" {
			t.Errorf("seed %d: greedy plays %s, leaving X a win on E9", seed, got)
		}
	}
}
