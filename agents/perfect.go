package agents

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/sysmem"
	"github.com/boardgame-arena/arena/search/alphabeta"
	"github.com/boardgame-arena/arena/search/deadline"
	"github.com/boardgame-arena/arena/spec"
)

func init() {
	Register(&Kind{
		Name: "perfect",
		Help: "perfect play: the move of the game's book of solved positions (games.Booker) where it has one, else the game's exact solver's (games.ExactSolver) within time=; a move is proven optimal when either answers in time (the agent's stats say which), else the move the solver proved keeps what the agent's last proven move kept, or the best bound it proved itself (stats: kept), else the solver's own best guess or, without one, a depth-4 search (stats: not proven); only games with an exact solver (othello6, erdos)",
		Keys: []Key{
			{"time", "the solve's budget per move, 1ms to 24h (default 1s)"},
			{"threads", "solver threads, 1 to 256 (default 1)"},
			{"tt", "the solver's table in MB, 1 to 65536 (default: the solver's own size; solvers with a fixed table ignore it)"},
		},
		New: newPerfect,
	})
}

// Perfect plays optimal moves: from the game's book, else by solving.
type Perfect struct {
	name    string
	budget  time.Duration
	threads int
	ttMB    int // 0: the solver's default
	last    Stats
	buf     []games.Move
	proven  provenMove
}

// provenMove remembers the agent's last proven move: the position it left
// (hash and ply) and the value it proved. Whatever the opponent replies,
// the agent's next position is worth at least that value, which the next
// solve gets as its hint (games.SolveOptions.ValueHint). After an optimal reply
// (the one the book or the solver's line gives; the position it leads to
// is best) it is exactly the value, so a move the solver proves keeps it
// is optimal even if the solve does not finish.
type provenMove struct {
	hash   uint64
	ply    int
	value  int
	ok     bool
	best   uint64 // the hash after the optimal reply, if bestOK
	bestOK bool
}

// DefaultPerfectTime is the perfect agent's solve budget per move.
const DefaultPerfectTime = time.Second

func newPerfect(sp spec.Spec, _ uint64) (Agent, error) {
	budget, err := sp.DurationIn("time", DefaultPerfectTime, time.Millisecond, maxThink)
	if err != nil {
		return nil, err
	}
	threads, err := sp.IntIn("threads", 1, 1, abMaxThreads)
	if err != nil {
		return nil, err
	}
	ttMB, err := sp.IntIn("tt", 0, 1, abMaxTT)
	if err != nil {
		return nil, err
	}
	if err := sysmem.CheckMB(fmt.Sprintf("perfect: tt=%d", ttMB), ttMB); err != nil {
		return nil, err
	}
	return &Perfect{name: DisplayName(sp), budget: budget, threads: threads, ttMB: ttMB}, nil
}

// Name implements Agent.
func (a *Perfect) Name() string { return a.name }

// MoveTime implements Budgeter: the solve's budget.
func (a *Perfect) MoveTime(bool) time.Duration { return a.budget }

// Seed implements Seeder: the agent makes no random choice.
func (a *Perfect) Seed(uint64) {}

// LastStats implements Reporter. Info starts with "book", "solved",
// "only move" (the move is proven optimal; "solved" also when the solver
// stopped after proving the move keeps the value, and the opponent's reply
// was the optimal one the agent's line expected, or the game's book knows
// the position's value (games.BookValuer) or the book's move in a
// position one move before it leads to it (games.BookBounder), so that
// value is exact), "kept" (the solver stopped but proved the move keeps
// the value the agent's last proven move had, or the bound the book gives
// through the positions one move before: never worse than that; or, with
// neither, a bound its own search proved) or "not proven" (the solver's
// best guess (games.BestGuess), else a depth-4 search's move).
func (a *Perfect) LastStats() Stats { return a.last }

// errNoSolver says the perfect agent cannot play a game.
var errNoSolver = errors.New("perfect plays only sequential games with an exact solver (games.ExactSolver: othello6, erdos)")

