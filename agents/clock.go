package agents

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// TimeControl is a game clock in the Fischer style: each side starts a
// game with Base on its clock, the time a move takes is subtracted, and
// Inc is added after every move. The zero value means no clock.
type TimeControl struct {
	Base time.Duration
	Inc  time.Duration
}

// Limits of a time control a user can type.
const (
	MaxClockBase = 24 * time.Hour
	MaxClockInc  = time.Hour
)

// IsZero reports whether tc is no clock at all.
func (tc TimeControl) IsZero() bool { return tc == TimeControl{} }

// String formats tc as ParseTimeControl reads it: "10s+100ms", "1m0s"
// without increment, "" for no clock.
func (tc TimeControl) String() string {
	switch {
	case tc.IsZero():
		return ""
	case tc.Inc == 0:
		return tc.Base.String()
	}
	return tc.Base.String() + "+" + tc.Inc.String()
}

// ParseTimeControl reads "BASE" or "BASE+INC" with Go durations, e.g.
// "10s+100ms", "2m", "500ms+5ms". BASE is 1ms to 24h, INC 0 to 1h.
func ParseTimeControl(text string) (TimeControl, error) {
	bad := func(why string) (TimeControl, error) {
		return TimeControl{}, fmt.Errorf("time control %q: %s (write BASE or BASE+INC with units, e.g. 10s+100ms or 2m; BASE 1ms to 24h, INC 0 to 1h)", text, why)
	}
	b, i, hasInc := strings.Cut(strings.TrimSpace(text), "+")
	base, err := time.ParseDuration(strings.TrimSpace(b))
	if err != nil {
		return bad("the base is not a duration")
	}
	var inc time.Duration
	if hasInc {
		if inc, err = time.ParseDuration(strings.TrimSpace(i)); err != nil {
			return bad("the increment is not a duration")
		}
	}
	if base < time.Millisecond || base > MaxClockBase {
		return bad("the base is out of range")
	}
	if inc < 0 || inc > MaxClockInc {
		return bad("the increment is out of range")
	}
	return TimeControl{Base: base, Inc: inc}, nil
}

// Clock is what an agent moving under a time control is told: both
// players' time left before this move and their increments. Player 0
// moves first.
type Clock struct {
	Remaining [2]time.Duration
	Inc       [2]time.Duration
}

type clockKey struct{}

// ClockFrom returns the clock of the move whose context ctx is, if the
// move is played under a time control. The context's deadline then is
// the end of the mover's time (plus nothing: the margin is the arena's).
func ClockFrom(ctx context.Context) (*Clock, bool) {
	c, ok := ctx.Value(clockKey{}).(*Clock)
	return c, ok && c != nil
}

// ClockKey is the context key under which a referee that builds its own
// context (the arena's move context answers Value itself, to avoid an
// allocation per move) stores a *Clock; ClockFrom reads it.
var ClockKey any = clockKey{}

// WithClock returns a context carrying c, for callers that play an agent
// under a clock outside the arena (a UGI engine told p1time/p2time).
func WithClock(ctx context.Context, c *Clock) context.Context {
	return context.WithValue(ctx, clockKey{}, c)
}
