package games

import "fmt"

// The helpers below let the arena, agents and the CLI treat both kinds of
// state (State and SimState) alike instead of switching on the kind at each
// call site. They make no allocations beyond what the state's own methods
// make (Clone copies the state, by nature).

// Simultaneous reports whether b is a simultaneous-move state (SimState).
func Simultaneous(b Base) bool {
	_, ok := b.(SimState)
	return ok
}

// CheckKind returns an error unless b is a State or a SimState: a Base of
// neither kind cannot be played.
func CheckKind(b Base) error {
	switch b.(type) {
	case State, SimState:
		return nil
	}
	return fmt.Errorf("games: state %T is neither sequential (State) nor simultaneous (SimState)", b)
}

// Clone returns an independent copy of b, undo history included. It panics
// if b is of neither kind (see CheckKind).
func Clone(b Base) Base {
	switch s := b.(type) {
	case State:
		return s.Clone()
	case SimState:
		return s.Clone()
	}
	panic(CheckKind(b))
}

// LegalMovesFor appends player p's legal moves in b to buf and returns it.
// In a sequential state that is LegalMoves when p is to move and nothing
// otherwise; in a simultaneous state it is LegalMovesFor(p).
func LegalMovesFor(b Base, p int, buf []Move) []Move {
	switch s := b.(type) {
	case State:
		if s.ToMove() != p {
			return buf
		}
		return s.LegalMoves(buf)
	case SimState:
		return s.LegalMovesFor(p, buf)
	}
	return buf
}

// PlayFor plays player p's move m in b. In a sequential state p is the
// player to move and other is ignored; in a simultaneous state the other
// player plays other at the same time. It panics if b is of neither kind
// (see CheckKind).
func PlayFor(b Base, p int, m, other Move) {
	switch s := b.(type) {
	case State:
		s.Play(m)
	case SimState:
		if p == 0 {
			s.PlayJoint(m, other)
		} else {
			s.PlayJoint(other, m)
		}
	default:
		panic(CheckKind(b))
	}
}

// PlayPly plays one ply stored as a pair, the way openings and transcripts
// keep plies of either kind of game: a sequential state plays ply[0] (the
// move of whoever is to move), a simultaneous state the joint move
// (ply[0], ply[1]). It panics if b is of neither kind (see CheckKind).
func PlayPly(b Base, ply [2]Move) { PlayFor(b, 0, ply[0], ply[1]) }
