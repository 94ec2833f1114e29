// Package games defines the contract every game implements and a registry
// that resolves game specs such as "othello6" or "erdos:algol".
//
// A game state is mutable and single-threaded: search plays and undoes moves
// on one state, and takes a Clone for another goroutine. Moves are small
// integers whose meaning belongs to the game; FormatMove and ParseMove
// translate them to and from the game's notation.
//
// Sequential games (one player moves at a time) implement State. Games in
// which both players move at once implement SimState: each player picks from
// its own legal moves and the pair is applied together.
//
// Sequential games may also write a position as one line of text and read it
// back (PositionWriter, PositionReader and ParsePosition in position.go):
// the arena's --fen flags and position lines in openings files use them. A
// state read from text has the same hash, moves and rendering as the one
// that wrote it, but no history: its Ply starts at 0.
//
// Hot paths never allocate: legal moves are appended into a caller-provided
// slice and undo information lives inside the state.
package games

import "fmt"

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

// Base is what every game state offers, sequential or simultaneous.
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

// MoveValidator is implemented by simultaneous games whose LegalMovesFor
// lists only candidate moves (an action abstraction for agents and search)
// while more moves are valid, e.g. any output line in TryAngle Catch.
// Referees accept a move that ValidMove approves even when it is not listed.
type MoveValidator interface {
	ValidMove(p int, m Move) bool
}

// Evaluator is implemented by states that offer a heuristic evaluation.
type Evaluator interface {
	// Evaluate scores the position from player p's point of view: higher is
	// better for p, zero is balanced. On a finished game it returns a value
	// of the outcome's sign. The result lies inside (-WinScore, WinScore).
	Evaluate(p int) int
}

// Weight is one named weight of a game's evaluation (Evaluator), with its
// default and the range in which a tuner may move it.
type Weight struct {
	Name     string // the agent spec key after "eval.", e.g. "corner"
	Default  int
	Min, Max int // the values the evaluation accepts (Default among them)
	Help     string
}

// Weighted is implemented by positions whose evaluation has named weights,
// so that agents can be given other weights (alphabeta:eval.corner=40) and
// tuners can fit them.
type Weighted interface {
	// Weights lists the weights in a fixed order, with their defaults; it
	// is the same for every position of a game (and variant).
	Weights() []Weight
	// UseWeights makes the position, and the positions cloned from it
	// afterwards, evaluate with w (in the order of Weights; nil for the
	// defaults), and returns the weights used until now, so that an agent
	// can restore them when its move is done. The position keeps w itself,
	// not a copy: the caller must not change it while it is in use. Hash,
	// moves and rules do not depend on the weights.
	UseWeights(w []int) (previous []int)
}

// HashComputer is implemented by states that can compute their hash from
// scratch. ComputeHash must equal Hash in every position: the conformance
// suite (games/gamestest) compares the two at every ply, which catches an
// incremental update that is wrong, or a hash that depends on the path
// rather than the position. Every registered game implements it.
type HashComputer interface {
	ComputeHash() uint64
}

// LegalChecker is implemented by sequential games that can tell whether
// one move is legal without listing them all; a referee checks every move
// an agent plays, so this is on its hot path. Legal(m) must agree exactly
// with membership in LegalMoves.
type LegalChecker interface {
	Legal(m Move) bool
}

// IsLegal reports whether m is among the legal moves of the sequential state s.
func IsLegal(s State, m Move) bool {
	if c, ok := s.(LegalChecker); ok {
		return c.Legal(m)
	}
	buf := movePool.Get().(*[MaxMoves]Move)
	defer movePool.Put(buf)
	return containsMove(s.LegalMoves(buf[:0]), m)
}

// ParseLegal parses text as a move of s and checks that it is legal,
// returning an error that lists the legal moves otherwise.
func ParseLegal(s State, text string) (Move, error) {
	m, err := s.ParseMove(text)
	if err != nil {
		return 0, err
	}
	if !IsLegal(s, m) {
		return 0, fmt.Errorf("illegal move %q (legal: %s)", text, FormatMoves(s, s.LegalMoves(nil)))
	}
	return m, nil
}
