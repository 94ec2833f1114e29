// Package alphabeta is a game-independent alpha-beta searcher for every
// sequential game that implements games.State.
//
// # Algorithm
//
// Negamax with principal-variation search (the first move of a node gets the
// full window, the others a null window and a re-search only when they beat
// alpha), inside iterative deepening with aspiration windows around the
// previous iteration's score. A node's value is always from the view of the
// player to move there; a child in which the same player moves again (a game
// with extra turns) is not negated, so games need not alternate strictly.
//
// A transposition table (see TT) keyed by the game's Zobrist hash stores
// score, bound type, depth and best move in buckets of a depth-preferred and
// an always-replace slot. Moves are ordered: table move, two killer moves per
// ply, then the game's optional games.OrderHinter hint, then the history heuristic.
//
// # Budgets and results
//
// A search stops at the first of: Options.Depth completed iterations,
// Options.Nodes nodes, Options.Time, or the context's deadline. Time is
// measured with a safety margin (see package deadline): the search aims to
// answer a fifth of the time early (at most 50 ms), and does not start an
// iteration that is not expected to end before then. Budgets are checked
// inside the search about every 100 µs (every 1024 nodes at most); an
// iteration that is cut short is thrown away and the best move of the last
// complete iteration is returned.
//
// In exact mode the search runs to the end of the game with no evaluation:
// scores are proven results (see FormatScore). A game-specific solver much
// faster than this generic one is a games.ExactSolver: the callers that
// solve (the alphabeta agent, search/solve) use it where a game has one,
// and this search otherwise.
//
// # Scores
//
// Heuristic scores are the game's games.Evaluator values, strictly inside
// ±games.WinScore (0 everywhere for a game without one). A finished game is
// worth ±(games.WinScore + margin) to the player concerned, margin being
// |Outcome.Score| (capped at MaxMargin), and 0 for a draw: every win outranks
// every heuristic value and bigger wins rank higher.
//
// # Threads
//
// With Options.Threads > 1 the search is Lazy SMP: helper goroutines search
// the same root on their own clones of the state, half of them one ply
// deeper, sharing only the table (lockless entries, see TT). The main thread
// alone decides the result; helpers make it faster by filling the table.
//
// Nothing is allocated per node: move and score buffers are kept per ply and
// grown only when a deeper ply is first reached, and the table is one flat
// slice of buckets.
package alphabeta

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/search/deadline"
)

// MaxMargin caps the margin of a win in a score.
const MaxMargin = 1 << 20

// Inf bounds every score the search produces.
const Inf = MaxStoredScore

// maxIterDepth bounds iterative deepening when no depth is given.
const maxIterDepth = 100

// exactDepth is the remaining depth given to an exact search: larger than any
// game, and stored in the table as its top depth value.
const exactDepth = 1 << 20

// ExactSolver is games.ExactSolver, kept under this name for callers of
// this package.
type ExactSolver = games.ExactSolver

// Options configures a Searcher. The zero value searches with every
// enhancement on, a 64 MB table, one thread and no budget but the context.
type Options struct {
	Depth      int           // stop after completing this depth (0: no depth limit)
	Nodes      int64         // stop after about this many nodes (0: none)
	Time       time.Duration // stop after this long (0: none)
	Exact      bool          // search to the end of the game, ignoring Depth
	TTMB       int           // table size in megabytes (0: 64; negative: no table)
	Threads    int           // Lazy SMP threads (0 or 1: single thread)
	Aspiration int           // half-width of the aspiration window (0: full window)
	RootScores bool          // search every root move with a full window (exact score each; slower)

	// Switches for tests and experiments.
	NoPVS, NoKillers, NoHistory, NoHints bool
}

// RootMove is the last complete iteration's verdict on one root move.
type RootMove struct {
	Move  games.Move
	Score int
	Bound Bound // BoundExact, or BoundUpper for a move proven no better than Score
}

// Result is the outcome of a search.
type Result struct {
	Move     games.Move
	Score    int // from the view of the side to move at the root
	Depth    int // last complete iteration (exact mode: 0)
	SelDepth int // deepest ply reached
	Complete bool
	Exact    bool
	Nodes    int64
	Elapsed  time.Duration
	PV       []games.Move
	Root     []RootMove
}

