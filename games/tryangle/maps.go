package tryangle

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/boardgame-arena/arena/games/tryangle/javarand"
	"github.com/boardgame-arena/arena/internal/readfile"
)

// Map constants of §1.
const (
	// MaxHouses bounds the houses of any map (generated maps have at most
	// 50; explicit maps may use up to 64, the width of an adjacency mask).
	MaxHouses = 64
	// MaxPathLength is the longest legal path; MaxPathLength2 its square.
	MaxPathLength  = 400
	MaxPathLength2 = MaxPathLength * MaxPathLength

	nodeCount        = 50
	nodeMinDist2     = 140 * 140
	minTriangles     = 20
	maxAngle         = 160.0
	placementTries   = 10000
	sideBorder       = 80
	topBorder        = 70
	placeWidth       = 1920 - 2*sideBorder // 1760
	placeHeight      = 1080 - topBorder - 190
	mirrorX, mirrorY = 1919, 959
	maxCoord         = 100000 // explicit maps: |x|, |y| bound, keeps products in int64
	maxStartUnits    = 10000  // explicit maps: units per house at the start
)

// Map is an immutable map: house positions, the starting paths and units.
// States share it.
type Map struct {
	N      int
	X, Y   [MaxHouses]int32
	Paths  [][2]int          // starting paths, a ≤ b, sorted (a == b: a self-loop)
	Units  [MaxHouses][2]int // starting units per house: player 0, player 1
	Seed   int64             // the generator seed, when Generated
	Random bool              // generated (true) or explicit (false)
	// Digest is the SHA-256 (hex) of the parameters of a map read from a
	// file (LoadMap), "" otherwise: records keep it, so that resuming a run
	// whose map file was edited is refused.
	Digest string

	d2   [MaxHouses][MaxHouses]int32 // squared distances
	near [MaxHouses]uint64           // houses within MaxPathLength (not itself)

	crossOnce sync.Once
	crossIdx  [MaxHouses][MaxHouses]int16 // ordered candidate pair → crossing mask index, -1 none
	cross     [][MaxHouses]uint64         // mask[c] bit d: the pair crosses path c–d (c < d)
}

func (m *Map) finish() {
	for a := 0; a < m.N; a++ {
		for b := 0; b < m.N; b++ {
			dx, dy := int64(m.X[a]-m.X[b]), int64(m.Y[a]-m.Y[b])
			m.d2[a][b] = int32(min(dx*dx+dy*dy, math.MaxInt32))
			if a != b && m.d2[a][b] <= MaxPathLength2 {
				m.near[a] |= 1 << b
			}
		}
	}
}

// Dist2 returns the squared distance between houses a and b.
func (m *Map) Dist2(a, b int) int { return int(m.d2[a][b]) }

// buildCross precomputes, for every ordered pair of houses at most
// MaxPathLength apart, which possible paths it crosses (§3.2, orientation
// exactly as canConnect uses it). Possible paths are the pairs within
// MaxPathLength and the map's starting paths.
func (m *Map) buildCross() {
	n := m.N
	var possible [MaxHouses]uint64
	for a := 0; a < n; a++ {
		possible[a] = m.near[a] &^ (1<<(a+1) - 1)
	}
	for _, p := range m.Paths {
		if p[0] != p[1] {
			possible[p[0]] |= 1 << p[1]
		}
	}
	for a := range m.crossIdx {
		for b := range m.crossIdx[a] {
			m.crossIdx[a][b] = -1
		}
	}
	mask := func(from, to int) (out [MaxHouses]uint64) {
		for c := 0; c < n; c++ {
			for ds := possible[c]; ds != 0; ds &= ds - 1 {
				d := bits.TrailingZeros64(ds)
				if crossesXY(from, to, c, d, &m.X, &m.Y) {
					out[c] |= 1 << d
				}
			}
		}
		return out
	}
	for a := 0; a < n; a++ {
		for bs := m.near[a] &^ (1<<(a+1) - 1); bs != 0; bs &= bs - 1 {
			b := bits.TrailingZeros64(bs)
			fwd, rev := mask(a, b), mask(b, a)
			m.crossIdx[a][b] = int16(len(m.cross))
			m.cross = append(m.cross, fwd)
			if rev != fwd { // only collinear configurations differ
				m.cross = append(m.cross, rev)
			}
			m.crossIdx[b][a] = int16(len(m.cross) - 1)
		}
	}
}

