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
	before := coarse.read()
	time.Sleep(5 * coarseTick)
	if after := coarse.read(); after <= before {
		t.Errorf("the ticker did not advance the clock in 5 ticks (%d, then %d)", before, after)
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
	var recs []*results.Game
	tour := mustNew(t, Options{Game: "othello6", Agents: []string{"random", "random"}, GamesPerPair: 6, Seed: 9})
	if _, err := tour.Run(t.Context(), RunOptions{Concurrency: 1, Sink: func(b []*results.Game) error {
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
