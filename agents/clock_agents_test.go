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
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/internal/busyskip"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/search/deadline"
	"github.com/boardgame-arena/arena/search/testgames"
)

// clockGame is one game played by a referee with honest clocks, as the
// arena keeps them: each move gets a context whose deadline is the end of
// the mover's remaining time and which carries the clock; the time the
// move took is subtracted and the increment added.
type clockGame struct {
	game     string
	spec     string // both players
	tc       agents.TimeControl
	maxTurns int // simultaneous games: stop after this many turns (0: play to the end)
}

// clockReport is what a referee saw of a clockGame.
type clockReport struct {
	moves     [2]int
	used      [2]time.Duration // time both players' moves took
	available [2]time.Duration // base plus the increments they received
	planned   [2]time.Duration // the sum of the time manager's shares (deadline.Allot)
	left      [2]time.Duration
	problems  []string // flag falls, moves that took too much of the clock, time unused
	// busy counts the moves after which a control, spinning until the
	// instant a search given the move's share stops (deadline.Stop),
	// returned more than controlLate after the share: the machine, not the
	// agent, was slow then. worst is the control's latest return past the
	// share.
	busy  int
	worst time.Duration
	// underUse: a player used too little of its clock, which a busy
	// machine cannot cause (it only makes moves take longer), so it is
	// judged whatever the control saw.
	underUse bool
}

// Limits of a sensible time manager, checked by play.
const (
	// minUse: a player spends more than a quarter of its base plus
	// increments, so it neither plays instantly nor hoards its time; or,
	// in a game that ended long before the manager expected (Gravity won
	// in 5 moves), more than minPlanned of the shares it was allotted.
	minUse     = 0.25
	minPlanned = 0.5
	// controlLate: a control returning this long after its share means a
	// busy machine.
	controlLate = time.Millisecond
	// maxMoveShare: no move takes more than half of what is left (plus
	// moveSlack for the scheduler), so the clock is never spent on one
	// move; the manager aims at a third at most.
	maxMoveShare = 2
	moveSlack    = 3 * time.Millisecond
	// clockAttempts is how often TestTimeManager plays a game that had
	// problems.
	clockAttempts = 3
)

// play plays g and reports what a referee would hold against the players,
// with a control after every move if control is set. wrap, if not nil,
// wraps both players.
func (g clockGame) play(t *testing.T, control bool, wrap func(agents.Agent) agents.Agent) clockReport {
	t.Helper()
	v, err := games.Lookup(g.game)
	if err != nil {
		t.Fatal(err)
	}
	var players [2]agents.Agent
	for p := range players {
		a, err := agents.New(g.spec, uint64(p+1))
		if err != nil {
			t.Fatal(err)
		}
		if wrap != nil {
			a = wrap(a)
		}
		if gs, ok := a.(agents.GameStarter); ok {
			if err := gs.NewGame(v, p); err != nil {
				t.Fatal(err)
			}
		}
		players[p] = a
	}
	var r clockReport
	clock := agents.Clock{Remaining: [2]time.Duration{g.tc.Base, g.tc.Base}, Inc: [2]time.Duration{g.tc.Inc, g.tc.Inc}}
	r.available = clock.Remaining
	b := v.New()
	// move plays p's move on the clock; false when p flagged.
	move := func(p int) (games.Move, bool) {
		before := clock // what the mover is told: the clock before its move
		plan := deadline.Allot(before.Remaining[p], before.Inc[p], games.MovesLeft(b))
		r.planned[p] += plan
		defer func() {
			if !control {
				return
			}
			// The control: the best any search given plan could do. It
			// spins, not sleeps: the scheduler favours a thread waking
			// from sleep over one that computes, as a search does.
			start := time.Now()
			stop, _ := deadline.Stop(context.Background(), start, plan)
			for time.Now().Before(stop) {
			}
			if late := time.Since(start) - plan; late > controlLate {
				r.busy++
				r.worst = max(r.worst, late)
			}
		}()
		start := time.Now()
		ctx, cancel := context.WithDeadline(context.Background(), start.Add(before.Remaining[p]))
		m, err := players[p].Move(agents.WithClock(ctx, &before), b, p)
		took := time.Since(start)
		cancel()
		if err != nil {
			t.Fatalf("%s, player %d, move %d: %v", g.spec, p, r.moves[p]+1, err)
		}
		r.moves[p]++
		r.used[p] += took
		if took > before.Remaining[p] {
			r.problems = append(r.problems, fmt.Sprintf("player %d flagged on move %d: took %v of %v left", p, r.moves[p], took, before.Remaining[p]))
			return m, false
		}
		if took > before.Remaining[p]/maxMoveShare+moveSlack {
			r.problems = append(r.problems, fmt.Sprintf("player %d, move %d: took %v of %v left (more than 1/%d)", p, r.moves[p], took, before.Remaining[p], maxMoveShare))
		}
		clock.Remaining[p] += clock.Inc[p] - took
		r.available[p] += clock.Inc[p]
		return m, true
	}
	for turn := 0; !b.Terminal() && (g.maxTurns == 0 || turn < g.maxTurns); turn++ {
		switch s := b.(type) {
		case games.State:
			p := s.ToMove()
			m, ok := move(p)
			if !ok {
				return r
			}
			if !games.IsLegal(s, m) {
				t.Fatalf("%s, player %d: illegal move %v", g.spec, p, m)
			}
			s.Play(m)
		case games.SimState:
			var ms [2]games.Move
			for p := range ms {
				m, ok := move(p)
				if !ok {
					return r
				}
				if !slices.Contains(s.LegalMovesFor(p, nil), m) {
					t.Fatalf("%s, player %d: illegal move %v", g.spec, p, m)
				}
				ms[p] = m
			}
			s.PlayJoint(ms[0], ms[1])
		}
	}
	r.left = clock.Remaining
	for p := range 2 {
		share := float64(r.used[p]) / float64(r.available[p])
		if share < minUse && float64(r.used[p]) < minPlanned*float64(r.planned[p]) {
			r.underUse = true
			r.problems = append(r.problems, fmt.Sprintf("player %d used %v of %v (%.0f%%) in %d moves, want over %.0f%% (or %.0f%% of the %v allotted)",
				p, r.used[p].Round(time.Millisecond), r.available[p], 100*share, r.moves[p], 100*minUse, 100*minPlanned, r.planned[p].Round(time.Millisecond)))
		}
	}
	return r
}

