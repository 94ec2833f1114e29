//go:build linux

package agents_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents/botproc/botproctest"
	"github.com/boardgame-arena/arena/arena"
	_ "github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/results"
)

// TestUGILeakCrashingEngine (issue #11): a tournament of a ugi engine that
// crashes on every go against random leaves no goroutine, file descriptor
// or process behind. Every game crashes the engine, so every game stops a
// process and the next starts a fresh one. 10 000 games normally (set
// ARENA_LEAK_GAMES to change it), 1000 under -short.
func TestUGILeakCrashingEngine(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	if s := os.Getenv("ARENA_LEAK_GAMES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 2 || n%2 != 0 {
			t.Fatalf("ARENA_LEAK_GAMES=%q: want an even number ≥ 2", s)
		}
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "crash.sh")
	// The handshake is answered; the first go kills the engine.
	// One engine in eight (by its pid, to spare most games a fork) also
	// leaves a child behind in its process group, as a crashing engine
	// may: the group must be killed with it.
	body := `#!/bin/sh
while read -r line; do
  case "$line" in
    ugi) echo "id name crasher"; echo ugiok;;
    isready) echo readyok;;
    go*) if [ $(($$ % 8)) = 0 ]; then sleep 60 & echo $! >> ` + filepath.Join(dir, "pids") + `; fi; exit 3;;
    quit) exit 0;;
  esac
done
`
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pids"), nil, 0o644); err != nil {
		t.Fatal(err)
	}

	// Warm up once (runtime and os/exec goroutines, signal handling,
	// pidfd probing), so that the baseline is not taken before they exist.
	leakPlay(t, script, 2, nil)
	goBefore, fdBefore, kidsBefore := leakSettle(1<<30, 1<<30, true)
	t.Logf("before: %d goroutines, %d fds, %d child processes", goBefore, fdBefore, kidsBefore)

	// During the run a worker holds at most one engine: its three pipes
	// (and a pidfd), a wait goroutine and two readers, one process. Peaks
	// are sampled as games finish, since the garbage collector closes a
	// dropped *os.File and so hides, by the end of the run, a descriptor
	// that the agent forgot to close.
	var peakGo, peakFD, peakKids int
	recorded := 0
	const perWorker = 8 // 4 fds, 3 goroutines, 1 process, with room to spare
	// Goroutines also come and go with the run's timers (time.AfterFunc
	// runs each callback on a goroutine of its own), and on a loaded
	// machine several fire together: 40 were seen once against a bound of
	// 18. A leak grows with the games (one a game is 10 000 here), so a
	// bound four times the steady count still catches it.
	const goSlack = 4
	var overStacks []byte // the goroutines when their count first passed the bound
	sample := func() {
		if g := runtime.NumGoroutine(); g > goBefore+goSlack*leakWorkers*perWorker && overStacks == nil {
			overStacks = make([]byte, 64<<10)
			overStacks = overStacks[:runtime.Stack(overStacks, true)]
		}
		peakGo = max(peakGo, runtime.NumGoroutine())
		peakFD = max(peakFD, leakOpenFDs())
		if recorded%16 == 0 { // a scan of /proc takes a while
			peakKids = max(peakKids, len(leakChildPids()))
		}
		recorded++
	}
	start := time.Now()
	leakPlay(t, script, n, sample)
	elapsed := time.Since(start)
	// No runtime.GC here either, for the same reason.
	goAfter, fdAfter, kids := leakSettle(goBefore+3, fdBefore+2, false)
	t.Logf("after %d games in %v (%.0f games/s): %d goroutines, %d fds, %d child processes; peaks during the run: %d goroutines, %d fds, %d children",
		n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds(), goAfter, fdAfter, kids, peakGo, peakFD, peakKids)
	if goAfter > goBefore+3 {
		t.Errorf("goroutines grew from %d to %d over %d games", goBefore, goAfter, n)
	}
	if fdAfter > fdBefore+2 {
		t.Errorf("open file descriptors grew from %d to %d over %d games", fdBefore, fdAfter, n)
	}
	if kids != 0 {
		t.Errorf("%d child processes (zombies included) left after %d games: %v", kids, n, leakChildPids())
	}
	if peakGo > goBefore+goSlack*leakWorkers*perWorker || peakFD > fdBefore+leakWorkers*perWorker || peakKids > leakWorkers {
		t.Errorf("during the run, up to %d goroutines, %d fds, %d children: more than %d workers with one engine each account for (before: %d goroutines, %d fds)",
			peakGo, peakFD, peakKids, leakWorkers, goBefore, fdBefore)
		if overStacks != nil {
			t.Logf("the goroutines when there were too many:\n%s", overStacks)
		}
	}
	// The children the engines left in their process groups are gone.
	left, kidPids := 0, strings.Fields(leakReadFile(t, filepath.Join(dir, "pids")))
	t.Logf("the engines left %d children in their process groups", len(kidPids))
	for _, f := range kidPids {
		if pid, _ := strconv.Atoi(f); botproctest.Running(pid) {
			left++
		}
	}
	if left > 0 {
		t.Errorf("%d of the engines' %d children still run", left, len(kidPids))
	}
}

