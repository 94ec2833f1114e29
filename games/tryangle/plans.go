package tryangle

import "math/bits"

// The action abstraction: a short list of complete command lines per player
// (documented in the package doc under "Plans").

// PlanKind says what a plan does.
type PlanKind uint8

// Plan kinds. LegalMovesFor lists Hold, the spreads, then the others in
// this order.
const (
	PlanHold            PlanKind = iota // WAIT
	PlanMarch                           // march units towards a capturable triangle
	PlanMarchSpawn                      // march towards the best target and spawn from every usable triangle
	PlanMarchSpawnOne                   // march towards the best target and spawn from the usable triangle nearest to it
	PlanSpawn                           // spawn from every usable triangle, no moves
	PlanAttack                          // attack a house next to a usable triangle, march
	PlanCut                             // remove a path of enemy triangles, march
	PlanLink                            // add a path that closes triangles we own the corners of, march
	PlanSpread                          // every unit stays or steps to hold corners of capturable triangles
	PlanSpreadSafe                      // the same, holding houses against the enemy units next to them too
	PlanSpreadSpawn                     // spread and spawn from every owned triangle
	PlanSpreadSafeSpawn                 // safe spread and spawn from every owned triangle
	PlanSpreadAttack                    // attack the biggest enemy stack next to an owned triangle, spread, spawn
)

var planKindNames = [...]string{"hold", "march", "march+spawn", "march+spawn1", "spawn", "attack", "cut", "link", "spread", "spread-safe", "spread+spawn", "spread-safe+spawn", "spread+attack"}

func (k PlanKind) String() string {
	if int(k) < len(planKindNames) {
		return planKindNames[k]
	}
	return "plan?"
}

const (
	maxPlans   = 20 // Hold + 5 spreads + 3 marches + 3 spawn mixes + 2 attacks + 2 cuts + 1 link = 17
	maxTargets = 3  // march targets offered
)

// planSet is one player's plan list for one position.
type planSet struct {
	hash  uint64
	ply   int
	valid bool
	n     int
	start [maxPlans + 1]int32
	kind  [maxPlans]PlanKind
	cmds  []Command
}

func (ps *planSet) plan(i int) []Command { return ps.cmds[ps.start[i]:ps.start[i+1]] }

// planScratch is the working memory of plan generation.
type planScratch struct {
	own, en  [MaxHouses]int32 // the player's and the opponent's units (adjusted per plan)
	spare    [MaxHouses]int32
	def      [MaxHouses]int32 // units missing for a majority (0: owned)
	near     [MaxHouses]uint8 // hops to the nearest house with own units
	toTarget [MaxHouses]uint8 // hops to the primary target's corners
	order    [MaxHouses]uint16
	targets  [maxTargets]int16
	ntargets int
	keep     uint64 // corners of triangles about to be captured
	ownP     uint64
	spread   spreadScratch
}

// PlanKinds returns the kind of each of player p's plans, in LegalMovesFor
// order (for tests, tools and documentation).
func (s *State) PlanKinds(p int) []PlanKind {
	ps := s.plansFor(p)
	return append([]PlanKind(nil), ps.kind[:ps.n]...)
}

func (s *State) plansFor(p int) *planSet {
	sc := s.scr()
	ps := &sc.plans[p]
	if ps.valid && ps.hash == s.hash && ps.ply == s.ply {
		return ps
	}
	if !sc.cache.load(ps, p, s.hash, s.ply) {
		s.genPlans(p, ps)
		sc.cache.store(ps, p, s.hash, s.ply)
	}
	ps.valid, ps.hash, ps.ply = true, s.hash, s.ply
	return ps
}

// closePlan ends the plan being written; an empty plan (other than Hold)
// or a copy of an earlier plan is dropped.
func (ps *planSet) closePlan(k PlanKind) {
	begin := ps.start[ps.n]
	end := int32(len(ps.cmds))
	cur := ps.cmds[begin:end]
	drop := ps.n > 0 && len(cur) == 0 || ps.n == maxPlans
	for i := 0; i < ps.n && !drop; i++ {
		prev := ps.plan(i)
		if len(prev) == len(cur) {
			same := true
			for j := range cur {
				if cur[j] != prev[j] {
					same = false
					break
				}
			}
			drop = same
		}
	}
	if drop {
		ps.cmds = ps.cmds[:begin]
		return
	}
	ps.kind[ps.n] = k
	ps.n++
	ps.start[ps.n] = end
}

