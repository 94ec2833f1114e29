package arena

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

func init() {
	agents.Register(&agents.Kind{Name: "t-clock", Help: "test agent: sleeps its sleep= duration, plays random moves and reports the clock it was shown as its info",
		Keys: []agents.Key{{Name: "sleep", Help: "time per move"}},
		New: func(s spec.Spec, seed uint64) (agents.Agent, error) {
			sleep, err := s.Duration("sleep", 0)
			if err != nil {
				return nil, err
			}
			return &clockAgent{badAgent: badAgent{name: agents.DisplayName(s), r: rng.New(seed)}, sleep: sleep}, nil
		}})
}

// clockAgent says in its statistics' Info what its move context told it:
// "clock R0 R1 I0 I1 due D" (nanoseconds: both players' time left and
// increments, and the time to the context's deadline when the move began),
// or "no clock".
type clockAgent struct {
	badAgent
	sleep time.Duration
	info  string
}

func (a *clockAgent) Move(ctx context.Context, s games.Base, p int) (games.Move, error) {
	a.info = "no clock"
	if c, ok := agents.ClockFrom(ctx); ok {
		dl, _ := ctx.Deadline()
		a.info = fmt.Sprintf("clock %d %d %d %d due %d", c.Remaining[0], c.Remaining[1], c.Inc[0], c.Inc[1], time.Until(dl))
	}
	time.Sleep(a.sleep)
	return a.random(s, p)
}

func (a *clockAgent) LastStats() agents.Stats { return agents.Stats{Nodes: 1, Info: a.info} }

