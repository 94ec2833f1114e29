// Package mcts is Monte Carlo tree search for every game of the games
// contract: UCT with MCTS-Solver for sequential games (games.State) and
// decoupled UCT (DUCT) for simultaneous-move games (games.SimState).
//
// # UCT
//
// Each iteration descends from the root choosing, at every node, the child
// maximising Q + C·√(ln N / n), where Q is the mean reward of the child for
// the player who moved into it, n its visits and N the parent's. A child
// never visited is worth Options.FPU instead (first-play urgency; +Inf, the
// default, tries every child once before any is repeated; see below for a
// finite one). Ties go to one of the tied children drawn uniformly, so the
// move generator's order is never a preference. The first node
// reached with no visits of its own is simulated from: a rollout plays to the
// end of the game (or Options.Cutoff plies, then scores the position with the
// game's evaluation) and every node on the path adds the result for its
// mover: 1 for a win, ½ for a draw, 0 for a loss, or the game's graded
// payoff when the state implements games.Rewarder. A node is expanded (all its
// children created at once) on its second visit, or after
// Options.ExpandAfter visits. With RolloutNone there is no playout: the new
// node is scored by the game's evaluation at once; with Options.Relative,
// by its change from the root's evaluation.
//
// Rollouts are uniformly random (using the game's fast games.Playouter when
// it has one) or ε-greedy: with probability ε a random move, otherwise the
// move whose result the game's evaluation likes best for the mover.
//
// MCTS-Solver: a finished game is a proven node. A node one of whose
// children is a proven win for the player to move there is proven (won for
// that player); a node whose children are all proven takes the best of them
// (draw before loss). Proofs are backed up at once, the search stops when
// the root is proven, and a proven winning move is played without further
// thought; proven losing moves are never chosen when another exists.
//
// The final move is the most visited child of the root (a proven win first).
//
// # First-play urgency
//
// A finite FPU is a threshold: a visited child is left for an untried
// sibling only when its Q + C·√(ln N / n) falls below FPU. At FPU ≤ ½ a
// child whose mean is ½ (a line that draws, or a balanced one) is never
// left, its exploration term being positive: each side abandons a line that
// goes wrong for it, neither leaves one that draws to look for a win, and
// self-play drifts to draws. A root whose moves are a draw and a forced win
// plays the draw in about a quarter of the searches at FPU ½, never having
// tried the win: those that tried the draw first and kept it at the second
// iteration, where ln N = 0 makes it tie with FPU
// (TestFPUAtMostHalfKeepsADraw). Above ½ a line holding nearly all N visits
// of its parent is left once N / ln N > (C / (FPU − ½))²: about 1400 visits
// for FPU 0.55 with C 0.7, 270 for 0.6 and 47 for 0.7, so an FPU just above
// ½ behaves like ½ on a small budget and like +Inf on a large one. Draws in
// 100 self-play games (arena match --agents S S --games 100 --seed 1, two
// random opening plies, C 0.7):
//
//	game      iterations  FPU +Inf  0.5  0.55  0.6  0.7
//	othello6         100         1   25    33   20   12
//	othello6         400         3   23    31    5    6
//	othello6        3000         9   29     7    7    4
//	pyrga            100         4   29    22   14   10
//	pyrga            400        10   33    13   16   10
//	pyrga           3000        16   25     6    8    7
//
// The solver plays no part (FPU 0.5 at 400 iterations without it: 22 and
// 31 draws), and the setting is weak: it scored 0-0-100 (othello6) and
// 2-2-96 (pyrga) against the default. While ties went to the first child
// in the move generator's order, FPU 0.5 drew 97 and 99 of the 100,
// filling the othello6 board in that order into 18–18.
//
// # DUCT
//
// At a joint node of a simultaneous game each player keeps its own
// statistics per own action and chooses with its own UCB formula (an
// untried action is worth Options.FPU; ties are drawn at random); the joint
// action is applied, and each player's chosen action is credited with that
// player's payoff. The final action is the most visited, or (FinalSample)
// one drawn in proportion to the visit counts, which is the empirical mixed
// strategy. MCTS-Solver does not apply to simultaneous moves.
//
// # Reuse, threads, memory
//
// With Options.Reuse the subtree of the position actually reached (found by
// matching Zobrist hashes along the moves played since the last search) is
// kept with its statistics for the next search. Options.Threads > 1 runs
// root parallelism: independent trees, each with its own state clone and
// random stream, whose root statistics are summed. Budgets are iterations
// (shared out between the trees), time, and the context's deadline. Time is
// kept with a safety margin (see package deadline): the clock is read about
// every 100 µs, and a search stops when the next iteration, as long as the
// recent ones, would end past the budget less its margin.
//
// Nodes live in slices allocated in blocks and addressed by index, and a
// node's children are contiguous; nothing is allocated per iteration once
// the blocks exist. Options.MaxNodes caps a tree: when it is full, leaves
// stop being expanded and iterations only refine existing statistics.
package mcts

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/search/deadline"
)

