package alphabeta

import (
	"sync/atomic"

	"github.com/boardgame-arena/arena/games"
)

// Bound says how a stored score relates to the true value of a position.
type Bound uint8

// Bound kinds. A search that fails low stores an upper bound, one that fails
// high a lower bound, and one inside its window the exact value.
const (
	BoundNone Bound = iota
	BoundUpper
	BoundLower
	BoundExact
)

func (b Bound) String() string {
	switch b {
	case BoundUpper:
		return "upper"
	case BoundLower:
		return "lower"
	case BoundExact:
		return "exact"
	}
	return "none"
}

// Layout of an entry's data word (64 bits):
//
//	bits  0–23  best move (noMove when none or when the move does not fit)
//	bits 24–49  score + scoreBias (26 bits)
//	bits 50–56  depth (0–127; 127 also marks results of exact searches)
//	bits 57–58  bound
//	bits 59–63  generation (search number mod 32), for replacement
const (
	moveBits   = 24
	noMove     = 1<<moveBits - 1
	scoreShift = 24
	scoreBits  = 26
	scoreBias  = 1 << (scoreBits - 1)
	depthShift = 50
	maxTTDepth = 127
	boundShift = 57
	genShift   = 59
	genMask    = 31
)

// MaxStoredScore bounds the magnitude of scores the table can hold.
const MaxStoredScore = scoreBias - 1

// entry is one slot. The key word holds hash XOR data, so a reader that sees
// a key word and a data word from two different writes gets a mismatch and
// treats the slot as empty: lockless sharing between Lazy SMP threads.
type entry struct {
	key  atomic.Uint64
	data atomic.Uint64
}

// bucket holds a depth-preferred slot and an always-replace slot; 32 bytes,
// two buckets per cache line.
type bucket [2]entry

// TT is a transposition table keyed by the game's Zobrist hash. It is safe
// for concurrent use by the threads of one search.
type TT struct {
	buckets []bucket
	mask    uint64
	gen     uint64
	used    bool // a search ran since the table was made or cleared
}

// NewTT returns a table of at most mb megabytes (at least one bucket).
func NewTT(mb int) *TT {
	n := uint64(1)
	for n*2*32 <= uint64(mb)<<20 {
		n *= 2
	}
	return &TT{buckets: make([]bucket, n), mask: n - 1}
}

// Len returns the number of slots.
func (t *TT) Len() int { return 2 * len(t.buckets) }

// Clear empties the table. It must not run during a search: it zeroes the
// memory plainly (one atomic store per word made clearing the default 64 MB
// table take about 40 ms, at every agent's NewGame). A table no search has
// used since it was made or cleared is left alone: the first clear of a
// fresh table would fault in every page of it at once (30 ms for 64 MB),
// and an agent's first NewGame, timed by the arena like a move, once took
// 188 ms that way on a TryAngle game's 50 ms + 100 ms start.
func (t *TT) Clear() {
	t.gen = 0 // as new, so that a cleared table replaces entries as a fresh one does
	if t.used {
		clear(t.buckets)
		t.used = false
	}
}

// NewSearch advances the generation, so entries of earlier searches are
// replaced first. Every search calls it before it stores anything.
func (t *TT) NewSearch() {
	t.gen = (t.gen + 1) & genMask
	t.used = true
}

// ttHit is a decoded entry.
type ttHit struct {
	move  games.Move
	score int
	depth int
	bound Bound
}

func pack(m games.Move, score, depth int, b Bound, gen uint64) uint64 {
	if m >= noMove {
		m = noMove
	}
	if depth > maxTTDepth {
		depth = maxTTDepth
	}
	if depth < 0 {
		depth = 0
	}
	return uint64(m) | uint64(score+scoreBias)<<scoreShift | uint64(depth)<<depthShift |
		uint64(b)<<boundShift | gen<<genShift
}

func unpack(d uint64) ttHit {
	return ttHit{
		move:  games.Move(d & noMove),
		score: int(d>>scoreShift&(1<<scoreBits-1)) - scoreBias,
		depth: int(d >> depthShift & maxTTDepth),
		bound: Bound(d >> boundShift & 3),
	}
}

// probe looks hash up.
func (t *TT) probe(hash uint64) (ttHit, bool) {
	b := &t.buckets[hash&t.mask]
	for i := range b {
		d := b[i].data.Load()
		if b[i].key.Load()^d == hash && Bound(d>>boundShift&3) != BoundNone {
			return unpack(d), true
		}
	}
	return ttHit{}, false
}

// store records a search result. The first slot keeps the deepest (or
// newest-generation) result; whatever it displaces, or whatever is too
// shallow for it, goes to the second slot, which always takes it.
func (t *TT) store(hash uint64, m games.Move, score, depth int, b Bound) {
	bk := &t.buckets[hash&t.mask]
	old0 := bk[0].data.Load()
	same0 := bk[0].key.Load()^old0 == hash
	if m >= noMove || m == games.Move(noMove) {
		// Keep a best move we already know for this position.
		if same0 {
			m = games.Move(old0 & noMove)
		} else if d1 := bk[1].data.Load(); bk[1].key.Load()^d1 == hash {
			m = games.Move(d1 & noMove)
		}
	}
	d := pack(m, score, depth, b, t.gen)
	oldDepth := int(old0 >> depthShift & maxTTDepth)
	stale := old0>>genShift&genMask != t.gen
	if same0 || stale || depth >= oldDepth || Bound(old0>>boundShift&3) == BoundNone {
		if !same0 && Bound(old0>>boundShift&3) != BoundNone {
			// Demote the displaced entry to the always-replace slot.
			k := bk[0].key.Load()
			bk[1].key.Store(k)
			bk[1].data.Store(old0)
		}
		bk[0].key.Store(hash ^ d)
		bk[0].data.Store(d)
		return
	}
	bk[1].key.Store(hash ^ d)
	bk[1].data.Store(d)
}
