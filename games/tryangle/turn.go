package tryangle

import (
	"math/bits"
)

// task is a parsed command of one turn (§6.3).
type task struct {
	kind   Kind
	p      uint8
	tri    int16 // triangle slot (triangle commands)
	a, b   int8  // MOVE: from, to; others: house1, target
	amount int32
	cost   int32 // ADD_PATH: squared length; else 0
}

func (t *task) priority() int {
	switch t.kind {
	case CmdAttack:
		return 0
	case CmdMove:
		return 1
	case CmdSpawn:
		return 2
	case CmdAddPath:
		return 3
	}
	return 4
}

// single reports whether at most one such task per player runs per frame.
func (t *task) single() bool {
	return t.kind == CmdAttack || t.kind == CmdAddPath || t.kind == CmdRemovePath
}

// scratch holds buffers and caches of one State (never shared by clones).
type scratch struct {
	pend, rest, group, apply []task
	left                     [2][]task

	distEdges uint64 // edge hash the distance rows were computed for
	distValid uint64 // rows of dist that are valid
	dist      [MaxHouses][MaxHouses]uint8

	plans [2]planSet
	plan  planScratch
	cache planCache // plan lists of positions seen before (plancache.go)

	svg map[uint64]string // picture fragments drawn before, by key (svg.go)
}

const unreachable = 255

func (s *State) scr() *scratch {
	if s.sc == nil {
		s.sc = &scratch{}
		for i := range s.sc.plans {
			s.sc.plans[i].cmds = make([]Command, 0, 512)
		}
		s.sc.pend = make([]task, 0, 64)
		s.sc.rest = make([]task, 0, 64)
	}
	return s.sc
}

// distFrom returns hop distances from house src over the current paths
// (unreachable = 255), cached until the paths change.
func (s *State) distFrom(src int) *[MaxHouses]uint8 {
	sc := s.scr()
	if sc.distEdges != s.edgeHash {
		sc.distEdges, sc.distValid = s.edgeHash, 0
	}
	row := &sc.dist[src]
	if sc.distValid&(1<<src) != 0 {
		return row
	}
	for i := range row {
		row[i] = unreachable
	}
	seen := uint64(1) << src
	frontier := seen
	for d := uint8(0); frontier != 0; d++ {
		var next uint64
		for f := frontier; f != 0; f &= f - 1 {
			h := bits.TrailingZeros64(f)
			row[h] = d
			next |= s.adj[h]
		}
		next &^= seen
		seen |= next
		frontier = next
	}
	sc.distValid |= 1 << src
	return row
}

// findTriangle returns the slot of the first triangle in list order that
// contains all the given houses (repeats allowed, §7.2), or -1.
func (s *State) findTriangle(h [3]int32) int {
	want := uint64(1)<<h[0] | 1<<h[1] | 1<<h[2]
	for i := 0; i < s.ntri; i++ {
		if s.tris[i].mask&want == want {
			return i
		}
	}
	return -1
}

// triNeighbors returns the houses adjacent to some corner of t.
func (s *State) triNeighbors(t *triangle) uint64 {
	return s.adj[t.c[0]] | s.adj[t.c[1]] | s.adj[t.c[2]]
}

// makeTask runs the parse-time checks of §7.2. A command failing them is an
// ignored (non-critical) error: the task can never pass its strict check,
// so it is simply not queued.
func (s *State) makeTask(p int, c *Command) (task, bool) {
	n := int32(s.n)
	valid := func(h int32) bool { return h >= 0 && h < n }
	t := task{kind: c.Kind, p: uint8(p), tri: -1}
	if c.Kind == CmdMove {
		if !valid(c.H[0]) || !valid(c.H[1]) || c.Amount <= 0 {
			return t, false
		}
		t.a, t.b, t.amount = int8(c.H[0]), int8(c.H[1]), c.Amount
		return t, true
	}
	if !valid(c.H[0]) || !valid(c.H[1]) || !valid(c.H[2]) {
		return t, false
	}
	if c.Kind != CmdSpawn && !valid(c.Target) {
		return t, false
	}
	i := s.findTriangle(c.H)
	if i < 0 {
		return t, false
	}
	t.tri, t.a, t.b = int16(i), int8(c.H[0]), int8(c.Target)
	switch c.Kind {
	case CmdAttack, CmdRemovePath:
		if s.triNeighbors(&s.tris[i])&(1<<c.Target) == 0 {
			return t, false
		}
	case CmdAddPath:
		if !s.m.canConnect(int(t.a), int(t.b), &s.adj) {
			return t, false
		}
		t.cost = s.m.d2[t.a][t.b]
	}
	return t, true
}