// canConnect is §3.3: the segment from–to is at most MaxPathLength long and
// crosses no current path. canConnect(h, h) is true.
func (m *Map) canConnect(from, to int, adj *[MaxHouses]uint64) bool {
	if from == to {
		return true
	}
	if m.d2[from][to] > MaxPathLength2 {
		return false
	}
	m.crossOnce.Do(m.buildCross)
	cm := &m.cross[m.crossIdx[from][to]]
	for c := 0; c < m.N; c++ {
		if cm[c]&adj[c] != 0 {
			return false
		}
	}
	return true
}

// ---------------------------------------------------------------------------
// Generation (§2), keeping every java.util.Random call of the original.

// Generate returns the map the original referee builds for seed.
func Generate(seed int64) *Map {
	r := javarand.New(seed)
	var m *Map
	var edges [][2]int
	for {
		m = placeHouses(r)
		edges = greedyEdges(m)
		var adj [MaxHouses]uint64
		for _, e := range edges {
			adj[e[0]] |= 1 << e[1]
			adj[e[1]] |= 1 << e[0]
		}
		if biconnected(m.N, &adj) && countTriangles(m, &adj) >= minTriangles {
			break
		}
	}
	edges = sparsify(r, m, edges)
	slices.SortFunc(edges, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	m.Paths = edges
	// Starting units: the three left-most houses (stable by id) for player
	// 0, their point reflections for player 1.
	order := make([]int, m.N)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(m.X[a] - m.X[b]) })
	for _, h := range order[:min(3, m.N)] {
		m.Units[h][0] = 1
		m.Units[h^1][1] = 1
	}
	m.Seed, m.Random = seed, true
	return m
}

func placeHouses(r *javarand.Random) *Map {
	m := &Map{}
	// Squared distances seen so far, as a bitset: they are below 1760²+820².
	used := make(distSet, (placeWidth*placeWidth+placeHeight*placeHeight)/64+1)
	for tries := 0; m.N < nodeCount && tries < placementTries; tries++ {
		x := sideBorder + r.IntN(placeWidth)
		y := topBorder + r.IntN(placeHeight)
		bx, by := mirrorX-x, mirrorY-y
		if !acceptable(m, x, y, bx, by, used) {
			continue
		}
		used.add(sq(x-bx, y-by))
		for i := 0; i < m.N; i++ {
			used.add(sq(m.X[i]-x, m.Y[i]-y))
		}
		m.X[m.N], m.Y[m.N] = x, y
		m.X[m.N+1], m.Y[m.N+1] = bx, by
		m.N += 2
	}
	m.finish()
	return m
}

func sq(dx, dy int32) int32 { return dx*dx + dy*dy }

type distSet []uint64

func (d distSet) add(v int32)      { d[v>>6] |= 1 << (v & 63) }
func (d distSet) has(v int32) bool { return d[v>>6]&(1<<(v&63)) != 0 }

// acceptable runs the rejection tests of §2.2 for the candidate pair A, B
// (pure tests, so their order does not matter: cheapest first).
func acceptable(m *Map, ax, ay, bx, by int32, used distSet) bool {
	ab := sq(ax-bx, ay-by)
	if ab < nodeMinDist2 {
		return false
	}
	for i := 0; i < m.N; i++ {
		if sq(m.X[i]-ax, m.Y[i]-ay) < nodeMinDist2 {
			return false
		}
	}
	if used.has(ab) {
		return false
	}
	for i := 0; i < m.N; i++ {
		if used.has(sq(m.X[i]-ax, m.Y[i]-ay)) {
			return false
		}
	}
	return !obtuse(m, ax, ay, bx, by)
}

