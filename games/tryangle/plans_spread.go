package tryangle

import "math/bits"

// Spread plans (see the package doc, "Plans"): instead of marching stacks
// towards one target, every unit on its own either stays or steps to a
// neighbouring house, chosen so that after the moves p holds a majority on
// as many corners of capturable triangles as possible. Strong bots play
// this way: one unit per house is enough on empty ground, so spreading
// captures many triangles a turn, and spawning from all of them grows the
// army every turn.

const (
	// maxSpreadUnits bounds the units placed one by one (the first ones in
	// house order); any others stay where they are.
	maxSpreadUnits = 64
	// spreadPasses bounds the improvement passes over the units.
	spreadPasses = 3
	// maxSpreadTris: triangle list indices below this are scored (a
	// decision point has at most 2·64−4 live triangles, all compacted).
	maxSpreadTris = 128
)

// The spread objective, in arbitrary units: a capturable triangle is worth
// spreadCover[k] with k of its corners held after the moves (twice that
// when the opponent owns it, a capture being a swing of two); an own
// triangle with a held corner is defended; a used triangle (not
// capturable) with no unit of p on its corners becomes eligible again; each
// hop between a unit and the nearest corner still to take costs
// spreadStep, and each unit beyond what holds its house costs spreadCrowd
// (so that units fan out instead of walking as one stack).
var spreadCover = [4]int32{0, 4, 10, 48}

const (
	spreadDefend = 6
	spreadElig   = 3
	spreadStep   = 1
	spreadCrowd  = 1 // a unit beyond what holds its house
)

// spreadScratch is the working memory of the spread plans.
type spreadScratch struct {
	src, dst [maxSpreadUnits]uint8
	nu       int
	cnt      [MaxHouses]int32     // p's units on each house after the moves
	need     [MaxHouses]int32     // units p needs on a house to hold it
	tris     [MaxHouses][2]uint64 // triangles (list index) with a corner there
	toward   [MaxHouses]uint8     // hops to the nearest corner p still has to take
	ntri     int
	own, en  [MaxHouses]int32     // unit counts after an attack
	val      [maxSpreadTris]int32 // each triangle's objective value now
	kind     [maxSpreadTris]uint8 // what the triangle is to p (triOwn…), fixed for a plan
	held     [maxSpreadTris]int8  // its corners p holds (cnt ≥ need)
	present  [maxSpreadTris]int8  // its corners with a unit of p
}

// A triangle's kind for the spread objective (spreadValue): kept per plan so
// that the hot loop of spreadGain reads small arrays, not the triangles.
const (
	triOther    uint8 = iota // neither p's nor capturable by p
	triOwn                   // p's
	triCap                   // capturable, nobody's
	triCapEnemy              // capturable, the opponent's
)

// spreadOpts selects a spread plan's variant.
type spreadOpts struct {
	safe   bool // hold a house only against the enemy units next to it too
	attack bool // first attack with the best triangle (ATTACK plan)
}

// appendSpread appends the commands of one spread plan for player p (an
// ATTACK first with o.attack, then the MOVEs) and returns them with the
// triangle the attack used (-1: none). own and en are p's and the
// opponent's units. With o.attack and no attack to make it appends nothing.
func (s *State) appendSpread(cmds []Command, p int, own, en *[MaxHouses]int32, o spreadOpts) ([]Command, int) {
	sp := &s.scr().plan.spread
	skip := -1 // the triangle used by the attack
	if o.attack {
		tri, target := s.bestAttack(p, own, en)
		if tri < 0 {
			return cmds, -1
		}
		t := &s.tris[tri]
		cmds = append(cmds, Command{Kind: CmdAttack, H: cornersFrom(t, 0), Target: int32(target)})
		sp.own, sp.en = *own, *en
		for _, c := range t.c {
			sp.own[c]--
		}
		sp.en[target] = 0
		own, en, skip = &sp.own, &sp.en, tri
	}
	s.spreadAssign(p, own, en, o.safe)
	// MOVE commands, one per (from, to) pair.
	for i := 0; i < sp.nu; {
		j := i
		for j < sp.nu && sp.src[j] == sp.src[i] {
			j++
		}
		// units of one house: group by destination, in id order
		var dests uint64
		for k := i; k < j; k++ {
			if sp.dst[k] != sp.src[k] {
				dests |= 1 << sp.dst[k]
			}
		}
		for d := dests; d != 0; d &= d - 1 {
			b := bits.TrailingZeros64(d)
			n := int32(0)
			for k := i; k < j; k++ {
				if int(sp.dst[k]) == b {
					n++
				}
			}
			cmds = append(cmds, Command{Kind: CmdMove, H: [3]int32{int32(sp.src[i]), int32(b)}, Amount: n})
		}
		i = j
	}
	return cmds, skip
}

