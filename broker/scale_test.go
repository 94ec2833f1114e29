package broker

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
)

// clockTour is a tournament on a 1s+10ms clock (random agents answer at
// once, so the clock decides nothing but what the records show).
func clockTour(t *testing.T, games int) *arena.Tournament {
	t.Helper()
	tour, err := arena.New(arena.Options{Game: "othello6", Agents: []string{"random", "greedy"}, GamesPerPair: games, Seed: 3,
		TimeControl: agents.TimeControl{Base: time.Second, Inc: 10 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return tour
}

// speedOf is a WorkerOptions.Speed that reports nps without measuring.
func speedOf(nps float64) func(context.Context, games.Variant) (float64, error) {
	return func(context.Context, games.Variant) (float64, error) { return nps, nil }
}

// TestScaledTimeControl: a worker half as fast as the reference plays on
// twice the run's clock, and its records say so (the scale, its speed, and
// each player's time control); a worker too slow for the bounds refuses
// the run and says why; with ScaleOff the same worker plays the run's
// clock and the records carry no scale.
func TestScaledTimeControl(t *testing.T) {
	for _, c := range []struct {
		name    string
		scale   float64
		tc      string
		factor  float64
		speed   float64
		refused bool
	}{
		{"scaled", 1000, "2s+20ms", 2, 500, true},
		{"off", ScaleOff, "1s+10ms", 0, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tour := clockTour(t, 6)
			var log syncBuffer
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			url, result := startRemoteRun(ctx, t, tour, Options{Log: &log, ScaleTC: c.scale})
			nc, err := Connect(url, "test", Credentials{}, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			if c.refused {
				// 100 times slower than the reference: beyond MaxTCScale.
				err := Work(ctx, nc, WorkerOptions{Name: "crawler", Concurrency: 1, Log: &log, Speed: speedOf(10)})
				if !errors.Is(err, errCannotPlay) || !strings.Contains(err.Error(), "a scale outside") {
					t.Errorf("a worker 100 times slower: %v", err)
				}
			}
			werr := Work(ctx, nc, WorkerOptions{Name: "slow", Concurrency: 2, Log: &log, Speed: speedOf(500)})
			got, st, err := result()
			if err != nil || werr != nil || !st.Complete || len(got) != 6 {
				t.Fatalf("run: %v, worker: %v, stats %+v, %d games\n%s", err, werr, st, len(got), log.String())
			}
			for _, g := range got {
				for p := range g.Players {
					if g.Players[p].TC != c.tc {
						t.Errorf("game %d player %d: time control %q, want %q", g.Index, p, g.Players[p].TC, c.tc)
					}
				}
				if g.TCScale != c.factor || g.WorkerNPS != c.speed {
					t.Errorf("game %d: scale %v, speed %v; want %v, %v", g.Index, g.TCScale, g.WorkerNPS, c.factor, c.speed)
				}
				// The first clock entry follows the first move: at most the
				// base plus the increment.
				if base := 1000 * max(c.factor, 1); len(g.Clocks) == 0 || g.Clocks[0][0] <= base/2 || g.Clocks[0][0] > base*1.02 {
					t.Errorf("game %d: clocks %v, want the first near %v ms", g.Index, g.Clocks[:min(len(g.Clocks), 1)], base)
				}
			}
			if c.refused && !strings.Contains(log.String(), `worker "crawler" cannot play this run`) {
				t.Errorf("the coordinator does not say why crawler left:\n%s", log.String())
			}
		})
	}
}

// TestLocalWorkersAtScaleOne: the coordinator's own workers play at the
// reference speed, scale 1.
func TestLocalWorkersAtScaleOne(t *testing.T) {
	tour := clockTour(t, 4)
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, result := startRun(ctx, t, tour, Options{Log: &log, ScaleTC: 1234}, 1)
	got, st, err := result()
	if err != nil || !st.Complete || len(got) != 4 {
		t.Fatalf("run: %v, stats %+v, %d games\n%s", err, st, len(got), log.String())
	}
	for _, g := range got {
		if g.TCScale != 1 || g.WorkerNPS != 1234 || g.Players[0].TC != "1s+10ms" || g.Worker != "" {
			t.Errorf("game %d: scale %v, speed %v, time control %q, worker %q", g.Index, g.TCScale, g.WorkerNPS, g.Players[0].TC, g.Worker)
		}
	}
}

// TestCheckScale: the coordinator accepts a result whose scale is the
// one its speed gives and whose clocks are scaled by it, nothing else.
func TestCheckScale(t *testing.T) {
	tour := clockTour(t, 2)
	genuine := playLocal(t, tour)[0]
	scaled := func(f, nps float64, tc string) *results.GameRecord {
		g := *genuine
		g.TCScale, g.WorkerNPS = f, nps
		g.Players[0].TC, g.Players[1].TC = tc, tc
		return &g
	}
	for _, c := range []struct {
		name  string
		ref   float64
		g     *results.GameRecord
		local bool
		want  string // "" for accepted
	}{
		{"scaled", 1000, scaled(2, 500, "2s+20ms"), false, ""},
		{"local", 1000, scaled(1, 1000, "1s+10ms"), true, ""},
		{"unscaled run", 0, genuine, false, ""},
		{"wrong factor", 1000, scaled(1, 500, "1s+10ms"), false, "the reference 1000 gives 2"},
		{"clock not scaled", 1000, scaled(2, 500, "1s+10ms"), false, `scaled by 2 the run's is "2s+20ms"`},
		{"played unscaled", 1000, genuine, false, "time-control scale 0"},
		{"scale in an unscaled run", 0, scaled(2, 500, "2s+20ms"), false, "not scaled"},
		{"local at another scale", 1000, scaled(2, 500, "2s+20ms"), true, "gives 1"},
	} {
		err := checkScale(tour, c.ref, c.g, c.local)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func TestScaleFactor(t *testing.T) {
	for _, c := range []struct{ ref, nps, want float64 }{{1000, 500, 2}, {1000, 3000, 0.333}, {1e6, 1e6, 1}, {1000, 1000.4, 1}} {
		if got, err := scaleFactor(c.ref, c.nps); err != nil || got != c.want {
			t.Errorf("scaleFactor(%v, %v) = %v, %v; want %v", c.ref, c.nps, got, err, c.want)
		}
	}
	for _, nps := range []float64{0, -1, 10, 1e9} {
		if _, err := scaleFactor(1000, nps); err == nil {
			t.Errorf("scaleFactor(1000, %v): no error", nps)
		}
	}
}

// TestMeasureSpeed: the benchmark runs (about a second) and gives a speed.
func TestMeasureSpeed(t *testing.T) {
	for _, name := range []string{"othello6"} {
		v, err := games.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if nps, err := MeasureSpeed(context.Background(), v); err != nil || !(nps > 0) {
			t.Errorf("%s: %v nodes/s, %v", name, nps, err)
		}
	}
}