// obtuse is the angle test of §2.2.1 restricted to the triples that contain
// the candidate A or B (older triples passed already).
func obtuse(m *Map, ax, ay, bx, by int32) bool {
	type pt struct{ x, y int32 }
	pts := make([]pt, 0, m.N+2)
	for i := 0; i < m.N; i++ {
		pts = append(pts, pt{m.X[i], m.Y[i]})
	}
	pts = append(pts, pt{ax, ay}, pt{bx, by})
	close := func(i, j int) bool {
		return int64(sq(pts[i].x-pts[j].x, pts[i].y-pts[j].y)) <= MaxPathLength2
	}
	for k := m.N; k < m.N+2; k++ { // the triple's highest position is A or B
		for i := 0; i < k; i++ {
			if !close(i, k) {
				continue
			}
			for j := i + 1; j < k; j++ {
				if close(j, k) && close(i, j) && wideAngle(pts[i].x, pts[i].y, pts[j].x, pts[j].y, pts[k].x, pts[k].y) {
					return true
				}
			}
		}
	}
	return false
}

// wideAngle reports whether a triangle with all sides ≤ 400 has an angle
// above 160°, by the law of cosines in doubles as the original computes it.
func wideAngle(x1, y1, x2, y2, x3, y3 int32) bool {
	a := math.Sqrt(float64(sq(x1-x2, y1-y2)))
	b := math.Sqrt(float64(sq(x1-x3, y1-y3)))
	c := math.Sqrt(float64(sq(x2-x3, y2-y3)))
	const toDeg = 180 / math.Pi
	// NaN (rounding outside [-1, 1]) never compares greater, as in Java.
	return math.Acos((b*b+c*c-a*a)/(2*b*c))*toDeg > maxAngle ||
		math.Acos((a*a+c*c-b*b)/(2*a*c))*toDeg > maxAngle ||
		math.Acos((a*a+b*b-c*c)/(2*a*b))*toDeg > maxAngle
}

