package tryangle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// FuzzParseMap: any nodes/edges/units parameters give a map or an error,
// never a panic. An accepted map keeps the coordinates as written, writes
// back (Params) to the same map, and plays a few random turns.
func FuzzParseMap(f *testing.F) {
	nodes, edges, units := Generate(42).Params()
	f.Add(nodes, edges, units)
	f.Add("0,0_100,0_0,100", "0,1__2_0,2_1,2", "1,0_0,0_0,1")
	f.Add("0,0_10,10", "0,1", "0,0_0,0")
	f.Add("-9223372036854775808,0_1,1", "0,1", "1,0_0,1")
	f.Add("0,0_0,0", "0,1", "5,5_5,5")
	f.Fuzz(func(t *testing.T, nodes, edges, units string) {
		m, err := ParseMap(nodes, edges, units)
		if err != nil {
			return
		}
		for i, item := range strings.Split(nodes, "_") {
			xy, _ := ints(item)
			if int(m.X[i]) != xy[0] || int(m.Y[i]) != xy[1] {
				t.Fatalf("house %d %q became (%d, %d)", i, item, m.X[i], m.Y[i])
			}
		}
		checkMap(t, m)
	})
}

// FuzzParseMapFile: the map-file reader (LoadMap's parser) on any bytes.
func FuzzParseMapFile(f *testing.F) {
	nodes, edges, units := Generate(7).Params()
	f.Add([]byte("seed=7\nnodes=" + nodes + "\nedges=" + edges + "\nunits=" + units + "\n"))
	f.Add([]byte("nodes=0,0_100,0_0,100\r\nedges = 0,1\r\nunits=1,0_0,0_0,1"))
	f.Add([]byte("nodes=\nedges=\nunits=\n"))
	f.Add([]byte("=\n==\nnodes"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseMapFile(data, "fuzz.txt")
		if err != nil {
			return
		}
		checkMap(t, m)
	})
}

// checkMap: m writes back to itself and a game on it survives random turns.
func checkMap(t *testing.T, m *Map) {
	t.Helper()
	n, e, u := m.Params()
	back, err := ParseMap(n, e, u)
	if err != nil {
		t.Fatalf("Params of an accepted map do not parse: %v\n%s\n%s\n%s", err, n, e, u)
	}
	if back.N != m.N || back.X != m.X || back.Y != m.Y || back.Units != m.Units || len(back.Paths) != len(m.Paths) {
		t.Fatalf("ParseMap(Params()) differs from the map")
	}
	s := New(m)
	r := rng.New(1)
	for turn := 0; turn < 8 && !s.Terminal(); turn++ {
		l0, l1 := s.LegalMovesFor(0, nil), s.LegalMovesFor(1, nil)
		if len(l0) == 0 || len(l1) == 0 {
			t.Fatalf("turn %d: a player has no legal move", turn)
		}
		s.PlayJoint(l0[r.IntN(len(l0))], l1[r.IntN(len(l1))])
		_ = s.String()
	}
}

// TestMapPathWithQuoteAndComma: a map file whose path holds a quote and a
// comma survives the canonical game spec (the one a record file keeps and
// --resume reads back).
func TestMapPathWithQuoteAndComma(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "it's,here")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, `m "1".txt`)
	nodes, edges, units := Generate(5).Params()
	if err := os.WriteFile(path, []byte("nodes="+nodes+"\nedges="+edges+"\nunits="+units+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := games.Lookup(`tryangle:map='` + strings.ReplaceAll(path, "'", "''") + `'`)
	if err != nil {
		t.Fatal(err)
	}
	again, err := games.Lookup(v.String())
	if err != nil {
		t.Fatalf("canonical spec %q does not resolve: %v", v.String(), err)
	}
	if again.Spec.Vals["map"] != path || again.New().Hash() != v.New().Hash() {
		t.Errorf("canonical spec %q names %q, want %q", v.String(), again.Spec.Vals["map"], path)
	}
}
