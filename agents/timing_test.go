package agents_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/internal/busyskip"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/search/deadline"
	"github.com/boardgame-arena/arena/search/testgames"
)

// hogEnv marks the child process that only burns CPU for TestTimeBudgetUnderLoad.
const hogEnv = "ARENA_AGENTS_TEST_HOG"

// TestHelperHog is not a test: run as a child process with hogEnv set, it
// keeps every CPU busy until it is killed, or for 60 s at most, so that no
// hog outlives a test run that was itself killed.
func TestHelperHog(t *testing.T) {
	if os.Getenv(hogEnv) != "1" {
		t.Skip("helper process for TestTimeBudgetUnderLoad")
	}
	stop := time.Now().Add(60 * time.Second)
	for range runtime.NumCPU() - 1 {
		go spin(stop)
	}
	spin(stop)
	os.Exit(0)
}

// spin busy-loops until stop, looking at the clock every few million steps.
func spin(stop time.Time) {
	x := uint64(1)
	for time.Now().Before(stop) {
		for i := 0; i < 1<<22; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	sink.Add(x)
}

// startHog starts a child process that keeps every CPU busy; it is killed
// when the test ends.
func startHog(t *testing.T) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHog$")
	cmd.Env = append(os.Environ(), hogEnv+"=1")
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the CPU hog: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	time.Sleep(50 * time.Millisecond) // let it reach full speed
}

// TestTimeBudgetUnderLoad checks that agents with a time= budget answer in
// time on a machine whose every core is already busy: the 99th percentile
// of their move times must stay below the budget itself (the arena only
// forfeits at budget + margin, but ratings should not depend on the load).
//
// The test's own hog keeps every core busy. Other work on the machine (CI
// runs test packages in parallel, developers build) can stall any thread
// for a hundred milliseconds, which no agent can help. So every fourth move
// a control "agent" also moves: it spins until the instant a search stops
// (deadline.Stop) and returns, which is the best any agent could do. An
// attempt in which even the control was late says nothing; it is repeated
// (up to three attempts, while the test has run under 8 s), and when all say
// nothing the test is skipped. The test
// fails when the agent was late in an attempt where the control was not, and
// no attempt passed. An agent that ignores its margin, as before, is late on
// most moves.
func TestTimeBudgetUnderLoad(t *testing.T) {
	const budget = 50 * time.Millisecond
	// Per agent: the 99th percentile of 100 moves is the second slowest,
	// so one stall of the machine does not decide. About 2.5 s for
	// alphabeta and 5 s for mcts, controls included, -short or not.
	const moves, attempts = 100, 3
	skipUnderRace(t)
	startHog(t)
	v, err := games.Lookup("othello6")
	if err != nil {
		t.Fatal(err)
	}
	for i, kind := range []string{"alphabeta", "mcts"} {
		spec := fmt.Sprintf("%s:time=%s", kind, budget)
		t.Run(kind, func(t *testing.T) {
			judgeMoveTimes(t, spec, budget, attempts, 8*time.Second, func(a int) (times, control []time.Duration) {
				return moveTimes(t, v, spec, rng.Derive(7, uint64(i), uint64(a)), budget, moves)
			})
		})
	}
}

// moveTimes plays games of spec against itself in v from the start, as the
// arena does (one instance per seat, reused from game to game, a deadline of
// the budget itself), and returns the first n move times, sorted, and those
// of a control move after every fourth one.
func moveTimes(t *testing.T, v games.Variant, spec string, seed uint64, budget time.Duration, n int) (times, control []time.Duration) {
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
		s := v.New().(games.State)
		for !s.Terminal() && len(times) < n {
			p := s.ToMove()
			start := time.Now()
			ctx, cancel := context.WithDeadline(context.Background(), start.Add(budget))
			m, err := players[p].Move(ctx, s, p)
			took := time.Since(start)
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", spec, err)
			}
			if !games.IsLegal(s, m) {
				t.Fatalf("%s: illegal move %s", spec, s.FormatMove(m))
			}
			times = append(times, took)
			s.Play(m)
			if len(times)%4 == 0 {
				control = append(control, controlMove(budget))
			}
		}
	}
	slices.Sort(times)
	slices.Sort(control)
	return times, control
}

