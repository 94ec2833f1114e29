package agents

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/spec"
	"github.com/boardgame-arena/arena/search/mcts"
)

func init() {
	Register(&Kind{
		Name: "mcts",
		Help: "Monte Carlo tree search: UCT with MCTS-Solver for sequential games, decoupled UCT for simultaneous ones; default budget iters=10000",
		Keys: []Key{
			{"iters", "iterations per move (shared out between threads)"},
			{"time", "think this long per move, e.g. 200ms, 1s"},
			{"c", "UCB exploration constant (default 0.7; rewards are in [0, 1])"},
			{"fpu", "first-play urgency: value of an unvisited move (default inf: try every move once first)"},
			{"rollout", "random (default) or egreedy (ε-greedy on the game's evaluation; sequential games)"},
			{"eps", "ε of the egreedy rollout (default 0.1)"},
			{"cutoff", "stop rollouts after this many plies and score with the evaluation (default 0: play to the end)"},
			{"escale", "evaluation → reward scale: 1/(1+exp(-eval/escale)); 0 (default): by the sign"},
			{"solver", "MCTS-Solver: prove wins and losses, play proven wins at once (default true)"},
			{"reuse", "keep the subtree of the reached position between moves (default true)"},
			{"threads", "root-parallel trees whose root statistics are summed (default 1)"},
			{"maxnodes", "nodes per tree before expansion stops (default 4194304)"},
			{"sel", "simultaneous games: ucb (default, decoupled UCT) or rm (regret matching)"},
			{"gamma", "simultaneous games, sel=rm: exploration mix (default 0.1)"},
			{"final", "simultaneous games: visits (default, most visited) or sample (draw from the empirical strategy)"},
		},
		New: newMCTS,
	})
}

// MCTS is the Monte Carlo tree search agent.
type MCTS struct {
	name string
	s    *mcts.Searcher
	last Stats
	root []MoveAnalysis
}

func newMCTS(sp spec.Spec, seed uint64) (Agent, error) {
	var o mcts.Options
	var err error
	get := func(f func() error) {
		if err == nil {
			err = f()
		}
	}
	get(func() (e error) { o.Iterations, e = sp.Int64("iters", 0); return })
	if sp.Has("time") {
		get(func() (e error) { o.Time, e = sp.Duration("time", 0); return })
	}
	get(func() (e error) { o.C, e = sp.Float("c", 0.7); return })
	get(func() (e error) {
		if sp.Vals["fpu"] == "inf" {
			o.FPU = math.Inf(1)
			return nil
		}
		o.FPU, e = sp.Float("fpu", math.Inf(1))
		return
	})
	o.Rollout = sp.Vals["rollout"]
	get(func() (e error) { o.Epsilon, e = sp.Float("eps", 0.1); return })
	get(func() (e error) { o.Cutoff, e = sp.Int("cutoff", 0); return })
	get(func() (e error) { o.EvalScale, e = sp.Float("escale", 0); return })
	var solver, reuse bool
	get(func() (e error) { solver, e = sp.Bool("solver", true); return })
	get(func() (e error) { reuse, e = sp.Bool("reuse", true); return })
	get(func() (e error) { o.Threads, e = sp.Int("threads", 1); return })
	get(func() (e error) { o.MaxNodes, e = sp.Int("maxnodes", 4<<20); return })
	o.Selection = sp.Vals["sel"]
	get(func() (e error) { o.Gamma, e = sp.Float("gamma", 0.1); return })
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
	o.NoSolver, o.Reuse = !solver, reuse
	switch {
	case o.Threads < 1 || o.Threads > 256:
		return nil, fmt.Errorf("mcts: threads=%d outside 1…256", o.Threads)
	case o.C < 0 || o.EvalScale < 0 || o.MaxNodes < 16:
		return nil, fmt.Errorf("mcts: c and escale must not be negative, maxnodes at least 16")
	case o.C == 0:
		o.C = -1 // explicit c=0: greedy selection (mcts.New treats 0 as the default)
	}
	if o.Gamma == 0 {
		o.Gamma = 1e-9 // explicit gamma=0
	}
	if o.Epsilon == 0 {
		o.Epsilon = 1e-9 // explicit eps=0: always greedy
	}
	if o.Iterations == 0 && o.Time == 0 {
		o.Iterations = 10000
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	return &MCTS{name: DisplayName(sp), s: mcts.New(o, seed)}, nil
}

// Name implements Agent.
func (a *MCTS) Name() string { return a.name }

// NewGame implements GameStarter: trees from an earlier game are dropped.
func (a *MCTS) NewGame(games.Variant, int) error {
	a.s.Reset()
	return nil
}

// Seed implements Seeder: the arena reuses one instance (and its trees'
// memory) for many games.
func (a *MCTS) Seed(seed uint64) { a.s.Seed(seed) }

// LastStats implements Reporter.
func (a *MCTS) LastStats() Stats { return a.last }

// Analysis implements Analyser.
func (a *MCTS) Analysis() []MoveAnalysis { return a.root }

// Move implements Agent.
func (a *MCTS) Move(ctx context.Context, b games.Base, p int) (games.Move, error) {
	var res mcts.Result
	var err error
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
