package agents

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/sysmem"
	"github.com/boardgame-arena/arena/search/alphabeta"
	"github.com/boardgame-arena/arena/search/deadline"
	"github.com/boardgame-arena/arena/spec"
)

func init() {
	Register(&Kind{
		Name: "alphabeta",
		Help: "negamax alpha-beta (PVS, iterative deepening, aspiration, transposition table, killers/history); simultaneous games are searched sequentialised, the searcher choosing first (cautious); default budget time=1s; on a clock (tc=, or the run's time control) the time per move comes from the time manager (a share of the remaining time and increment over the game's estimate of moves left, at most a third of what is left), and time= then caps it",
		Keys: []Key{
			{"depth", "stop after completing this depth (plies), 1 to 100"},
			{"time", "think this long per move, 1ms to 24h, e.g. 200ms, 2s (less a safety margin: a fifth, at most 50 ms); the best move of the last complete iteration is played; on a clock (tc=, or the run's time control) the time per move comes from the time manager, and time= then caps it"},
			{"nodes", "stop after about this many nodes per move, 1 to 10^12"},
			{"tt", "transposition table size in MB, 0 to 65536 and at most 3/4 of the machine's memory (default 64; 0 turns the table off)"},
			{"threads", "Lazy SMP threads sharing the table, 1 to 256 (default 1)"},
			{"exact", "search to the end of the game with exact scores (uses the game's own solver when it has one; time= then bounds the solve, after which the move the solver proved the most for, or its best guess, is played, or, from a solver without either, a depth-4 search's)"},
			{"asp", "half-width of the aspiration window in evaluation units, 0 to 16777216 (default 40; 0: full window)"},
			{"rootscores", "give every root move an exact score (full-window search of each; slower; for analyse)"},
			evalKey,
		},
		New: newAlphaBeta,
	})
}

// AlphaBeta is the alpha-beta agent.
type AlphaBeta struct {
	name  string
	s     *alphabeta.Searcher
	exact bool
	last  Stats
	root  []MoveAnalysis
	// budget is the time= key, 0 without it (see MoveTime).
	budget time.Duration
	// depth, nodes and think are the search's budgets without a clock
	// (think: time=, or the default second); a move on a clock replaces
	// think with its share (see clockShare), so each move sets them anew.
	depth int
	nodes int64
	think time.Duration
	eval  evalWeights // eval.NAME keys
}

// Ranges of the alphabeta keys (the help text states them).
const (
	abMaxDepth   = 100 // the search's iterative-deepening cap
	abMaxNodes   = 1_000_000_000_000
	abMaxTT      = 1 << 16 // MB
	abMaxThreads = 256
	maxThink     = 24 * time.Hour // longest time= budget of the search agents
)

func newAlphaBeta(sp spec.Spec, _ uint64) (Agent, error) {
	depth, err := sp.IntIn("depth", 0, 1, abMaxDepth)
	if err != nil {
		return nil, err
	}
	nodes, err := sp.Int64In("nodes", 0, 1, abMaxNodes)
	if err != nil {
		return nil, err
	}
	think, err := sp.DurationIn("time", 0, time.Millisecond, maxThink)
	if err != nil {
		return nil, err
	}
	tt, err := sp.IntIn("tt", 64, 0, abMaxTT)
	if err != nil {
		return nil, err
	}
	if err := sysmem.CheckMB(fmt.Sprintf("alphabeta: tt=%d", tt), tt); err != nil {
		return nil, err
	}
	threads, err := sp.IntIn("threads", 1, 1, abMaxThreads)
	if err != nil {
		return nil, err
	}
	exact, err := sp.Bool("exact", false)
	if err != nil {
		return nil, err
	}
	asp, err := sp.IntIn("asp", 40, 0, games.WinScore)
	if err != nil {
		return nil, err
	}
	rootScores, err := sp.Bool("rootscores", false)
	if err != nil {
		return nil, err
	}
	eval, err := parseEvalWeights(sp)
	if err != nil {
		return nil, err
	}
	budget := think
	if depth == 0 && nodes == 0 && think == 0 && !exact {
		think = time.Second
	}
	if tt == 0 {
		tt = -1 // no table
	}
	opts := alphabeta.Options{Depth: depth, Nodes: nodes, Time: think, TTMB: tt, Threads: threads,
		Exact: exact, Aspiration: asp, RootScores: rootScores}
	return &AlphaBeta{name: DisplayName(sp), s: alphabeta.New(opts), exact: exact, budget: budget,
		depth: depth, nodes: nodes, think: think, eval: eval}, nil
}

// MoveTime implements Budgeter: the time= key, the same for every move.
// Without it (depth=, nodes=, or the default second) the agent reports no
// budget and the arena keeps its own limit.
func (a *AlphaBeta) MoveTime(bool) time.Duration { return a.budget }

// MoveLimitKeys implements MoveLimiter: a move's depth and nodes.
func (a *AlphaBeta) MoveLimitKeys() (depth, nodes bool) { return true, true }

// Name implements Agent.
func (a *AlphaBeta) Name() string { return a.name }

// NewGame implements GameStarter: the table and history start afresh.
func (a *AlphaBeta) NewGame(games.Variant, int) error {
	a.s.Reset()
	return nil
}

// CheckGame implements GameChecker: the eval.NAME keys must name weights
// of v's evaluation, with values in their ranges.
func (a *AlphaBeta) CheckGame(v games.Variant) error { return a.eval.check(v) }

// Seed implements Seeder. Alpha-beta makes no random choices; NewGame's
// Reset clears what earlier games left, so the arena can reuse one instance
// (and its table's memory) for many games.
func (a *AlphaBeta) Seed(uint64) {}