// multiDist fills d with hop distances from the nearest house of src.
func (s *State) multiDist(src uint64, d *[MaxHouses]uint8) {
	for i := range d {
		d[i] = unreachable
	}
	seen, frontier := src, src
	for k := uint8(0); frontier != 0; k++ {
		var next uint64
		for f := frontier; f != 0; f &= f - 1 {
			h := bits.TrailingZeros64(f)
			d[h] = k
			next |= s.adj[h]
		}
		next &^= seen
		seen |= next
		frontier = next
	}
}

func (s *State) genPlans(p int, ps *planSet) {
	ps.n, ps.cmds, ps.start[0] = 0, ps.cmds[:0], 0
	ps.closePlan(PlanHold)
	if s.over {
		return
	}
	pl := &s.scr().plan
	own0, own1 := s.ownership()
	s.analyze(p, own0, own1)
	primary := -1
	if pl.ntargets > 0 {
		primary = int(pl.targets[0])
		s.multiDist(s.tris[primary].mask, &pl.toTarget)
	}

	// Spreads: each computed once, listed with and without the spawns.
	for _, safe := range [2]bool{false, true} {
		begin := len(ps.cmds)
		ps.cmds, _ = s.appendSpread(ps.cmds, p, &pl.own, &pl.en, spreadOpts{safe: safe})
		end := len(ps.cmds)
		ps.cmds = s.appendSpreadSpawns(ps.cmds, p, -1)
		ps.closePlan(pick(safe, PlanSpreadSafeSpawn, PlanSpreadSpawn))
		ps.cmds = append(ps.cmds, ps.cmds[begin:end]...)
		ps.closePlan(pick(safe, PlanSpreadSafe, PlanSpread))
	}
	var used int
	ps.cmds, used = s.appendSpread(ps.cmds, p, &pl.own, &pl.en, spreadOpts{attack: true})
	if used >= 0 {
		ps.cmds = s.appendSpreadSpawns(ps.cmds, p, used)
	}
	ps.closePlan(PlanSpreadAttack)

	// Marches.
	for k := 0; k < pl.ntargets; k++ {
		ps.cmds = s.appendMarch(ps.cmds, pl, int(pl.targets[k]))
		ps.closePlan(PlanMarch)
	}
	usable := 0
	for i := 0; i < s.ntri; i++ {
		if int(s.tris[i].owner) == p {
			usable++
		}
	}
	if usable > 0 {
		if primary >= 0 {
			ps.cmds = s.appendMarch(ps.cmds, pl, primary)
			ps.cmds = s.appendSpawns(ps.cmds, p, pl, primary, false)
			ps.closePlan(PlanMarchSpawn)
		}
		if primary >= 0 {
			ps.cmds = s.appendMarch(ps.cmds, pl, primary)
		}
		ps.cmds = s.appendSpawns(ps.cmds, p, pl, primary, true)
		ps.closePlan(PlanMarchSpawnOne)
		ps.cmds = s.appendSpawns(ps.cmds, p, pl, primary, false)
		ps.closePlan(PlanSpawn)
		s.genUses(p, ps, pl, primary)
	}
}

// analyze fills the plan scratch for player p: unit counts, deficits,
// distances to own units, the triangles about to be captured, and the
// cheapest march targets. It returns the cheapest target's cost (units
// missing × hops), or -1 when p can reach none.
func (s *State) analyze(p int, own0, own1 uint64) int32 {
	o := 1 - p
	pl := &s.scr().plan
	pl.ownP = own0
	if p == 1 {
		pl.ownP = own1
	}
	var have uint64
	total := int32(0)
	for h := 0; h < s.n; h++ {
		pl.own[h], pl.en[h] = s.units[p][h], s.units[o][h]
		if pl.own[h] > 0 {
			have |= 1 << h
			total += pl.own[h]
		}
	}
	s.setDeficits(pl)
	s.multiDist(have, &pl.near)

	// Rank the triangles p may capture by the units and hops missing.
	pl.keep, pl.ntargets = 0, 0
	var bestCost [maxTargets]int32
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		if int(t.owner) == p || !t.canCap[p] {
			continue
		}
		cost, need := int32(0), int32(0)
		feasible := true
		for _, c := range t.c {
			if d := pl.def[c]; d > 0 {
				if pl.near[c] == unreachable {
					feasible = false
				}
				cost += d * int32(max(1, pl.near[c]))
				need += d
			}
		}
		if !feasible || need > total {
			continue
		}
		if cost == 0 {
			pl.keep |= t.mask // captured at the end of the turn if held
			continue
		}
		cost = cost*2 + b2i(int(t.owner) != o) // enemy triangles first on ties
		// insert into the sorted top list
		k := pl.ntargets
		if k == maxTargets {
			if cost >= bestCost[k-1] {
				continue
			}
			k--
		} else {
			pl.ntargets++
		}
		for k > 0 && bestCost[k-1] > cost {
			bestCost[k], pl.targets[k] = bestCost[k-1], pl.targets[k-1]
			k--
		}
		bestCost[k], pl.targets[k] = cost, int16(i)
	}
	if pl.ntargets == 0 {
		return -1
	}
	return bestCost[0] / 2
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// setDeficits computes, from pl.own and pl.en, how many more units p needs
// on each house for a majority (houses p owns already need none).
func (s *State) setDeficits(pl *planScratch) {
	for h := 0; h < s.n; h++ {
		if pl.ownP&(1<<h) != 0 && pl.own[h] >= pl.en[h] {
			pl.def[h] = 0
		} else {
			pl.def[h] = max(1, pl.en[h]+1-pl.own[h])
		}
	}
}