// spreadAssign chooses each unit's house for a spread of player p (see
// appendSpread), leaving the result in the spread scratch: src/dst per
// unit and cnt per house.
func (s *State) spreadAssign(p int, own, en *[MaxHouses]int32, safe bool) {
	sp := &s.scr().plan.spread
	sp.ntri = min(s.ntri, maxSpreadTris)
	for h := 0; h < s.n; h++ {
		sp.tris[h] = [2]uint64{}
		sp.cnt[h] = own[h]
		sp.need[h] = en[h] + 1
		if safe {
			threat := int32(0)
			for a := s.adj[h] &^ (1 << h); a != 0; a &= a - 1 {
				threat = max(threat, en[bits.TrailingZeros64(a)])
			}
			sp.need[h] += threat
		}
	}
	var frontier uint64
	for i := 0; i < sp.ntri; i++ {
		t := &s.tris[i]
		for _, c := range t.c {
			sp.tris[c][i>>6] |= 1 << (i & 63)
			if int(t.owner) != p && t.canCap[p] && own[c] < sp.need[c] {
				frontier |= 1 << c
			}
		}
	}
	if frontier != 0 {
		s.multiDist(frontier, &sp.toward)
	} else {
		sp.toward = [MaxHouses]uint8{}
	}
	for i := 0; i < sp.ntri; i++ {
		t := &s.tris[i]
		switch {
		case int(t.owner) == p:
			sp.kind[i] = triOwn
		case t.canCap[p] && int(t.owner) == 1-p:
			sp.kind[i] = triCapEnemy
		case t.canCap[p]:
			sp.kind[i] = triCap
		default:
			sp.kind[i] = triOther
		}
		sp.held[i], sp.present[i] = 0, 0
		for _, c := range t.c {
			if sp.cnt[c] >= sp.need[c] {
				sp.held[i]++
			}
			if sp.cnt[c] > 0 {
				sp.present[i]++
			}
		}
		sp.val[i] = spreadValue(sp.kind[i], sp.held[i], sp.present[i])
	}
	// The units, one slot each, all staying at first.
	sp.nu = 0
	for h := 0; h < s.n && sp.nu < maxSpreadUnits; h++ {
		for k := int32(0); k < own[h] && sp.nu < maxSpreadUnits; k++ {
			sp.src[sp.nu], sp.dst[sp.nu] = uint8(h), uint8(h)
			sp.nu++
		}
	}
	for pass := 0; pass < spreadPasses; pass++ {
		changed := false
		stuck := -1 // a unit that found no better house; its twins need no try
		for i := 0; i < sp.nu; i++ {
			a := int(sp.dst[i])
			from := int(sp.src[i])
			if stuck >= 0 && sp.src[stuck] == sp.src[i] && sp.dst[stuck] == sp.dst[i] {
				continue
			}
			best, bestGain := a, int32(0)
			for opts := s.adj[from] | 1<<from; opts != 0; opts &= opts - 1 {
				b := bits.TrailingZeros64(opts)
				if b == a {
					continue
				}
				if g := s.spreadGain(p, sp, a, b); g > bestGain {
					best, bestGain = b, g
				}
			}
			if best == a {
				stuck = i
				continue
			}
			stuck = -1
			s.spreadMove(p, sp, a, best)
			sp.dst[i] = uint8(best)
			changed = true
		}
		if !changed {
			break
		}
	}
}

// appendSpreadSpawns appends a SPAWN from every triangle p owns (but skip),
// each on the corner where the new unit adds most to the spread objective,
// after the moves appendSpread chose.
func (s *State) appendSpreadSpawns(cmds []Command, p, skip int) []Command {
	sp := &s.scr().plan.spread
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		if int(t.owner) != p || t.dead || i == skip {
			continue
		}
		best, bestGain := 0, int32(-1<<30)
		for k, c := range t.c {
			if g := s.spreadGain(p, sp, -1, int(c)); g > bestGain {
				best, bestGain = k, g
			}
		}
		s.spreadMove(p, sp, -1, int(t.c[best]))
		cmds = append(cmds, Command{Kind: CmdSpawn, H: cornersFrom(t, best)})
	}
	return cmds
}

