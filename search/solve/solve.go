// Package solve finds the exact values of positions of sequential games:
// one position (Position), or every distinct position some plies after one
// (Plies), solved in parallel and backed up by minimax to the value of the
// first. It uses the game's own solver (games.ExactSolver) where there is
// one and alpha-beta's generic exact search otherwise; `arena solve` is a
// command line over it.
//
// It lives in search, not games, because it falls back on search/alphabeta:
// games knows nothing above it.
package solve

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/sysmem"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/search/alphabeta"
)

// Limits of Options.
const (
	MaxThreads     = 256
	MaxTableMB     = 1 << 16
	MaxPlies       = 64
	DefaultTableMB = 256 // the generic search's table when TableMB is 0
)

// Options say how to solve. The zero value solves on one thread with the
// game's own solver, where it has one, sizing its own table.
type Options struct {
	// Threads is how many threads solve, 1 to MaxThreads (0: one). Plies
	// solves this many positions at once, each on one thread.
	Threads int
	// TableMB is the transposition table in megabytes of the generic
	// search and of game solvers that take one (erdos, othello6), 1 to
	// MaxTableMB and at most 3/4 of the machine's memory; with Plies each
	// thread has its own, and all of them together must fit. 0 lets a
	// game's solver size its table for the position and the time ctx
	// leaves, and gives the generic search DefaultTableMB.
	TableMB int
	// Generic uses alpha-beta's generic exact search even where the game
	// has its own solver.
	Generic bool
	// Progress, if not nil, is told how the solve goes: Plies' listing as
	// it goes, and every Every while the positions are solved (Every 0:
	// never). It is called from one goroutine at a time, and never after
	// Position or Plies returns.
	Progress func(Progress)
	Every    time.Duration
}

// Stage says what a Progress report is about.
type Stage int

const (
	// Searching: a tick of Options.Every while Position solves.
	Searching Stage = iota
	// Listing: Plies has listed the positions Progress.Plies plies on.
	Listing
	// Listed: Plies has listed every position it will solve.
	Listed
	// Solving: a tick of Options.Every while Plies solves the positions.
	Solving
)

// Progress is a report of a solve under way.
type Progress struct {
	Stage   Stage
	Elapsed time.Duration // since Position or Plies was called
	// Nodes searched so far, as far as the solvers count them as they go
	// (alpha-beta's generic search counts a position's nodes at its end).
	Nodes int64
	// Plies: the plies listed (Listing), or PliesOptions.Plies (Listed).
	Plies int
	// Positions: the distinct positions listed (so far, while Listing).
	Positions int
	// Lines (Listed): the lines of play that lead to them.
	Lines int64
	// Dedup (Listed): how positions were told apart, see PliesResult.
	Dedup string
	// Solved (Solving): the positions solved so far.
	Solved int
}

// Left estimates the time left while Plies solves its positions, if the
// rest take as long as those solved so far; ok is false before any is.
func (p Progress) Left() (left time.Duration, ok bool) {
	if p.Solved <= 0 {
		return 0, false
	}
	return time.Duration(float64(p.Elapsed) / float64(p.Solved) * float64(p.Positions-p.Solved)), true
}

// Verdict is a solved value from a player's view.
type Verdict struct {
	// Value is in the game's solved-value convention where its own solver
	// gave it (othello6: empty cells go to the winner), otherwise the
	// winner's margin (games.Outcome.Score) with the sign of the result.
	Value int
	// Result is "win", "draw" or "loss": a win by a margin of 0 is a win.
	Result string
}

// Result is the answer of Position, from the side to move's view.
type Result struct {
	Verdict
	PV    []games.Move // a principal variation to the end of the game
	Nodes int64
}

// Position solves s: its value, a principal variation and the nodes
// searched. Stopped (ctx done) first, it returns the nodes and the
// solver's error: ctx's error, or a *games.KeptHint, *games.BestGuess or
// *games.ProvenBounds that says what it had proven. Options it refuses are
// *option.Error.
func Position(ctx context.Context, s games.State, o Options) (Result, error) {
	if err := o.check(); err != nil {
		return Result{}, err
	}
	if err := notOver(s); err != nil {
		return Result{}, err
	}
	start := time.Now()
	var nodes atomic.Int64
	done := o.ticking(func(now time.Time) Progress {
		return Progress{Stage: Searching, Elapsed: now.Sub(start), Nodes: nodes.Load()}
	})
	if ex, ok := s.(games.ExactSolver); ok && !o.Generic {
		v, pv, n, err := ex.SolveExact(ctx, games.SolveOptions{Threads: o.threads(), TableMB: o.TableMB, Nodes: &nodes})
		done()
		if err != nil {
			return Result{Nodes: n}, err
		}
		return Result{Verdict: verdict(v), PV: pv, Nodes: n}, nil
	}
	res, err := alphabeta.New(alphabeta.Options{Exact: true, TTMB: o.tableMB(), Threads: o.threads()}).Search(ctx, s)
	done()
	if err != nil || !res.Complete {
		// The search stops a little before a deadline, with no error.
		return Result{Nodes: res.Nodes}, firstErr(err, ctx.Err(), context.DeadlineExceeded)
	}
	return Result{Verdict: provenVerdict(res.Score), PV: res.PV, Nodes: res.Nodes}, nil
}