// TestTimeManager plays full games between two copies of each search agent
// under honest clocks: no move may flag or take more than half the time
// left, and each player must use a sensible share of its time.
//
// Other test binaries and builds can stall any thread for a hundred
// milliseconds, more than a move's share of these clocks, which no agent
// can help. So after every move a control spins for the move's share, as a
// search stops (deadline.Stop), and notes when it returned late. A game with
// problems is played again, up to clockAttempts times; the test fails when
// two attempts had problems while the control was on time throughout (or
// a player used too little of its clock, which no load causes), and is
// skipped when the machine was too busy for that verdict.
func TestTimeManager(t *testing.T) {
	fast := agents.TimeControl{Base: 300 * time.Millisecond, Inc: 5 * time.Millisecond}
	slow := agents.TimeControl{Base: time.Second}
	triangle := agents.TimeControl{Base: 300 * time.Millisecond, Inc: 10 * time.Millisecond}
	tests := []clockGame{
		{game: "othello6", spec: "alphabeta", tc: fast},
		{game: "othello6", spec: "mcts", tc: fast},
		{game: "gravity", spec: "alphabeta", tc: fast},
		{game: "gravity", spec: "mcts", tc: fast},
		// TryAngle Catch: 30 of its 200 turns. A search of it costs a few
		// milliseconds outside its iterations (measured 5 ms and more on
		// a busy machine, with no iteration at all), so its clocks must
		// give a turn more than that (CodinGame gives 50 ms).
		{game: "tryangle:seed=3", spec: "mcts:cutoff=10", tc: triangle, maxTurns: 30},
		{game: "tryangle:seed=3", spec: "alphabeta", tc: triangle, maxTurns: 30},
	}
	if !testing.Short() {
		tests = append(tests,
			clockGame{game: "othello6", spec: "alphabeta", tc: slow},
			clockGame{game: "othello6", spec: "mcts", tc: slow},
			clockGame{game: "gravity", spec: "alphabeta", tc: slow},
			clockGame{game: "gravity", spec: "mcts", tc: slow},
			clockGame{game: "erdos", spec: "alphabeta", tc: fast},
			clockGame{game: "pyrga", spec: "mcts", tc: fast},
			// Not plain mcts: a full random rollout of TryAngle Catch (up
			// to 200 turns) takes 1 to 25 ms, 10 times that under the race
			// detector, and the search reads the clock only between
			// iterations, so a move overruns a share of a few ms by up to
			// an iteration and can flag. A cut-off keeps iterations short.
			clockGame{game: "tryangle:seed=3", spec: "mcts:cutoff=20", tc: triangle, maxTurns: 100},
		)
	}
	for _, g := range tests {
		t.Run(fmt.Sprintf("%s/%s/%v", g.game, g.spec, g.tc), func(t *testing.T) {
			var failed []string // attempts with problems while the control was on time
			for a := 1; a <= clockAttempts; a++ {
				r := g.play(t, true, nil)
				for p := range 2 {
					t.Logf("attempt %d, player %d: %d moves, used %v of %v (%.0f%%; allotted %v), %v left", a, p, r.moves[p],
						r.used[p].Round(time.Millisecond), r.available[p], 100*float64(r.used[p])/float64(r.available[p]),
						r.planned[p].Round(time.Millisecond), r.left[p].Round(time.Millisecond))
				}
				if len(r.problems) == 0 {
					return
				}
				msg := fmt.Sprintf("attempt %d: %s (control late after %d moves, at worst %v)", a, strings.Join(r.problems, "; "), r.busy, r.worst)
				t.Log(msg)
				if r.busy == 0 || r.underUse {
					failed = append(failed, msg)
				}
			}
			if len(failed) < 2 {
				busyskip.Skipf(t, "the control was late in %d of %d attempts with problems", clockAttempts-len(failed), clockAttempts)
			}
			t.Fatalf("problems where the control was on time:\n%s", strings.Join(failed, "\n"))
		})
	}
}

