// Package games defines the contract every game implements and a registry
// that resolves game specs such as "othello6" or "erdos:algol".
//
// A game state is mutable and single-threaded: search plays and undoes moves
// on one state, and takes a Clone for another goroutine. Moves are small
// integers whose meaning belongs to the game; FormatMove and ParseMove
// translate them to and from the game's notation.
//
// # The core (mandatory)
//
// Every state implements Base and one of its two kinds (this file):
// sequential games (one player moves at a time) implement State; games in
// which both players move at once implement SimState: each player picks
// from its own legal moves and the pair is applied together. Base includes
// ComputeHash, the hash from scratch, against which the conformance suite
// (games/gamestest) checks the incremental Hash at every ply. The helpers
// in kinds.go treat both kinds alike.
//
// # Optional interfaces, by purpose
//
// A game adds what it can; the callers find each by a type assertion and
// fall back to something generic, or refuse, without it. Each interface's
// comment says who calls it and what a game loses without it.
//
//   - Evaluation and search hints (evaluation.go): Evaluator, Weighted,
//     MovesLeftEstimator, OrderHinter, Rewarder.
//   - Fast paths (fastpath.go), same answers as the generic code, sooner:
//     LegalChecker, Playouter, BulkPerfter, Copier.
//   - Referees (referee.go), moves beyond the listed ones: MoveValidator,
//     MoveFaulter.
//   - Solving (solver.go, book.go): ExactSolver, EmptiesCounter, Booker,
//     BookValuer, BookBounder. The caller of SolveExact says what it
//     asks (threads, table size, a node counter, a value hint) in a
//     SolveOptions; a solve that stops early says what it proved
//     (KeptHint, ProvenBounds, BestGuess). search/solve solves positions
//     and whole plies over them.
//   - Text and positions (position.go): PositionWriter, PositionReader,
//     Viewer, InputDigester.
//   - Drawing (drawing.go): Drawer. Every registered game draws itself
//     (gamestest's TestDrawers requires it); the interface stays optional
//     for wrappers and test games, which have no picture.
//
// docs/adding-a-game.md walks through them, and through registering a
// game: its package calls Register in an init function, and one import
// line in games/all adds it to the project.
//
// Sequential games may write a position as one line of text and read it
// back (PositionWriter, PositionReader and ParsePosition in position.go):
// position options and lines in openings files use them. A state read from
// text has the same hash, moves and rendering as the one that wrote it, but
// no history: its Ply starts at 0.
//
// Around the contract the package gives what every caller shares: the
// registry (Register an Entry; Lookup a spec into a Variant; New), replays
// of transcripts (Replay, and ReplaySim with SplitTurns for simultaneous
// games), Perft and Divide, MarginOutcome (the outcome of a game decided
// by a score margin), Sequentialize (a simultaneous game seen as a
// sequential one) and WriteSVG.
//
// Hot paths never allocate: legal moves are appended into a caller-provided
// slice and undo information lives inside the state.
package games

// Move is a move in the game's own encoding.
type Move uint32

// Values returned by Base.ToMove besides the player indices 0 and 1.
const (
	// None means nobody moves: the game is over.
	None = -1
	// Both means both players move at once (SimState).
	Both = 2
)

// Draw is the Outcome.Winner of a drawn game.
const Draw = -1

// WinScore bounds heuristic evaluations: Evaluate stays strictly inside
// (-WinScore, WinScore) so that search can rank proven results above it.
const WinScore = 1 << 24

// MaxMoves bounds the number of legal moves in any position of any game;
// a buffer with this capacity never grows.
const MaxMoves = 512

// Outcome is the result of a finished game.
type Outcome struct {
	Winner int // 0 or 1, or Draw
	Score  int // the game's margin from the first player's view (e.g. disc difference)
}

// MarginOutcome returns the outcome of a finished game that the first
// player leads by margin (a disc, point or piece difference; negative when
// the second player leads): a win for the side ahead, a draw at 0, and
// margin as Score. Games whose result is a margin build their Outcome with
// it, in play and in their fast playouts alike.
func MarginOutcome(margin int) Outcome {
	switch {
	case margin > 0:
		return Outcome{Winner: 0, Score: margin}
	case margin < 0:
		return Outcome{Winner: 1, Score: margin}
	}
	return Outcome{Winner: Draw}
}

// Result returns the outcome in the usual notation: "1-0", "0-1" or "1/2-1/2".
func (o Outcome) Result() string {
	switch o.Winner {
	case 0:
		return "1-0"
	case 1:
		return "0-1"
	}
	return "1/2-1/2"
}

// Points returns what the outcome is worth to player p: 1, ½ or 0.
func (o Outcome) Points(p int) float64 {
	switch o.Winner {
	case Draw:
		return 0.5
	case p:
		return 1
	}
	return 0
}

// Base is what every game state offers, sequential or simultaneous: the
// arena, agents, search and the CLI call all of it.
type Base interface {
	// ToMove returns 0 or 1 for the player to move, Both when both players
	// move at once, or None when the game is over.
	ToMove() int
	// Terminal reports whether the game is over.
	Terminal() bool
	// Outcome returns the result; it is meaningful only when Terminal.
	Outcome() Outcome
	// Ply returns the number of moves (joint moves for SimState) played.
	Ply() int
	// Undo takes back the last move. It panics when Ply is 0.
	Undo()
	// Hash returns a Zobrist hash of the position, maintained incrementally.
	Hash() uint64
	// ComputeHash returns the hash computed from scratch. It must equal
	// Hash in every position: the conformance suite (games/gamestest)
	// compares the two at every ply, which catches an incremental update
	// that is wrong, or a hash that depends on the path rather than the
	// position. Nothing else calls it, so it may be slow.
	ComputeHash() uint64
	// FormatMove writes m in the game's notation.
	FormatMove(m Move) string
	// ParseMove reads a move in the game's notation. It checks the syntax,
	// not legality.
	ParseMove(s string) (Move, error)
	// String renders the position as text.
	String() string
}

// State is a sequential game state.
type State interface {
	Base
	// LegalMoves appends the legal moves of the player to move to buf and
	// returns it. It appends nothing when the game is over.
	LegalMoves(buf []Move) []Move
	// Play makes the legal move m for the player to move.
	Play(m Move)
	// Clone returns an independent copy, undo history included.
	Clone() State
}

// SimState is a simultaneous-move game state.
type SimState interface {
	Base
	// LegalMovesFor appends player p's legal moves to buf.
	LegalMovesFor(p int, buf []Move) []Move
	// PlayJoint applies both players' moves at once.
	PlayJoint(m0, m1 Move)
	// Clone returns an independent copy, undo history included.
	Clone() SimState
}