// LastStats implements Reporter.
func (a *AlphaBeta) LastStats() Stats { return a.last }

// Analysis implements Analyser: the root moves of the last search.
func (a *AlphaBeta) Analysis() []MoveAnalysis { return a.root }

// Move implements Agent.
func (a *AlphaBeta) Move(ctx context.Context, b games.Base, p int) (games.Move, error) {
	// The eval.NAME weights hold for this move only (the search's clones
	// share them); the opponent's are restored however the move ends.
	w, previous, err := a.eval.use(b, gameName(b))
	if err != nil {
		return 0, err
	}
	if w != nil {
		defer w.UseWeights(previous)
	}
	st, ok := b.(games.State)
	if !ok {
		sim, ok := b.(games.SimState)
		if !ok {
			return 0, errors.New("alphabeta: needs a sequential or simultaneous game")
		}
		// Simultaneous turns are searched sequentialised, the searcher
		// choosing first (the cautious reading, see games.Sequentialize).
		st = games.Sequentialize(sim, p)
	}
	// On a clock the move gets its share (depth= and nodes= may stop it
	// sooner); without one, the agent's own budget. MoveLimits in the
	// context replace depth=, nodes= and time= for this move.
	think, limit, depth, nodes := a.think, a.budget, a.depth, a.nodes
	if l, ok := moveLimitsFrom(ctx); ok {
		think, limit, depth, nodes = 0, 0, l.Depth, l.Nodes
	}
	if share, ok := clockShare(ctx, b, p, limit, true); ok {
		think = share
	}
	a.s.SetBudget(depth, nodes, think)
	if a.exact {
		if solver, ok := b.(alphabeta.ExactSolver); ok {
			return a.solve(ctx, st, solver)
		}
	}
	res, err := a.s.Search(ctx, st)
	if err != nil && res.Nodes == 0 {
		return 0, err // a finished game, or no time at all
	}
	var info strings.Builder
	if res.Exact {
		fmt.Fprintf(&info, "exact %s", alphabeta.FormatScore(res.Score))
	} else {
		fmt.Fprintf(&info, "depth %d seldepth %d score %s", res.Depth, res.SelDepth, alphabeta.FormatScore(res.Score))
	}
	fmt.Fprintf(&info, " nodes %d nps %.0f pv %s", res.Nodes, res.NPS(), formatLine(st, res.PV))
	a.last = Stats{Nodes: res.Nodes, Depth: res.Depth, Score: res.Score, Info: info.String()}
	a.root = a.root[:0]
	for _, rm := range res.Root {
		a.root = append(a.root, MoveAnalysis{Move: rm.Move, Score: rm.Score, Bound: rm.Bound.String()})
	}
	return res.Move, nil
}

// solve uses the game's own exact solver.
func (a *AlphaBeta) solve(ctx context.Context, st games.State, solver alphabeta.ExactSolver) (games.Move, error) {
	start := time.Now()
	if t := a.s.Options().Time; t > 0 {
		// Stop with the searches' safety margin: the depth-4 fallback
		// below comes on top of the solve.
		stop, _ := deadline.Stop(ctx, start, t)
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, stop)
		defer cancel()
	}
	value, pv, nodes, err := solver.SolveExact(ctx, games.SolveOptions{Threads: a.s.Options().Threads})
	if ans, ok := solverStopped(st, err); ok {
		// Out of time, with the move the solver proved the most for, or
		// its best guess.
		a.last = Stats{Nodes: nodes, Score: ans.value, Info: fmt.Sprintf("solver stopped (%v) after %d nodes; %s", ans.err, nodes, ans.what())}
		a.root = a.root[:0]
		return ans.move, nil
	}
	if err != nil || len(pv) == 0 {
		// Out of time: a quick heuristic search still gives a sound move.
		quick := alphabeta.New(alphabeta.Options{Depth: 4, TTMB: 1})
		res, qerr := quick.Search(context.Background(), st)
		if qerr != nil {
			return 0, qerr
		}
		a.last = Stats{Nodes: nodes + res.Nodes, Depth: res.Depth, Score: res.Score,
			Info: fmt.Sprintf("solver stopped (%v) after %d nodes; depth-4 search: %s", err, nodes, alphabeta.FormatScore(res.Score))}
		a.root = a.root[:0]
		return res.Move, nil
	}
	secs := time.Since(start).Seconds()
	a.last = Stats{Nodes: nodes, Score: value,
		Info: fmt.Sprintf("solved value %+d nodes %d in %.3fs pv %s", value, nodes, secs, formatLine(st, pv))}
	a.root = append(a.root[:0], MoveAnalysis{Move: pv[0], Score: value, Bound: "exact"})
	return pv[0], nil
}

// formatLine writes a line of play from s in the game's notation.
func formatLine(s games.State, line []games.Move) string {
	c := s.Clone()
	var parts []string
	for _, m := range line {
		if !games.IsLegal(c, m) {
			break
		}
		parts = append(parts, c.FormatMove(m))
		c.Play(m)
	}
	return strings.Join(parts, " ")
}

// MoveAnalysis is an agent's statistics for one candidate move of its last
// decision, as printed by 'arena analyse'.
type MoveAnalysis struct {
	Move   games.Move
	Score  int     // alpha-beta: score from the mover's view
	Bound  string  // alpha-beta: "exact", or "upper"/"lower" when Score is a bound
	Visits int64   // MCTS: visits
	Value  float64 // MCTS: mean reward in [0, 1] for the mover
	Prob   float64 // DUCT: weight in the empirical mixed strategy
	Proven string  // MCTS-Solver: "win", "loss", "draw" or ""
}

// Analyser is implemented by agents that can list per-move statistics of
// their last decision.
type Analyser interface {
	Analysis() []MoveAnalysis
}