// spreadGain is the objective's change when one unit of p leaves house a
// (a < 0: none leaves, a unit is added) for house b.
func (s *State) spreadGain(p int, sp *spreadScratch, a, b int) int32 {
	// Only a house whose hold or presence flips changes a triangle's value.
	var set [2]uint64
	gain := int32(0)
	if sp.cnt[b]+1 == sp.need[b] || sp.cnt[b] == 0 {
		set = sp.tris[b]
	}
	if sp.cnt[b] >= sp.need[b] {
		gain -= spreadCrowd
	}
	if a >= 0 {
		if sp.cnt[a] == sp.need[a] || sp.cnt[a] == 1 {
			set[0] |= sp.tris[a][0]
			set[1] |= sp.tris[a][1]
		}
		if sp.cnt[a] > sp.need[a] {
			gain += spreadCrowd
		}
		gain += spreadStep * (int32(sp.toward[a]) - int32(sp.toward[b]))
	}
	if set[0]|set[1] == 0 {
		return gain
	}
	// The flips at a and b, as changes of held and present corners.
	dhB, dpB := b2i8(sp.cnt[b]+1 == sp.need[b]), b2i8(sp.cnt[b] == 0)
	var dhA, dpA int8
	var atA [2]uint64
	if a >= 0 {
		dhA, dpA = -b2i8(sp.cnt[a] == sp.need[a]), -b2i8(sp.cnt[a] == 1)
		atA = sp.tris[a]
	}
	atB := sp.tris[b]
	before, after := int32(0), int32(0)
	for w := 0; w < 2; w++ {
		for m := set[w]; m != 0; m &= m - 1 {
			j := bits.TrailingZeros64(m)
			i := w<<6 | j
			before += sp.val[i]
			h, pr := sp.held[i], sp.present[i]
			if atB[w]>>j&1 != 0 {
				h, pr = h+dhB, pr+dpB
			}
			if atA[w]>>j&1 != 0 {
				h, pr = h+dhA, pr+dpA
			}
			after += spreadValue(sp.kind[i], h, pr)
		}
	}
	return gain + after - before
}

// spreadMove moves one unit of the plan from a (a < 0: a new unit) to b and
// updates the values of the triangles at both.
func (s *State) spreadMove(p int, sp *spreadScratch, a, b int) {
	set := sp.tris[b]
	if a >= 0 {
		s.spreadCount(sp, a, -1)
		set[0] |= sp.tris[a][0]
		set[1] |= sp.tris[a][1]
	}
	s.spreadCount(sp, b, +1)
	for w := 0; w < 2; w++ {
		for m := set[w]; m != 0; m &= m - 1 {
			i := w<<6 | bits.TrailingZeros64(m)
			sp.val[i] = spreadValue(sp.kind[i], sp.held[i], sp.present[i])
		}
	}
}

// spreadCount adds d (±1) units of p to house h in the plan and updates the
// held and present corners of the triangles at h.
func (s *State) spreadCount(sp *spreadScratch, h int, d int32) {
	wasHeld, wasPresent := sp.cnt[h] >= sp.need[h], sp.cnt[h] > 0
	sp.cnt[h] += d
	dh := b2i8(sp.cnt[h] >= sp.need[h]) - b2i8(wasHeld)
	dp := b2i8(sp.cnt[h] > 0) - b2i8(wasPresent)
	if dh == 0 && dp == 0 {
		return
	}
	for w := 0; w < 2; w++ {
		for m := sp.tris[h][w]; m != 0; m &= m - 1 {
			i := w<<6 | bits.TrailingZeros64(m)
			sp.held[i] += dh
			sp.present[i] += dp
		}
	}
}

func b2i8(b bool) int8 {
	if b {
		return 1
	}
	return 0
}

// spreadValue is a triangle's value in the spread objective, from its kind
// and how many of its corners p holds and has a unit on.
func spreadValue(kind uint8, held, present int8) int32 {
	switch kind {
	case triOwn:
		if held > 0 {
			return spreadDefend
		}
	case triCap:
		return spreadCover[held]
	case triCapEnemy:
		return 2 * spreadCover[held]
	default:
		if present == 0 {
			return spreadElig
		}
	}
	return 0
}

// bestAttack returns the triangle p owns (with a unit on each corner to pay)
// and the house next to it with the most enemy units, at least two (ties:
// first triangle, lowest house), or -1, -1.
func (s *State) bestAttack(p int, own, en *[MaxHouses]int32) (tri, target int) {
	tri, target = -1, -1
	most := int32(1)
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		if int(t.owner) != p || t.dead || own[t.c[0]] < 1 || own[t.c[1]] < 1 || own[t.c[2]] < 1 {
			continue
		}
		for hs := s.triNeighbors(t) &^ t.mask; hs != 0; hs &= hs - 1 {
			h := bits.TrailingZeros64(hs)
			if en[h] > most {
				tri, target, most = i, h, en[h]
			}
		}
	}
	return tri, target
}