// Rollout policies.
const (
	RolloutRandom    = "random"
	RolloutEpsGreedy = "egreedy"
	// RolloutNone plays no playout: a new leaf is scored by the game's
	// evaluation at once (as with a cut-off of 0 plies). For games whose
	// moves are costly to generate, e.g. TryAngle Catch's plans, it buys
	// many more iterations than a playout (see EvalScale).
	RolloutNone = "none"
)

// Options configures a Searcher. Zero values take the defaults noted.
type Options struct {
	Iterations int64         // total iterations per search (0: none, needs Time or a deadline)
	Time       time.Duration // time per search (0: none)
	C          float64       // exploration constant (default 0.7 when 0; negative: 0)
	FPU        float64       // value of an unvisited child (default +Inf when 0; negative: 0)
	Rollout    string        // RolloutRandom (default), RolloutEpsGreedy or RolloutNone
	Epsilon    float64       // ε of the ε-greedy rollout (default 0.1 when 0)
	Cutoff     int           // rollout plies before evaluating (0: play to the end)
	EvalScale  float64       // evaluation → reward: 1/(1+e^(−eval/EvalScale)) (0: by sign)
	NoSolver   bool          // turn MCTS-Solver off
	Reuse      bool          // keep the reached subtree between searches
	Threads    int           // root-parallel trees (default 1)
	MaxNodes   int           // nodes per tree (default 4 Mi)
	Sample     bool          // DUCT: draw the final action from the empirical strategy
	Selection  string        // DUCT: SelectUCB (default) or SelectRM
	Gamma      float64       // DUCT regret matching: exploration mix (default 0.1 when 0)
	// ExpandAfter is the visits a node gets (scored by a rollout, or the
	// evaluation with RolloutNone) before it is expanded; default 1. A
	// higher value saves move generation where it is costly (TryAngle
	// Catch's plans) for the nodes the search keeps coming back to.
	ExpandAfter int
	// Relative scores evaluated leaves by the evaluation's change from the
	// root's, 1/(1+e^(−(eval−root)/EvalScale)): a search far ahead or
	// behind still tells its moves apart, where absolute scores all come
	// out near 1 (or 0) and the choice degenerates.
	Relative bool
	// MaxDepth (DUCT) makes the nodes that many joint moves below the
	// root leaves, scored as a new leaf is; 0: no limit. With little
	// exploration a tree may otherwise grow one line to the end of the
	// game (TryAngle Catch: 130 joint moves deep, each iteration replaying
	// them all), where the evaluation a few moves ahead is what counts.
	MaxDepth int
}

// Selection rules at the joint nodes of DUCT.
const (
	SelectUCB = "ucb"
	SelectRM  = "rm"
)

