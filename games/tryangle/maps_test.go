package tryangle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
)

func adjOf(m *Map) *[MaxHouses]uint64 {
	var adj [MaxHouses]uint64
	for _, e := range m.Paths {
		adj[e[0]] |= 1 << e[1]
		adj[e[1]] |= 1 << e[0]
	}
	return &adj
}

// checkInvariants asserts the §2 properties of a generated map.
func checkInvariants(t *testing.T, seed int64, m *Map) {
	t.Helper()
	if m.N%2 != 0 || m.N > nodeCount || m.N < 6 {
		t.Fatalf("seed %d: %d houses", seed, m.N)
	}
	for i := 0; i < m.N; i++ {
		x, y := m.X[i], m.Y[i]
		if x < 80 || x > 1839 || y < 70 || y > 889 {
			t.Errorf("seed %d: house %d at %d,%d outside the placement area", seed, i, x, y)
		}
		// point symmetry: house 2k+1 mirrors house 2k
		if p := i ^ 1; m.X[p] != 1919-x || m.Y[p] != 959-y {
			t.Errorf("seed %d: house %d (%d,%d) and %d (%d,%d) are not point reflections", seed, i, x, y, p, m.X[p], m.Y[p])
		}
		for j := 0; j < i; j++ {
			if m.Dist2(i, j) < 140*140 {
				t.Errorf("seed %d: houses %d and %d closer than 140", seed, i, j)
			}
		}
	}
	adj := adjOf(m)
	for i, e := range m.Paths {
		if e[0] >= e[1] || (i > 0 && (m.Paths[i-1][0] > e[0] || m.Paths[i-1] == e)) {
			t.Errorf("seed %d: paths not sorted a<b: %v", seed, m.Paths)
		}
		if m.Dist2(e[0], e[1]) > MaxPathLength2 {
			t.Errorf("seed %d: path %v longer than 400", seed, e)
		}
		// the mirrored path exists
		if adj[e[0]^1]&(1<<(e[1]^1)) == 0 {
			t.Errorf("seed %d: path %v has no mirror image", seed, e)
		}
		for _, f := range m.Paths[:i] {
			if crossesXY(e[0], e[1], f[0], f[1], &m.X, &m.Y) {
				t.Errorf("seed %d: paths %v and %v cross", seed, e, f)
			}
		}
	}
	if !biconnected(m.N, adj) {
		t.Errorf("seed %d: not biconnected", seed)
	}
	if n := countTriangles(m, adj); n < minTriangles {
		t.Errorf("seed %d: %d triangles", seed, n)
	}
	// start units: the three left-most houses for player 0, mirrored for 1
	var u0, u1 int
	for i := 0; i < m.N; i++ {
		u0 += m.Units[i][0]
		u1 += m.Units[i][1]
		if m.Units[i][0] != m.Units[i^1][1] {
			t.Errorf("seed %d: start units are not mirrored at %d", seed, i)
		}
		if m.Units[i][0] == 1 {
			left := 0
			for j := 0; j < m.N; j++ {
				if m.X[j] < m.X[i] {
					left++
				}
			}
			if left > 2 {
				t.Errorf("seed %d: player 0 starts on house %d with %d houses further left", seed, i, left)
			}
		}
	}
	if u0 != 3 || u1 != 3 {
		t.Errorf("seed %d: start units %d and %d, want 3 each", seed, u0, u1)
	}
}

func TestGeneratedMapInvariants(t *testing.T) {
	seeds := []int64{0, -1, -7, 1 << 40, -1 << 63, 1<<63 - 1}
	for s := int64(1); s <= 100; s++ {
		seeds = append(seeds, s)
	}
	if !testing.Short() {
		for s := int64(1000); s < 1200; s++ {
			seeds = append(seeds, s*7919)
		}
	}
	for _, seed := range seeds {
		checkInvariants(t, seed, Generate(seed))
	}
}

// §2.8 gives the statistics of seeds 1–100 as the original Java classes
// produce them; a seed-exact port reproduces the house counts exactly and
// the path and triangle ranges.
func TestGeneratedMapStatistics(t *testing.T) {
	houses := map[int]int{}
	minT, maxT, sumT, minP, maxP, sumP := 1<<30, 0, 0, 1<<30, 0, 0
	ownedAtStart := 0
	for seed := int64(1); seed <= 100; seed++ {
		m := Generate(seed)
		houses[m.N]++
		tr := countTriangles(m, adjOf(m))
		minT, maxT, sumT = min(minT, tr), max(maxT, tr), sumT+tr
		p := len(m.Paths)
		minP, maxP, sumP = min(minP, p), max(maxP, p), sumP+p
		if s := New(m); s.Score(0) > 0 {
			ownedAtStart++
			if s.Score(0)%2 != 0 || s.Score(0) != s.Score(1) {
				t.Errorf("seed %d: start scores %d %d, want equal and even (double scoring)", seed, s.Score(0), s.Score(1))
			}
		}
	}
	want := map[int]int{38: 1, 42: 11, 44: 19, 46: 40, 48: 23, 50: 6}
	if len(houses) != len(want) {
		t.Errorf("house counts %v, want %v", houses, want)
	}
	for n, c := range want {
		if houses[n] != c {
			t.Errorf("house counts %v, want %v", houses, want)
			break
		}
	}
	if minT != 20 || maxT != 52 || sumT < 2800 || sumT > 3000 {
		t.Errorf("triangles %d–%d, mean %.1f; want 20–52, mean ≈ 29", minT, maxT, float64(sumT)/100)
	}
	if minP != 69 || maxP != 107 || sumP < 8500 || sumP > 8700 {
		t.Errorf("paths %d–%d, mean %.1f; want 69–107, mean ≈ 86", minP, maxP, float64(sumP)/100)
	}
	if ownedAtStart != 2 {
		t.Errorf("%d of 100 maps start with owned triangles, want 2", ownedAtStart)
	}
}

