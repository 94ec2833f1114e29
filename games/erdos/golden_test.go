package erdos

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// greedyMove is a one-ply greedy player on Evaluate: a win is taken, ties go
// to the seeded generator by reservoir sampling.
func greedyMove(s *State, moves []games.Move, r *rng.Rand) games.Move {
	p := s.ToMove()
	best, ties := 0, 0
	var choice games.Move
	for _, m := range moves {
		s.Play(m)
		v := s.Evaluate(p)
		s.Undo()
		switch {
		case ties == 0 || v > best:
			best, ties, choice = v, 1, m
		case v == best:
			ties++
			if r.IntN(ties) == 0 {
				choice = m
			}
		}
	}
	return choice
}

// transcript plays a seeded game (greedy as the first player when greedy is
// set, else both players random) and writes every ply with the number of
// legal moves before it and the colours that changed, then the final board.
func transcript(rules Rules, seed uint64, greedy bool) string {
	var b strings.Builder
	s := New(rules)
	r := rng.New(seed)
	fmt.Fprintf(&b, "%v rules, seed %d, player 1 %s, player 2 random\n\n", rules, seed,
		map[bool]string{true: "greedy", false: "random"}[greedy])
	for !s.Terminal() {
		moves := s.LegalMoves(nil)
		m := moves[r.IntN(len(moves))]
		if greedy && s.ToMove() == 0 {
			m = greedyMove(s, moves, r)
		}
		before := [Size]int{}
		for f := range before {
			before[f] = s.Controller(f)
		}
		fmt.Fprintf(&b, "%2d. %s  (%3d legal)", s.Ply()+1, FormatMove(m), len(moves))
		s.Play(m)
		for f := range before {
			if x := s.Controller(f); x != before[f] {
				fmt.Fprintf(&b, "  column %c → player %d", 'a'+f, x+1)
			}
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "\n%s\nresult %s score %+d\n", s, s.Outcome().Result(), s.Outcome().Score)
	return b.String()
}

func TestGoldenTranscripts(t *testing.T) {
	tests := []struct {
		rules  Rules
		seed   uint64
		greedy bool
	}{
		{Standard, 7, false},
		{Standard, 3, true},
		{Algol, 3, true},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%v-seed%d", tt.rules, tt.seed)
		if tt.greedy {
			name = "greedy-random-" + name
		} else {
			name = "random-" + name
		}
		path := filepath.Join("testdata", name+".golden")
		got := transcript(tt.rules, tt.seed, tt.greedy)
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if got != string(want) {
			t.Errorf("transcript differs from %s:\n%s", path, got)
		}
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"c3:1", "E5:5", " a1:1 ", "c3", "c3:6", "f1:1", "", "c3:1:", "é3:1", "c3\x00:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMove(text)
		if err != nil {
			return
		}
		if m >= NumMoves {
			t.Fatalf("ParseMove(%q) = %d, outside the move range", text, m)
		}
		canon := FormatMove(m)
		if back, err := ParseMove(canon); err != nil || back != m || canon != strings.ToLower(strings.TrimSpace(text)) {
			t.Fatalf("%q → %d → %q → %d, %v", text, m, canon, back, err)
		}
	})
}
