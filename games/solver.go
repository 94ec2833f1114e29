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
// ctx is done; threads is a hint (1 means one thread).
//
// Solving (with EmptiesCounter here and the book interfaces in book.go).
// Solver adjudication (arena), `arena solve` and the alphabeta agent's
// exact mode use it; search/alphabeta's generic exact search serves games
// without one, far more slowly, and the perfect agent and solver
// adjudication refuse them.
type ExactSolver interface {
	SolveExact(ctx context.Context, threads int) (value int, pv []Move, nodes int64, err error)
}

// EmptiesCounter is implemented by positions of placement games that can say
// how many empty cells (places left to fill) they have: a bound on the plies
// left and the measure by which solver adjudication (`--adjudicate
// solve:empties=N`) decides a position is small enough to solve. Without
// it solver adjudication never applies to the game.
type EmptiesCounter interface {
	Empties() int
}

type nodeCounterKey struct{}

// WithNodeCounter returns a context asking the solver it is passed to (an
// ExactSolver's SolveExact) to add the nodes it searches to n as it goes,
// every few thousand nodes, so another goroutine can show the progress of
// a long solve. Solvers that do not support it ignore it.
func WithNodeCounter(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, nodeCounterKey{}, n)
}

// NodeCounter returns the counter of WithNodeCounter that ctx carries, or nil.
func NodeCounter(ctx context.Context) *atomic.Int64 {
	n, _ := ctx.Value(nodeCounterKey{}).(*atomic.Int64)
	return n
}

type tableMBKey struct{}

// WithTableMB returns a context asking the solver it is passed to for a
// transposition table of about mb megabytes (`arena solve --tt`). Solvers
// with a fixed table ignore it.
func WithTableMB(ctx context.Context, mb int) context.Context {
	return context.WithValue(ctx, tableMBKey{}, mb)
}

// TableMB returns the table size of WithTableMB that ctx carries, or 0.
func TableMB(ctx context.Context) int {
	mb, _ := ctx.Value(tableMBKey{}).(int)
	return mb
}

type valueHintKey struct{}

// WithValueHint returns a context telling the solver it is passed to that
// the position is worth at least lo (in the solver's value convention, from
// the side to move's view): for instance the value of the position before
// the opponent's move, which no reply can lower. A solver may start its
// search there instead of at its own estimate, which pays when the hint is
// the value (the opponent played well). A hint that is wrong costs time,
// never a wrong value. Solvers that do not use hints ignore it.
func WithValueHint(ctx context.Context, lo int) context.Context {
	return context.WithValue(ctx, valueHintKey{}, lo)
}

// ValueHint returns the hint of WithValueHint that ctx carries.
func ValueHint(ctx context.Context) (lo int, ok bool) {
	lo, ok = ctx.Value(valueHintKey{}).(int)
	return lo, ok
}

// KeptHint is the error of a solver that stopped before it proved the
// value, after it proved that Move keeps at least Value for the side to
// move. Given a hint (WithValueHint), Value is at least the hint: a move
// that loses nothing the position was known to be worth, though maybe not
// the best; solvers that support hints look for such a move first. It
// wraps the reason the solve stopped (the context's error).
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
