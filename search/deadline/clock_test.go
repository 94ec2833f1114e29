package deadline

import (
	"testing"
	"time"
)

func TestAllot(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name           string
		remaining, inc time.Duration
		movesLeft      int
		want           time.Duration
	}{
		{"unknown moves left: the default horizon", 1000 * ms, 0, 0, 40*ms - MoveOverhead},
		{"negative estimate: unknown", 1000 * ms, 0, -4, 40*ms - MoveOverhead},
		{"long game: shared over the game's estimate", 1200 * ms, 0, 60, 20*ms - MoveOverhead},
		{"absurd estimate: bounded", 24 * time.Hour, time.Hour, 1 << 62, (24*time.Hour+(maxMovesLeft-1)*time.Hour)/maxMovesLeft - MoveOverhead},
		{"short game: shared over fewer moves", 1000 * ms, 0, 10, 100*ms - MoveOverhead},
		{"last moves: the floor of the estimate", 900 * ms, 0, 1, 180*ms - MoveOverhead},
		{"last moves: the floor, increment", 900 * ms, 50 * ms, 2, 220*ms - MoveOverhead},
		{"increment: this move's own comes after it", 1000 * ms, 10 * ms, 10, (1000*ms+9*10*ms)/10 - MoveOverhead},
		{"large increment: at most a third of the clock", 300 * ms, 1000 * ms, 25, 100*ms - MoveOverhead},
		{"increment dominates, estimate floor", 90 * ms, 30 * ms, 1, 30*ms - MoveOverhead},
		{"tiny remaining: play at once", 5 * ms, 0, 0, MinMoveTime},
		{"tiny remaining, increments to come", 2 * ms, 1 * ms, 25, 2*ms/3 - MoveOverhead},
		{"tiny remaining, tiny increment", 2 * ms, 100 * time.Microsecond, 25, MinMoveTime},
		{"nothing left", 0, 5 * ms, 10, MinMoveTime},
		{"flagged", -3 * ms, 0, 10, MinMoveTime},
		{"negative increment is none", 1000 * ms, -50 * ms, 10, 100*ms - MoveOverhead},
		{"longest clock", 24 * time.Hour, time.Hour, 0, (24*time.Hour+24*time.Hour)/25 - MoveOverhead},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Allot(tc.remaining, tc.inc, tc.movesLeft); got != tc.want {
				t.Fatalf("Allot(%v, %v, %d) = %v, want %v", tc.remaining, tc.inc, tc.movesLeft, got, tc.want)
			}
		})
	}
}

// TestAllotNeverFlags plays the schedule itself: a player that spends its
// whole allotment and the overhead on every move never runs out of time in
// a game within the game's estimate (an upper bound), or twice the default
// horizon when there is none, or one much longer than a too-short estimate;
// and it spends most of a clock without increment over a game of about the
// horizon's length.
func TestAllotNeverFlags(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		base, inc time.Duration
		estimate  func(move int) int // moves left before move (0-based)
		moves     int
	}{
		{300 * ms, 5 * ms, func(int) int { return 0 }, 2 * DefaultMovesLeft},
		{1000 * ms, 0, func(int) int { return 0 }, 2 * DefaultMovesLeft},
		{1000 * ms, 0, func(m int) int { return 200 - m }, 200}, // a turn limit: TryAngle Catch
		{300 * ms, 0, func(m int) int { return 41 - m }, 41},    // full board: Gravity
		{1000 * ms, 0, func(m int) int { return 16 - m }, 16},   // an exact estimate: Othello 6×6
		{1000 * ms, 0, func(m int) int { return 16 - m }, 40},   // an estimate far too short
		{50 * ms, 100 * ms, func(int) int { return 0 }, 100},
		{10 * time.Second, 100 * ms, func(int) int { return 0 }, 500},
	} {
		remaining := tc.base
		for m := range tc.moves {
			took := Allot(remaining, tc.inc, tc.estimate(m)) + MoveOverhead
			if took > remaining && took > MinMoveTime+MoveOverhead {
				t.Fatalf("%v+%v: move %d takes %v of %v left", tc.base, tc.inc, m+1, took, remaining)
			}
			remaining += tc.inc - took
		}
		if remaining <= 0 {
			t.Fatalf("%v+%v: flagged after %d moves (%v left)", tc.base, tc.inc, tc.moves, remaining)
		}
	}
	// Over a game of the horizon's length, a clock without increment is
	// mostly spent (the share is what a sensible manager should use).
	remaining := time.Second
	for range DefaultMovesLeft {
		remaining -= Allot(remaining, 0, 0) + MoveOverhead
	}
	if used := time.Second - remaining; used < 600*ms {
		t.Fatalf("used %v of 1s over %d moves, want most of it", used, DefaultMovesLeft)
	}
}

func TestAllotIterative(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name           string
		remaining, inc time.Duration
		movesLeft      int
		want           time.Duration
	}{
		{"two shares", 1000 * ms, 0, 0, 2 * (40*ms - MoveOverhead)},
		{"below the cap", 900 * ms, 0, 8, 2 * (900*ms/8 - MoveOverhead)},
		{"the cap binds", 900 * ms, 0, 1, 300*ms - MoveOverhead},
		{"increment dominates: the cap", 90 * ms, 30 * ms, 10, 30*ms - MoveOverhead},
		{"tiny remaining: at once", 5 * ms, 0, 0, 2 * MinMoveTime},
		{"nothing left", 0, 0, 0, MinMoveTime},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := AllotIterative(tc.remaining, tc.inc, tc.movesLeft)
			if got != tc.want {
				t.Fatalf("AllotIterative(%v, %v, %d) = %v, want %v", tc.remaining, tc.inc, tc.movesLeft, got, tc.want)
			}
			if share := Allot(tc.remaining, tc.inc, tc.movesLeft); got < share {
				t.Fatalf("less than the share %v", share)
			}
		})
	}
	// A search that uses its whole stretched budget on every move, for
	// twice the horizon, does not flag either.
	remaining := 300 * ms
	for m := range 2 * DefaultMovesLeft {
		took := AllotIterative(remaining, 5*ms, 0) + MoveOverhead
		if took > remaining {
			t.Fatalf("move %d takes %v of %v left", m+1, took, remaining)
		}
		remaining += 5*ms - took
	}
}