const (
	defaultC        = 0.7
	defaultEpsilon  = 0.1
	defaultMaxNodes = 4 << 20
)

// MoveStat is the merged root statistics of one move.
type MoveStat struct {
	Move   games.Move
	Visits int64
	Value  float64 // mean reward for the player to move at the root
	Prob   float64 // DUCT: weight in the empirical mixed strategy
	Proven Proof   // proven result for the player to move at the root
}

// Proof is a proven game-theoretic result.
type Proof int8

// Proof values, from the view of a node's mover.
const (
	Unproven Proof = iota
	ProvenWin
	ProvenLoss
	ProvenDraw
)

func (p Proof) String() string {
	switch p {
	case ProvenWin:
		return "win"
	case ProvenLoss:
		return "loss"
	case ProvenDraw:
		return "draw"
	}
	return ""
}

func (p Proof) flip() Proof {
	switch p {
	case ProvenWin:
		return ProvenLoss
	case ProvenLoss:
		return ProvenWin
	}
	return p
}

func (p Proof) reward() float64 {
	switch p {
	case ProvenWin:
		return 1
	case ProvenLoss:
		return 0
	}
	return 0.5
}

// Result is the outcome of a search.
type Result struct {
	Move       games.Move
	Iterations int64 // iterations of this search, all threads
	Reused     int64 // root visits inherited from the previous search
	Elapsed    time.Duration
	MaxDepth   int        // deepest node reached
	Value      float64    // mean reward of the chosen move for the root player
	Proven     Proof      // proven result of the root for the player to move
	Stats      []MoveStat // per root move, most visited first
	PV         []games.Move
}

// IPS returns iterations per second.
func (r Result) IPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Iterations) / r.Elapsed.Seconds()
}

// Searcher runs searches with one set of options and keeps trees between
// them (for Reuse). It is not safe for concurrent calls.
type Searcher struct {
	opts    Options
	seed    uint64
	workers []*worker
	sims    []*simWorker
	draws   uint64 // final-action draws so far (Sample)
}

// New returns a searcher whose random choices all derive from seed.
func New(opts Options, seed uint64) *Searcher {
	if opts.C == 0 {
		opts.C = defaultC
	}
	if opts.C < 0 {
		opts.C = 0
	}
	if opts.FPU == 0 {
		opts.FPU = math.Inf(1)
	}
	if opts.FPU < 0 {
		opts.FPU = 0
	}
	if opts.Rollout == "" {
		opts.Rollout = RolloutRandom
	}
	if opts.Epsilon == 0 {
		opts.Epsilon = defaultEpsilon
	}
	if opts.Threads < 1 {
		opts.Threads = 1
	}
	if opts.Selection == "" {
		opts.Selection = SelectUCB
	}
	if opts.Gamma == 0 {
		opts.Gamma = 0.1
	}
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = defaultMaxNodes
	}
	if opts.ExpandAfter < 1 {
		opts.ExpandAfter = 1
	}
	return &Searcher{opts: opts, seed: seed}
}

// Options returns the searcher's options after defaults.
func (s *Searcher) Options() Options { return s.opts }

// SetBudget changes the iteration and time budgets of later searches (0:
// none; a search needs one of them or a context deadline), e.g. for a
// clock's share of each move. Negative values count as 0.
func (s *Searcher) SetBudget(iterations int64, t time.Duration) {
	s.opts.Iterations, s.opts.Time = max(iterations, 0), max(t, 0)
}

