package testgames

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/internal/busyskip"
	"github.com/boardgame-arena/arena/search/deadline"
)

// OnTime checks that try, which runs one search with the given time budget
// and returns how long it took, ends within the budget. Other work on the
// machine can stall any thread for longer than a search's safety margin,
// which no search can help, so each late run is followed by a control that
// only spins until the instant a search stops (deadline.Stop): a run whose
// control was late too says nothing. OnTime passes at the first run on
// time. It fails t when two runs were late while their controls were on
// time: a search that overruns its budget does so every time, while a stall
// of a busy machine that misses the control right after is rare, and rarer
// twice (one such run failed the test at a load of 8 on 2 cores).
// Otherwise, after attempts runs, it skips t as too busy to judge
// (busyskip, which .ci/run lists).
func OnTime(t testing.TB, budget time.Duration, attempts int, try func() time.Duration) {
	t.Helper()
	onTime(t, budget, attempts, try, spinToStop)
}

// OnTimeThreads is OnTime for a search on several threads, which ends when
// the last of them notices the stop: its control spins on as many
// goroutines and ends when the last does. On a busy machine the chance that
// one of n threads is stalled at the stop grows with n (a 2-thread search
// overran by 150ms at a load of 8 while a 1-thread control was on time).
func OnTimeThreads(t testing.TB, budget time.Duration, threads, attempts int, try func() time.Duration) {
	t.Helper()
	onTime(t, budget, attempts, try, func(budget time.Duration) time.Duration {
		return spinToStopOn(threads, budget)
	})
}

// onTime is OnTime with the control given.
func onTime(t testing.TB, budget time.Duration, attempts int, try func() time.Duration, control func(time.Duration) time.Duration) {
	t.Helper()
	var late []string
	for a := 1; a <= attempts; a++ {
		took := try()
		if took < budget {
			return
		}
		ctl := control(budget)
		t.Logf("attempt %d: took %v of a %v budget; the control took %v", a, took, budget, ctl)
		if ctl < budget {
			late = append(late, took.String())
		}
		if len(late) == 2 {
			t.Fatalf("late for a %v budget while the control was on time (%s)", budget, strings.Join(late, ", "))
		}
	}
	busyskip.Skipf(t, "the control was late in %d of %d attempts", attempts-len(late), attempts)
}

// spinToStop busy-waits until a search with the budget would stop, reading
// the clock about every 100 µs as searches do, and returns how long it took.
func spinToStop(budget time.Duration) time.Duration {
	start := time.Now()
	stop, _ := deadline.Stop(context.Background(), start, budget)
	spinUntil(stop)
	return time.Since(start)
}

// spinToStopOn is spinToStop on n goroutines: how long until the last one
// returned.
func spinToStopOn(n int, budget time.Duration) time.Duration {
	start := time.Now()
	stop, _ := deadline.Stop(context.Background(), start, budget)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() { spinUntil(stop) })
	}
	wg.Wait()
	return time.Since(start)
}

// spinUntil busy-waits until stop, reading the clock about every 100 µs.
func spinUntil(stop time.Time) {
	for time.Now().Before(stop) {
		for end := time.Now().Add(100 * time.Microsecond); time.Now().Before(end); {
		}
	}
}
