package agents

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/search/mcts"
	"github.com/boardgame-arena/arena/spec"
)

func init() {
	Register(&Kind{
		Name: "mcts",
		Help: "Monte Carlo tree search: UCT with MCTS-Solver for sequential games, decoupled UCT for simultaneous ones; default budget iters=10000; on a clock (tc=, or the run's time control) it searches for the time manager's share of the remaining time and increment (iters= and time= then cap it)",
		Keys: []Key{
			{"iters", "iterations per move, 1 to 10^12 (shared out between threads)"},
			{"time", "think this long per move, 1ms to 24h, e.g. 200ms, 1s (less a safety margin: a fifth, at most 50 ms); on a clock (tc=, or the run's time control) the time per move comes from the time manager, and time= then caps it"},
			{"first", "think this long on the first move of a game instead (the first after NewGame, or ever), 1ms to 24h, less the same margin; the arena grants it as that move's limit (TryAngle Catch allows 1s for turn 1: first=1s); default: as time="},
			{"c", "UCB exploration constant, 0 to 100 (default 0.7; rewards are in [0, 1])"},
			{"fpu", "first-play urgency: value of an unvisited move, 0 to 1 or inf (default inf: try every move once first); at 0.5 or below a move that draws is never left for an untried one"},
			{"rollout", "random (default), egreedy (ε-greedy on the game's evaluation; sequential games) or none (no playout: a new leaf is scored by the evaluation at once, see escale)"},
			{"eps", "ε of the egreedy rollout, 0 to 1 (default 0.1)"},
			{"cutoff", "stop rollouts after this many plies and score with the evaluation, 0 to 100000 (default 0: play to the end)"},
			{"escale", "evaluation → reward scale: 1/(1+exp(-eval/escale)), 0 to 10^9; 0 (default): by the sign"},
			{"solver", "MCTS-Solver: prove wins and losses, play proven wins at once (default true)"},
			{"reuse", "keep the subtree of the reached position between moves (default true)"},
			{"threads", "root-parallel trees whose root statistics are summed, 1 to 256 (default 1)"},
			{"maxnodes", "nodes per tree before expansion stops, 16 to 67108864 (default 4194304)"},
			{"sel", "simultaneous games: ucb (default, decoupled UCT) or rm (regret matching)"},
			{"gamma", "simultaneous games, sel=rm: exploration mix, 0 to 1 (default 0.1)"},
			{"final", "simultaneous games: visits (default, most visited) or sample (draw from the empirical strategy)"},
			{"relative", "score evaluated leaves by the change from the root's evaluation, so that a search far ahead or behind still tells its moves apart (default false)"},
			{"expand", "visits a node gets before it is expanded, 1 to 1000000 (default 1); more saves move generation where it is costly (tryangle's plans)"},
			{"maxdepth", "simultaneous games: nodes this many joint moves below the root are leaves (scored as a new leaf is: rollout or evaluation), 1 to 1000 (default: no limit)"},
			evalKey,
		},
		New: newMCTS,
	})
}

// Ranges of the mcts keys (the help text states them).
const (
	mctsMaxIters   = 1_000_000_000_000
	mctsMaxC       = 100
	mctsMaxCutoff  = 100_000
	mctsMaxEScale  = 1e9
	mctsMaxThreads = 256
	mctsMaxExpand  = 1_000_000
	mctsMaxDepth   = 1000
	// mctsMaxNodes keeps the DUCT pools' limits (16 per node) within 32 bits.
	mctsMaxNodes = 1 << 26
)

// MCTS is the Monte Carlo tree search agent.
type MCTS struct {
	name string
	s    *mcts.Searcher
	last Stats
	root []MoveAnalysis
	// budget is the time= key, 0 without it (see MoveTime).
	budget time.Duration
	// first is the first= key (0: as budget); moved says whether this
	// game's first move has been made.
	first time.Duration
	moved bool
	// iters is the iteration budget without a clock (iters=, or the
	// default), userIters the iters= key alone: a move on a clock searches
	// for its share of the clock (see clockShare), and only an explicit
	// iters= stops it sooner.
	iters, userIters int64
	eval             evalWeights // eval.NAME keys (cutoff=, rollout=egreedy, escale= evaluate)
}