// parseTC reads a time control the test wrote.
func parseTC(t *testing.T, text string) agents.TimeControl {
	t.Helper()
	tc, err := agents.ParseTimeControl(text)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

// checkClocks checks a sequential game's clock times against its move
// statistics: after each ply, a clocked player's time left is its base
// minus the time of its moves so far plus an increment per move (never
// below the increment), to the rounding of the recorded times; and what
// each clocked move's context said is the clocks before it.
func checkClocks(t *testing.T, g *results.GameRecord) {
	t.Helper()
	var tc [2]agents.TimeControl
	for p := range tc {
		if g.Players[p].TC != "" {
			tc[p] = parseTC(t, g.Players[p].TC)
		}
	}
	if len(g.MoveStats) < len(g.Clocks) {
		t.Fatalf("game %d: %d move stats for %d clock entries", g.Index, len(g.MoveStats), len(g.Clocks))
	}
	// left follows the arena's rule: a move takes its time off the clock,
	// a move past the time left (within the margin) leaves it at 0, then
	// the increment is added.
	var left [2]float64
	var n [2]int
	for p := range left {
		left[p] = results.NoClock
		if !tc[p].IsZero() {
			left[p] = ms(tc[p].Base)
		}
	}
	for i, c := range g.Clocks {
		m := g.MoveStats[i]
		before := left
		if strings.HasPrefix(m.Info, "clock ") {
			var r0, r1, i0, i1, due int64
			if _, err := fmt.Sscanf(m.Info, "clock %d %d %d %d due %d", &r0, &r1, &i0, &i1, &due); err != nil {
				t.Fatalf("game %d move %d: info %q: %v", g.Index, i, m.Info, err)
			}
			told := [2]float64{ms(time.Duration(r0)), ms(time.Duration(r1))}
			for p := range told {
				if !tc[p].IsZero() && math.Abs(told[p]-before[p]) > 0.001*float64(n[p]+1) {
					t.Errorf("game %d move %d: player %d was told %.3f ms left, the record says %.3f", g.Index, i, p, told[p], before[p])
				}
			}
			if time.Duration(i0) != tc[0].Inc || time.Duration(i1) != tc[1].Inc {
				t.Errorf("game %d move %d: told increments %d %d, want %v %v", g.Index, i, i0, i1, tc[0].Inc, tc[1].Inc)
			}
			if left := told[m.Player]; ms(time.Duration(due)) > left+0.01 || ms(time.Duration(due)) < left-50 {
				t.Errorf("game %d move %d: deadline %v away with %.3f ms on the clock", g.Index, i, time.Duration(due), left)
			}
		} else if m.Info == "no clock" && !tc[m.Player].IsZero() {
			t.Errorf("game %d move %d: a clocked move's context had no clock (%q)", g.Index, i, m.Info)
		}
		if p := m.Player; !tc[p].IsZero() {
			left[p] = max(left[p]-m.MS, 0) + ms(tc[p].Inc)
		}
		n[m.Player]++
		for p := range c {
			if math.Abs(c[p]-left[p]) > 0.001*float64(n[p]+1) {
				t.Errorf("game %d after move %d: player %d has %.3f ms left, want %.3f (what was left less the move's time, at least 0, plus the increment)", g.Index, i, p, c[p], left[p])
			}
		}
	}
}

// TestClocks: the recorded clocks follow the times the moves took and the
// increments; agents are told the clocks; per-agent tc= overrides the
// run's; clock times are recorded only when a clock is in force.
func TestClocks(t *testing.T) {
	tests := []struct {
		name    string
		game    string
		tc      string
		agents  []string
		wantTC  [2]string // of agent 0 and agent 1
		clocks  bool
		stats   bool
		minMove float64 // ms every clocked move takes at least
	}{
		{"run's clock with increment", "t-sum", "300ms+20ms", []string{"t-clock:sleep=2ms", "t-clock:sleep=1ms,name=b"}, [2]string{"300ms+20ms", "300ms+20ms"}, true, true, 1},
		{"per-agent tc", "t-sum", "1s", []string{"t-clock:tc=200ms+5ms,sleep=1ms", "t-clock:name=b"}, [2]string{"200ms+5ms", "1s"}, true, true, 0},
		{"one side on a clock", "t-sum", "", []string{"t-clock:tc=250ms", "random"}, [2]string{"250ms", ""}, true, true, 0},
		{"simultaneous", "t-sim", "400ms+1ms", []string{"t-clock:sleep=1ms", "random"}, [2]string{"400ms+1ms", "400ms+1ms"}, true, true, 1},
		{"no clock, plain agents", "t-sum", "", []string{"random", "t-max"}, [2]string{}, false, false, 0},
		{"no clock, a reporter", "t-sum", "", []string{"t-clock", "random"}, [2]string{}, false, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{Game: tt.game, Agents: tt.agents, GamesPerPair: 4, Openings: "random:1", Seed: 3, MoveMargin: 500 * time.Millisecond}
			if tt.tc != "" {
				o.TimeControl = parseTC(t, tt.tc)
			}
			tour := mustNew(t, o)
			if tour.Config.TimeControl != tt.tc {
				t.Errorf("header tc %q, want %q", tour.Config.TimeControl, tt.tc)
			}
			got, _ := collect(t, tour, RunOptions{Concurrency: 2})
			for i := range got {
				g := &got[i]
				if g.Termination != results.Normal {
					t.Fatalf("game %d: %s: %s", g.Index, g.Termination, g.Detail)
				}
				for p, pl := range g.Players {
					if pl.TC != tt.wantTC[pl.Agent] {
						t.Errorf("game %d: player %d (agent %d) tc %q, want %q", g.Index, p, pl.Agent, pl.TC, tt.wantTC[pl.Agent])
					}
				}
				turns := g.Plies - results.Plies(g.Opening)
				if (len(g.Clocks) > 0) != tt.clocks || tt.clocks && len(g.Clocks) != turns {
					t.Errorf("game %d: %d clock entries for %d turns, want clocks: %v", g.Index, len(g.Clocks), turns, tt.clocks)
				}
				if (len(g.MoveStats) > 0) != tt.stats {
					t.Errorf("game %d: %d move stats, want some: %v", g.Index, len(g.MoveStats), tt.stats)
				}
				for _, m := range g.MoveStats {
					if g.Players[m.Player].Agent == 0 && m.MS < tt.minMove {
						t.Errorf("game %d: a move of %.3f ms by an agent that sleeps %.0f ms", g.Index, m.MS, tt.minMove)
					}
					if !tt.clocks && m.Info != "no clock" && m.Info != "" {
						t.Errorf("game %d: an agent without a clock was told %q", g.Index, m.Info)
					}
				}
				if tt.game == "t-sum" {
					checkClocks(t, g)
				} else if tt.clocks && len(g.MoveStats) != 2*turns {
					t.Errorf("game %d: %d move stats for %d simultaneous turns, want two a turn", g.Index, len(g.MoveStats), turns)
				}
			}
		})
	}
}