// TestTimeManagerCheck shows that TestTimeManager's checks can fail: an
// agent that ignores the clock (thinking until the deadline, less the
// searches' safety margin) takes most of its time on one move, and one
// that plays at once leaves its time unused. An agent that ignores the
// clock is caught either way it shows: by taking more than half of what
// was left, or, on a machine slow enough that it overruns the deadline
// too ("took 468ms of 300ms left" at a load of 8 on 2 cores), by flagging.
func TestTimeManagerCheck(t *testing.T) {
	fast := agents.TimeControl{Base: 300 * time.Millisecond, Inc: 5 * time.Millisecond}
	ignored := []string{"more than 1/2", "flagged"}
	for _, tc := range []struct {
		name string
		g    clockGame
		want []string // a problem saying any of these
	}{
		{"ignores the clock", clockGame{game: "othello6", spec: "alphabeta", tc: fast}, ignored},
		{"ignores the clock, mcts", clockGame{game: "othello6", spec: "mcts:time=1s", tc: fast}, ignored},
		{"plays at once", clockGame{game: "othello6", spec: "alphabeta:depth=1", tc: fast}, []string{"want over 25%"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.g.play(t, false, func(a agents.Agent) agents.Agent { return noClock{a} })
			if !slices.ContainsFunc(r.problems, func(p string) bool {
				return slices.ContainsFunc(tc.want, func(w string) bool { return strings.Contains(p, w) })
			}) {
				t.Fatalf("problems %q, want one saying any of %q", r.problems, tc.want)
			}
		})
	}
}

// noClock is an agent as it was before clocks: its moves' contexts keep
// the deadline but carry no clock.
type noClock struct{ agents.Agent }

func (a noClock) Move(ctx context.Context, b games.Base, p int) (games.Move, error) {
	return a.Agent.Move(hideClock{ctx}, b, p)
}

type hideClock struct{ context.Context }

func (c hideClock) Value(key any) any {
	if key == agents.ClockKey {
		return nil
	}
	return c.Context.Value(key)
}

