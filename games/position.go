package games

import (
	"fmt"
	"strings"
)

// Positions as text.
//
// A sequential game may write a position as one line of text (a "FEN", after
// chess's Forsyth–Edwards Notation) and read it back. Each game documents
// its format in its package comment. The two halves are optional
// interfaces:
//
//   - PositionWriter, on any state: Position returns the text.
//   - PositionReader, on the start position a Variant makes: ReadPosition
//     builds a state of the same rules (e.g. erdos:algol) from text.
//
// Reading is the exact inverse of writing: a state read from s.Position()
// has the same hash (from scratch), player to move, legal moves, outcome and
// String as s, and writes the same text again. It has no history: Ply
// counts from 0 there and Undo panics until a move is played. Text that no
// game could reach in the way the format can see (wrong piece counts,
// overlapping pieces, a side to move that disagrees with the counts) is
// rejected with an error saying what is wrong.

// PositionWriter is implemented by sequential states that can write their
// position as text, in the format their package documents.
type PositionWriter interface {
	Position() string
}

// PositionReader is implemented by the start positions of sequential games
// that read positions as text. ReadPosition returns a new state, under the
// receiver's rules, for text in the format Position writes; it leaves the
// receiver unchanged.
type PositionReader interface {
	ReadPosition(text string) (State, error)
}

// ParsePosition builds a state of variant v from text in the game's position
// format. The error says what was wrong, or that v's game has no such format.
func ParsePosition(v Variant, text string) (State, error) {
	r, ok := v.New().(PositionReader)
	if !ok {
		return nil, fmt.Errorf("%s has no position format: only %s read positions", v, strings.Join(PositionGames(), ", "))
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, fmt.Errorf("%s: empty position; write one as %s's package documents it, e.g. the \"position:\" line of 'arena replay'", v, v.Game.Name)
	}
	return r.ReadPosition(text)
}

// PositionGames returns the names of the registered games whose start
// position reads positions as text.
func PositionGames() []string {
	var names []string
	for _, g := range All() {
		v, err := Lookup(g.Name)
		if err != nil {
			continue
		}
		if _, ok := v.New().(PositionReader); ok {
			names = append(names, g.Name)
		}
	}
	return names
}

// Other text about positions: a structured view and a digest of inputs.

// Viewer is implemented by positions with a structured view for JSON
// output ('arena replay --format json' of a simultaneous game): a value
// encoding/json can marshal. Positions without one are shown by their
// String.
type Viewer interface {
	JSONView() any
}

// InputDigester is implemented by start positions built from input outside
// the spec, such as a map file: InputDigest returns a digest (SHA-256, hex)
// of that input, or "" when the spec alone decides the position.
// Variant.Digest reads it, and records keep it so that a resumed run
// notices an edited input file; without it an edit goes unnoticed.
type InputDigester interface {
	InputDigest() string
}
