package agents

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
)

// playSim plays one simultaneous game between two agents and returns it.
func playSim(t *testing.T, spec string, a0, a1 Agent) games.SimState {
	t.Helper()
	b, err := games.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	s := b.(games.SimState)
	ctx := context.Background()
	for !s.Terminal() {
		h := s.Hash()
		m0, err := a0.Move(ctx, s, 0)
		if err != nil {
			t.Fatal(err)
		}
		m1, err := a1.Move(ctx, s, 1)
		if err != nil {
			t.Fatal(err)
		}
		if s.Hash() != h {
			t.Fatal("an agent changed the position")
		}
		s.PlayJoint(m0, m1)
	}
	return s
}

// random and greedy choose among tryangle's plans; greedy, which scores
// each plan against the opponent's WAIT, beats random clearly. (Since the
// spread plans, #16, every plan is a sensible one and random is no
// pushover: greedy scored 34 of 40, where it had scored 9+ of 10 before.)
func TestGreedyBeatsRandomAtTryangle(t *testing.T) {
	wins, played := 0.0, 0
	for i := 0; i < 40; i++ {
		g, _ := New("greedy", uint64(i))
		r, _ := New("random", uint64(100+i))
		seat := i % 2
		var s games.SimState
		if seat == 0 {
			s = playSim(t, fmt.Sprintf("tryangle:seed=%d", 3+i/2), g, r)
		} else {
			s = playSim(t, fmt.Sprintf("tryangle:seed=%d", 3+i/2), r, g)
		}
		wins += s.Outcome().Points(seat)
		played++
	}
	t.Logf("greedy scored %.1f of %d against random", wins, played)
	if wins < float64(played)*0.75 {
		t.Errorf("greedy scored only %.1f of %d against random", wins, played)
	}
}

// The search agents play TryAngle Catch over the same plans: alpha-beta
// sequentialised, MCTS with DUCT. Both must beat random clearly.
func TestSearchAgentsBeatRandomAtTryangle(t *testing.T) {
	for _, spec := range []string{"alphabeta:depth=2,tt=1", "mcts:iters=300,rollout=none,escale=300,expand=16,relative"} {
		wins, played := scoreAtTryangle(t, spec, "random", 3)
		t.Logf("%s scored %.1f of %d against random", spec, wins, played)
		if wins < float64(played)*0.75 {
			t.Errorf("%s scored only %.1f of %d against random", spec, wins, played)
		}
	}
}

// DUCT with leaves scored by the evaluation's change from the root, as the
// recommended mcts scores them, at a fixed 1 500 iterations a turn (so the
// result does not depend on the machine's speed) beats greedy, which sees
// one turn against WAIT. (Scored by absolute leaf values, it played WAIT
// most turns once far ahead or behind and lost 0–8 to greedy.)
func TestMCTSBeatsGreedyAtTryangle(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of play")
	}
	const spec = "mcts:iters=1500,rollout=none,escale=300,expand=32,relative"
	wins, played := scoreAtTryangle(t, spec, "greedy", 11)
	t.Logf("%s scored %.1f of %d against greedy", spec, wins, played)
	if wins <= float64(played)/2 {
		t.Errorf("%s scored only %.1f of %d against greedy", spec, wins, played)
	}
}

// scoreAtTryangle plays spec against opp in four TryAngle Catch games, on
// the maps of seeds firstMap and firstMap+1, each with spec first and then
// second, and returns spec's points and the games played.
func scoreAtTryangle(t *testing.T, spec, opp string, firstMap int) (wins float64, played int) {
	t.Helper()
	for i := 0; i < 4; i++ {
		a, err := New(spec, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		o, err := New(opp, uint64(100+i))
		if err != nil {
			t.Fatal(err)
		}
		seat := i % 2
		game := fmt.Sprintf("tryangle:seed=%d", firstMap+i/2)
		var s games.SimState
		if seat == 0 {
			s = playSim(t, game, a, o)
		} else {
			s = playSim(t, game, o, a)
		}
		wins += s.Outcome().Points(seat)
		played++
	}
	return wins, played
}

// first= gives the first move of a game its own budget (TryAngle Catch
// allows 1 s for turn 1, 50 ms after): MoveTime reports it for the first
// move, and that move searches for it (its clock, less the fifth's
// margin, is not cut short by load), the next for time= only; a new
// game's first move gets it again.
func TestMCTSFirstMoveBudget(t *testing.T) {
	a, err := New("mcts:time=10ms,first=200ms,rollout=none,escale=300,expand=8,relative", 1)
	if err != nil {
		t.Fatal(err)
	}
	m := a.(*MCTS)
	if m.MoveTime(true) != 200*time.Millisecond || m.MoveTime(false) != 10*time.Millisecond {
		t.Fatalf("MoveTime: first %v, others %v", m.MoveTime(true), m.MoveTime(false))
	}
	v, err := games.Lookup("tryangle:seed=4")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.NewGame(v, 0); err != nil {
		t.Fatal(err)
	}
	s := v.New().(games.SimState)
	var took [3]time.Duration
	for i := range took {
		if i == 2 {
			if err := m.NewGame(v, 0); err != nil {
				t.Fatal(err)
			}
		}
		start := time.Now()
		if _, err := m.Move(context.Background(), s, 0); err != nil {
			t.Fatal(err)
		}
		took[i] = time.Since(start)
	}
	// 200 ms less a fifth is 160 ms; time=10ms gives 8 ms.
	if took[0] < 120*time.Millisecond || took[2] < 120*time.Millisecond || took[1] >= took[0] {
		t.Fatalf("move times: first %v, second %v, first of the next game %v", took[0], took[1], took[2])
	}
}