// canUse is §4.2: p has owned t since the start of the turn and has k
// unused units on each corner.
func (s *State) canUse(p int, t *triangle, k int32) bool {
	r := &s.rem[p]
	return int(t.owner) == p && int(t.initOwner) == p &&
		r[t.c[0]] >= k && r[t.c[1]] >= k && r[t.c[2]] >= k
}

// strict is the strict validity check of §7.3.
func (s *State) strict(t *task) bool {
	p := int(t.p)
	switch t.kind {
	case CmdMove:
		return t.a != t.b && s.rem[p][t.a] > 0
	case CmdSpawn:
		return s.canUse(p, &s.tris[t.tri], 0)
	case CmdAttack:
		tr := &s.tris[t.tri]
		return s.canUse(p, tr, 1) && s.triNeighbors(tr)&(1<<t.b) != 0
	case CmdAddPath:
		return s.canUse(p, &s.tris[t.tri], 1) && s.adj[t.a]&(1<<t.b) == 0 &&
			s.m.canConnect(int(t.a), int(t.b), &s.adj)
	default: // CmdRemovePath
		tr := &s.tris[t.tri]
		return s.canUse(p, tr, 1) && s.adj[t.a]&(1<<t.b) != 0 && tr.mask&(1<<t.b) == 0
	}
}

// use spends triangle t (§4.2): each corner pays up to k of the owner's
// units, the owner loses eligibility and the triangle turns neutral.
func (s *State) use(t *triangle, k int32) {
	o := int(t.owner)
	if o == noOwner {
		return
	}
	for _, c := range t.c {
		take := min(k, s.units[o][c])
		s.setUnits(o, int(c), s.units[o][c]-take)
		s.rem[o][c] -= take
	}
	cc := t.canCap
	cc[o] = false
	s.setTri(t, noOwner, cc[0], cc[1])
}

func (s *State) apply(t *task) {
	p, o := int(t.p), 1-int(t.p)
	switch t.kind {
	case CmdMove:
		amt := min(t.amount, s.rem[p][t.a])
		if amt <= 0 {
			return
		}
		next := s.nextHop(int(t.a), int(t.b))
		if next < 0 {
			return // target unreachable: the units stay (§10.11)
		}
		s.setUnits(p, int(t.a), s.units[p][t.a]-amt)
		s.rem[p][t.a] -= amt
		s.setUnits(p, next, s.units[p][next]+amt)
	case CmdSpawn:
		s.use(&s.tris[t.tri], 0)
		s.setUnits(p, int(t.a), s.units[p][t.a]+1)
	case CmdAttack:
		s.use(&s.tris[t.tri], 1)
		s.setUnits(o, int(t.b), 0)
		s.rem[o][t.b] = 0
	case CmdAddPath:
		s.use(&s.tris[t.tri], 1)
		s.connect(int(t.a), int(t.b))
	case CmdRemovePath:
		s.use(&s.tris[t.tri], 1)
		s.disconnect(int(t.a), int(t.b))
	}
}