// NPS returns the nodes searched per second.
func (r Result) NPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Nodes) / r.Elapsed.Seconds()
}

// Searcher runs searches; it keeps its table and history between them, so
// it should be used for one game at a time. It is not safe for concurrent
// calls to Search.
type Searcher struct {
	opts    Options
	tt      *TT
	workers []*worker
}

// New returns a searcher.
func New(opts Options) *Searcher {
	if opts.Threads < 1 {
		opts.Threads = 1
	}
	s := &Searcher{opts: opts}
	switch {
	case opts.TTMB == 0:
		s.tt = NewTT(64)
	case opts.TTMB > 0:
		s.tt = NewTT(opts.TTMB)
	}
	return s
}

// Options returns the searcher's options.
func (s *Searcher) Options() Options { return s.opts }

// SetBudget changes the depth, node and time budgets for later searches.
func (s *Searcher) SetBudget(depth int, nodes int64, t time.Duration) {
	s.opts.Depth, s.opts.Nodes, s.opts.Time = depth, nodes, t
}

// Reset forgets the table and the move-ordering statistics (for a new game).
func (s *Searcher) Reset() {
	if s.tt != nil {
		s.tt.Clear()
	}
	for _, w := range s.workers {
		w.history = [2][historySize]int32{}
	}
}

// shared is what the threads of one search have in common.
type shared struct {
	opts      Options
	tt        *TT
	ctx       context.Context
	deadline  time.Time
	hasDL     bool
	nodeLimit int64
	stop      atomic.Bool
	nodes     atomic.Int64
}

// Search searches st, which must not be finished, and returns the best move
// found. st is restored before Search returns.
func (s *Searcher) Search(ctx context.Context, st games.State) (Result, error) {
	if st.Terminal() {
		return Result{}, fmt.Errorf("alphabeta: the game is over")
	}
	start := time.Now()
	sh := &shared{opts: s.opts, tt: s.tt, ctx: ctx, nodeLimit: s.opts.Nodes}
	// Stop with a safety margin before the budget or the caller's deadline.
	sh.deadline, sh.hasDL = deadline.Stop(ctx, start, s.opts.Time)
	if s.tt != nil {
		s.tt.NewSearch()
	}
	for len(s.workers) < s.opts.Threads {
		s.workers = append(s.workers, newWorker(len(s.workers)))
	}
	main := s.workers[0]
	main.begin(sh, st)
	var wg sync.WaitGroup
	for i := 1; i < s.opts.Threads; i++ {
		h := s.workers[i]
		h.begin(sh, st.Clone())
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.iterate()
		}()
	}
	res := main.iterate()
	sh.stop.Store(true)
	wg.Wait()
	res.Nodes = 0
	for _, w := range s.workers[:s.opts.Threads] {
		res.Nodes += w.nodes
		if w.selDepth > res.SelDepth {
			res.SelDepth = w.selDepth
		}
		w.st = nil // do not keep the caller's state alive
	}
	res.Elapsed = time.Since(start)
	if err := ctx.Err(); err != nil && !res.Complete {
		return res, err
	}
	return res, nil
}

// Score helpers.

// TerminalScore is the value of a finished game with outcome o for player p.
func TerminalScore(o games.Outcome, p int) int {
	if o.Winner == games.Draw {
		return 0
	}
	m := o.Score
	if m < 0 {
		m = -m
	}
	if m > MaxMargin {
		m = MaxMargin
	}
	if o.Winner == p {
		return games.WinScore + m
	}
	return -(games.WinScore + m)
}

// IsProven reports whether v is the value of a proven win or loss.
func IsProven(v int) bool { return v >= games.WinScore || v <= -games.WinScore }

// FormatScore renders a score: "win +4" or "loss -4" for proven results
// (with the margin), otherwise the heuristic value, e.g. "+37".
func FormatScore(v int) string {
	switch {
	case v >= games.WinScore:
		return fmt.Sprintf("win +%d", v-games.WinScore)
	case v <= -games.WinScore:
		return fmt.Sprintf("loss -%d", -v-games.WinScore)
	}
	return fmt.Sprintf("%+d", v)
}