// greedyEdges is §2.3: all pairs by length (stable), kept unless longer than
// 400 or crossing an edge kept before.
func greedyEdges(m *Map) [][2]int {
	var pairs [][2]int
	for i := 0; i < m.N; i++ {
		for j := i + 1; j < m.N; j++ {
			if m.d2[i][j] <= MaxPathLength2 { // longer pairs are always blocked
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	slices.SortStableFunc(pairs, func(p, q [2]int) int {
		return int(m.d2[p[0]][p[1]] - m.d2[q[0]][q[1]])
	})
	var edges [][2]int
next:
	for _, p := range pairs {
		for _, e := range edges {
			if crossesXY(p[0], p[1], e[0], e[1], &m.X, &m.Y) {
				continue next
			}
		}
		edges = append(edges, p)
	}
	return edges
}

func countTriangles(m *Map, adj *[MaxHouses]uint64) int {
	n := 0
	forEachTriangle(m.N, adj, &m.X, &m.Y, func(_, _, _ int) { n++ })
	return n
}

// sparsify is §2.5: delete random symmetric pairs of paths while the map
// keeps 20 triangles and stays biconnected.
func sparsify(r *javarand.Random, m *Map, edges [][2]int) [][2]int {
	var adj [MaxHouses]uint64
	for _, e := range edges {
		adj[e[0]] |= 1 << e[1]
		adj[e[1]] |= 1 << e[0]
	}
	toRemove := int(float64(len(edges)) * (r.Float64()*0.4 + 0.1))
	tested := map[[2]int]bool{}
	for toRemove > 0 {
		toRemove -= 2
		e := edges[r.IntN(int32(len(edges)))]
		if tested[e] {
			continue
		}
		pa, pb := e[0]^1, e[1]^1
		pi := -1
		for i, f := range edges {
			if (f[0] == pa && f[1] == pb) || (f[0] == pb && f[1] == pa) {
				pi = i
			}
		}
		if pi < 0 {
			continue // impossible on a symmetric map (Java would crash)
		}
		partner := edges[pi]
		tested[e], tested[partner] = true, true
		toggle := func() {
			for _, f := range [][2]int{e, partner} {
				adj[f[0]] ^= 1 << f[1]
				adj[f[1]] ^= 1 << f[0]
			}
		}
		if partner == e {
			adj[e[0]] &^= 1 << e[1]
			adj[e[1]] &^= 1 << e[0]
		} else {
			toggle()
		}
		if countTriangles(m, &adj) >= minTriangles && biconnected(m.N, &adj) {
			edges = slices.DeleteFunc(edges, func(f [2]int) bool { return f == e || f == partner })
		} else if partner == e {
			adj[e[0]] |= 1 << e[1]
			adj[e[1]] |= 1 << e[0]
		} else {
			toggle()
		}
	}
	return edges
}

// ---------------------------------------------------------------------------
// Explicit maps (§2.6).

// ParseMap builds a map from the referee's game parameters: nodes "x,y"
// per house, edges "a,b" per path, units "u0,u1" per house, each list
// joined with "_". Edge entries with fewer than two numbers are ignored, as
// in the original. It rejects what the original would crash on (bad
// numbers, ids out of range, a units list of the wrong length), to keep
// the graph planar, paths that cross, and what no referee writes: two
// houses at one place and a path listed twice. It keeps what the rules
// allow in play (spec §3.2, §10.7): a self-loop ("a,a"), paths that touch
// or pass through a house (collinear, decided by the crossing predicate as
// written), and a map without triangles, which both players lose at once
// (spec §9).
func ParseMap(nodes, edges, units string) (*Map, error) {
	m := &Map{}
	for i, item := range strings.Split(nodes, "_") {
		xy, err := ints(item)
		if err != nil || len(xy) < 2 {
			return nil, fmt.Errorf("tryangle: nodes entry %d %q: want x,y", i, item)
		}
		if m.N == MaxHouses {
			return nil, fmt.Errorf("tryangle: more than %d houses", MaxHouses)
		}
		if !inCoord(xy[0]) || !inCoord(xy[1]) {
			return nil, fmt.Errorf("tryangle: house %d: coordinates beyond ±%d", i, maxCoord)
		}
		m.X[m.N], m.Y[m.N] = int32(xy[0]), int32(xy[1])
		for j := 0; j < m.N; j++ {
			if m.X[j] == m.X[m.N] && m.Y[j] == m.Y[m.N] {
				return nil, fmt.Errorf("tryangle: houses %d and %d are both at %d,%d: each house needs a place of its own", j, m.N, xy[0], xy[1])
			}
		}
		m.N++
	}
	m.finish()
	seen := map[[2]int]bool{}
	for i, item := range strings.Split(edges, "_") {
		ab, err := ints(item)
		if err != nil {
			return nil, fmt.Errorf("tryangle: edges entry %d %q: %v", i, item, err)
		}
		if len(ab) < 2 {
			continue
		}
		a, b := ab[0], ab[1]
		if a < 0 || b < 0 || a >= m.N || b >= m.N {
			return nil, fmt.Errorf("tryangle: edges entry %d %q: no such house", i, item)
		}
		if a > b {
			a, b = b, a
		}
		if seen[[2]int{a, b}] {
			return nil, fmt.Errorf("tryangle: edges entry %d %q: the path %d-%d is listed twice", i, item, a, b)
		}
		seen[[2]int{a, b}] = true
		m.Paths = append(m.Paths, [2]int{a, b})
	}
	slices.SortFunc(m.Paths, func(p, q [2]int) int {
		if p[0] != q[0] {
			return p[0] - q[0]
		}
		return p[1] - q[1]
	})
	for i, p := range m.Paths {
		for _, q := range m.Paths[:i] {
			if crossesXY(p[0], p[1], q[0], q[1], &m.X, &m.Y) {
				return nil, fmt.Errorf("tryangle: paths %d-%d and %d-%d cross", q[0], q[1], p[0], p[1])
			}
		}
	}
	us := strings.Split(units, "_")
	if len(us) != m.N {
		return nil, fmt.Errorf("tryangle: units has %d entries for %d houses", len(us), m.N)
	}
	for i, item := range us {
		u, err := ints(item)
		if err != nil || len(u) != 2 || u[0] < 0 || u[1] < 0 || u[0] > maxStartUnits || u[1] > maxStartUnits {
			return nil, fmt.Errorf("tryangle: units entry %d %q: want u0,u1 (0…%d)", i, item, maxStartUnits)
		}
		m.Units[i] = [2]int{u[0], u[1]}
	}
	return m, nil
}

// inCoord reports whether v is a valid explicit-map coordinate. (Not
// |v| ≤ maxCoord: the negation of the most negative int overflows.)
func inCoord(v int) bool { return v >= -maxCoord && v <= maxCoord }

func ints(item string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(item, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// MaxMapFile bounds a map file (a map of 64 houses is a few kilobytes).
const MaxMapFile = readfile.MiB

// LoadMap reads a map file: lines "nodes=…", "edges=…", "units=…" (the
// referee's game parameters as CodinGame shows them; other lines such as
// "seed=…" and blank lines are ignored). A file larger than MaxMapFile is
// refused.
func LoadMap(path string) (*Map, error) {
	data, err := readfile.Read(path, "tryangle:map=", "a map file", MaxMapFile)
	if err != nil {
		return nil, err
	}
	m, err := parseMapFile(data, path)
	if err != nil {
		return nil, err
	}
	nodes, edges, units := m.Params()
	sum := sha256.Sum256([]byte("nodes=" + nodes + "\nedges=" + edges + "\nunits=" + units + "\n"))
	m.Digest = hex.EncodeToString(sum[:])
	return m, nil
}

// parseMapFile reads the contents of a map file named path.
func parseMapFile(data []byte, path string) (*Map, error) {
	vals := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok {
			vals[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	for _, k := range []string{"nodes", "edges", "units"} {
		if _, ok := vals[k]; !ok {
			return nil, fmt.Errorf("tryangle: map file %s: no %s= line", path, k)
		}
	}
	return ParseMap(vals["nodes"], vals["edges"], vals["units"])
}

// Params returns the map as the referee's game parameters nodes, edges,
// units (§2.6), which ParseMap reads back.
func (m *Map) Params() (nodes, edges, units string) {
	var b strings.Builder
	for i := 0; i < m.N; i++ {
		if i > 0 {
			b.WriteByte('_')
		}
		fmt.Fprintf(&b, "%d,%d", m.X[i], m.Y[i])
	}
	nodes = b.String()
	b.Reset()
	for i, p := range m.Paths {
		if i > 0 {
			b.WriteByte('_')
		}
		fmt.Fprintf(&b, "%d,%d", p[0], p[1])
	}
	edges = b.String()
	b.Reset()
	for i := 0; i < m.N; i++ {
		if i > 0 {
			b.WriteByte('_')
		}
		fmt.Fprintf(&b, "%d,%d", m.Units[i][0], m.Units[i][1])
	}
	return nodes, edges, b.String()
}

// generated caches maps by seed: generation costs milliseconds and an arena
// starts many games on the same seed.
var generated struct {
	sync.Mutex
	maps map[int64]*Map
}

// GeneratedMap is Generate with a small cache; the map is shared, read-only.
func GeneratedMap(seed int64) *Map {
	generated.Lock()
	defer generated.Unlock()
	if m := generated.maps[seed]; m != nil {
		return m
	}
	if generated.maps == nil || len(generated.maps) >= 256 {
		generated.maps = map[int64]*Map{}
	}
	m := Generate(seed)
	generated.maps[seed] = m
	return m
}

var errNoMap = errors.New("tryangle: give all three of nodes=, edges=, units= (or map=FILE)")
