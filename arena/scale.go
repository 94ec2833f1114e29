package arena

import (
	"math"
	"time"

	"github.com/boardgame-arena/arena/agents"
)

// TimeScalable reports whether the run has limits that ScaleTime scales:
// a clock (the run's, or an agent's tc=) or a limit per move
// (Options.MoveTime). An agent's own time= budget, a game's limits and the
// cap do not scale: they are the agent's or the game's, not the run's.
func (t *Tournament) TimeScalable() bool {
	if t.Config.MoveTimeMS > 0 {
		return true
	}
	for _, l := range t.Limits {
		if !l.Clock.IsZero() {
			return true
		}
	}
	return false
}

// ScaleTime multiplies the run's limits by f, for a machine f times slower
// than the speed the time control is meant for (a broker worker's scaled
// time control): every clock's base and increment, and the limit per move
// when the run set one (Options.MoveTime), to the microsecond. The margin,
// which covers the machine's latency rather than its speed, stays.
func (t *Tournament) ScaleTime(f float64) {
	for i := range t.Limits {
		t.Limits[i] = t.ScaledLimits(i, f)
	}
}

// ScaledLimits is agent i's limits scaled by f, as ScaleTime sets them.
func (t *Tournament) ScaledLimits(i int, f float64) Limits {
	mul := func(d time.Duration) time.Duration {
		return time.Duration(math.Round(float64(d)*f/float64(time.Microsecond))) * time.Microsecond
	}
	l := t.Limits[i]
	if !l.Clock.IsZero() {
		l.Clock = agents.TimeControl{Base: mul(l.Clock.Base), Inc: mul(l.Clock.Inc)}
		l.clockText = l.Clock.String()
	}
	if t.Config.MoveTimeMS > 0 {
		l.Move, l.First = mul(l.Move), mul(l.First)
	}
	return l
}
