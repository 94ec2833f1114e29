package pyrga

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

var update = flag.Bool("update", false, "rewrite testdata files (perft counts after cross-checking, golden transcripts)")

// chooser picks a move for the player to move.
type chooser func(s *State) games.Move

func randomChooser(seed uint64) chooser {
	r := rng.New(seed)
	return func(s *State) games.Move {
		moves := s.LegalMoves(nil)
		return moves[r.IntN(len(moves))]
	}
}

func agentChooser(t *testing.T, spec string, seed uint64) chooser {
	a, err := agents.New(spec, seed)
	if err != nil {
		t.Fatal(err)
	}
	return func(s *State) games.Move {
		m, err := a.Move(context.Background(), s, s.ToMove())
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
}

// transcript plays a game between the two choosers and writes every ply with
// the legal moves before it, then the final board and result.
func transcript(s *State, players [2]chooser) string {
	var b strings.Builder
	for !s.Terminal() {
		moves := s.LegalMoves(nil)
		m := players[s.ToMove()](s)
		fmt.Fprintf(&b, "%2d. %-6s  (%d legal: %s)\n", s.Ply()+1, FormatMove(m), len(moves), games.FormatMoves(s, moves))
		s.Play(m)
	}
	fmt.Fprintf(&b, "\n%s\nresult %s score %+d\n", s, s.Outcome().Result(), s.Outcome().Score)
	return b.String()
}

func TestGoldenTranscript(t *testing.T) {
	tests := []struct {
		file    string
		state   *State
		players [2]chooser
	}{
		{"random-seed3.golden", New(), [2]chooser{randomChooser(3), randomChooser(4)}},
		// Greedy opens with a Square here, so the bga rule bars White's
		// Squares on ply 3.
		{"bga-greedy-vs-random-seed7.golden", NewBGA(), [2]chooser{agentChooser(t, "greedy", 7), randomChooser(8)}},
	}
	for _, tc := range tests {
		name := filepath.Join("testdata", tc.file)
		got := transcript(tc.state, tc.players)
		if kind, _, _ := Decode(tc.state.moves[0]); tc.state.BGA() && kind != Square {
			t.Errorf("%s: White opens with %s; the bga game should open with a Square", name, FormatMove(tc.state.moves[0]))
		}
		if *update {
			if err := os.WriteFile(name, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if got != string(want) {
			t.Errorf("transcript differs from %s:\n%s", name, got)
		}
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"S@b2", "T@b2>N", "c@d4", "t@A1>e", " C@a1 ", "T@a4>N", "S@b2>N", "T@b2", "S@e1", "", "é@1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMove(text)
		if err != nil {
			return
		}
		canon := FormatMove(m)
		if strings.HasPrefix(canon, "?") {
			t.Fatalf("ParseMove(%q) = %d, which does not format", text, m)
		}
		if asciiUpper(canon) != asciiUpper(strings.TrimSpace(text)) {
			t.Fatalf("ParseMove(%q) formats as %q", text, canon)
		}
		if back, err := ParseMove(canon); err != nil || back != m {
			t.Fatalf("%q → %d → %q → %d, %v", text, m, canon, back, err)
		}
	})
}