// CheckGame implements GameChecker: the game must have an exact solver.
func (a *Perfect) CheckGame(v games.Variant) error {
	b := v.New()
	_, seq := b.(games.State)
	if _, ok := b.(games.ExactSolver); !ok || !seq {
		return fmt.Errorf("%w; %s has none: use alphabeta or mcts", errNoSolver, v)
	}
	return nil
}

// Move implements Agent.
func (a *Perfect) Move(ctx context.Context, b games.Base, p int) (games.Move, error) {
	st, seq := b.(games.State)
	solver, ok := b.(games.ExactSolver)
	if !ok || !seq {
		return 0, fmt.Errorf("%w; %T has none", errNoSolver, b)
	}
	a.buf = st.LegalMoves(a.buf[:0])
	if len(a.buf) == 0 {
		return 0, errors.New("perfect: the game is over")
	}
	hint, hinted, exact := a.hint(st)
	if bb, ok := b.(games.BookBounder); ok && !exact {
		// Through the positions one move before this one, whatever its
		// history: a game handed over below the book still starts its
		// solve from a proven bound, as after a move of the agent's own.
		if v, ex, ok := bb.BookBound(); ok && (ex || !hinted || v > hint) {
			hint, hinted, exact = v, true, ex
		}
	}
	if bv, ok := b.(games.BookValuer); ok {
		if v, ok := bv.BookValue(); ok {
			hint, hinted, exact = v, true, true
		}
	}
	a.proven.ok = false
	if len(a.buf) == 1 {
		a.last = Stats{Info: "only move"}
		if hinted {
			a.remember(st, a.buf[0], hint, exact, nil)
		}
		return a.buf[0], nil
	}
	if bk, ok := b.(games.Booker); ok {
		if m, v, ok := bk.BookMove(); ok && games.IsLegal(st, m) {
			a.last = Stats{Score: v, Info: fmt.Sprintf("book value %+d", v)}
			a.remember(st, m, v, true, nil)
			return m, nil
		}
	}
	start := time.Now()
	budget := a.budget
	if share, ok := clockShare(ctx, b, p, a.budget, false); ok {
		budget = share
	}
	// A tenth of the budget is kept for the depth-4 search that answers
	// when the solver does not finish: on a busy machine it may take a
	// while, and the arena's limit is the budget.
	stop, _ := deadline.Stop(ctx, start, budget-budget/10)
	// With no time at all (a clock at 0, whose moves the arena lets stand
	// within its margin, or a deadline already past) the agent plays at
	// once, as the search agents do: no solve, and a one-ply search
	// without a table. (The solve and the depth-4 search took 1–15 ms on
	// Othello, 4–6 ms on Erdős, of the margin on every such move.)
	quick := alphabeta.Options{Depth: 1, TTMB: -1}
	var (
		value int
		nodes int64
		err   = context.DeadlineExceeded
	)
	if start.Before(stop) {
		quick = alphabeta.Options{Depth: 4, TTMB: 1}
		sctx, cancel := context.WithDeadline(ctx, stop)
		defer cancel()
		var pv []games.Move
		value, pv, nodes, err = solver.SolveExact(sctx, games.SolveOptions{Threads: a.threads, TableMB: a.ttMB, ValueHint: hint, HasValueHint: hinted})
		if err == nil && len(pv) > 0 && games.IsLegal(st, pv[0]) {
			a.last = Stats{Nodes: nodes, Score: value, Info: fmt.Sprintf("solved value %+d nodes %d in %.3fs", value, nodes, time.Since(start).Seconds())}
			a.remember(st, pv[0], value, true, pv[1:])
			return pv[0], nil
		}
		ans, stopped := solverStopped(st, err)
		if stopped && ans.kept {
			// Stopped, but with a move that keeps what the position was
			// known to be worth (the value the last proven move kept, or
			// a bound the solve proved): no reply of the opponent has
			// lost it anything yet.
			if exact {
				// The position is worth exactly the hint, which the move keeps.
				a.last = Stats{Nodes: nodes, Score: hint, Info: fmt.Sprintf("solved value %+d (the position's exact value, from the book or the opponent's optimal reply; the solver proved the move keeps it, then stopped) nodes %d in %.3fs", hint, nodes, time.Since(start).Seconds())}
			} else {
				a.last = Stats{Nodes: nodes, Score: ans.value, Info: fmt.Sprintf("kept value >= %+d: the solver stopped (%v) after %d nodes in %.3fs", ans.value, ans.err, nodes, time.Since(start).Seconds())}
			}
			a.remember(st, ans.move, ans.value, exact, nil)
			return ans.move, nil
		}
		if stopped {
			// Stopped before it proved anything about a move: the move its
			// own ordering search rates best. (BenchmarkPerfectBelowBook:
			// in 50 hard Othello positions with 23 empty cells, without
			// history, 33 of the depth-4 search's moves that answered here
			// before were not optimal; 12 of the agent's are now.)
			a.last = Stats{Nodes: nodes, Info: fmt.Sprintf("not proven: the solver stopped (%v) after %d nodes in %.3fs; %s", ans.err, nodes, time.Since(start).Seconds(), ans.what())}
			return ans.move, nil
		}
	}
	// Out of time: a quick heuristic search still gives a sound move.
	res, qerr := alphabeta.New(quick).Search(context.Background(), st)
	if qerr != nil {
		return 0, qerr
	}
	a.last = Stats{Nodes: nodes + res.Nodes, Depth: res.Depth, Score: res.Score,
		Info: fmt.Sprintf("not proven: the solver stopped (%v) after %d nodes; depth-%d search", err, nodes, quick.Depth)}
	return res.Move, nil
}