// check refuses options out of their ranges (o.Threads tables at once
// with plies, one table otherwise).
func (o Options) check() error {
	if o.Threads < 0 || o.Threads > MaxThreads {
		return option.New("Threads", o.Threads, "use 1 to %d", MaxThreads)
	}
	if o.TableMB < 0 || o.TableMB > MaxTableMB {
		return option.New("TableMB", o.TableMB, "use 1 to %d MB (0: the solver's choice)", MaxTableMB)
	}
	if err := sysmem.CheckMB(strconv.Itoa(o.tableMB()), o.tableMB()); err != nil {
		return option.New("TableMB", nil, "%v", err)
	}
	return nil
}

func (o Options) threads() int { return max(o.Threads, 1) }

// tableMB is the generic search's table size.
func (o Options) tableMB() int {
	if o.TableMB == 0 {
		return DefaultTableMB
	}
	return o.TableMB
}

// ticking calls o.Progress with report's Progress at every tick of o.Every
// until the returned function is called, which waits for the last call.
func (o Options) ticking(report func(now time.Time) Progress) (done func()) {
	if o.Every <= 0 || o.Progress == nil {
		return func() {}
	}
	t := time.NewTicker(o.Every)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick(t.C, quit, func(now time.Time) { o.Progress(report(now)) })
	}()
	return func() {
		t.Stop()
		close(quit)
		wg.Wait()
	}
}

// tick calls f at each tick until quit is closed.
func tick(ticks <-chan time.Time, quit <-chan struct{}, f func(time.Time)) {
	for {
		select {
		case <-quit:
			return
		case now := <-ticks:
			f(now)
		}
	}
}

// notOver refuses a finished game.
func notOver(s games.State) error {
	if s.Terminal() {
		return fmt.Errorf("the game is already over (%s)", s.Outcome().Result())
	}
	return nil
}

// verdict is the verdict of a game solver's value.
func verdict(v int) Verdict {
	switch {
	case v > 0:
		return Verdict{v, "win"}
	case v < 0:
		return Verdict{v, "loss"}
	}
	return Verdict{0, "draw"}
}

// provenVerdict is the verdict of a proven alpha-beta score.
func provenVerdict(score int) Verdict {
	switch {
	case score >= games.WinScore:
		return Verdict{score - games.WinScore, "win"}
	case score <= -games.WinScore:
		return Verdict{score + games.WinScore, "loss"}
	}
	return Verdict{0, "draw"}
}

// provenScore is a game solver's value in alpha-beta's scale,
// ±(WinScore+margin) for a win or loss and 0 for a draw, so a win by a
// margin of 0 stays a win.
func provenScore(v int) int {
	switch {
	case v > 0:
		return games.WinScore + v
	case v < 0:
		return -games.WinScore + v
	}
	return 0
}

// firstErr is the first of errs that is not nil.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Unfinished is what a solve stopped before it proved the value (Position's
// error) still proved, from the side to move's view.
type Unfinished struct {
	// Bounded: the value is from Lo to Hi (games.ProvenBounds).
	Bounded bool
	Lo, Hi  int
	// HasMove: Move, legal in the position, is proven worth at least
	// Value (Kept, games.KeptHint) or the solver's unproven best guess
	// (games.BestGuess).
	HasMove bool
	Move    games.Move
	Kept    bool
	Value   int
}

// Stopped reads what a solve of s that stopped with err still proved.
func Stopped(s games.State, err error) Unfinished {
	var u Unfinished
	var pb *games.ProvenBounds
	if errors.As(err, &pb) {
		u.Bounded, u.Lo, u.Hi = true, pb.Lo, pb.Hi
	}
	var kept *games.KeptHint
	var guess *games.BestGuess
	switch {
	case errors.As(err, &kept) && games.IsLegal(s, kept.Move):
		u.HasMove, u.Move, u.Kept, u.Value = true, kept.Move, true, kept.Value
	case errors.As(err, &guess) && games.IsLegal(s, guess.Move):
		u.HasMove, u.Move = true, guess.Move
	}
	return u
}

// Describe says what u settles, the moves in s's notation: the range of
// the value, else the move it has; "" for nothing.
func (u Unfinished) Describe(s games.State) string {
	switch {
	case u.Bounded:
		return "proven: " + provenRange(u.Lo, u.Hi)
	case u.HasMove && u.Kept:
		return fmt.Sprintf("%s is proven worth at least %+d", s.FormatMove(u.Move), u.Value)
	case u.HasMove:
		return "its best guess: " + s.FormatMove(u.Move)
	}
	return ""
}

// provenRange says what a value from lo to hi (the side to move's view)
// settles.
func provenRange(lo, hi int) string {
	r := fmt.Sprintf("the value is from %+d to %+d", lo, hi)
	switch {
	case lo > 0:
		return r + ", a win for the side to move"
	case hi < 0:
		return r + ", a loss for the side to move"
	case lo == 0:
		return r + ", at least a draw for the side to move"
	case hi == 0:
		return r + ", at best a draw for the side to move"
	}
	return r + ", the winner not yet known"
}
