package othello6

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// perftVectors are the leaf counts from the rules specification (§3).
var perftVectors = []uint64{1, 4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912}

func TestPerftMatchesSpec(t *testing.T) {
	for d := 1; d < len(perftVectors); d++ {
		if got := New().PerftBulk(d); got != perftVectors[d] {
			t.Errorf("PerftBulk(%d) = %d, want %d", d, got, perftVectors[d])
		}
	}
	// The generic play/undo perft goes through the State contract.
	maxGeneric := 9
	if testing.Short() {
		maxGeneric = 7
	}
	for d := 1; d <= maxGeneric; d++ {
		s := New()
		if got := games.Perft(s, d); got != perftVectors[d] {
			t.Errorf("games.Perft(%d) = %d, want %d", d, got, perftVectors[d])
		}
		if s.Ply() != 0 || s.Hash() != New().Hash() {
			t.Fatalf("games.Perft(%d) did not restore the state", d)
		}
	}
}

// TestPerftPassesAndEnds checks the spec's remark that depth 9 is the first
// depth with finished games (108) and passes (112).
func TestPerftPassesAndEnds(t *testing.T) {
	var ends, passes int
	var walk func(s *State, depth int)
	walk = func(s *State, depth int) {
		if s.Terminal() {
			if depth > 0 {
				return
			}
		}
		if depth == 0 {
			return
		}
		for _, m := range s.LegalMoves(nil) {
			s.Play(m)
			if m == Pass && depth == 1 {
				passes++
			}
			if s.Terminal() && depth == 1 {
				ends++
			}
			walk(s, depth-1)
			s.Undo()
		}
	}
	for d := 1; d <= 8; d++ {
		ends, passes = 0, 0
		walk(New(), d)
		if ends != 0 || passes != 0 {
			t.Fatalf("depth %d: %d finished games and %d passes at the last ply, want none before depth 9", d, ends, passes)
		}
	}
	ends, passes = 0, 0
	walk(New(), 9)
	if ends != 108 || passes != 112 {
		t.Errorf("depth 9: %d finished games and %d passes at the last ply, want 108 and 112", ends, passes)
	}
}

// slowBoard is an obviously-correct array version of the rules, used only to
// cross-check the bitboard code.
type slowBoard [Size][Size]int // [rank][file]: 0 empty, 1 first player, 2 second

var dirs = [8][2]int{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}

func slowFromState(s *State) slowBoard {
	var b slowBoard
	for r := 0; r < Size; r++ {
		for f := 0; f < Size; f++ {
			switch {
			case s.discs[0]&bit(sq(f, r)) != 0:
				b[r][f] = 1
			case s.discs[1]&bit(sq(f, r)) != 0:
				b[r][f] = 2
			}
		}
	}
	return b
}

// slowFlips lists the cells flipped by player me (1 or 2) placing at (r, f).
func (b *slowBoard) slowFlips(r, f, me int) [][2]int {
	if b[r][f] != 0 {
		return nil
	}
	var out [][2]int
	for _, d := range dirs {
		var run [][2]int
		rr, ff := r+d[0], f+d[1]
		for rr >= 0 && rr < Size && ff >= 0 && ff < Size && b[rr][ff] == 3-me {
			run = append(run, [2]int{rr, ff})
			rr, ff = rr+d[0], ff+d[1]
		}
		if len(run) > 0 && rr >= 0 && rr < Size && ff >= 0 && ff < Size && b[rr][ff] == me {
			out = append(out, run...)
		}
	}
	return out
}

func (b *slowBoard) slowMoves(me int) []games.Move {
	var out []games.Move
	for r := 0; r < Size; r++ {
		for f := 0; f < Size; f++ {
			if len(b.slowFlips(r, f, me)) > 0 {
				out = append(out, games.Move(sq(f, r)))
			}
		}
	}
	return out
}

func sameMoves(a, b []games.Move) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[games.Move]bool{}
	for _, m := range a {
		seen[m] = true
	}
	for _, m := range b {
		if !seen[m] {
			return false
		}
	}
	return true
}

// TestRandomPlayoutInvariants plays 10 000 seeded random games and checks,
// at every ply, the moves and flips against the slow rules, and each final
// score against the discs. The game contract (undo, clones, hash, notation)
// is games/gamestest's conformance suite.
func TestRandomPlayoutInvariants(t *testing.T) {
	games10k := 10000
	if testing.Short() {
		games10k = 1000
	}
	r := rng.New(2026)
	var buf []games.Move
	lengths := map[int]int{}
	for g := 0; g < games10k; g++ {
		s := New()
		placements := 0
		for !s.Terminal() {
			checkPosition(t, s)
			buf = s.LegalMoves(buf[:0])
			m := buf[r.IntN(len(buf))]
			s.Play(m)
			if m != Pass {
				placements++
			}
			if s.Ply() > MaxPlies {
				t.Fatalf("game %d exceeds %d plies", g, MaxPlies)
			}
		}
		checkPosition(t, s)
		o := s.Outcome()
		x, oo := bits.OnesCount64(s.discs[0]), bits.OnesCount64(s.discs[1])
		if o.Score != x-oo || (o.Winner == 0) != (x > oo) || (o.Winner == 1) != (oo > x) || (o.Winner == games.Draw) != (x == oo) {
			t.Fatalf("game %d: outcome %+v for X %d O %d", g, o, x, oo)
		}
		if x+oo != 4+placements {
			t.Fatalf("game %d: %d discs after %d placements", g, x+oo, placements)
		}
		lengths[s.Ply()]++
	}
	t.Logf("%d games; length distribution has %d distinct lengths", games10k, len(lengths))
}