// appendMarch appends MOVEs that bring the missing units to each corner of
// triangle ti, from the nearest houses with spare units (ties: lower id).
// Units needed to keep a majority on the target's corners, or on the
// corners of a triangle about to be captured, stay.
func (s *State) appendMarch(cmds []Command, pl *planScratch, ti int) []Command {
	t := &s.tris[ti]
	protect := pl.keep | t.mask
	var sources uint64
	for h := 0; h < s.n; h++ {
		keep := int32(0)
		if protect&(1<<h) != 0 {
			keep = min(pl.own[h], pl.en[h]+1)
		}
		pl.spare[h] = pl.own[h] - keep
		if pl.spare[h] > 0 {
			sources |= 1 << h
		}
	}
	for _, c := range t.c {
		need := pl.def[c]
		if need <= 0 {
			continue
		}
		d := s.distFrom(int(c))
		n := 0
		for f := sources &^ (1 << c); f != 0; f &= f - 1 {
			h := bits.TrailingZeros64(f)
			if d[h] == unreachable {
				continue
			}
			key := uint16(d[h])<<8 | uint16(h)
			k := n
			for k > 0 && pl.order[k-1] > key {
				pl.order[k] = pl.order[k-1]
				k--
			}
			pl.order[k] = key
			n++
		}
		for _, key := range pl.order[:n] {
			if need == 0 {
				break
			}
			h := int(key & 0xff)
			take := min(pl.spare[h], need)
			if take <= 0 {
				continue
			}
			pl.spare[h] -= take
			need -= take
			cmds = append(cmds, Command{Kind: CmdMove, H: [3]int32{int32(h), int32(c)}, Amount: take})
		}
	}
	return cmds
}

// appendSpawns spawns one unit from every triangle p may use (or, with
// one, only from the triangle nearest to the primary target, ties: first
// in list order), on the corner nearest to the primary target (ties: lower
// id).
func (s *State) appendSpawns(cmds []Command, p int, pl *planScratch, primary int, one bool) []Command {
	bestTri, bestDist := -1, 0
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		if int(t.owner) != p {
			continue
		}
		best := 0
		if primary >= 0 {
			for k := 1; k < 3; k++ {
				if pl.toTarget[t.c[k]] < pl.toTarget[t.c[best]] {
					best = k
				}
			}
		}
		if one {
			d := 0
			if primary >= 0 {
				d = int(pl.toTarget[t.c[best]])
			}
			if bestTri < 0 || d < bestDist {
				bestTri, bestDist = i, d
			}
			continue
		}
		cmds = append(cmds, Command{Kind: CmdSpawn, H: cornersFrom(t, best)})
	}
	if one && bestTri >= 0 {
		t := &s.tris[bestTri]
		best := 0
		if primary >= 0 {
			for k := 1; k < 3; k++ {
				if pl.toTarget[t.c[k]] < pl.toTarget[t.c[best]] {
					best = k
				}
			}
		}
		cmds = append(cmds, Command{Kind: CmdSpawn, H: cornersFrom(t, best)})
	}
	return cmds
}

// cornersFrom lists t's corners starting with corner k, the others ascending.
func cornersFrom(t *triangle, k int) [3]int32 {
	h := [3]int32{int32(t.c[k])}
	j := 1
	for i := 0; i < 3; i++ {
		if i != k {
			h[j] = int32(t.c[i])
			j++
		}
	}
	return h
}

type usePlan struct {
	value  int32
	kind   PlanKind
	tri    int16
	corner int8
	target int8
}

// better orders candidate uses: higher value, then earlier triangle,
// corner and target.
func (u usePlan) better(v usePlan) bool {
	if u.value != v.value {
		return u.value > v.value
	}
	if u.tri != v.tri {
		return u.tri < v.tri
	}
	if u.corner != v.corner {
		return u.corner < v.corner
	}
	return u.target < v.target
}

