package games

import "context"

// ExactSolver is implemented by positions of games with a dedicated exact
// solver (othello6, erdos). SolveExact returns the game-theoretic value of
// the position from the side to move's view in the game's solved-value
// convention (othello6: empty cells go to the winner; others: the winner's
// margin Outcome.Score with the sign of the result, 0 for a draw), a
// principal variation (first move first) that replays legally to the end of
// the game, and the number of nodes searched. It stops with ctx's error when
// ctx is done; threads is a hint (1 means one thread).
//
// Solver adjudication (arena), `arena solve` and the alphabeta agent's
// exact mode use it; search/alphabeta's generic exact search serves games
// without one.
type ExactSolver interface {
	SolveExact(ctx context.Context, threads int) (value int, pv []Move, nodes int64, err error)
}

// EmptiesCounter is implemented by positions of placement games that can say
// how many empty cells (places left to fill) they have: a bound on the plies
// left and the measure by which solver adjudication (`--adjudicate
// solve:empties=N`) decides a position is small enough to solve.
type EmptiesCounter interface {
	Empties() int
}
