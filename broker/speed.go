package broker

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
)

// Speed benchmark: alphabeta with a node budget plays the game against
// itself from the start for up to benchPlies plies. That unit of work is
// fixed (a single-threaded search stopped by a node count searches the
// same positions on every machine); it is repeated, with fresh agents,
// until benchTime has passed, and only its time differs between machines.
const (
	benchSpec  = "alphabeta:nodes=5000,threads=1,tt=4"
	benchPlies = 16
	benchTime  = time.Second
)

// MeasureSpeed runs the speed benchmark of the game of v (about a second)
// and returns its search nodes per second: a worker's speed for a scaled
// time control (Options.ScaleTC).
func MeasureSpeed(ctx context.Context, v games.Variant) (float64, error) {
	var nodes int64
	start := time.Now()
	for time.Since(start) < benchTime {
		n, err := benchUnit(ctx, v)
		if err != nil {
			return 0, fmt.Errorf("speed benchmark: %v", err)
		}
		nodes += n
	}
	elapsed := time.Since(start).Seconds()
	if nodes == 0 || elapsed <= 0 {
		return 0, errors.New("speed benchmark: no nodes searched")
	}
	return float64(nodes) / elapsed, nil
}

// benchUnit plays the benchmark's unit of work and returns its nodes.
func benchUnit(ctx context.Context, v games.Variant) (int64, error) {
	var seats [2]agents.Agent
	for p := range seats {
		a, err := agents.New(benchSpec, uint64(p+1))
		if err != nil {
			return 0, err
		}
		if err := agents.CheckGame(a, v); err != nil {
			return 0, err
		}
		seats[p] = a
	}
	var nodes int64
	b := v.New()
	for range benchPlies {
		if b.Terminal() {
			break
		}
		var ply [2]games.Move
		for p, a := range seats {
			if b.ToMove() != p && b.ToMove() != games.Both {
				continue
			}
			m, err := a.Move(ctx, b, p)
			if err != nil {
				return 0, err
			}
			if r, ok := a.(agents.Reporter); ok {
				nodes += r.LastStats().Nodes
			}
			if games.Simultaneous(b) {
				ply[p] = m
			} else {
				ply[0] = m
			}
		}
		games.PlayPly(b, ply)
	}
	return nodes, ctx.Err()
}

// scaleFactor is the time-control scale of a worker of speed nps for a run
// of reference speed ref (OpenBench's scale_nps rule: limits × ref / nps),
// rounded to 3 significant digits so that the record shows it plainly.
func scaleFactor(ref, nps float64) (float64, error) {
	if !(nps > 0) || math.IsInf(nps, 0) {
		return 0, fmt.Errorf("a measured speed of %v nodes/s", nps)
	}
	f := ref / nps
	if f > 0 {
		e := math.Pow(10, 2-math.Floor(math.Log10(f)))
		f = math.Round(f*e) / e
	}
	if !(f >= results.MinTCScale && f <= results.MaxTCScale) {
		return 0, fmt.Errorf("this machine's speed (%.0f nodes/s) is %.3g times the reference (%.0f nodes/s): a scale outside %g to %g is refused", nps, nps/ref, ref, results.MinTCScale, float64(results.MaxTCScale))
	}
	return f, nil
}

// scaling is a worker's time-control scale in one run: factor 0 for none.
type scaling struct {
	factor, nps float64
}

// speeds caches the benchmark of each game in this process: a worker that
// serves run after run (tune spsa's iterations) measures once.
var speeds sync.Map // game spec → float64

// cachedSpeed is MeasureSpeed, once per game in this process.
func cachedSpeed(ctx context.Context, v games.Variant) (float64, error) {
	if n, ok := speeds.Load(v.String()); ok {
		return n.(float64), nil
	}
	n, err := MeasureSpeed(ctx, v)
	if err == nil {
		speeds.Store(v.String(), n)
	}
	return n, err
}

// scaleRun measures the worker's speed when the run is scaled, scales the
// tournament's limits to it and says so on o.Log; a speed too far from the
// reference is an error (the worker cannot play the run).
func scaleRun(ctx context.Context, t *arena.Tournament, info RunInfo, o WorkerOptions) (scaling, error) {
	if info.RefNPS <= 0 || !t.TimeScalable() {
		return scaling{}, nil
	}
	measure := o.Speed
	if measure == nil {
		measure = cachedSpeed
	}
	nps, err := measure(ctx, t.Variant)
	if err != nil {
		return scaling{}, err
	}
	f, err := scaleFactor(info.RefNPS, nps)
	if err != nil {
		return scaling{}, err
	}
	t.ScaleTime(f)
	fmt.Fprintf(o.Log, "speed %.0f nodes/s, reference %.0f: time limits × %g\n", nps, info.RefNPS, f)
	return scaling{factor: f, nps: nps}, nil
}

// reference is the run's reference speed (RunInfo.RefNPS) from
// Options.ScaleTC: 0 for a run that is not scaled.
func (c *coordinator) reference(ctx context.Context) (float64, error) {
	switch {
	case c.o.ScaleTC == ScaleOff || !c.t.TimeScalable():
		return 0, nil
	case c.o.ScaleTC > 0:
		fmt.Fprintf(c.log, "time control scaled to each worker's speed (reference %.0f nodes/s)\n", c.o.ScaleTC)
		return c.o.ScaleTC, nil
	case c.o.ScaleTC != ScaleMeasure:
		return 0, fmt.Errorf("%w: want a reference speed (nodes per second), %d (measure this machine's) or %d (off)", named("ScaleTC"), ScaleMeasure, ScaleOff)
	}
	nps, err := cachedSpeed(ctx, c.t.Variant)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(c.log, "time control scaled to each worker's speed (reference: this machine's, %.0f nodes/s)\n", nps)
	return nps, nil
}

// checkScale checks a result's time-control scale against the run's
// reference speed ref (0: not scaled): the factor the worker's speed
// gives, and each clocked player's time control scaled by it. The speed
// itself is the worker's word; the coordinator's own workers are at 1.
func checkScale(t *arena.Tournament, ref float64, g *results.GameRecord, local bool) error {
	if ref <= 0 || !t.TimeScalable() {
		if g.TCScale != 0 || g.WorkerNPS != 0 {
			return fmt.Errorf("game %d: a time-control scale of %g in a run that is not scaled", g.Index, g.TCScale)
		}
		return nil
	}
	if g.TCScale == 0 {
		return fmt.Errorf("game %d: played at the run's limits unscaled (time-control scale 0) in a run scaled to %.0f nodes/s: use the coordinator's arena version", g.Index, ref)
	}
	want := 1.0
	if !local {
		var err error
		if want, err = scaleFactor(ref, g.WorkerNPS); err != nil {
			return fmt.Errorf("game %d: %v", g.Index, err)
		}
	}
	if g.TCScale != want {
		return fmt.Errorf("game %d: time-control scale %g for a speed of %.0f nodes/s; the reference %.0f gives %g", g.Index, g.TCScale, g.WorkerNPS, ref, want)
	}
	for p := range g.Players {
		if tc := t.ScaledLimits(g.Players[p].Agent, want).Clock.String(); g.Players[p].TC != tc {
			return fmt.Errorf("game %d: player %d's time control %q; scaled by %g the run's is %q", g.Index, p, g.Players[p].TC, want, tc)
		}
	}
	return nil
}
