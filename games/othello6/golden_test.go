package othello6

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// transcript plays a seeded random game and writes every ply with the legal
// moves before it, then the final board and result.
func transcript(seed uint64) string {
	var b strings.Builder
	s := New()
	r := rng.New(seed)
	for !s.Terminal() {
		moves := s.LegalMoves(nil)
		m := moves[r.IntN(len(moves))]
		fmt.Fprintf(&b, "%2d. %-4s  (legal: %s)\n", s.Ply()+1, FormatMove(m), games.FormatMoves(s, moves))
		s.Play(m)
	}
	fmt.Fprintf(&b, "\n%s\nresult %s score %+d\n", s, s.Outcome().Result(), s.Outcome().Score)
	return b.String()
}

func TestGoldenTranscript(t *testing.T) {
	for _, seed := range []uint64{7, 12} { // seed 12's game contains passes
		name := filepath.Join("testdata", fmt.Sprintf("random-seed%d.golden", seed))
		got := transcript(seed)
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
			t.Errorf("transcript for seed %d differs from %s:\n%s", seed, name, got)
		}
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"a1", "f6", "pass", "D3", "g7", "", " c4 ", "é1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMove(text)
		if err != nil {
			return
		}
		if m > Pass {
			t.Fatalf("ParseMove(%q) = %d, outside the move range", text, m)
		}
		canon := FormatMove(m)
		if back, err := ParseMove(canon); err != nil || back != m {
			t.Fatalf("%q → %d → %q → %d, %v", text, m, canon, back, err)
		}
	})
}
