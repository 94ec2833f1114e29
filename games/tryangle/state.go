package tryangle

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/boardgame-arena/arena/games"
)

// MaxTurns is the number of decision turns of a game (§6.1, §9).
const MaxTurns = 200

const (
	noOwner = -1
	// maxSlots bounds the triangle slots of one turn: at most 2·64−4 live
	// triangles, plus those that paths added during the turn create (two
	// per added path at most) while destroyed ones stay as orphans (§10.8).
	maxSlots = 384
)

// triangle is a triangle's state object (§4.2). Commands parsed at the start
// of a turn refer to it by slot, so a triangle destroyed during the turn
// stays readable as an orphan until the turn ends.
type triangle struct {
	mask      uint64 // corner bits
	c         [3]uint8
	owner     int8 // noOwner, 0 or 1
	initOwner int8 // owner at the last scoring pass
	canCap    [2]bool
	dead      bool
}

// State is a TryAngle Catch position at a decision point, with its history.
type State struct {
	m     *Map
	n     int
	adj   [MaxHouses]uint64   // adj[h] bit g: a path h–g (bit h: a self-loop)
	units [2][MaxHouses]int32 // units[p][h]
	rem   [2][MaxHouses]int32 // units that may still move or pay this turn (§4.1)
	tris  [maxSlots]triangle
	ntri  int // slots in use; at decision points all live and sorted
	score [2]int32
	lost  [2]bool
	over  bool
	ply   int

	hash     uint64 // Zobrist hash of the decision-point position
	edgeHash uint64 // the paths' part of hash (keys the distance cache)
	meta     uint64 // the scores/turn part of hash

	surroundDone bool
	triAdded     bool // a triangle was created this turn (re-sort needed)

	hist     []histEntry
	histData []uint64

	lines *lineTable // interned command lines, shared with clones
	sc    *scratch   // buffers and caches, never shared
	// weights of Evaluate (games.Weighted); nil for the defaults. Shared
	// by clones, never written through.
	weights []int
}

type histEntry struct {
	score    [2]int32
	lost     [2]bool
	over     bool
	ntri     int32
	off      int32
	hash     uint64
	edgeHash uint64
	meta     uint64
}

// New returns the start position of map m: triangles computed and the map
// stabilised as the referee does before the first input (§2.7).
func New(m *Map) *State {
	s := &State{m: m, n: m.N, lines: newLineTable()}
	for _, p := range m.Paths {
		s.adj[p[0]] |= 1 << p[1]
		s.adj[p[1]] |= 1 << p[0]
	}
	for h := 0; h < m.N; h++ {
		s.units[0][h] = int32(m.Units[h][0])
		s.units[1][h] = int32(m.Units[h][1])
	}
	forEachTriangle(s.n, &s.adj, &m.X, &m.Y, func(a, b, c int) {
		s.tris[s.ntri] = freshTriangle(a, b, c)
		s.ntri++
	})
	s.hash = s.computeHash()
	s.edgeHash = s.computeEdgeHash()
	s.meta = s.metaKey()
	// Stabilise, then the first frame's own finalize: triangles owned at the
	// start are scored twice (§2.7, §10.1).
	s.finalize()
	s.finalize()
	s.checkLosses()
	s.hash ^= s.meta
	s.meta = s.metaKey()
	s.hash ^= s.meta
	s.hist = make([]histEntry, 0, 16)
	s.histData = make([]uint64, 0, 16*(2*s.n+s.ntri+8))
	return s
}

func freshTriangle(a, b, c int) triangle {
	return triangle{
		mask:      1<<a | 1<<b | 1<<c,
		c:         [3]uint8{uint8(a), uint8(b), uint8(c)},
		owner:     noOwner,
		initOwner: noOwner,
		canCap:    [2]bool{true, true},
	}
}

// Map returns the map the game is played on.
func (s *State) Map() *Map { return s.m }

// InputDigest implements games.InputDigester: the digest of the map file
// the game was built from, "" for generated and inline maps.
func (s *State) InputDigest() string { return s.m.Digest }

// Houses returns the number of houses.
func (s *State) Houses() int { return s.n }

// Units returns player p's units on house h.
func (s *State) Units(p, h int) int { return int(s.units[p][h]) }