// nextHop is the house one step from `from` towards `to`: the lowest-id
// neighbour on a shortest path, or -1 if `to` cannot be reached.
func (s *State) nextHop(from, to int) int {
	d := s.distFrom(to)
	df := d[from]
	if df == unreachable {
		return -1
	}
	for ns := s.adj[from]; ns != 0; ns &= ns - 1 {
		h := bits.TrailingZeros64(ns)
		if d[h] < df {
			return h
		}
	}
	return -1
}

// prune drops every pending task that fails its strict check now.
func (s *State) prune(pend []task) []task {
	j := 0
	for i := range pend {
		if s.strict(&pend[i]) {
			pend[j] = pend[i]
			j++
		}
	}
	return pend[:j]
}

// stableSortByCost is an insertion sort (stable; groups are small).
func stableSortByCost(ts []task) {
	for i := 1; i < len(ts); i++ {
		for k := i; k > 0 && ts[k].cost < ts[k-1].cost; k-- {
			ts[k], ts[k-1] = ts[k-1], ts[k]
		}
	}
}

// applyActions is one action frame of §6.3: pop the lowest-priority group,
// pick per player all valid multi-per-frame tasks or the first valid single
// one, run them by cost, and queue the leftovers again.
func (s *State) applyActions() {
	sc := s.sc
	s.surroundDone = false
	sc.pend = s.prune(sc.pend)
	if len(sc.pend) == 0 {
		return
	}
	minPrio := 5
	for i := range sc.pend {
		minPrio = min(minPrio, sc.pend[i].priority())
	}
	sc.group, sc.rest = sc.group[:0], sc.rest[:0]
	for _, t := range sc.pend {
		if t.priority() == minPrio {
			sc.group = append(sc.group, t)
		} else {
			sc.rest = append(sc.rest, t)
		}
	}
	stableSortByCost(sc.group)
	sc.left[0], sc.left[1] = sc.left[0][:0], sc.left[1][:0]
	for _, t := range sc.group {
		sc.left[t.p] = append(sc.left[t.p], t)
	}
	sc.apply = sc.apply[:0]
	for p := 0; p < 2; p++ {
		g := sc.left[p]
		for len(g) > 0 {
			t := g[0]
			g = g[1:]
			if !s.strict(&t) {
				continue // dropped for good
			}
			sc.apply = append(sc.apply, t)
			if t.single() {
				break
			}
		}
		sc.left[p] = sc.left[p][:copy(sc.left[p], g)] // keep the buffer's start
	}
	stableSortByCost(sc.apply)
	for i := range sc.apply {
		t := &sc.apply[i]
		if t.kind == CmdAddPath && !s.m.canConnect(int(t.a), int(t.b), &s.adj) {
			continue // the non-strict check: another path now blocks it
		}
		if !t.single() && !s.strict(t) {
			continue
		}
		s.apply(t)
	}
	sc.pend, sc.rest = sc.rest, sc.pend
	sc.pend = append(sc.pend, sc.left[0]...)
	sc.pend = append(sc.pend, sc.left[1]...)
}

// resolve plays one decision turn with the two players' commands.
func (s *State) resolve(cmds [2][]Command, critical [2]bool) {
	sc := s.scr()
	s.rem = s.units
	for p := 0; p < 2; p++ {
		if critical[p] {
			s.kill(p) // "Unknown command": the game ends after this frame
		}
	}
	sc.pend = sc.pend[:0]
	for p := 0; p < 2; p++ {
		for i := range cmds[p] {
			if t, ok := s.makeTask(p, &cmds[p][i]); ok {
				sc.pend = append(sc.pend, t)
			}
		}
	}
	s.applyActions() // the decision frame runs the first group
	if s.over || s.ply+1 >= MaxTurns {
		// The game ends with this frame: nothing else of the turn happens,
		// in particular no scoring (§9, §10.2).
		s.over = true
		s.compact()
		return
	}
	for {
		sc.pend = s.prune(sc.pend)
		if len(sc.pend) == 0 {
			break
		}
		s.applyActions()
	}
	s.compact()
	s.finalize()
	s.checkLosses()
}
