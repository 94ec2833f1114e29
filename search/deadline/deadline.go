// Package deadline turns a search's time budgets into the instant at which
// it stops, keeping back a safety margin.
//
// A search that stops exactly at its deadline answers late: the last stretch
// of work before the clock is next read, building the result, and above all
// the scheduler (on a busy machine a thread waits several milliseconds, now
// and then tens, for a core) all come after it. The arena forfeits a move
// only at limit + margin, but a player whose moves end past the limit plays
// by luck, and its ratings follow the machine's load. So searches aim at the
// deadline minus Margin, and iterative searches do not start an iteration
// that the time left cannot cover.
//
// On a game clock the budget itself is chosen here too: Allot shares out
// the time left and the increments to come over the mover's moves left,
// never more than a third of the time left (AllotIterative gives a search
// that answers early two shares within that cap).
package deadline

import (
	"context"
	"time"
)

// Margin returns the part of a budget d kept back as a safety margin: a
// fifth of it, at most MaxMargin. A fifth, not a tenth: on a machine with
// every core busy, moves of a 50 ms budget that stopped 5 ms early still
// ended up to 20 ms late (see the agents package's load test).
func Margin(d time.Duration) time.Duration {
	return min(d/5, MaxMargin)
}

// MaxMargin caps the margin of long budgets.
const MaxMargin = 50 * time.Millisecond

// Stop returns the instant at which a search that started at start should
// stop: the earlier of start+budget (budget 0: none) and ctx's deadline,
// moved earlier by the margin of the time from start to it. ok is false
// when there is neither.
func Stop(ctx context.Context, start time.Time, budget time.Duration) (stop time.Time, ok bool) {
	if budget > 0 {
		stop, ok = start.Add(budget), true
	}
	if d, has := ctx.Deadline(); has && (!ok || d.Before(stop)) {
		stop, ok = d, true
	}
	if !ok {
		return time.Time{}, false
	}
	if total := stop.Sub(start); total > 0 {
		stop = stop.Add(-Margin(total))
	}
	return stop, true
}
