package games

import (
	"context"
	"fmt"
	"sync/atomic"
)

// ExactSolver is implemented by positions of games with a dedicated exact
// solver (othello6, erdos). SolveExact returns the game-theoretic value of
// the position from the side to move's view in the game's solved-value
// convention (othello6: empty cells go to the winner; others: the winner's
// margin Outcome.Score with the sign of the result, 0 for a draw), a
// principal variation (first move first) that replays legally to the end of
// the game, and the number of nodes searched. It stops with ctx's error when
// ctx is done; o says how (threads, table, progress, hint).
//
// Solving (with EmptiesCounter here and the book interfaces in book.go).
// Solver adjudication (arena), `arena solve` and the alphabeta agent's
// exact mode use it; search/alphabeta's generic exact search serves games
// without one, far more slowly, and the perfect agent and solver
// adjudication refuse them.
type ExactSolver interface {
	SolveExact(ctx context.Context, o SolveOptions) (value int, pv []Move, nodes int64, err error)
}

// EmptiesCounter is implemented by positions of placement games that can say
// how many empty cells (places left to fill) they have: a bound on the plies
// left and the measure by which the arena's solver adjudication
// (solve:empties=N) decides a position is small enough to solve. Without
// it solver adjudication never applies to the game.
type EmptiesCounter interface {
	Empties() int
}

// SolveOptions are what the caller of SolveExact asks of the solver. The
// zero value asks for one thread, a table of the solver's choosing, no
// progress counter and no hint.
type SolveOptions struct {
	// Threads is how many threads the solver may use; 0 and 1 mean one.
	// It is a hint: a solver may use fewer.
	Threads int
	// TableMB asks for a transposition table of about this many megabytes
	// (`arena solve --tt`); 0 lets the solver size it for the position and
	// the time ctx leaves. Solvers with a fixed table ignore it.
	TableMB int
	// Nodes, if not nil, receives the nodes the solver searches as it goes,
	// every few thousand nodes, so another goroutine can show the progress
	// of a long solve. Solvers that do not support it add nothing to it.
	Nodes *atomic.Int64
	// ValueHint, when HasValueHint, says the position is worth at least
	// ValueHint (in the solver's value convention, from the side to move's
	// view): for instance the value of the position before the opponent's
	// move, which no reply can lower. A solver may start its search there
	// instead of at its own estimate, which pays when the hint is the value
	// (the opponent played well). A hint that is wrong costs time, never a
	// wrong value. Solvers that do not use hints ignore it.
	ValueHint    int
	HasValueHint bool
}

// KeptHint is the error of a solver that stopped before it proved the
// value, after it proved that Move keeps at least Value for the side to
// move. Given a hint (SolveOptions.ValueHint), Value is at least the hint:
// a move that loses nothing the position was known to be worth, though
// maybe not the best; solvers that support hints look for such a move
// first. It wraps the reason the solve stopped (the context's error).
type KeptHint struct {
	Move  Move
	Value int
	Err   error
}

func (e *KeptHint) Error() string {
	return fmt.Sprintf("solve stopped (%v) after proving a move worth at least %d", e.Err, e.Value)
}

func (e *KeptHint) Unwrap() error { return e.Err }

// BestGuess is the error of a solver that stopped before it proved a bound
// for any move: Move is the move its own heuristic search (the one that
// orders its moves) rates best, a better answer than nothing, but not
// proven. It wraps the reason the solve stopped (the context's error).
type BestGuess struct {
	Move Move
	Err  error
}

func (e *BestGuess) Error() string {
	return fmt.Sprintf("%v before any move was proven", e.Err)
}

func (e *BestGuess) Unwrap() error { return e.Err }

// ProvenBounds is the error of a solver that stopped before it proved the
// value, after it proved that the value, from the side to move's view, is
// at least Lo and at most Hi: a long solve that settled who wins but not
// by how much says so. It wraps the reason the solve stopped (the
// context's error).
type ProvenBounds struct {
	Lo, Hi int
	Err    error
}

func (e *ProvenBounds) Error() string {
	return fmt.Sprintf("solve stopped (%v) with the value proven from %d to %d", e.Err, e.Lo, e.Hi)
}

func (e *ProvenBounds) Unwrap() error { return e.Err }
