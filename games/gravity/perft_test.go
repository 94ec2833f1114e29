package gravity

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

var update = flag.Bool("update", false, "rewrite the testdata files from the implementation")

const perftFile = "testdata/perft.txt"

// perftDepth is the depth recorded for every position in perftFile.
const perftDepth = 5

type perftCase struct {
	name   string
	moves  []string
	counts []uint64 // counts[d-1]: leaves at depth d
}

func readPerft(t *testing.T) []perftCase {
	t.Helper()
	f, err := os.Open(perftFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []perftCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "|")
		if len(parts) != 3 {
			t.Fatalf("%s: bad line %q", perftFile, line)
		}
		c := perftCase{name: strings.TrimSpace(parts[0]), moves: strings.Fields(parts[1])}
		for _, f := range strings.Fields(parts[2]) {
			n, err := strconv.ParseUint(f, 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", perftFile, err)
			}
			c.counts = append(c.counts, n)
		}
		if len(c.counts) != perftDepth {
			t.Fatalf("%s: %s has %d counts, want %d", perftFile, c.name, len(c.counts), perftDepth)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// slowUpTo plays moves in the array version.
func slowUpTo(t *testing.T, moves []string) slowGame {
	t.Helper()
	g := newSlow()
	for _, text := range moves {
		m, err := ParseMove(text)
		if err != nil || !g.legal(int(m)) {
			t.Fatalf("array version: %s is not legal (%v)", text, err)
		}
		g.play(int(m))
	}
	return g
}

// slowBudget bounds the leaves the array version counts in one perft call
// (about a second of work); deeper counts are checked by the fast versions.
const slowBudget = 3_000_000

// TestPerft checks the recorded counts with PerftBulk at every depth, with
// the generic games.Perft through Play/Undo, and with the array version as
// deep as it is quick.
func TestPerft(t *testing.T) {
	cases := readPerft(t)
	if len(cases) < 4 || cases[0].name != "start" || len(cases[0].moves) != 0 {
		t.Fatalf("%s should start with the start position and hold midgame ones", perftFile)
	}
	for _, c := range cases {
		s := playAll(t, c.moves...)
		g := slowUpTo(t, c.moves)
		for d := 1; d <= perftDepth; d++ {
			want := c.counts[d-1]
			if got := s.PerftBulk(d); got != want {
				t.Errorf("%s: PerftBulk(%d) = %d, want %d", c.name, d, got, want)
			}
			if want > 1_000_000 && testing.Short() {
				continue
			}
			if got := games.Perft(s, d); got != want {
				t.Errorf("%s: games.Perft(%d) = %d, want %d", c.name, d, got, want)
			}
			if want <= slowBudget {
				if got := slowPerft(g, d); got != want {
					t.Errorf("%s: array perft(%d) = %d, want %d", c.name, d, got, want)
				}
			}
		}
	}
}

// TestPerftStart: in the first five plies no line fills and nobody has
// five, so each first move allows 36 replies and every later move 27.
func TestPerftStart(t *testing.T) {
	want := uint64(1)
	s := New()
	for d := 1; d <= perftDepth; d++ {
		if d <= 2 {
			want *= 36
		} else {
			want *= 27
		}
		if got := s.PerftBulk(d); got != want {
			t.Errorf("PerftBulk(%d) = %d, want %d", d, got, want)
		}
	}
}

// TestUpdatePerft rewrites perftFile under -update: the start position and
// midgame positions from seeded random games, every count confirmed by the
// array version (slow: this takes a while) before it is written.
func TestUpdatePerft(t *testing.T) {
	if !*update {
		t.Skip("run with -update to regenerate " + perftFile)
	}
	var b strings.Builder
	b.WriteString("# Gravity Connect perft: name | moves from the start | leaves at depth 1 … 5.\n")
	b.WriteString("# Written by `go test -run TestUpdatePerft -update`; every count was\n")
	b.WriteString("# computed by PerftBulk and confirmed by the array version in slow_test.go.\n")
	write := func(name string, moves []string) {
		s := playAll(t, moves...)
		g := slowUpTo(t, moves)
		fmt.Fprintf(&b, "%s | %s |", name, strings.Join(moves, " "))
		for d := 1; d <= perftDepth; d++ {
			start := time.Now()
			n := s.PerftBulk(d)
			if slow := slowPerft(g, d); slow != n {
				t.Fatalf("%s depth %d: PerftBulk %d, array version %d", name, d, n, slow)
			}
			t.Logf("%s depth %d: %d (%v)", name, d, n, time.Since(start))
			fmt.Fprintf(&b, " %d", n)
		}
		b.WriteString("\n")
	}
	write("start", nil)
	// Positions with full lines, banned sides and wins within reach.
	seed := uint64(1)
	for _, ply := range []int{20, 36, 50, 62, 70, 76} {
		for ; ; seed++ {
			moves, ok := randomLine(seed, ply)
			if ok {
				write(fmt.Sprintf("seed%d-ply%d", seed, ply), moves)
				seed++
				break
			}
		}
	}
	if err := os.WriteFile(perftFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// randomLine plays ply random moves from the start; ok is false when the
// game ends before or at that ply.
func randomLine(seed uint64, ply int) (moves []string, ok bool) {
	r := rng.New(seed)
	s := New()
	for range ply {
		if s.Terminal() {
			return nil, false
		}
		legal := s.LegalMoves(nil)
		m := legal[r.IntN(len(legal))]
		moves = append(moves, FormatMove(m))
		s.Play(m)
	}
	return moves, !s.Terminal()
}
