package testgames

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/internal/busyskip"
	"github.com/boardgame-arena/arena/search/deadline"
)

// OnTime checks that try, which runs one search with the given time budget
// and returns how long it took, ends within the budget. Other work on the
// machine can stall any thread for longer than a search's safety margin,
// which no search can help, so each run is followed by a control that only
// spins until the instant a search stops (deadline.Stop): a run whose
// control was late too says nothing. OnTime passes at the first run on
// time; after attempts runs it fails t if some run was late while its
// control was on time, and otherwise skips t as too busy to judge.
func OnTime(t testing.TB, budget time.Duration, attempts int, try func() time.Duration) {
	t.Helper()
	var late []string
	for a := 1; a <= attempts; a++ {
		took := try()
		if took < budget {
			return
		}
		ctl := spinToStop(budget)
		t.Logf("attempt %d: took %v of a %v budget; the control took %v", a, took, budget, ctl)
		if ctl < budget {
			late = append(late, took.String())
		}
	}
	if late == nil {
		busyskip.Skipf(t, "the control was late in all %d attempts", attempts)
	}
	t.Fatalf("late for a %v budget while the control was on time (%s)", budget, strings.Join(late, ", "))
}

// spinToStop busy-waits until a search with the budget would stop, reading
// the clock about every 100 µs as searches do, and returns how long it took.
func spinToStop(budget time.Duration) time.Duration {
	start := time.Now()
	stop, _ := deadline.Stop(context.Background(), start, budget)
	for time.Now().Before(stop) {
		for end := time.Now().Add(100 * time.Microsecond); time.Now().Before(end); {
		}
	}
	return time.Since(start)
}
