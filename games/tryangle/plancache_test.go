package tryangle

import (
	"slices"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// samePlans reports whether two plan lists are the same plans.
func samePlans(a, b *planSet) bool {
	return a.n == b.n && slices.Equal(a.start[:a.n+1], b.start[:b.n+1]) &&
		slices.Equal(a.kind[:a.n], b.kind[:b.n]) &&
		slices.Equal(a.cmds[:a.start[a.n]], b.cmds[:b.start[b.n]])
}

// The cache gives exactly the plans that generation gives. A search-like
// walk (random descents of up to 4 turns from positions along random
// games, undone again, so that positions recur) on several maps, with a
// ring small enough to wrap many times and evict lists: every plan list
// LegalMovesFor and PlayJoint use equals a fresh generation, lists are
// served from the cache, and the ring's overwritten lists are not.
func TestPlanCacheGivesGeneratedPlans(t *testing.T) {
	for _, seed := range []int64{1, 2, 3, 7, 12, 40} {
		s := New(Generate(seed))
		s.scr().cache.ringSize = 2048
		r := rng.New(uint64(seed))
		var fresh planSet
		var b0, b1 []games.Move
		hits, checks := 0, 0
		check := func() {
			for p := 0; p < 2; p++ {
				var probe planSet
				if s.scr().cache.load(&probe, p, s.hash, s.ply) {
					hits++
				}
				ps := s.plansFor(p)
				s.genPlans(p, &fresh)
				if !samePlans(ps, &fresh) {
					t.Fatalf("seed %d turn %d player %d: cached plans differ from generated ones", seed, s.Turn(), p)
				}
				checks++
			}
		}
		for !s.Terminal() {
			for range 8 {
				d := 0
				for ; d < 4 && !s.Terminal(); d++ {
					check()
					b0 = s.LegalMovesFor(0, b0[:0])
					b1 = s.LegalMovesFor(1, b1[:0])
					s.PlayJoint(b0[r.IntN(len(b0))], b1[r.IntN(len(b1))])
				}
				for ; d > 0; d-- {
					s.Undo()
				}
			}
			check()
			b0 = s.LegalMovesFor(0, b0[:0])
			b1 = s.LegalMovesFor(1, b1[:0])
			s.PlayJoint(b0[r.IntN(len(b0))], b1[r.IntN(len(b1))])
		}
		c := &s.scr().cache
		if c.slots == nil || hits < checks/8 || c.pos < 4*uint64(len(c.ring)) {
			t.Fatalf("seed %d: %d of %d lists from the cache, %d commands written to a ring of %d: the walk did not exercise it",
				seed, hits, checks, c.pos, len(c.ring))
		}
	}
}

// A game played forward never asks twice for a position's plans, so the
// cache stays off (and allocates nothing); back at the last position, the
// second request switches it on, and the third comes from it.
func TestPlanCacheSwitchesOnWhenPositionsRecur(t *testing.T) {
	s := New(Generate(5))
	r := rng.New(5)
	var b0, b1 []games.Move
	for !s.Terminal() {
		b0 = s.LegalMovesFor(0, b0[:0])
		b1 = s.LegalMovesFor(1, b1[:0])
		s.PlayJoint(b0[r.IntN(len(b0))], b1[r.IntN(len(b1))])
	}
	c := &s.scr().cache
	if c.slots != nil {
		t.Fatal("a game played forward switched the plan cache on")
	}
	s.Undo() // the last position, whose plans were asked for once
	for i, want := range []bool{false, true} {
		s.scr().plans[0].valid = false // as if another position's plans had been asked for
		var probe planSet
		hit := c.load(&probe, 0, s.hash, s.ply)
		s.plansFor(0)
		if hit != want || c.slots == nil {
			t.Fatalf("request %d: from the cache %v, want %v; cache on %v", i+2, hit, want, c.slots != nil)
		}
	}
}

// Once on, the cache allocates nothing: storing and loading lists while
// positions come and go.
func TestPlanCacheDoesNotAllocate(t *testing.T) {
	s := New(Generate(3))
	r := rng.New(3)
	var b0, b1 []games.Move
	walk := func() {
		n := 0
		for ; n < 6 && !s.Terminal(); n++ {
			b0 = s.LegalMovesFor(0, b0[:0])
			b1 = s.LegalMovesFor(1, b1[:0])
			s.PlayJoint(b0[r.IntN(len(b0))], b1[r.IntN(len(b1))])
		}
		for ; n > 0; n-- {
			s.Undo()
		}
	}
	b0 = make([]games.Move, 0, games.MaxMoves)
	b1 = make([]games.Move, 0, games.MaxMoves)
	for range 50 {
		walk()
	}
	if s.scr().cache.slots == nil {
		t.Fatal("the walk did not switch the cache on")
	}
	if a := testing.AllocsPerRun(50, walk); a != 0 {
		t.Fatalf("%.1f allocations per walk", a)
	}
}

// CopyFrom gives the same position as Clone (hash, text, plans, the game
// that follows and its history back to the start), keeps the copy's plan
// cache on the same map and drops it on another.
func TestCopyFromIsClone(t *testing.T) {
	m := Generate(8)
	a, b := New(m), New(m)
	r := rng.New(8)
	var b0, b1 []games.Move
	play := func(s *State, turns int) {
		for range turns {
			if s.Terminal() {
				return
			}
			b0 = s.LegalMovesFor(0, b0[:0])
			b1 = s.LegalMovesFor(1, b1[:0])
			s.PlayJoint(b0[r.IntN(len(b0))], b1[r.IntN(len(b1))])
		}
	}
	play(a, 12)
	for range 3 { // b revisits positions: its cache is on
		play(b, 5)
		for b.Ply() > 0 {
			b.Undo()
		}
	}
	c := b.scr()
	if c.cache.slots == nil {
		t.Fatal("b's cache is off")
	}
	if !b.CopyFrom(a) || b.sc != c {
		t.Fatal("CopyFrom on the same map dropped the scratch")
	}
	want := a.clone()
	for k := 0; !want.Terminal() && k < 20; k++ {
		if b.Hash() != want.Hash() || b.ComputeHash() != want.Hash() || b.String() != want.String() {
			t.Fatalf("turn %d: the copy differs from the clone", want.Turn())
		}
		for p := 0; p < 2; p++ {
			if !samePlans(b.plansFor(p), want.plansFor(p)) {
				t.Fatalf("turn %d: player %d's plans differ", want.Turn(), p)
			}
		}
		m0 := want.LegalMovesFor(0, nil)
		m1 := want.LegalMovesFor(1, nil)
		i, j := r.IntN(len(m0)), r.IntN(len(m1))
		want.PlayJoint(m0[i], m1[j])
		b.PlayJoint(m0[i], m1[j])
	}
	for want.Ply() > 0 {
		want.Undo()
		b.Undo()
		if b.Hash() != want.Hash() || b.String() != want.String() {
			t.Fatalf("after undoing to turn %d: the copy differs from the clone", want.Turn())
		}
	}
	other := New(Generate(9))
	if !b.CopyFrom(other) || b.sc != nil || b.Hash() != other.Hash() {
		t.Fatal("CopyFrom from another map kept the scratch, or copied wrong")
	}
}