// Validate checks options that New cannot repair.
func (o Options) Validate() error {
	switch o.Rollout {
	case "", RolloutRandom, RolloutEpsGreedy, RolloutNone:
	default:
		return fmt.Errorf("mcts: unknown rollout %q (valid: %s, %s, %s)", o.Rollout, RolloutRandom, RolloutEpsGreedy, RolloutNone)
	}
	switch o.Selection {
	case "", SelectUCB, SelectRM:
	default:
		return fmt.Errorf("mcts: unknown selection %q (valid: %s, %s)", o.Selection, SelectUCB, SelectRM)
	}
	if o.MaxDepth < 0 {
		return fmt.Errorf("mcts: MaxDepth %d is negative", o.MaxDepth)
	}
	if o.ExpandAfter < 0 {
		return fmt.Errorf("mcts: ExpandAfter %d is negative", o.ExpandAfter)
	}
	if o.Gamma < 0 || o.Gamma > 1 {
		return fmt.Errorf("mcts: gamma %v outside [0, 1]", o.Gamma)
	}
	if o.Epsilon < 0 || o.Epsilon > 1 {
		return fmt.Errorf("mcts: epsilon %v outside [0, 1]", o.Epsilon)
	}
	if o.Cutoff < 0 || o.Iterations < 0 || o.Time < 0 {
		return fmt.Errorf("mcts: negative budget")
	}
	return nil
}

// Seed restarts every random choice from seed, as New(opts, seed) would;
// the trees' memory is kept. Call Reset too for a new game.
func (s *Searcher) Seed(seed uint64) {
	s.seed = seed
	for i, w := range s.workers {
		w.rand.Seed(rng.Derive(seed, uint64(i)))
	}
	for i, w := range s.sims {
		w.rand.Seed(rng.Derive(seed, uint64(i), 1))
	}
}

// Reset drops the kept trees (for a new game).
func (s *Searcher) Reset() {
	for _, w := range s.workers {
		w.valid = false
	}
	for _, w := range s.sims {
		w.valid, w.prev = false, nil
	}
}

// budget is what the threads of one search share.
type budget struct {
	ctx      context.Context
	deadline time.Time // when to stop: the time budget or ctx's deadline, less a safety margin
	hasDL    bool
	start    time.Time
}

// newBudget starts the clock of a search; it fails when the search would
// have no limit at all (no iterations, time or context deadline).
func (s *Searcher) newBudget(ctx context.Context) (*budget, error) {
	if s.opts.Iterations <= 0 && s.opts.Time <= 0 {
		if _, ok := ctx.Deadline(); !ok {
			return nil, fmt.Errorf("mcts: no budget (give iterations, time or a deadline)")
		}
	}
	b := &budget{ctx: ctx, start: time.Now()}
	b.deadline, b.hasDL = deadline.Stop(ctx, b.start, s.opts.Time)
	return b, nil
}

// checkGap is the wall time aimed at between two looks at the clock, and
// maxStride the most iterations between them.
const (
	checkGap  = 100 * time.Microsecond
	maxStride = 256
)

// pacer decides when a worker looks at the clock: about every checkGap,
// however long an iteration takes in the game at hand, and whether the next
// iteration can still end before the deadline.
type pacer struct {
	stride, left int64
	last         time.Time
}

// start readies the pacer for a search.
func (p *pacer) start() { p.stride, p.left, p.last = 1, 1, time.Now() }

// stop is called before every iteration and reports whether the worker must
// stop: the context is done, or the time one iteration took lately would
// carry the next past the deadline.
func (p *pacer) stop(b *budget) bool {
	if p.left--; p.left > 0 {
		return false
	}
	now := time.Now()
	gap := now.Sub(p.last)
	per := gap / time.Duration(p.stride) // wall time of one recent iteration
	switch {
	case gap < checkGap/2 && p.stride < maxStride:
		p.stride *= 2
	case gap > 2*checkGap && p.stride > 1:
		p.stride /= 2
	}
	p.left, p.last = p.stride, now
	if b.ctx.Err() != nil {
		return true
	}
	return b.hasDL && !now.Add(per).Before(b.deadline)
}

// share returns thread i's share of the iterations (0: unlimited).
func (s *Searcher) share(i int) int64 {
	n, t := s.opts.Iterations, int64(s.opts.Threads)
	if n <= 0 {
		return 0
	}
	q := n / t
	if int64(i) < n%t {
		q++
	}
	return max(q, 1)
}