// controlMove spins until a search with the given budget would stop, looking
// at the clock about every 100 µs like the searchers, and returns how long
// it took.
func controlMove(budget time.Duration) time.Duration {
	start := time.Now()
	stop, _ := deadline.Stop(context.Background(), start, budget)
	x := uint64(1)
	for time.Now().Before(stop) {
		for range 20000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	sink.Add(x)
	return time.Since(start)
}

// sink keeps the control's arithmetic from being optimised away.
var sink atomic.Uint64

// TestExactAnswersInTime: with exact and time=, the game's solver is
// stopped with the safety margin, so the depth-4 search that decides when it
// runs out still ends within the budget. (The solver here gives up only when
// told to; othello6's own solver notices a stop late near the start, which
// is that solver's matter.)
func TestExactAnswersInTime(t *testing.T) {
	const budget = 100 * time.Millisecond
	a, err := agents.New("alphabeta:exact,time=100ms", 1)
	if err != nil {
		t.Fatal(err)
	}
	s := stubbornSolver{othello6.New()}
	testgames.OnTime(t, budget, 3, func() time.Duration {
		start := time.Now()
		m, err := a.Move(context.Background(), s, 0)
		took := time.Since(start)
		if err != nil || !games.IsLegal(s, m) {
			t.Fatal(m, err)
		}
		if info := a.(agents.Reporter).LastStats().Info; !strings.Contains(info, "solver stopped") {
			t.Fatalf("the solver was not stopped: %q", info)
		}
		return took
	})
}

// stubbornSolver is a game whose exact solver runs until it is stopped.
type stubbornSolver struct{ games.State }

func (stubbornSolver) SolveExact(ctx context.Context, _ games.SolveOptions) (int, []games.Move, int64, error) {
	<-ctx.Done()
	return 0, nil, 0, ctx.Err()
}

// skipUnderRace skips a move-time test under the race detector, whose
// instrumentation slows a search several times over: a late move there
// measures the detector, not the agent. The plain test run judges them.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("move times under the race detector measure the detector; the plain run judges them")
	}
}

// judgeMoveTimes is the verdict of the move-time tests: up to attempts runs
// of play (while the test has run under limit, and always two), each giving
// the agent's move times and the control's, both sorted. It returns at the
// first attempt whose 99th percentile is under budget; it fails when the
// agent was late in two attempts where the control was on time, and skips
// otherwise (the machine too busy to judge). An attempt counts against the
// agent when the control was on time and the agent was late even at the
// rank of the control's slowest move (its k-th slowest, making k times as
// many moves). One late attempt is not a verdict: other test binaries
// share the machine; a late agent is late in every attempt.
func judgeMoveTimes(t *testing.T, spec string, budget time.Duration, attempts int, limit time.Duration, play func(attempt int) (times, control []time.Duration)) {
	t.Helper()
	var late []string // attempts in which the agent, not the machine, was late
	began := time.Now()
	for a := 1; a <= attempts && (a <= 2 || time.Since(began) < limit); a++ {
		times, control := play(a)
		p99 := times[int(math.Ceil(0.99*float64(len(times))))-1]
		// The agent moves k times as often as the control, so it meets k
		// times as many stalls: its k-th slowest move is the one to set
		// beside the control's slowest (comparing the two slowest failed
		// an agent whose p99 was 55ms against a control's 49ms at a load
		// of 8, with medians of 42ms).
		k := (len(times) + len(control) - 1) / len(control)
		atRank := times[len(times)-k]
		msg := fmt.Sprintf("attempt %d on %d CPUs: %d moves, median %v, p99 %v, %d. slowest %v, max %v; control's slowest of %d: %v",
			a, runtime.NumCPU(), len(times), times[len(times)/2], p99, k, atRank, times[len(times)-1], len(control), control[len(control)-1])
		t.Log(msg)
		switch {
		case p99 < budget:
			return
		case control[len(control)-1] < budget && atRank >= budget:
			late = append(late, msg)
		}
	}
	if len(late) < 2 {
		busyskip.Skipf(t, "the control was late too, or the agent only once (%d late)", len(late))
	}
	t.Fatalf("%s: 99th percentile of move time ≥ the budget %v where the control was on time:\n%s",
		spec, budget, strings.Join(late, "\n"))
}
