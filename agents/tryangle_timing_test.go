package agents_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// TestTryangleTurnBudget: TryAngle Catch allows 50 ms a turn (after the
// first); the search agents with time=50ms, as the ladder runs them
// (benchmarks/tryangle-ladder.sh), answer within it under the arena's
// deadline of that budget. Judged as TestTimeBudgetUnderLoad judges (the
// 99th percentile, a spinning control to tell a busy machine from a late
// agent), without the extra hog: the game's limit is for a quiet machine.
func TestTryangleTurnBudget(t *testing.T) {
	const budget = 50 * time.Millisecond
	const moves, attempts = 60, 3
	skipUnderRace(t)
	for i, spec := range []string{"alphabeta:time=50ms", "mcts:time=50ms,first=1s,rollout=none,escale=300,expand=4,relative,c=0.2,maxdepth=8"} {
		t.Run(strings.SplitN(spec, ":", 2)[0], func(t *testing.T) {
			judgeMoveTimes(t, spec, budget, attempts, 10*time.Second, func(a int) (times, control []time.Duration) {
				return simMoveTimes(t, spec, rng.Derive(11, uint64(i), uint64(a)), budget, moves)
			})
		})
	}
}

// simMoveTimes plays TryAngle Catch games of spec against itself (one
// instance per seat, reused from game to game, each move under a deadline
// of the budget, as the arena plays them) from the second turn on, and
// returns n move times, sorted, and those of a control move after every
// fourth one.
func simMoveTimes(t *testing.T, spec string, seed uint64, budget time.Duration, n int) (times, control []time.Duration) {
	t.Helper()
	var players [2]agents.Agent
	for p := range players {
		a, err := agents.New(spec, rng.Derive(seed, uint64(p)))
		if err != nil {
			t.Fatal(err)
		}
		players[p] = a
	}
	for g := 0; len(times) < n; g++ {
		v, err := games.Lookup(fmt.Sprintf("tryangle:seed=%d", seed%1000+uint64(g)))
		if err != nil {
			t.Fatal(err)
		}
		for p, a := range players {
			if sd, ok := a.(agents.Seeder); ok {
				sd.Seed(rng.Derive(seed, uint64(g), uint64(p)))
			}
			if gs, ok := a.(agents.GameStarter); ok {
				if err := gs.NewGame(v, p); err != nil {
					t.Fatal(err)
				}
			}
		}
		s := v.New().(games.SimState)
		for !s.Terminal() && len(times) < n {
			var joint [2]games.Move
			for p, a := range players {
				start := time.Now()
				ctx, cancel := context.WithDeadline(context.Background(), start.Add(budget))
				m, err := a.Move(ctx, s, p)
				took := time.Since(start)
				cancel()
				if err != nil {
					t.Fatalf("%s: %v", spec, err)
				}
				if !slices.Contains(s.LegalMovesFor(p, nil), m) {
					t.Fatalf("%s: %s is not one of player %d's plans", spec, s.FormatMove(m), p)
				}
				joint[p] = m
				if s.Ply() > 0 { // the first turn has 1 s
					times = append(times, took)
					if len(times)%4 == 0 {
						control = append(control, controlMove(budget))
					}
				}
			}
			s.PlayJoint(joint[0], joint[1])
		}
	}
	slices.Sort(times)
	slices.Sort(control)
	return times, control
}