// TestFlagFall: a move that takes longer than the time left plus the
// margin loses on time, and the detail says the flag fell, the time used
// and what was on the clock; the clocks recorded before it show the time
// running out.
func TestFlagFall(t *testing.T) {
	// 500ms base, 300ms a move: 200ms left after the first move, and the
	// second (300ms > 200ms + 5ms) loses. The first move may run up to
	// 195ms late (a busy machine) and the game still goes as planned.
	tour := mustNew(t, Options{Game: "t-sum", Agents: []string{"t-slow:sleep=300ms,tc=500ms,name=slow", "random"}, GamesPerPair: 2,
		Openings: "none", MoveMargin: 5 * time.Millisecond})
	got, _ := collect(t, tour, RunOptions{Concurrency: 2})
	fell := regexp.MustCompile(`slow lost on time: its flag fell after ([0-9.]+)ms of thought with ([0-9.]+)ms on its clock \(margin 5ms\): the arena stopped waiting`)
	for _, g := range got {
		slow := 0
		if g.Players[1].Name == "slow" {
			slow = 1
		}
		if g.Termination != results.Timeout || g.Forfeit != slow {
			t.Fatalf("game %d: %s by %d (%s), want a timeout by %d", g.Index, g.Termination, g.Forfeit, g.Detail, slow)
		}
		// slow moved once and then lost: plies before its second move.
		if want := 2 + slow; g.Plies != want || len(g.Clocks) != want {
			t.Fatalf("game %d: %d plies and %d clock entries, want %d", g.Index, g.Plies, len(g.Clocks), want)
		}
		left := g.Clocks[len(g.Clocks)-1][slow]
		if left > 200 || left < 0 {
			t.Errorf("game %d: %.3f ms left before the flag fell, want at most 200", g.Index, left)
		}
		// The watchdog gives up once the time left and the margin have
		// passed (a tick later; later still on a busy machine, never
		// sooner), and the detail names the time left.
		m := fell.FindStringSubmatch(g.Detail)
		if m == nil {
			t.Fatalf("game %d: detail %q", g.Index, g.Detail)
		}
		thought, err1 := strconv.ParseFloat(m[1], 64)
		onClock, err2 := strconv.ParseFloat(m[2], 64)
		if err1 != nil || err2 != nil || math.Abs(onClock-left) > 1 || thought < left+5 {
			t.Errorf("game %d: detail %q, the record %.3f ms left", g.Index, g.Detail, left)
		}
		if g.Clocks[0][1-slow] != results.NoClock {
			t.Errorf("game %d: the clockless random has %v ms", g.Index, g.Clocks[0][1-slow])
		}
		if last := g.MoveStats[len(g.MoveStats)-1]; last.Player != slow || last.MS < g.Clocks[len(g.Clocks)-1][slow]+5 {
			t.Errorf("game %d: last move stat %+v, want the slow player's, past its time left + 5 ms", g.Index, last)
		}
		checkClocks(t, &g)
	}
}