// Score returns player p's score (−1 once p has lost early, §9).
func (s *State) Score(p int) int { return int(s.score[p]) }

// Turn returns the number of the next decision turn, 1…MaxTurns.
func (s *State) Turn() int { return s.ply + 1 }

// Adjacent reports whether a path joins houses a and b.
func (s *State) Adjacent(a, b int) bool { return s.adj[a]&(1<<b) != 0 }

// Neighbors returns the neighbour mask of house h (bit g: path h–g).
func (s *State) Neighbors(h int) uint64 { return s.adj[h] }

// CanConnect reports whether a new path from–to would be legal geometry
// (§3.3: at most 400 long, crossing no path).
func (s *State) CanConnect(from, to int) bool { return s.m.canConnect(from, to, &s.adj) }

// Triangle describes a triangle at a decision point.
type Triangle struct {
	Corners    [3]int // ascending house ids
	Owner      int    // -1 neutral, else the player
	CanCapture [2]bool
}

// Triangles returns the triangles in §3.4 order.
func (s *State) Triangles() []Triangle {
	out := make([]Triangle, 0, s.ntri)
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		if t.dead {
			continue
		}
		out = append(out, Triangle{
			Corners:    [3]int{int(t.c[0]), int(t.c[1]), int(t.c[2])},
			Owner:      int(t.owner),
			CanCapture: t.canCap,
		})
	}
	return out
}

// ToMove implements games.Base: Both until the game is over.
func (s *State) ToMove() int {
	if s.over {
		return games.None
	}
	return games.Both
}

// Terminal implements games.Base.
func (s *State) Terminal() bool { return s.over }

// Ply implements games.Base: the number of turns played.
func (s *State) Ply() int { return s.ply }

// Hash implements games.Base.
func (s *State) Hash() uint64 { return s.hash }

// ComputeHash implements games.Base: the hash from scratch.
func (s *State) ComputeHash() uint64 { return s.computeHash() }

// Outcome implements games.Base: the higher final score wins (a player who
// lost early has −1); Score is score0 − score1.
func (s *State) Outcome() games.Outcome {
	return games.MarginOutcome(int(s.score[0] - s.score[1]))
}

// Clone implements games.SimState. Interned command lines stay shared (the
// table is safe for concurrent use); caches and buffers are not copied.
func (s *State) Clone() games.SimState { return s.clone() }

func (s *State) clone() *State {
	c := *s
	c.hist = slices.Clone(s.hist)
	c.histData = slices.Clone(s.histData)
	c.sc = nil
	return &c
}

// DUCT finds CopyFrom by a type assertion; this keeps a renamed method
// from dropping out of it unnoticed.
var _ games.Copier = (*State)(nil)

// CopyFrom makes s a copy of src, as Clone would, keeping s's buffers and
// caches (games.Copier, for search/mcts): the plan lists of positions s has seen stay
// valid for src's positions of the same map. It reports false when src is
// not a TryAngle Catch state.
func (s *State) CopyFrom(src games.SimState) bool {
	o, ok := src.(*State)
	if !ok {
		return false
	}
	if o == s {
		return true
	}
	sc, hist, data := s.sc, s.hist, s.histData
	sameMap := s.m == o.m
	*s = *o
	s.hist = append(hist[:0], o.hist...)
	s.histData = append(data[:0], o.histData...)
	s.sc = nil
	if sameMap {
		s.sc = sc // its plans and distances are keyed by hashes of this map's positions
	}
	return true
}

// ---------------------------------------------------------------------------
// Mutators that keep the hash in step.

func (s *State) setUnits(p, h int, v int32) {
	s.hash ^= unitKey(p, h, s.units[p][h]) ^ unitKey(p, h, v)
	s.units[p][h] = v
}

func (s *State) setTri(t *triangle, owner int8, cc0, cc1 bool) {
	if t.dead { // an orphan (§10.8) is no longer part of the position
		t.owner, t.canCap[0], t.canCap[1] = owner, cc0, cc1
		return
	}
	if t.owner == owner && t.canCap[0] == cc0 && t.canCap[1] == cc1 {
		return
	}
	s.hash ^= triKey(t)
	t.owner, t.canCap[0], t.canCap[1] = owner, cc0, cc1
	s.hash ^= triKey(t)
}

