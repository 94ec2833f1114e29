package arena

import (
	"slices"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/results"
)

func TestCoarseClock(t *testing.T) {
	coarse.acquire()
	defer coarse.release()
	if c, n := coarse.read(), now(); c > n || n-c > int64(50*time.Millisecond) {
		t.Fatalf("after acquire the coarse clock reads %d, the precise one %d", c, n)
	}
	// The ticker advances it (allowing for a loaded machine).
	before := coarse.read()
	for deadline := time.Now().Add(2 * time.Second); coarse.read() == before; {
		if time.Now().After(deadline) {
			t.Fatal("the ticker did not advance the clock in 2 s")
		}
		time.Sleep(coarseTick)
	}
	// refresh moves a clock forward, and only when it lags by a tick.
	var c coarseClock
	c.advance(int64(time.Hour))
	c.refresh(int64(time.Hour) - int64(time.Second))
	if c.read() != int64(time.Hour) {
		t.Error("refresh moved the clock backwards")
	}
	c.refresh(int64(time.Hour) + int64(coarseTick)/2)
	if c.read() != int64(time.Hour) {
		t.Error("refresh wrote although the clock lagged by less than a tick")
	}
	c.refresh(int64(time.Hour) + 2*int64(coarseTick))
	if c.read() != int64(time.Hour)+2*int64(coarseTick) {
		t.Error("refresh did not catch up with a clock two ticks behind")
	}
}

// TestFastSeatTiming: a seat timed with the coarse clock (its earlier moves
// were fast) still has a slow move measured, and forfeits when it overruns.
func TestFastSeatTiming(t *testing.T) {
	tour := mustNew(t, Options{Game: "t-sum", Agents: []string{"t-slow:at=3,sleep=40ms", "random"}, GamesPerPair: 2, Seed: 3,
		Openings: "none", MoveTime: time.Second, MoveMargin: time.Second})
	got, _ := collect(t, tour, RunOptions{Concurrency: 1})
	for _, g := range got {
		slow := 0
		if g.Players[1].Agent == 0 {
			slow = 1
		}
		pl := g.Players[slow]
		// Its moves from ply 3 on sleep 40 ms; the coarse clock may be a
		// tick short on the first of them.
		if pl.MaxMoveMS < 38 || pl.TimeMS < 38 {
			t.Errorf("game %d: the sleeping seat was charged %.3f ms in all, %.3f ms at most for one move", g.Index, pl.TimeMS, pl.MaxMoveMS)
		}
	}
	tour = mustNew(t, Options{Game: "t-sum", Agents: []string{"t-slow:at=3,sleep=80ms", "random"}, GamesPerPair: 2, Seed: 3,
		Openings: "none", MoveTime: 20 * time.Millisecond, MoveMargin: 20 * time.Millisecond})
	got, _ = collect(t, tour, RunOptions{Concurrency: 1})
	for _, g := range got {
		if g.Termination != "timeout" {
			t.Errorf("game %d: %s (%s); the seat that overran after fast moves should lose on time", g.Index, g.Termination, g.Detail)
		}
	}
}

// TestRecordsAreIndependent: records and move lists share allocation
// blocks, so appending to one record's moves must not touch another's.
func TestRecordsAreIndependent(t *testing.T) {
	var recs []*results.GameRecord
	tour := mustNew(t, Options{Game: "othello6", Agents: []string{"random", "random"}, GamesPerPair: 6, Seed: 9})
	if _, err := tour.Run(t.Context(), RunOptions{Concurrency: 1, Sink: func(b []*results.GameRecord) error {
		recs = append(recs, b...)
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	want := make([][]string, len(recs))
	for i, r := range recs {
		want[i] = slices.Clone(r.Moves)
	}
	for _, r := range recs {
		r.Moves = append(r.Moves, "x1")
	}
	for i, r := range recs {
		if !slices.Equal(r.Moves[:len(r.Moves)-1], want[i]) {
			t.Fatalf("game %d's moves changed when the others' grew", r.Index)
		}
	}
}

// encodedRun runs tour with the given reuse setting and returns every
// game's record line, by index, encoded inside the sink (the copy a reusing
// sink must make). Times are zeroed: they differ from run to run.
func encodedRun(t *testing.T, tour *Tournament, reuse bool) []string {
	t.Helper()
	lines := make([]string, tour.Schedule.Len())
	_, err := tour.Run(t.Context(), RunOptions{Concurrency: 2, ReuseGames: reuse, Sink: func(b []*results.GameRecord) error {
		for _, g := range b {
			c := *g
			c.DurationMS = 0
			for p := range c.Players {
				c.Players[p].TimeMS, c.Players[p].MaxMoveMS = 0, 0
			}
			lines[g.Index] = string(results.AppendGame(nil, &c))
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestReuseGames: recycling delivered games changes nothing in the records
// (the games are deterministic, whichever worker plays them).
func TestReuseGames(t *testing.T) {
	tour := mustNew(t, Options{Game: "othello6", Agents: []string{"random", "greedy", "random"}, GamesPerPair: 20, Seed: 4})
	fresh := encodedRun(t, tour, false)
	for range 3 {
		if reused := encodedRun(t, tour, true); !slices.Equal(reused, fresh) {
			for i := range fresh {
				if reused[i] != fresh[i] {
					t.Fatalf("game %d differs when games are reused:\n%s\n%s", i, reused[i], fresh[i])
				}
			}
		}
	}
}

// TestMatchWithReuseGames: the pair tracker keeps games until their pair is
// complete, so a match that reuses games must count the same pairs.
func TestMatchWithReuseGames(t *testing.T) {
	s := results.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05, Model: results.Logistic}
	run := func(reuse bool) *results.PairTracker {
		tour := mustNew(t, Options{Kind: results.Match, Game: "t-sum", Agents: []string{"t-max", "random"}, GamesPerPair: 400, Seed: 1, SPRT: &s})
		tr, _, err := tour.RunMatch(t.Context(), RunOptions{Concurrency: 2, ReuseGames: reuse}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	a, b := run(false), run(true)
	if a.Penta != b.Penta || a.DecidedAt != b.DecidedAt || a.Decision != b.Decision {
		t.Errorf("without reuse %+v at %d, with reuse %+v at %d", a.Penta, a.DecidedAt, b.Penta, b.DecidedAt)
	}
}