// genUses adds the attack, cut and link plans: the best uses of one
// triangle p owns, each followed by the march to the primary target.
func (s *State) genUses(p int, ps *planSet, pl *planScratch, primary int) {
	o := 1 - p
	var atk, cut [2]usePlan
	var link usePlan
	keepTop := func(top *[2]usePlan, u usePlan) {
		if top[0].value == 0 || u.better(top[0]) {
			top[1], top[0] = top[0], u
		} else if top[1].value == 0 || u.better(top[1]) {
			top[1] = u
		}
	}
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		if int(t.owner) != p || pl.own[t.c[0]] < 1 || pl.own[t.c[1]] < 1 || pl.own[t.c[2]] < 1 {
			continue
		}
		// ATTACK: kill the most enemy units next to the triangle.
		for hs := s.triNeighbors(t); hs != 0; hs &= hs - 1 {
			h := bits.TrailingZeros64(hs)
			if pl.en[h] > 0 {
				keepTop(&atk, usePlan{value: pl.en[h], kind: PlanAttack, tri: int16(i), target: int8(h)})
			}
		}
		for k, c := range t.c {
			// REMOVE_PATH: cut a side of enemy triangles (not of our own).
			for ts := s.adj[c] &^ t.mask; ts != 0; ts &= ts - 1 {
				x := bits.TrailingZeros64(ts)
				both := uint64(1)<<c | 1<<x
				v := int32(0)
				for j := 0; j < s.ntri; j++ {
					if u := &s.tris[j]; u.mask&both == both {
						switch int(u.owner) {
						case o:
							v++
						case p:
							v--
						}
					}
				}
				if v > 0 {
					keepTop(&cut, usePlan{value: v, kind: PlanCut, tri: int16(i), corner: int8(k), target: int8(x)})
				}
			}
			// ADD_PATH: close at least two triangles whose corners p owns.
			for ts := s.m.near[c] &^ s.adj[c]; ts != 0; ts &= ts - 1 {
				x := bits.TrailingZeros64(ts)
				common := s.adj[c] & s.adj[x] &^ (1<<c | 1<<x)
				if common == 0 || pl.ownP&(1<<x) == 0 || pl.ownP&(1<<c) == 0 {
					continue
				}
				v := int32(0)
				for ws := common & pl.ownP; ws != 0; ws &= ws - 1 {
					w := bits.TrailingZeros64(ws)
					a, b, d := sort3(int(c), x, w)
					if emptyTriangle(a, b, d, s.n, &s.m.X, &s.m.Y) {
						v++
					}
				}
				if v >= 2 && (link.value == 0 || (usePlan{value: v, tri: int16(i), corner: int8(k), target: int8(x)}).better(link)) &&
					s.m.canConnect(int(c), x, &s.adj) {
					link = usePlan{value: v, kind: PlanLink, tri: int16(i), corner: int8(k), target: int8(x)}
				}
			}
		}
	}
	for _, u := range [...]usePlan{atk[0], atk[1], cut[0], cut[1], link} {
		if u.value == 0 {
			continue
		}
		t := &s.tris[u.tri]
		cmd := Command{H: cornersFrom(t, int(u.corner)), Target: int32(u.target)}
		switch u.kind {
		case PlanAttack:
			cmd.Kind = CmdAttack
		case PlanCut:
			cmd.Kind = CmdRemovePath
		default:
			cmd.Kind = CmdAddPath
		}
		ps.cmds = append(ps.cmds, cmd)
		if primary >= 0 {
			// March with what is left after paying one unit per corner
			// (and, for an attack, without the killed enemy units).
			saved := [3]int32{pl.own[t.c[0]], pl.own[t.c[1]], pl.own[t.c[2]]}
			savedEn := pl.en[u.target]
			for _, c := range t.c {
				pl.own[c]--
			}
			if u.kind == PlanAttack {
				pl.en[u.target] = 0
			}
			s.setDeficits(pl)
			ps.cmds = s.appendMarch(ps.cmds, pl, primary)
			for k, c := range t.c {
				pl.own[c] = saved[k]
			}
			pl.en[u.target] = savedEn
			s.setDeficits(pl)
		}
		ps.closePlan(u.kind)
	}
}

func sort3(a, b, c int) (int, int, int) {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b, c = c, b
	}
	if a > b {
		a, b = b, a
	}
	return a, b, c
}

func pick(c bool, yes, no PlanKind) PlanKind {
	if c {
		return yes
	}
	return no
}
