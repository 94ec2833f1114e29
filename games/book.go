package games

// Solving, continued (solver.go holds ExactSolver and EmptiesCounter): a
// game's book of solved positions. Only the perfect agent (agents) reads
// them; without them it solves every position from scratch, which decides
// whether it can answer within a move's time early in the game.

// Booker is implemented by positions of games that ship a book of solved
// positions: those too far from the end for their ExactSolver to settle
// within a move's time. BookMove returns, when the position is in the
// book, a game-theoretically optimal move and the exact value from the
// side to move's view (in ExactSolver's convention); ok is false when it
// is not. The perfect-play agent uses it before solving; the game keeps
// the book (its content, format and rebuild command are game knowledge).
type Booker interface {
	BookMove() (m Move, value int, ok bool)
}

// BookValuer is implemented by positions whose game's book may know their
// exact value without a move (for instance right after a reply to a book
// position, one ply below the book): BookValue returns it from the side to
// move's view, in ExactSolver's convention. The perfect-play agent then
// knows what its position is worth, so the first move its solver proves
// keeps that value is optimal.
type BookValuer interface {
	BookValue() (value int, ok bool)
}

// BookBounder is implemented by positions whose game's book may bound
// their value through the positions one move before them, found from the
// position itself (its history does not matter): BookBound returns the
// highest lower bound it gives, from the side to move's view in
// ExactSolver's convention, and whether that bound is the exact value
// (the book's own move in one of those positions leads here). A position
// handed over without its history, just below the book, then still starts
// its solve from a proven bound.
type BookBounder interface {
	BookBound() (value int, exact, ok bool)
}