// TestFlagFallAfterTheMove: without a watchdog (Play), a move that
// returns after the time left plus the margin loses on time when it
// returns, with the same description.
func TestFlagFallAfterTheMove(t *testing.T) {
	slow, err := agents.New("t-slow:sleep=30ms,name=slow", 1)
	if err != nil {
		t.Fatal(err)
	}
	v, err := games.Lookup("t-sum")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Play(context.Background(), Setup{Variant: v},
		[2]Seat{{Agent: slow, Limits: Limits{Clock: parseTC(t, "50ms"), Margin: 5 * time.Millisecond}}, {Agent: &maxAgent{name: "max"}}}, nil)
	g := res.Record
	if err == nil || g.Termination != results.Timeout || g.Forfeit != 0 {
		t.Fatalf("%v: %s by %d", err, g.Termination, g.Forfeit)
	}
	left := time.Duration(g.Clocks[1][0] * 1e6) // 50ms minus its first move
	if left > 20*time.Millisecond {
		t.Errorf("%v left after a 30ms move on 50ms", left)
	}
	for _, want := range []string{"slow lost on time: its flag fell after 3", "ms of thought with " + roundDur(left).String() + " on its clock (margin 5ms)"} {
		if !strings.Contains(g.Detail, want) {
			t.Errorf("detail %q lacks %q", g.Detail, want)
		}
	}
	if strings.Contains(g.Detail, "stopped waiting") || g.Players[0].TC != "50ms" || len(g.Clocks) != 2 || g.Clocks[1] != g.Clocks[0] {
		t.Errorf("record %+v", g)
	}
	if err := g.Check(); err != nil {
		t.Error(err)
	}
}

// TestClockMarginAndIncrement: a move over the time left but within the
// margin stands; the clock is then empty and only the increment is left.
func TestClockMarginAndIncrement(t *testing.T) {
	tour := mustNew(t, Options{Game: "t-sum", Agents: []string{"t-slow:sleep=15ms,tc=10ms+40ms,name=slow", "random"}, GamesPerPair: 2,
		Openings: "none", MoveMargin: 100 * time.Millisecond})
	got, _ := collect(t, tour, RunOptions{Concurrency: 2})
	for _, g := range got {
		if g.Termination != results.Normal {
			t.Fatalf("game %d: %s: %s", g.Index, g.Termination, g.Detail)
		}
		slow := 0
		if g.Players[1].Name == "slow" {
			slow = 1
		}
		// After its first move (ply slow): 10 − 15 → 0, + 40.
		if left := g.Clocks[slow][slow]; left != 40 {
			t.Errorf("game %d: %.3f ms left after overrunning within the margin, want exactly the increment 40", g.Index, left)
		}
	}
}

// TestStuckOnClock: an agent that never answers on its clock is abandoned
// by the watchdog at its time left plus the margin; the record says its
// flag fell and carries the clocks and move times so far.
func TestStuckOnClock(t *testing.T) {
	tour := mustNew(t, Options{Game: "t-sum", Agents: []string{"t-stuck:at=2,name=stuck-c,tc=30ms+1ms", "t-clock:tc=1s"}, GamesPerPair: 2, Openings: "none",
		MoveMargin: 40 * time.Millisecond})
	start := time.Now()
	got, st := collect(t, tour, RunOptions{Concurrency: 2})
	if len(got) != 2 || st.Abandoned != 2 {
		t.Fatalf("%d games, stats %+v", len(got), st)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("took %v", el)
	}
	for i := range got {
		g := &got[i]
		bad := 0
		if g.Players[1].Name == "stuck-c" {
			bad = 1
		}
		if g.Termination != results.Timeout || g.Forfeit != bad || !strings.Contains(g.Detail, "stuck-c lost on time: its flag fell after") ||
			!strings.Contains(g.Detail, "on its clock (margin 40ms): the arena stopped waiting") {
			t.Errorf("game %d: %s by %d: %s", g.Index, g.Termination, g.Forfeit, g.Detail)
		}
		if len(g.Clocks) != g.Plies || g.Plies != 2+bad {
			t.Errorf("game %d: %d plies, %d clock entries", g.Index, g.Plies, len(g.Clocks))
		}
		last := g.MoveStats[len(g.MoveStats)-1]
		if last.Player != bad || last.MS < 30+40 {
			t.Errorf("game %d: the stuck move's stat %+v, want player %d past 70 ms", g.Index, last, bad)
		}
		checkClocks(t, g)
	}
	stuckMu.Lock()
	delete(stuckCalls, "stuck-c")
	close(stuckRelease)
	stuckRelease = make(chan struct{})
	stuckMu.Unlock()
}

