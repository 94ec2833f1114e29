package arena

import (
	"fmt"
	"slices"
	"testing"

	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

// sliceSchedule is the schedule as it was built before Schedule computed
// fixtures on demand: every fixture in a slice, a shard's filtered from
// the whole run's. TestScheduleOnDemand pins Schedule to it.
func sliceSchedule(kind string, agents, swept, gamesPerPair int, seed uint64, sh *results.Shard) []Fixture {
	pairs, err := pairings(kind, agents, swept)
	if err != nil {
		panic(err)
	}
	order := circleOrder(pairs, agents)
	var out []Fixture
	for r := 0; r < gamesPerPair/2; r++ {
		for _, k := range order {
			pr := pairs[k]
			for side := 0; side < 2; side++ {
				g := 2*r + side
				f := Fixture{Index: len(out), Pair: k, Round: r, Game: g, Seats: [2]int{pr[side], pr[1-side]}}
				f.Seed = rng.Derive(seed, streamGame, uint64(k), uint64(g))
				for seat := 0; seat < 2; seat++ {
					f.Agents[seat] = rng.Derive(seed, streamAgent, uint64(k), uint64(g), uint64(seat))
				}
				if kind == results.Sweep {
					sweepSeeds(&f, swept, seed)
				}
				out = append(out, f)
			}
		}
	}
	if sh == nil {
		return out
	}
	var kept []Fixture
	for _, f := range out {
		if sh.Holds(f.Index, len(pairs), gamesPerPair/2) {
			kept = append(kept, f)
		}
	}
	return kept
}

// The schedule computed on demand is the one the slice held: the same
// fixtures at the same positions, indices and seeds, for every kind,
// several agent counts, games per pairing, seeds and shards; and Pos
// finds every planned index and refuses the others.
func TestScheduleOnDemand(t *testing.T) {
	type plan struct {
		kind          string
		agents, swept int
	}
	plans := []plan{{results.Match, 2, 0}}
	for _, n := range []int{2, 3, 4, 5, 7, 8} {
		plans = append(plans, plan{results.RoundRobin, n, 0}, plan{results.Gauntlet, n, 0})
		for sw := 1; sw < n; sw++ {
			plans = append(plans, plan{results.Sweep, n, sw})
		}
	}
	cases := 0
	for _, p := range plans {
		for _, gpp := range []int{2, 4, 6, 10, 24} {
			for _, seed := range []uint64{0, 1, 0xdeadbeef} {
				shards := []*results.Shard{nil}
				if p.kind != results.Match {
					for _, n := range []int{2, 3, 4, 5, 6, 7, 12, 60} {
						for i := 1; i <= n; i++ {
							shards = append(shards, &results.Shard{Index: i, Count: n})
						}
					}
				}
				for _, sh := range shards {
					name := fmt.Sprintf("%s/%d agents/%d swept/%d per pair/seed %d/shard %v", p.kind, p.agents, p.swept, gpp, seed, sh)
					want := sliceSchedule(p.kind, p.agents, p.swept, gpp, seed, sh)
					s, err := newSchedule(p.kind, p.agents, p.swept, gpp, seed)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					s.Restrict(sh)
					checkSchedule(t, name, s, want)
					cases++
				}
			}
		}
	}
	t.Logf("%d schedules compared", cases)
}

func checkSchedule(t *testing.T, name string, s *Schedule, want []Fixture) {
	t.Helper()
	if s.Len() != len(want) {
		t.Fatalf("%s: Len %d, the slice had %d", name, s.Len(), len(want))
	}
	planned := map[int]bool{}
	for pos, f := range want {
		if got := s.At(pos); got != f {
			t.Fatalf("%s: At(%d) = %+v, the slice had %+v", name, pos, got, f)
		}
		if got, ok := s.Pos(f.Index); !ok || got != pos {
			t.Fatalf("%s: Pos(%d) = %d, %v; want %d", name, f.Index, got, ok, pos)
		}
		planned[f.Index] = true
	}
	for index := -1; index <= s.Total(); index++ {
		if _, ok := s.Pos(index); ok != planned[index] {
			t.Fatalf("%s: Pos(%d) says planned %v", name, index, ok)
		}
	}
	if !slices.Equal(slices.Collect(s.All()), want) {
		t.Fatalf("%s: All differs from the slice", name)
	}
}

// A schedule holds no fixture: its size does not depend on the games per
// pairing.
func TestScheduleSizeFlat(t *testing.T) {
	small, _ := NewSchedule(results.RoundRobin, 6, 2, 1)
	big, _ := NewSchedule(results.RoundRobin, 6, 2_000_000, 1)
	big.Restrict(&results.Shard{Index: 3, Count: 7})
	if big.Len() == 0 || len(big.order) != len(small.order) || len(big.shard.cum) != 8 {
		t.Errorf("a schedule of %d games keeps %d pairings and %d shard counts", big.Len(), len(big.order), len(big.shard.cum))
	}
}

func TestGameSet(t *testing.T) {
	s := NewGameSet(10)
	for _, i := range []int{3, 64, 3, 1000, 0} {
		s.Add(i)
	}
	if s.Len() != 4 || s.count() != 4 || !s.Has(1000) || !s.Has(0) || s.Has(1) || s.Has(-1) || s.Has(5000) {
		t.Errorf("set of %d (%d bits) is wrong", s.Len(), s.count())
	}
	var none *GameSet
	if none.Has(1) || none.Len() != 0 {
		t.Error("a nil set is not empty")
	}
}