func newMCTS(sp spec.Spec, seed uint64) (Agent, error) {
	var o mcts.Options
	var err error
	get := func(f func() error) {
		if err == nil {
			err = f()
		}
	}
	for _, k := range [...]struct{ key, example string }{{"rollout", "egreedy"}, {"sel", "rm"}, {"final", "sample"}} {
		if sp.Bare(k.key) {
			return nil, fmt.Errorf("mcts: option %s needs a value, e.g. %s=%s", k.key, k.key, k.example)
		}
	}
	get(func() (e error) { o.Iterations, e = sp.Int64In("iters", 0, 1, mctsMaxIters); return })
	get(func() (e error) { o.Time, e = sp.DurationIn("time", 0, time.Millisecond, maxThink); return })
	var first time.Duration
	get(func() (e error) { first, e = sp.DurationIn("first", 0, time.Millisecond, maxThink); return })
	get(func() (e error) { o.C, e = sp.FloatIn("c", 0.7, 0, mctsMaxC); return })
	get(func() (e error) {
		if v := strings.ToLower(sp.Vals["fpu"]); v == "inf" || v == "+inf" { // Go's own spelling, Inf, too
			o.FPU = math.Inf(1)
			return nil
		}
		o.FPU, e = sp.FloatIn("fpu", math.Inf(1), 0, 1)
		if e != nil {
			e = fmt.Errorf("%w, or inf", e)
		}
		return
	})
	o.Rollout = sp.Vals["rollout"]
	get(func() (e error) { o.Epsilon, e = sp.FloatIn("eps", 0.1, 0, 1); return })
	get(func() (e error) { o.Cutoff, e = sp.IntIn("cutoff", 0, 0, mctsMaxCutoff); return })
	get(func() (e error) { o.EvalScale, e = sp.FloatIn("escale", 0, 0, mctsMaxEScale); return })
	var solver, reuse, relative bool
	get(func() (e error) { solver, e = sp.Bool("solver", true); return })
	get(func() (e error) { reuse, e = sp.Bool("reuse", true); return })
	get(func() (e error) { relative, e = sp.Bool("relative", false); return })
	get(func() (e error) { o.Threads, e = sp.IntIn("threads", 1, 1, mctsMaxThreads); return })
	get(func() (e error) { o.MaxNodes, e = sp.IntIn("maxnodes", 4<<20, 16, mctsMaxNodes); return })
	o.Selection = sp.Vals["sel"]
	get(func() (e error) { o.Gamma, e = sp.FloatIn("gamma", 0.1, 0, 1); return })
	get(func() (e error) { o.ExpandAfter, e = sp.IntIn("expand", 1, 1, mctsMaxExpand); return })
	get(func() (e error) { o.MaxDepth, e = sp.IntIn("maxdepth", 0, 1, mctsMaxDepth); return })
	if err != nil {
		return nil, err
	}
	switch sp.Vals["final"] {
	case "", "visits":
	case "sample":
		o.Sample = true
	default:
		return nil, fmt.Errorf("mcts: final=%q (valid: visits, sample)", sp.Vals["final"])
	}
	o.NoSolver, o.Reuse, o.Relative = !solver, reuse, relative
	if o.C == 0 {
		o.C = -1 // explicit c=0: greedy selection (mcts.New treats 0 as the default)
	}
	if o.FPU == 0 {
		o.FPU = -1 // explicit fpu=0 (mcts.New treats 0 as the default, +Inf)
	}
	if o.Gamma == 0 {
		o.Gamma = 1e-9 // explicit gamma=0
	}
	if o.Epsilon == 0 {
		o.Epsilon = 1e-9 // explicit eps=0: always greedy
	}
	userIters := o.Iterations
	if o.Iterations == 0 && o.Time == 0 {
		o.Iterations = 10000
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	eval, err := parseEvalWeights(sp)
	if err != nil {
		return nil, err
	}
	return &MCTS{name: DisplayName(sp), s: mcts.New(o, seed), budget: o.Time, first: first, iters: o.Iterations, userIters: userIters, eval: eval}, nil
}

// MoveTime implements Budgeter: the time= key, or first= for the first
// move of a game; 0 (no budget) for an agent limited by iters= alone.
func (a *MCTS) MoveTime(first bool) time.Duration {
	if first && a.first > 0 {
		return a.first
	}
	return a.budget
}

// Name implements Agent.
func (a *MCTS) Name() string { return a.name }

// MoveLimitKeys implements MoveLimiter: a move's nodes are its iterations;
// a tree search grows no fixed depth, so a depth limit is not honoured.
func (a *MCTS) MoveLimitKeys() (depth, nodes bool) { return false, true }

// NewGame implements GameStarter: trees from an earlier game are dropped.
func (a *MCTS) NewGame(games.Variant, int) error {
	a.s.Reset()
	a.moved = false
	return nil
}

// CheckGame implements GameChecker: the eval.NAME keys must name weights
// of v's evaluation, with values in their ranges.
func (a *MCTS) CheckGame(v games.Variant) error { return a.eval.check(v) }

// Seed implements Seeder: the arena reuses one instance (and its trees'
// memory) for many games.
func (a *MCTS) Seed(seed uint64) { a.s.Seed(seed) }

// LastStats implements Reporter.
func (a *MCTS) LastStats() Stats { return a.last }

// Analysis implements Analyser.
func (a *MCTS) Analysis() []MoveAnalysis { return a.root }

// Move implements Agent.
func (a *MCTS) Move(ctx context.Context, b games.Base, p int) (games.Move, error) {
	// The eval.NAME weights hold for this move only (playouts run on
	// clones, which share them); the opponent's are restored however the
	// move ends.
	w, previous, err := a.eval.use(b, gameName(b))
	if err != nil {
		return 0, err
	}
	if w != nil {
		defer w.UseWeights(previous)
	}
	think := a.budget
	if !a.moved && a.first > 0 {
		think = a.first
	}
	a.moved = true
	iters, userIters := a.iters, a.userIters
	if l, ok := moveLimitsFrom(ctx); ok && l.Nodes > 0 {
		// The caller's iterations replace iters=, time= and first=.
		think, iters, userIters = 0, l.Nodes, l.Nodes
	}
	if share, ok := clockShare(ctx, b, p, think, false); ok {
		a.s.SetBudget(userIters, share)
	} else {
		a.s.SetBudget(iters, think)
	}
	var res mcts.Result
	switch st := b.(type) {
	case games.State:
		res, err = a.s.Search(ctx, st)
	case games.SimState:
		res, err = a.s.SearchSim(ctx, st, p)
	default:
		return 0, errors.New("mcts: unknown kind of game state")
	}
	if err != nil {
		return 0, err
	}
	var info strings.Builder
	fmt.Fprintf(&info, "value %.3f iterations %d (%.0f/s) reused %d depth %d", res.Value, res.Iterations, res.IPS(), res.Reused, res.MaxDepth)
	if res.Proven != mcts.Unproven {
		fmt.Fprintf(&info, " proven %s", res.Proven)
	}
	if st, ok := b.(games.State); ok && len(res.PV) > 0 {
		fmt.Fprintf(&info, " pv %s", formatLine(st, res.PV))
	}
	a.last = Stats{Nodes: res.Iterations, Depth: res.MaxDepth, Score: int(math.Round(res.Value * 1000)), Info: info.String()}
	a.root = a.root[:0]
	for _, ms := range res.Stats {
		a.root = append(a.root, MoveAnalysis{Move: ms.Move, Visits: ms.Visits, Value: ms.Value, Prob: ms.Prob, Proven: ms.Proven.String()})
	}
	return res.Move, nil
}