// connect adds the path a–b (a no-op if it exists) and the triangles it
// closes, which start neutral and capturable by both (§3.5).
func (s *State) connect(a, b int) {
	if s.adj[a]&(1<<b) != 0 {
		return
	}
	s.adj[a] |= 1 << b
	s.adj[b] |= 1 << a
	k := edgeKey(a, b)
	s.hash ^= k
	s.edgeHash ^= k
	if a == b {
		return // a self-loop closes no triangle (§10.7)
	}
	for ws := s.adj[a] & s.adj[b] &^ (1<<a | 1<<b); ws != 0; ws &= ws - 1 {
		w := bits.TrailingZeros64(ws)
		c := [3]int{a, b, w}
		slices.Sort(c[:])
		if !emptyTriangle(c[0], c[1], c[2], s.n, &s.m.X, &s.m.Y) {
			continue
		}
		if s.ntri == maxSlots {
			panic("tryangle: too many triangles in one turn")
		}
		t := &s.tris[s.ntri]
		*t = freshTriangle(c[0], c[1], c[2])
		s.ntri++
		s.hash ^= triKey(t)
		s.triAdded = true
	}
}

// disconnect removes the path a–b; the triangles on it die (their slots
// stay readable for the rest of the turn).
func (s *State) disconnect(a, b int) {
	if s.adj[a]&(1<<b) == 0 {
		return
	}
	s.adj[a] &^= 1 << b
	s.adj[b] &^= 1 << a
	k := edgeKey(a, b)
	s.hash ^= k
	s.edgeHash ^= k
	both := uint64(1)<<a | 1<<b
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		if !t.dead && t.mask&both == both {
			s.hash ^= triKey(t)
			t.dead = true
		}
	}
}

// compact drops dead slots and restores the §3.4 order.
func (s *State) compact() {
	j := 0
	for i := 0; i < s.ntri; i++ {
		if !s.tris[i].dead {
			s.tris[j] = s.tris[i]
			j++
		}
	}
	s.ntri = j
	if s.triAdded {
		s.triAdded = false
		ts := s.tris[:s.ntri]
		for i := 1; i < len(ts); i++ { // insertion sort: mostly sorted already
			for k := i; k > 0 && triOrder(&ts[k]) < triOrder(&ts[k-1]); k-- {
				ts[k], ts[k-1] = ts[k-1], ts[k]
			}
		}
	}
}

func triOrder(t *triangle) uint32 {
	return uint32(t.c[0])<<16 | uint32(t.c[1])<<8 | uint32(t.c[2])
}

// ---------------------------------------------------------------------------
// End of turn (§5).

// advantage returns the houses where player 0, resp. 1, has more units.
func (s *State) advantage() (adv0, adv1 uint64) {
	for h := 0; h < s.n; h++ {
		switch u0, u1 := s.units[0][h], s.units[1][h]; {
		case u0 > u1:
			adv0 |= 1 << h
		case u1 > u0:
			adv1 |= 1 << h
		}
	}
	return adv0, adv1
}

// ownership returns the houses owned by each player (§5.1): all neighbours
// with a majority of one player beat the house's own majority.
func (s *State) ownership() (own0, own1 uint64) {
	adv0, adv1 := s.advantage()
	var nb0, nb1 uint64
	for h := 0; h < s.n; h++ {
		a := s.adj[h]
		if a == 0 {
			continue
		}
		if a&^adv0 == 0 {
			nb0 |= 1 << h
		} else if a&^adv1 == 0 {
			nb1 |= 1 << h
		}
	}
	return nb0 | adv0&^nb1, nb1 | adv1&^nb0
}

// finalize is the end-of-turn procedure of §5.5, run until it is stable:
// surround kills (once per turn), captures, then scoring.
func (s *State) finalize() {
	for {
		s.rem = s.units
		s.updateAllowedCaptures()
		if !s.surroundDone {
			s.surroundDone = true
			if s.surround() {
				continue
			}
		}
		if s.captureAll() {
			continue
		}
		for i := 0; i < s.ntri; i++ {
			t := &s.tris[i]
			if t.owner != noOwner {
				s.score[t.owner]++
			}
			t.initOwner = t.owner
		}
		return
	}
}

