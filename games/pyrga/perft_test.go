package pyrga

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
)

const perftFile = "testdata/perft.txt"

// perftDepths is the deepest perft recorded; slowPerftDepth the deepest the
// slow array implementation checks (the task requires at least 4).
const (
	perftDepths    = 6
	slowPerftDepth = 5
)

type perftRecord struct {
	variant string
	depth   int
	nodes   uint64
}

func readPerft(t *testing.T) []perftRecord {
	t.Helper()
	f, err := os.Open(perftFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []perftRecord
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var r perftRecord
		if _, err := fmt.Sscan(line, &r.variant, &r.depth, &r.nodes); err != nil {
			t.Fatalf("%s: bad line %q: %v", perftFile, line, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPerft checks the recorded perft counts against the mask
// implementation (generic Perft over Play/Undo, and PerftBulk) at every
// depth and against the slow array implementation up to slowPerftDepth.
// With -update it recomputes the counts, requires the implementations to
// agree, and rewrites the file.
func TestPerft(t *testing.T) {
	if *update {
		var b strings.Builder
		b.WriteString("# variant depth leaves — from the start position; checked against the\n")
		b.WriteString("# slow array implementation in slow_test.go up to depth " + strconv.Itoa(slowPerftDepth) + "\n")
		for _, bga := range []bool{false, true} {
			for d := 1; d <= perftDepths; d++ {
				n := newVariant(bga).PerftBulk(d)
				if d <= slowPerftDepth {
					if slow := slowPerft(newSlow(bga), d); slow != n {
						t.Fatalf("%s depth %d: fast %d, slow %d", variantName(bga), d, n, slow)
					}
				}
				fmt.Fprintf(&b, "%s %d %d\n", variantName(bga), d, n)
			}
		}
		if err := os.MkdirAll(filepath.Dir(perftFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(perftFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	records := readPerft(t)
	if len(records) != 2*perftDepths {
		t.Fatalf("%s holds %d records, want %d", perftFile, len(records), 2*perftDepths)
	}
	for _, r := range records {
		bga := r.variant == "pyrga:bga"
		if got := newVariant(bga).PerftBulk(r.depth); got != r.nodes {
			t.Errorf("%s depth %d: PerftBulk %d, recorded %d", r.variant, r.depth, got, r.nodes)
		}
		if r.depth <= 4 || !testing.Short() {
			if got := games.Perft(newVariant(bga), r.depth); got != r.nodes {
				t.Errorf("%s depth %d: Perft %d, recorded %d", r.variant, r.depth, got, r.nodes)
			}
		}
		if r.depth <= slowPerftDepth {
			if got := slowPerft(newSlow(bga), r.depth); got != r.nodes {
				t.Errorf("%s depth %d: slow perft %d, recorded %d", r.variant, r.depth, got, r.nodes)
			}
		}
	}
}

// TestPerftMidgame compares PerftBulk, generic Perft and the slow
// implementation below positions reached by random play, where stocks run
// low, fallbacks happen and games end inside the horizon.
func TestPerftMidgame(t *testing.T) {
	for seed := range uint64(40) {
		for _, bga := range []bool{false, true} {
			s, g := randomPrefix(t, bga, seed, 8+int(seed%18))
			const depth = 3
			fast, bulk, slow := games.Perft(s, depth), s.PerftBulk(depth), slowPerft(g, depth)
			if fast != slow || bulk != slow {
				t.Errorf("%s seed %d ply %d depth %d: Perft %d, PerftBulk %d, slow %d",
					variantName(bga), seed, s.Ply(), depth, fast, bulk, slow)
			}
		}
	}
}
