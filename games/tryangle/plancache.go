package tryangle

// The plan cache. A state keeps one current plan list per player, which is
// all a game needs: each turn is a new position. Search is different: it
// walks the same positions again and again (every DUCT iteration replays
// the joint moves from the root, and alpha-beta returns to a node after
// each child), and PlayJoint needs the plan list of the position it plays
// from. Regenerating it was 83 % of a 50-ms DUCT search's time and 38 % of
// alpha-beta's (pprof on mid-game positions), so a state that sees a
// position's plans asked for again keeps the plan lists of the positions it
// visits, by hash, in a fixed ring of commands.
//
// The cache switches itself on: until a player's plans are generated twice
// for one position (which a game played forward never does), it is a small
// table of recent keys; then it allocates its ring once (about 1.7 MB) and
// from then on allocates nothing. A hit copies the list into the current
// plan list, so callers see exactly what generation gives.

const (
	cacheSlotBits = 11      // 2048 plan lists
	cacheRing     = 1 << 16 // commands kept (a list is 36 on average in random games)
	cacheSeen     = 64      // keys remembered while the cache is off
)

// cacheSlot locates one player's plan list of one position in the ring.
type cacheSlot struct {
	hash  uint64
	at    uint64 // absolute ring position of the first command
	ply   int32
	p     int8
	used  bool
	n     uint8
	start [maxPlans + 1]int32 // as planSet.start (start[0] is 0)
	kind  [maxPlans]PlanKind
}

// planCache maps (position hash, ply, player) to a plan list. Slots are
// direct-mapped; the ring is written in order, so a slot's commands are
// intact while fewer than len(ring) commands have been written after them.
type planCache struct {
	seen  [cacheSeen]uint64
	slots []cacheSlot // nil while off
	ring  []Command
	pos   uint64 // absolute write position

	ringSize int // cacheRing; smaller in tests to force wrap-around
}

func cacheKey(hash uint64, p int) uint64 { return hash ^ uint64(p+1)*0x9e3779b97f4a7c15 }

func (c *planCache) slot(key uint64) *cacheSlot {
	return &c.slots[key>>(64-cacheSlotBits)]
}

// load fills ps with p's cached plan list of the position (hash, ply) and
// reports whether there was one.
func (c *planCache) load(ps *planSet, p int, hash uint64, ply int) bool {
	if c.slots == nil {
		return false
	}
	sl := c.slot(cacheKey(hash, p))
	if !sl.used || sl.hash != hash || sl.ply != int32(ply) || int(sl.p) != p ||
		c.pos > sl.at+uint64(len(c.ring)) {
		return false
	}
	n := int(sl.n)
	off := int(sl.at % uint64(len(c.ring)))
	ps.cmds = append(ps.cmds[:0], c.ring[off:off+int(sl.start[n])]...)
	ps.n = n
	ps.start = sl.start
	ps.kind = sl.kind
	return true
}

// store keeps p's freshly generated plan list ps of the position (hash,
// ply). While the cache is off it only notes the key, and switches the
// cache on when the key was noted before.
func (c *planCache) store(ps *planSet, p int, hash uint64, ply int) {
	key := cacheKey(hash, p)
	if c.slots == nil {
		i := key % cacheSeen
		if c.seen[i] != key {
			c.seen[i] = key
			return
		}
		size := c.ringSize
		if size == 0 {
			size = cacheRing
		}
		c.slots = make([]cacheSlot, 1<<cacheSlotBits)
		c.ring = make([]Command, size)
	}
	size := uint64(len(c.ring))
	m := uint64(len(ps.cmds))
	if m > size/4 {
		return // an outsize list: not worth evicting many others for
	}
	if off := c.pos % size; off+m > size {
		c.pos += size - off // a list is contiguous in the ring
	}
	copy(c.ring[c.pos%size:], ps.cmds)
	sl := c.slot(key)
	*sl = cacheSlot{hash: hash, at: c.pos, ply: int32(ply), p: int8(p), used: true, n: uint8(ps.n), start: ps.start, kind: ps.kind}
	c.pos += m
}