// TestTimeControlOptions: --tc with --move-time is refused; the run's tc
// is in the header and OptionsFrom gives it back; resume refuses another.
func TestTimeControlOptions(t *testing.T) {
	o := Options{Game: "t-sum", Agents: []string{"random", "greedy"}, GamesPerPair: 2, TimeControl: parseTC(t, "2s+50ms")}
	bad := o
	bad.MoveTime = time.Second
	if _, err := New(bad); err == nil || !strings.Contains(err.Error(), "TimeControl 2s+50ms and MoveTime 1s cannot be used together") {
		t.Errorf("tc with move-time: %v", err)
	}
	bad = o
	bad.Agents = []string{"random:tc=fast", "greedy"}
	if _, err := New(bad); err == nil || !strings.Contains(err.Error(), "tc=") {
		t.Errorf("a bad tc= key: %v", err)
	}
	// An agent's own tc= goes with --move-time: it is on its clock, the
	// other on the per-move limit (which also bounds the clocked one's
	// NewGame).
	mixed := mustNew(t, Options{Game: "t-sum", Agents: []string{"random:tc=1s+10ms", "greedy"}, GamesPerPair: 2, MoveTime: 50 * time.Millisecond})
	if l := mixed.Limits; l[0].Clock != parseTC(t, "1s+10ms") || l[0].Move != 50*time.Millisecond || !l[1].Clock.IsZero() || l[1].Move != 50*time.Millisecond {
		t.Errorf("tc= with --move-time: limits %+v", l)
	}
	tour := mustNew(t, o)
	if tour.Config.TimeControl != "2s+50ms" || tour.Limits[0].Clock != o.TimeControl {
		t.Fatalf("config tc %q, limits %+v", tour.Config.TimeControl, tour.Limits[0])
	}
	if back := OptionsFrom(tour.Config); back.TimeControl != o.TimeControl {
		t.Errorf("OptionsFrom: tc %v, want %v", back.TimeControl, o.TimeControl)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	createRecord(t, path, tour).Close()
	if _, err := resume(path, nil); err != nil {
		t.Errorf("resume as it was: %v", err)
	}
	other := o
	other.TimeControl = parseTC(t, "2s")
	if _, err := resume(path, &other); err == nil || !strings.Contains(err.Error(), "tc: 2s+50ms (file) ≠ 2s (now)") {
		t.Errorf("resume with another tc: %v", err)
	}
	c := tour.Config
	c.TimeControl = "soon"
	if err := CheckConfig(c); err == nil || !strings.Contains(err.Error(), `tc: time control "soon"`) {
		t.Errorf("a header with a bad tc: %v", err)
	}
}

// TestClockNoAllocsPerMove: with clocks, a run allocates no memory per
// move (the statistics and clock lists are cut from blocks).
func TestClockNoAllocsPerMove(t *testing.T) {
	if testing.Short() {
		t.Skip("plays thousands of games")
	}
	run := func(n int) uint64 {
		tour := mustNew(t, Options{Game: "t-sum", Agents: []string{"random:tc=1h", "random:tc=1h+1s,name=b"}, GamesPerPair: n, Openings: "none"})
		var ms0, ms1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		if _, err := tour.Run(context.Background(), RunOptions{Concurrency: 1, ReuseGames: true}); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&ms1)
		return ms1.Mallocs - ms0.Mallocs
	}
	small, large := run(1000), run(5000)
	perGame := float64(int64(large)-int64(small)) / 4000
	// Ten moves a game: a block of 1024 entries lasts about a hundred
	// games, so anything near an allocation a move is far above this.
	if perGame > 0.5 {
		t.Errorf("%.2f allocations per game of 10 clocked moves (%d for 1000 games, %d for 5000)", perGame, small, large)
	}
}