// checkPosition checks the discs, and the moves and flips against the slow
// rules.
func checkPosition(t *testing.T, s *State) {
	t.Helper()
	if s.discs[0]&s.discs[1] != 0 || (s.discs[0]|s.discs[1])&^full != 0 {
		t.Fatalf("ply %d: overlapping or off-board discs", s.Ply())
	}
	moves := s.LegalMoves(nil)
	b := slowFromState(s)
	me := s.side + 1
	want := b.slowMoves(me)
	oppMoves := b.slowMoves(3 - me)
	switch {
	case len(want) > 0:
		if !sameMoves(moves, want) {
			t.Fatalf("ply %d: moves %v, slow rules say %v\n%s", s.Ply(), moves, want, s)
		}
		for _, m := range moves {
			var f uint64
			for _, c := range b.slowFlips(int(m)/Size, int(m)%Size, me) {
				f |= bit(sq(c[1], c[0]))
			}
			if got := Flips(int(m), s.discs[s.side], s.discs[1-s.side]); got != f {
				t.Fatalf("ply %d: flips of %s = %x, want %x", s.Ply(), FormatMove(m), got, f)
			}
		}
	case len(oppMoves) > 0:
		if len(moves) != 1 || moves[0] != Pass || s.Terminal() {
			t.Fatalf("ply %d: only a pass is legal, got %v", s.Ply(), moves)
		}
	default:
		if !s.Terminal() || s.ToMove() != games.None {
			t.Fatalf("ply %d: neither side can move but the game is not over", s.Ply())
		}
	}
}

func TestStartPosition(t *testing.T) {
	s := New()
	want := "  a b c d e f\n1 . . . . . .\n2 . . . . . .\n3 . . O X . .\n4 . . X O . .\n5 . . . . . .\n6 . . . . . .\nX (first player) to move; X 2, O 2"
	if got := s.String(); got != want {
		t.Errorf("start position:\n%s\nwant:\n%s", got, want)
	}
	if got := games.FormatMoves(s, s.LegalMoves(nil)); got != "b3 c2 d5 e4" {
		t.Errorf("first moves %q, want b3 c2 d5 e4", got)
	}
}

func TestParseMove(t *testing.T) {
	tests := []struct {
		in   string
		want games.Move
		ok   bool
	}{
		{"a1", 0, true}, {"f1", 5, true}, {"a6", 30, true}, {"f6", 35, true},
		{"D3", games.Move(sq(3, 2)), true}, {" pass ", Pass, true}, {"PASS", Pass, true},
		{"g1", 0, false}, {"a7", 0, false}, {"a0", 0, false}, {"", 0, false}, {"a", 0, false}, {"a12", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseMove(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseMove(%q) = %v, %v; want %v ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestFromDiscs(t *testing.T) {
	s := New()
	s.Play(games.Move(sq(1, 2))) // b3
	c, err := FromDiscs(s.discs[0], s.discs[1], 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Hash() != s.Hash() || c.LegalMask() != s.LegalMask() || c.ToMove() != 1 {
		t.Errorf("FromDiscs differs from the played position")
	}
	if _, err := FromDiscs(1, 1, 0); err == nil {
		t.Error("overlapping discs accepted")
	}
}

func TestSolvedScore(t *testing.T) {
	tests := []struct{ x, o, want int }{{20, 16, 4}, {16, 20, -4}, {10, 5, 26}, {5, 10, -26}, {7, 7, 0}}
	for _, tt := range tests {
		first, second := uint64(1)<<tt.x-1, (uint64(1)<<tt.o-1)<<tt.x
		if got := SolvedScore(first, second); got != tt.want {
			t.Errorf("SolvedScore(X %d, O %d) = %d, want %d", tt.x, tt.o, got, tt.want)
		}
	}
}

func ExampleState() {
	s := New()
	m, _ := s.ParseMove("e4")
	s.Play(m)
	fmt.Println(games.FormatMoves(s, s.LegalMoves(nil)))
	fmt.Println(s.PerftBulk(3))
	// Output:
	// c5 e3 e5
	// 61
}