// Search searches the sequential position st, which must not be finished;
// st is left as it was.
func (s *Searcher) Search(ctx context.Context, st games.State) (Result, error) {
	if st.Terminal() {
		return Result{}, fmt.Errorf("mcts: the game is over")
	}
	b, err := s.newBudget(ctx)
	if err != nil {
		return Result{}, err
	}
	for len(s.workers) < s.opts.Threads {
		i := len(s.workers)
		s.workers = append(s.workers, newWorker(&s.opts, rng.Derive(s.seed, uint64(i))))
	}
	ws := s.workers[:s.opts.Threads]
	for _, w := range ws {
		w.prepare(st)
	}
	runAll(s, b, ws)
	res := s.merge(ws, st)
	res.Elapsed = time.Since(b.start)
	return res, nil
}

// merge sums the root statistics of the trees and picks the move.
func (s *Searcher) merge(ws []*worker, st games.State) Result {
	var res Result
	byMove := map[games.Move]int{}
	var rewards []float64
	for _, w := range ws {
		res.Iterations += w.iters
		res.Reused += w.reused
		res.MaxDepth = max(res.MaxDepth, w.maxDepth)
		root := w.tree.at(w.root)
		if root.proof != Unproven && res.Proven == Unproven {
			res.Proven = root.proof.flip() // root.proof is from the (absent) mover's view
		}
		for k := uint32(0); k < uint32(root.nkids); k++ {
			c := w.tree.at(root.first + k)
			j, ok := byMove[c.move]
			if !ok {
				j = len(res.Stats)
				byMove[c.move] = j
				res.Stats = append(res.Stats, MoveStat{Move: c.move})
				rewards = append(rewards, 0)
			}
			ms := &res.Stats[j]
			ms.Visits += int64(c.visits)
			rewards[j] += c.reward
			if c.proof != Unproven {
				ms.Proven = c.proof
			}
		}
	}
	for j := range res.Stats {
		if v := res.Stats[j].Visits; v > 0 {
			res.Stats[j].Value = rewards[j] / float64(v)
		}
	}
	rank := func(m MoveStat) int {
		switch m.Proven {
		case ProvenWin:
			return 3
		case ProvenLoss:
			return 0
		}
		return 1
	}
	slices.SortStableFunc(res.Stats, func(a, b MoveStat) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return rb - ra
		}
		if a.Visits != b.Visits {
			if a.Visits > b.Visits {
				return -1
			}
			return 1
		}
		switch {
		case a.Value > b.Value:
			return -1
		case a.Value < b.Value:
			return 1
		}
		return 0
	})
	if len(res.Stats) == 0 {
		// The root was never expanded (a budget of zero): any legal move.
		res.Move = st.LegalMoves(nil)[0]
		return res
	}
	res.Move, res.Value = res.Stats[0].Move, res.Stats[0].Value
	res.PV = ws[0].principalVariation()
	return res
}

// undoHashes takes back d moves of c (a clone), appending to buf the hash of
// each position it leaves, newest first, and returns them with the hash of
// the position reached; tree reuse then replays the path matching them.
func undoHashes(c games.Base, d int, buf []uint64) ([]uint64, uint64) {
	for k := 0; k < d; k++ {
		buf = append(buf, c.Hash())
		c.Undo()
	}
	return buf, c.Hash()
}

// runAll runs every worker on its own goroutine with its share of the
// iterations, and waits for them.
func runAll[W interface{ run(*budget, int64) }](s *Searcher, b *budget, ws []W) {
	if len(ws) == 1 {
		// On the caller's goroutine: handing the result back from another
		// one costs a wake-up, which on a busy machine can come late.
		ws[0].run(b, s.share(0))
		return
	}
	var wg sync.WaitGroup
	for i, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(b, s.share(i))
		}()
	}
	wg.Wait()
}