func (s *State) updateAllowedCaptures() {
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		if t.owner != noOwner {
			s.setTri(t, t.owner, t.owner != 0, t.owner != 1)
			continue
		}
		a, b, c := t.c[0], t.c[1], t.c[2]
		e0 := s.units[0][a] == 0 && s.units[0][b] == 0 && s.units[0][c] == 0
		e1 := s.units[1][a] == 0 && s.units[1][b] == 0 && s.units[1][c] == 0
		s.setTri(t, noOwner, t.canCap[0] || e0, t.canCap[1] || e1)
	}
}

// surround kills, on a snapshot of the majorities, every unit whose house's
// neighbours all have an enemy majority (§5.2). It reports any kill.
func (s *State) surround() bool {
	adv := [2]uint64{}
	adv[0], adv[1] = s.advantage()
	killed := false
	for p := 0; p < 2; p++ {
		enemy := adv[1-p]
		for h := 0; h < s.n; h++ {
			if s.units[p][h] > 0 && s.adj[h] != 0 && s.adj[h]&^enemy == 0 {
				s.setUnits(p, h, 0)
				killed = true
			}
		}
	}
	return killed
}

// captureAll gives every triangle whose corners a player owns to him when
// he is eligible (§5.4) and reports any change.
func (s *State) captureAll() bool {
	own0, own1 := s.ownership()
	changed := false
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		if t.canCap[0] && t.mask&^own0 == 0 {
			s.setTri(t, 0, t.canCap[0], t.canCap[1])
			changed = true
		}
		if t.canCap[1] && t.mask&^own1 == 0 {
			s.setTri(t, 1, t.canCap[0], t.canCap[1])
			changed = true
		}
	}
	return changed
}

// counts returns each player's units and owned triangles, and the number of
// triangles.
func (s *State) counts() (units, owned [2]int, total int) {
	for h := 0; h < s.n; h++ {
		units[0] += int(s.units[0][h])
		units[1] += int(s.units[1][h])
	}
	for i := 0; i < s.ntri; i++ {
		if t := &s.tris[i]; !t.dead {
			total++
			if t.owner != noOwner {
				owned[t.owner]++
			}
		}
	}
	return units, owned, total
}

// checkLosses runs the early-loss tests at the start of a decision frame
// (§9), player 0 first: a kill sets the score to −1 before player 1 is
// compared with it.
func (s *State) checkLosses() {
	units, owned, total := s.counts()
	for p := 0; p < 2; p++ {
		o := 1 - p
		switch {
		case units[p] == 0 && owned[p] == 0,
			units[p] == 1 && owned[p] == 0 && s.score[p] < s.score[o],
			float64(owned[o]) >= 0.8*float64(total):
			s.kill(p)
		}
	}
}

func (s *State) kill(p int) {
	if !s.lost[p] {
		s.lost[p] = true
		s.score[p] = -1
		s.over = true
	}
}

// ---------------------------------------------------------------------------
// History.

func (s *State) push() {
	e := histEntry{
		score: s.score, lost: s.lost, over: s.over, ntri: int32(s.ntri),
		off: int32(len(s.histData)), hash: s.hash, edgeHash: s.edgeHash, meta: s.meta,
	}
	s.hist = append(s.hist, e)
	d := s.histData
	d = append(d, s.adj[:s.n]...)
	for h := 0; h < s.n; h++ {
		d = append(d, uint64(uint32(s.units[0][h]))|uint64(uint32(s.units[1][h]))<<32)
	}
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		d = append(d, uint64(t.c[0])|uint64(t.c[1])<<8|uint64(t.c[2])<<16|
			uint64(uint8(t.owner+1))<<24|b2u(t.canCap[0])<<26|b2u(t.canCap[1])<<27)
	}
	s.histData = d
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Undo implements games.Base: it restores the position before the last
// turn exactly.
func (s *State) Undo() {
	if len(s.hist) == 0 {
		panic("tryangle: Undo at the start of the game")
	}
	e := s.hist[len(s.hist)-1]
	s.hist = s.hist[:len(s.hist)-1]
	s.restore(&e, s.histData[e.off:])
	s.histData = s.histData[:e.off]
	s.ply--
}