// TestClockBudgets: on a clock, time= caps a move's share, depth= and
// iters= stop it sooner, and mcts's default of 10000 iterations gives way
// to the share; without a clock the default stays.
func TestClockBudgets(t *testing.T) {
	end := othello6.New()
	r := rng.New(5)
	for end.Ply() < 26 || end.Terminal() {
		if end.Terminal() {
			end = othello6.New()
		}
		games.RandomPlies(end, 1, r)
	}
	long := &agents.Clock{Remaining: [2]time.Duration{10 * time.Second, 10 * time.Second}}
	short := &agents.Clock{Remaining: [2]time.Duration{600 * time.Millisecond, 600 * time.Millisecond}}
	for _, tc := range []struct {
		spec  string
		start bool          // from the start position, else 10 empties
		clock *agents.Clock // nil: none
		ok    func(el time.Duration, s agents.Stats) bool
		want  string
		// bound, if set: the move must end within it, judged by
		// testgames.OnTime (a control beside it tells a busy machine
		// from a late agent); not under the race detector, which
		// slows the search itself (see skipUnderRace).
		bound time.Duration
	}{
		{"alphabeta:time=20ms", true, long, nil, "time= caps the share", 200 * time.Millisecond},
		{"alphabeta:exact", true, short, nil, "the solve bounded by the share", 300 * time.Millisecond},
		{"alphabeta:depth=2", true, long, func(el time.Duration, s agents.Stats) bool { return s.Depth == 2 && el < time.Second }, "depth 2, at once", 0},
		{"mcts:iters=300,solver=false", false, long, func(_ time.Duration, s agents.Stats) bool { return s.Nodes == 300 }, "300 iterations", 0},
		{"mcts:solver=false", false, short, func(el time.Duration, _ agents.Stats) bool { return el >= 50*time.Millisecond }, "the share of a fifth of 600ms, not 10000 iterations", 0},
		{"mcts:solver=false", false, nil, func(_ time.Duration, s agents.Stats) bool { return s.Nodes == 10000 }, "the default 10000 iterations", 0},
	} {
		t.Run(tc.spec+"/"+tc.want, func(t *testing.T) {
			if tc.bound > 0 && raceEnabled {
				t.Skipf("%s not judged under the race detector", tc.want)
			}
			move := func() time.Duration {
				a, err := agents.New(tc.spec, 1)
				if err != nil {
					t.Fatal(err)
				}
				st := end
				if tc.start {
					st = othello6.New()
				}
				ctx := context.Background()
				if tc.clock != nil {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.clock.Remaining[st.ToMove()])
					defer cancel()
					ctx = agents.WithClock(ctx, tc.clock)
				}
				start := time.Now()
				m, err := a.Move(ctx, st, st.ToMove())
				el := time.Since(start)
				s := a.(agents.Reporter).LastStats()
				if err != nil || !games.IsLegal(st, m) || tc.ok != nil && !tc.ok(el, s) {
					t.Errorf("%s (clock %v): move %v (%v) in %v, stats %+v; want %s", tc.spec, tc.clock, m, err, el, s, tc.want)
				}
				return el
			}
			if tc.bound == 0 {
				move()
				return
			}
			testgames.OnTime(t, tc.bound, 3, move)
		})
	}
}

// TestClockAtZero: a player whose clock is at 0 (its moves within the
// arena's margin leave it there, see README "A flag fall") plays at once:
// the time manager gives it deadline.MinMoveTime and the context's
// deadline is the move's start, so the search agents answer from the root
// without searching (perfect: a one-ply search), whatever their spec's
// budget, instead of spending the arena's margin on every move. Judged by
// the nodes searched, which no load changes.
func TestClockAtZero(t *testing.T) {
	mid := othello6.New()
	games.RandomPlies(mid, 12, rng.New(3))
	onePly := int64(1 + len(mid.LegalMoves(nil))) // the root and its children
	for _, spec := range []string{"alphabeta", "alphabeta:time=1s", "alphabeta:depth=8", "alphabeta:nodes=100000",
		"mcts", "mcts:time=1s", "mcts:iters=100000", "perfect:time=1s"} {
		for _, inc := range []time.Duration{0, 5 * time.Millisecond} {
			a, err := agents.New(spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			p := mid.ToMove()
			var c agents.Clock
			c.Remaining[1-p], c.Inc = time.Second, [2]time.Duration{inc, inc}
			start := time.Now()
			ctx, cancel := context.WithDeadline(agents.WithClock(context.Background(), &c), start)
			m, err := a.Move(ctx, mid, p)
			cancel()
			if err != nil || !games.IsLegal(mid, m) {
				t.Fatalf("%s, +%v: move %v, %v", spec, inc, m, err)
			}
			if st := a.(agents.Reporter).LastStats(); st.Nodes > onePly {
				t.Errorf("%s, 0 left +%v: searched %d nodes, want at most one ply's %d (%s)", spec, inc, st.Nodes, onePly, st.Info)
			}
		}
	}
}

// TestClockThenNone: an agent that moved on a clock moves without one with
// its own budget again (each move sets the search's budget anew).
func TestClockThenNone(t *testing.T) {
	st := othello6.New()
	clock := &agents.Clock{Remaining: [2]time.Duration{200 * time.Millisecond, 200 * time.Millisecond}}
	for _, tc := range []struct {
		spec string
		want func(agents.Stats) bool
		what string
	}{
		{"mcts:iters=700", func(s agents.Stats) bool { return s.Nodes == 700 }, "700 iterations"},
		{"mcts", func(s agents.Stats) bool { return s.Nodes == 10000 }, "10000 iterations"},
		{"alphabeta:depth=3", func(s agents.Stats) bool { return s.Depth == 3 }, "depth 3"},
	} {
		a, err := agents.New(tc.spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(agents.WithClock(context.Background(), clock), clock.Remaining[0])
		_, err = a.Move(ctx, st, 0)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Move(context.Background(), st, 0); err != nil {
			t.Fatal(err)
		}
		if s := a.(agents.Reporter).LastStats(); !tc.want(s) {
			t.Errorf("%s without a clock after a move on one: stats %+v, want %s", tc.spec, s, tc.what)
		}
	}
}
