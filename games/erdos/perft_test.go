package erdos

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
)

var update = flag.Bool("update", false, "rewrite the files in testdata")

const perftFile = "perft.txt"

// perftDepth is the depth recorded in testdata; slowPerftDepth the deepest
// the slow array rules are run to (one level less with -short).
const (
	perftDepth     = 4
	slowPerftDepth = 4
)

// readPerft reads "depth nodes" lines, skipping comments.
func readPerft(t *testing.T) map[int]uint64 {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", perftFile))
	if err != nil {
		t.Fatalf("%v (run go test -run Perft -update to create it)", err)
	}
	defer f.Close()
	out := map[int]uint64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			t.Fatalf("bad line %q in %s", line, perftFile)
		}
		d, err1 := strconv.Atoi(fields[0])
		n, err2 := strconv.ParseUint(fields[1], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad line %q in %s", line, perftFile)
		}
		out[d] = n
	}
	return out
}

// TestPerft checks the recorded counts with the bulk counter and the generic
// play/undo perft under both rule sets (legality does not depend on colours,
// so the counts are the same), and with the slow array rules.
func TestPerft(t *testing.T) {
	if *update {
		var b strings.Builder
		b.WriteString("# Erdős Latino perft from the empty board: depth, leaves.\n")
		b.WriteString("# The same for erdos and erdos:algol (legality ignores colours).\n")
		b.WriteString("# Recorded once the mask code and the slow array rules agreed.\n")
		for d := 1; d <= perftDepth; d++ {
			fast, slow := New(Standard).PerftBulk(d), newSlowPtr(false).perft(d)
			if fast != slow {
				t.Fatalf("depth %d: bulk %d, slow %d; not recording", d, fast, slow)
			}
			fmt.Fprintf(&b, "%d %d\n", d, fast)
		}
		if err := os.WriteFile(filepath.Join("testdata", perftFile), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := readPerft(t)
	if len(want) != perftDepth || want[1] != 125 || want[2] != 125*112 {
		t.Fatalf("%s holds %v; want depths 1–%d starting 125, 14000 (spec §5)", perftFile, want, perftDepth)
	}
	for _, rules := range bothRules {
		for d := 1; d <= perftDepth; d++ {
			if got := New(rules).PerftBulk(d); got != want[d] {
				t.Errorf("%v PerftBulk(%d) = %d, want %d", rules, d, got, want[d])
			}
			s := New(rules)
			if got := games.Perft(s, d); got != want[d] {
				t.Errorf("%v games.Perft(%d) = %d, want %d", rules, d, got, want[d])
			}
			if !equalStates(s, New(rules)) {
				t.Fatalf("games.Perft(%d) did not restore the state", d)
			}
		}
	}
	maxSlow := slowPerftDepth
	if testing.Short() {
		maxSlow--
	}
	for d := 1; d <= maxSlow; d++ {
		if got := newSlowPtr(false).perft(d); got != want[d] {
			t.Errorf("slow perft(%d) = %d, want %d", d, got, want[d])
		}
	}
}

// TestPerftMidgame compares bulk and slow perft below positions of seeded
// games, where captures, full columns and starvation occur.
func TestPerftMidgame(t *testing.T) {
	for _, ply := range []int{8, 14, 18} {
		s := New(Standard)
		g := newSlow(false)
		for _, text := range strings.Fields(specLines[1].line)[:ply] {
			m, _ := ParseMove(text)
			i, l := Decode(m)
			s.Play(m)
			g.play(slowMove{i % Size, i / Size, l})
		}
		for d := 1; d <= 3; d++ {
			if fast, slow := s.PerftBulk(d), g.perft(d); fast != slow {
				t.Errorf("after ply %d: PerftBulk(%d) = %d, slow %d", ply, d, fast, slow)
			}
		}
	}
}

func newSlowPtr(algol bool) *slowGame { g := newSlow(algol); return &g }