func TestMapParamsRoundTrip(t *testing.T) {
	m := Generate(42)
	nodes, edges, units := m.Params()
	back, err := ParseMap(nodes, edges, units)
	if err != nil {
		t.Fatal(err)
	}
	if back.N != m.N || back.X != m.X || back.Y != m.Y || back.Units != m.Units || len(back.Paths) != len(m.Paths) {
		t.Fatal("ParseMap(Params()) differs from the map")
	}
	for i := range m.Paths {
		if back.Paths[i] != m.Paths[i] {
			t.Fatalf("path %d: %v vs %v", i, back.Paths[i], m.Paths[i])
		}
	}
	a, b := New(m), New(back)
	if a.Hash() != b.Hash() || a.Input(0, true) != b.Input(0, true) {
		t.Fatal("the explicit copy of a generated map plays differently")
	}

	// map=FILE and the inline keys give the same game as seed=42.
	dir := t.TempDir()
	file := filepath.Join(dir, "m.txt")
	if err := os.WriteFile(file, []byte("seed=42\nnodes="+nodes+"\nedges="+edges+"\nunits="+units+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"tryangle:seed=42", "tryangle:map=" + file,
		"tryangle:nodes='" + nodes + "',edges='" + edges + "',units='" + units + "'"} {
		g, err := games.New(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if g.Hash() != a.Hash() {
			t.Errorf("%s: a different start position", spec)
		}
	}
}

func TestMapSpecErrors(t *testing.T) {
	for _, spec := range []string{
		"tryangle:seed=x",
		"tryangle:seed=1,map=foo",
		"tryangle:map=/no/such/file",
		"tryangle:nodes='0,0'",
		"tryangle:colour=red",
		"tryangle:nodes='0,0_10,10',edges='0,2',units='0,0_0,0'",                           // no house 2
		"tryangle:nodes='0,0_10,10',edges='0,1',units='0,0'",                               // too few units
		"tryangle:nodes='0,0_100,100_0,100_100,0',edges='0,1_2,3',units='0,0_0,0_0,0_0,0'", // crossing
		"tryangle:nodes='0,0_x,1',edges='',units='0,0_0,0'",
	} {
		if _, err := games.New(spec); err == nil {
			t.Errorf("%s: accepted", spec)
		}
	}
	// Maps no referee writes are refused saying what is wrong.
	for spec, want := range map[string]string{
		"tryangle:nodes='0,0_0,0_10,10',edges='0,1_1,2_0,2',units='1,0_0,1_0,0'":    "houses 0 and 1 are both at 0,0",
		"tryangle:nodes='0,0_10,0_5,8',edges='0,1_0,1_1,2_0,2',units='1,0_0,1_0,0'": `edges entry 1 "0,1": the path 0-1 is listed twice`,
		"tryangle:nodes='0,0_10,0_5,8',edges='0,1_1,2_1,0_0,2',units='1,0_0,1_0,0'": `edges entry 2 "1,0": the path 0-1 is listed twice`,
	} {
		if _, err := games.New(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", spec, err, want)
		}
	}
	// What the rules allow in play is kept (spec §3.2, §10.7, §9): a
	// self-loop, paths through a house (collinear: the crossing predicate
	// says they do not cross), a map without triangles.
	for _, spec := range []string{
		"tryangle:nodes='0,0_10,0_5,8',edges='0,0_0,1_1,2_0,2',units='1,0_0,1_0,0'",
		"tryangle:nodes='0,0_10,0_5,0',edges='0,1_1,2_0,2',units='1,0_0,1_0,0'",
		"tryangle:nodes='0,0_10,0_5,8',edges='0,1',units='1,0_0,1_0,0'",
	} {
		if _, err := games.New(spec); err != nil {
			t.Errorf("%s: %v", spec, err)
		}
	}
	if g, err := games.New("tryangle"); err != nil || g.(*State).Map().Seed != DefaultSeed {
		t.Errorf("plain tryangle: %v", err)
	}
	// Entries with fewer than two numbers are ignored, as in the original.
	m, err := ParseMap("0,0_100,0_0,100", "0,1__2_0,2_1,2", "1,0_0,0_0,1")
	if err != nil || len(m.Paths) != 3 {
		t.Errorf("short edge entries: %v %v", err, m)
	}
}