const leakWorkers = 2

func leakReadFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// leakPlay runs a tournament of n games between the crashing engine and random
// on othello6 and checks that every game ended by the engine's crash;
// sample, if not nil, is called as each game is recorded.
func leakPlay(t *testing.T, script string, n int, sample func()) {
	t.Helper()
	tour, err := arena.New(arena.Options{
		Game:         "othello6",
		Agents:       []string{"ugi:cmd=sh " + script + ",movetime=1000ms,name=crasher", "random"},
		GamesPerPair: n,
		Seed:         11,
	})
	if err != nil {
		t.Fatal(err)
	}
	var games, crashes int
	var bad []string
	stats, err := tour.Run(context.Background(), arena.RunOptions{
		Concurrency: leakWorkers,
		ReuseGames:  true,
		Sink: func(batch []*results.GameRecord) error {
			for _, g := range batch {
				games++
				if sample != nil {
					sample()
				}
				if g.Termination == results.Crash && g.Forfeit >= 0 && g.Forfeit < len(g.Players) && g.Players[g.Forfeit].Name == "crasher" {
					crashes++
				} else if len(bad) < 5 {
					bad = append(bad, g.Termination+" forfeit "+strconv.Itoa(g.Forfeit)+": "+g.Detail)
				}
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !stats.Complete || games != n || crashes != n {
		t.Fatalf("%d games recorded (complete %v), %d of them crashes of the engine, want %d; others: %v", games, stats.Complete, crashes, n, bad)
	}
}

// leakSettle counts goroutines, open fds and child processes, retrying for up
// to 2 s until the goroutines and fds are at most the given bounds and no
// child is left; with gc, each try is preceded by a collection (which runs
// cleanups and finalizers).
func leakSettle(maxGo, maxFD int, gc bool) (gos, fds, kids int) {
	deadline := time.Now().Add(2 * time.Second)
	for {
		if gc {
			runtime.GC()
		}
		gos, fds, kids = runtime.NumGoroutine(), leakOpenFDs(), len(leakChildPids())
		if (gos <= maxGo && fds <= maxFD && kids == 0) || time.Now().After(deadline) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// leakOpenFDs is the number of the test process's open file descriptors.
func leakOpenFDs() int {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		panic(err)
	}
	return len(fds)
}

// leakChildPids lists the test process's children, zombies included (an
// unreaped child is a leak too).
func leakChildPids() []int {
	self := os.Getpid()
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// "pid (comm) state ppid …": comm may hold spaces and parentheses.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) >= 2 {
			if ppid, _ := strconv.Atoi(f[1]); ppid == self {
				out = append(out, pid)
			}
		}
	}
	return out
}
