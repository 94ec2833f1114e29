package arena

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/spec"
)

// slowStart and startLimits: the start takes longer than the limit plus
// margin, which are wide enough for instant moves on a loaded machine (at
// 10 ms + 10 ms, a thread stalled for 20 ms would forfeit a move).
const slowStart = 300 * time.Millisecond

var startLimits = Limits{Move: 100 * time.Millisecond, Margin: 100 * time.Millisecond}

// slowStarter takes slowStart in NewGame, as an external engine's process
// start and handshake may, and says so through agents.StartBudgeter when
// start is set; its moves are instant.
type slowStarter struct {
	name  string
	start time.Duration
}

func (a *slowStarter) Name() string { return a.name }
func (a *slowStarter) NewGame(games.Variant, int) error {
	time.Sleep(slowStart)
	return nil
}

func (a *slowStarter) StartTime() time.Duration { return a.start }
func (a *slowStarter) Move(_ context.Context, s games.Base, _ int) (games.Move, error) {
	var buf [8]games.Move
	return s.(games.State).LegalMoves(buf[:0])[0], nil
}

// NewGame is allowed the agent's start time (agents.StartBudgeter), not
// only the first move's limit: a slow engine start must not lose the game
// (it did for the Python example engine on a loaded machine). Without a
// start time, the limit still applies.
func TestNewGameGetsStartTime(t *testing.T) {
	v, _ := games.Lookup("t-sum")
	lim := startLimits
	for _, tc := range []struct {
		start   time.Duration
		timeout bool
	}{{0, true}, {time.Second, false}} {
		a := &slowStarter{name: "slow", start: tc.start}
		res, _ := Play(context.Background(), Setup{Variant: v}, [2]Seat{{Agent: a, Limits: lim}, {Agent: &timeAgent{name: "b"}}}, nil)
		g := res.Record
		if got := g.Termination == results.Timeout; got != tc.timeout || (got && !strings.Contains(g.Detail, "starting the game")) {
			t.Errorf("start time %v: termination %s, detail %q; want timeout %v", tc.start, g.Termination, g.Detail, tc.timeout)
		}
	}
	// The same through a tournament, where the watchdog enforces limits.
	agents.Register(&agents.Kind{Name: "t-slowstart", Help: "test agent: 300ms NewGame, StartTime 1s",
		New: func(spec.Spec, uint64) (agents.Agent, error) {
			return &slowStarter{name: "t-slowstart", start: time.Second}, nil
		}})
	tour, err := New(Options{Game: "t-sum", Agents: []string{"t-slowstart", "t-max"}, GamesPerPair: 2, MoveTime: startLimits.Move, MoveMargin: startLimits.Margin, Openings: "none"})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	if _, err := tour.Run(context.Background(), RunOptions{Concurrency: 1, Sink: func(b []*results.GameRecord) error {
		for _, g := range b {
			n++
			if g.Termination != results.Normal {
				t.Errorf("tournament game %d: %s: %s", g.Index, g.Termination, g.Detail)
			}
		}
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("%d games recorded", n)
	}
}