// hint returns the value proven by the agent's last move when st follows
// it by one opponent move (a pass included), and whether that move was the
// optimal reply, so that st is worth exactly that.
func (a *Perfect) hint(st games.State) (value int, ok, exact bool) {
	if !a.proven.ok || st.Ply() != a.proven.ply+1 {
		return 0, false, false
	}
	before := st.Clone()
	before.Undo()
	if before.Hash() != a.proven.hash {
		return 0, false, false
	}
	return a.proven.value, true, a.proven.bestOK && st.Hash() == a.proven.best
}

// remember notes that m, played in st, keeps at least value for the mover,
// and, when it keeps exactly value (exact), the optimal reply: the rest of
// the solver's line (line[0]) or the book's move.
func (a *Perfect) remember(st games.State, m games.Move, value int, exact bool, line []games.Move) {
	after := st.Clone()
	after.Play(m)
	a.proven = provenMove{hash: after.Hash(), ply: after.Ply(), value: value, ok: true}
	if !exact {
		return
	}
	reply, ok := games.Move(0), false
	if len(line) > 0 {
		reply, ok = line[0], true
	} else if bk, isBook := after.(games.Booker); isBook {
		reply, _, ok = bk.BookMove()
	}
	if ok && !after.Terminal() && games.IsLegal(after, reply) {
		after.Play(reply)
		a.proven.best, a.proven.bestOK = after.Hash(), true
	}
}

// stoppedAnswer is the move a solve stopped before it proved the value
// still gives: proven worth at least value (games.KeptHint), or the
// solver's best guess (games.BestGuess).
type stoppedAnswer struct {
	move  games.Move
	kept  bool
	value int   // with kept
	err   error // why the solve stopped
}

// solverStopped returns the answer of a stopped solve whose error is err,
// if it has one that is legal in st.
func solverStopped(st games.State, err error) (stoppedAnswer, bool) {
	var kept *games.KeptHint
	if errors.As(err, &kept) && games.IsLegal(st, kept.Move) {
		return stoppedAnswer{move: kept.Move, kept: true, value: kept.Value, err: kept.Err}, true
	}
	var guess *games.BestGuess
	if errors.As(err, &guess) && games.IsLegal(st, guess.Move) {
		return stoppedAnswer{move: guess.Move, err: guess.Err}, true
	}
	return stoppedAnswer{}, false
}

// what says what the answer's move is, for an agent's stats.
func (s stoppedAnswer) what() string {
	if s.kept {
		return fmt.Sprintf("the move it proved worth at least %+d", s.value)
	}
	return "its ordering search's move"
}
