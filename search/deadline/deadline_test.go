package deadline

import (
	"context"
	"testing"
	"time"
)

func TestMargin(t *testing.T) {
	for _, tc := range []struct{ budget, want time.Duration }{
		{0, 0},
		{10 * time.Millisecond, 2 * time.Millisecond},
		{50 * time.Millisecond, 10 * time.Millisecond},
		{200 * time.Millisecond, 40 * time.Millisecond},
		{250 * time.Millisecond, 50 * time.Millisecond},
		{time.Minute, MaxMargin},
	} {
		if got := Margin(tc.budget); got != tc.want {
			t.Errorf("Margin(%v) = %v, want %v", tc.budget, got, tc.want)
		}
	}
}

func TestStop(t *testing.T) {
	start := time.Unix(1000, 0)
	ms := time.Millisecond
	for _, tc := range []struct {
		name   string
		budget time.Duration
		ctxIn  time.Duration // the context's deadline after start; 0: none
		want   time.Duration // stop after start
		none   bool          // no stop at all
	}{
		{"nothing", 0, 0, 0, true},
		{"budget", 100 * ms, 0, 80 * ms, false},
		{"deadline", 0, 100 * ms, 80 * ms, false},
		{"earlier deadline", 100 * ms, 50 * ms, 40 * ms, false},
		{"earlier budget", 50 * ms, 100 * ms, 40 * ms, false},
		{"long budget, capped margin", 10 * time.Second, 0, 10*time.Second - MaxMargin, false},
		{"deadline passed", 0, -5 * ms, -5 * ms, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.ctxIn != 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithDeadline(ctx, start.Add(tc.ctxIn))
				defer cancel()
			}
			stop, ok := Stop(ctx, start, tc.budget)
			if ok == tc.none || (ok && stop.Sub(start) != tc.want) {
				t.Fatalf("stop at %v (ok %v), want %v (none %v)", stop.Sub(start), ok, tc.want, tc.none)
			}
		})
	}
}