// restore loads a history entry and its data into s.
func (s *State) restore(e *histEntry, d []uint64) {
	n := s.n
	copy(s.adj[:n], d[:n])
	for h := 0; h < n; h++ {
		v := d[n+h]
		s.units[0][h], s.units[1][h] = int32(uint32(v)), int32(uint32(v>>32))
	}
	s.rem = s.units
	s.ntri = int(e.ntri)
	for i := 0; i < s.ntri; i++ {
		v := d[2*n+i]
		a, b, c := int(v&0xff), int(v>>8&0xff), int(v>>16&0xff)
		t := freshTriangle(a, b, c)
		t.owner = int8(v>>24&3) - 1
		t.initOwner = t.owner
		t.canCap = [2]bool{v>>26&1 == 1, v>>27&1 == 1}
		s.tris[i] = t
	}
	s.score, s.lost, s.over = e.score, e.lost, e.over
	s.hash, s.edgeHash, s.meta = e.hash, e.edgeHash, e.meta
	s.triAdded = false
	s.surroundDone = true
}

// ---------------------------------------------------------------------------
// Zobrist keys, computed by mixing instead of tables (unit counts are
// unbounded).

func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

func unitKey(p, h int, u int32) uint64 {
	if u == 0 {
		return 0
	}
	return mix(uint64(uint32(u))<<8 | uint64(h)<<1 | uint64(p) | 1<<60)
}

func edgeKey(a, b int) uint64 {
	if a > b {
		a, b = b, a
	}
	return mix(uint64(a)<<8 | uint64(b) | 2<<60)
}

func triKey(t *triangle) uint64 {
	return mix(uint64(triOrder(t)) | uint64(uint8(t.owner+1))<<24 |
		b2u(t.canCap[0])<<26 | b2u(t.canCap[1])<<27 | 3<<60)
}

func (s *State) metaKey() uint64 {
	return mix(uint64(uint32(s.score[0]))|uint64(uint32(s.score[1]))<<32) ^
		mix(uint64(s.ply)|b2u(s.over)<<16|4<<60)
}

func (s *State) computeEdgeHash() uint64 {
	var h uint64
	for a := 0; a < s.n; a++ {
		for bs := s.adj[a] &^ (1<<a - 1); bs != 0; bs &= bs - 1 {
			h ^= edgeKey(a, bits.TrailingZeros64(bs))
		}
	}
	return h
}

// computeHash recomputes the hash from scratch (tests compare it with the
// incremental one).
func (s *State) computeHash() uint64 {
	h := s.computeEdgeHash() ^ s.metaKey()
	for p := 0; p < 2; p++ {
		for x := 0; x < s.n; x++ {
			h ^= unitKey(p, x, s.units[p][x])
		}
	}
	for i := 0; i < s.ntri; i++ {
		if t := &s.tris[i]; !t.dead {
			h ^= triKey(t)
		}
	}
	return h
}

// String implements games.Base: a compact text view of the position.
func (s *State) String() string {
	b := fmt.Appendf(nil, "turn %d/%d  score %d : %d", s.Turn(), MaxTurns, s.score[0], s.score[1])
	if s.over {
		b = fmt.Appendf(b, "  game over %s", s.Outcome().Result())
	}
	b = append(b, "\nhouses (id x,y units0/units1 neighbours):"...)
	for h := 0; h < s.n; h++ {
		b = fmt.Appendf(b, "\n  %2d %4d,%-4d %d/%d ", h, s.m.X[h], s.m.Y[h], s.units[0][h], s.units[1][h])
		sep := byte('[')
		for g := s.adj[h]; g != 0; g &= g - 1 {
			b = fmt.Appendf(b, "%c%d", sep, bits.TrailingZeros64(g))
			sep = ' '
		}
		if sep == '[' {
			b = append(b, '[')
		}
		b = append(b, ']')
	}
	b = append(b, "\ntriangles (corners owner capture0/capture1):"...)
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		b = fmt.Appendf(b, "\n  %d %d %d  %2d  %d/%d", t.c[0], t.c[1], t.c[2], t.owner, b2u(t.canCap[0]), b2u(t.canCap[1]))
	}
	return string(b)
}
