package broker

import (
	"context"
	"io"
	"os"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/spec"
)

// sleepyMove is the think time of the test agent "sleepy": a random mover
// that sleeps first, so that games take wall time but no CPU.
const sleepyMove = 10 * time.Millisecond

func init() {
	agents.Register(&agents.Kind{
		Name: "sleepy",
		Help: "test agent of package broker: sleeps 10ms, then plays a random legal move",
		New: func(s spec.Spec, seed uint64) (agents.Agent, error) {
			r, err := agents.New("random", seed)
			if err != nil {
				return nil, err
			}
			return &sleepy{r}, nil
		},
	})
}

type sleepy struct{ agents.Agent }

func (a *sleepy) Move(ctx context.Context, s games.Base, p int) (games.Move, error) {
	time.Sleep(sleepyMove)
	return a.Agent.Move(ctx, s, p)
}

// playSlots plays games of two sleepy agents with a coordinator that has
// no local worker and `slots` workers of one game each, every one on its
// own TCP connection to the embedded server; it returns the time from the
// start of the run to the last result recorded.
func playSlots(t *testing.T, slots, games int) time.Duration {
	t.Helper()
	tour, err := arena.New(arena.Options{Game: "othello6", Agents: []string{"sleepy", "sleepy"}, GamesPerPair: games, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	urlc := make(chan string, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var last time.Time
	n := 0
	start := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		st, err := tour.Run(ctx, arena.RunOptions{
			Sink: func(b []*results.GameRecord) error { n += len(b); last = time.Now(); return nil },
			Runner: Runner(Options{Broker: "embedded", Server: ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()},
				Ready: func(u string) { urlc <- u }}),
		})
		if err != nil || !st.Complete {
			t.Errorf("run: %v %+v", err, st)
		}
	}()
	wait := startWorkers(ctx, t, <-urlc, make([]io.Writer, slots))
	<-done
	wait()
	if n != games {
		t.Fatalf("%d games recorded, want %d", n, games)
	}
	return last.Sub(start)
}

// TestEfficiency measures the speed-up of 8 worker slots over 1 with
// agents whose moves take a fixed wall time (not CPU): a measurement for
// benchmarks/README.md, run with ARENA_BROKER_EFFICIENCY=1.
func TestEfficiency(t *testing.T) {
	if os.Getenv("ARENA_BROKER_EFFICIENCY") == "" {
		t.Skip("a measurement of half a minute: set ARENA_BROKER_EFFICIENCY=1")
	}
	one := playSlots(t, 1, 16)
	eight := playSlots(t, 8, 128)
	perOne := one.Seconds() / 16
	perEight := eight.Seconds() / 128
	t.Logf("1 slot: 16 games in %.2f s (%.3f s a game); 8 slots: 128 games in %.2f s (%.3f s a game); speed-up %.2f× of 8 (%.0f %%)",
		one.Seconds(), perOne, eight.Seconds(), perEight, perOne/perEight, 100*perOne/perEight/8)
}
