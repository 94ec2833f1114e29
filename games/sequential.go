package games

// Sequentialized presents a simultaneous game as a sequential one, so that
// search written for State (alpha-beta) can play it. Each turn, player First
// chooses first, then the other player chooses knowing that choice, and the
// pair is applied as one joint move.
//
// For a searcher sitting in seat First this is the cautious ("paranoid")
// reading of a simultaneous turn: the opponent is assumed to answer the
// searcher's actual choice, so a plan is rated by its worst reply. It never
// overrates a move, but it can undervalue mixing: in a guessing situation
// every choice looks as bad as being read.
//
// Hash includes the pending first choice, so a transposition table keeps the
// two halves of a turn apart.
type Sequentialized struct {
	sim     SimState
	first   int
	pending bool
	choice  Move   // First's choice while pending
	history []Move // First's choice of every joint move played, for Undo
}

// Sequentialize wraps s, with player first choosing first in every turn.
func Sequentialize(s SimState, first int) *Sequentialized {
	return &Sequentialized{sim: s, first: first}
}

// Sim returns the wrapped simultaneous state.
func (q *Sequentialized) Sim() SimState { return q.sim }

// ToMove implements Base: First, or the other player once First has chosen.
func (q *Sequentialized) ToMove() int {
	switch {
	case q.sim.Terminal():
		return None
	case q.pending:
		return 1 - q.first
	}
	return q.first
}

// Terminal implements Base.
func (q *Sequentialized) Terminal() bool { return q.sim.Terminal() }

// Outcome implements Base.
func (q *Sequentialized) Outcome() Outcome { return q.sim.Outcome() }

// Ply implements Base: two plies per joint move.
func (q *Sequentialized) Ply() int {
	if q.pending {
		return 2*q.sim.Ply() + 1
	}
	return 2 * q.sim.Ply()
}

// LegalMoves implements State: the legal moves of the player choosing now.
func (q *Sequentialized) LegalMoves(buf []Move) []Move {
	if q.sim.Terminal() {
		return buf
	}
	return q.sim.LegalMovesFor(q.ToMove(), buf)
}

// Play implements State.
func (q *Sequentialized) Play(m Move) {
	if !q.pending {
		q.pending, q.choice = true, m
		return
	}
	if q.first == 0 {
		q.sim.PlayJoint(q.choice, m)
	} else {
		q.sim.PlayJoint(m, q.choice)
	}
	q.history = append(q.history, q.choice)
	q.pending = false
}

// Undo implements Base.
func (q *Sequentialized) Undo() {
	if q.pending {
		q.pending = false
		return
	}
	q.sim.Undo()
	last := len(q.history) - 1
	q.choice, q.history = q.history[last], q.history[:last]
	q.pending = true
}

// Hash implements Base.
func (q *Sequentialized) Hash() uint64 { return q.withPending(q.sim.Hash()) }

// ComputeHash implements Base: the wrapped game's hash from scratch, with
// the pending choice mixed in as Hash does.
func (q *Sequentialized) ComputeHash() uint64 { return q.withPending(q.sim.ComputeHash()) }

// withPending mixes the pending first choice, if any, into the hash h.
func (q *Sequentialized) withPending(h uint64) uint64 {
	if q.pending {
		// A SplitMix64 finaliser spreads the pending choice over all bits.
		z := (uint64(q.choice) + 1) * 0x9e3779b97f4a7c15
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		h ^= z ^ (z >> 27)
	}
	return h
}

// Clone implements State.
func (q *Sequentialized) Clone() State {
	c := *q
	c.sim = q.sim.Clone()
	c.history = append([]Move(nil), q.history...)
	return &c
}

// FormatMove implements Base.
func (q *Sequentialized) FormatMove(m Move) string { return q.sim.FormatMove(m) }

// ParseMove implements Base.
func (q *Sequentialized) ParseMove(s string) (Move, error) { return q.sim.ParseMove(s) }

// String implements Base.
func (q *Sequentialized) String() string { return q.sim.String() }

// Evaluate implements Evaluator with the wrapped game's evaluation (0 when it
// has none); a pending choice is not yet reflected in it.
func (q *Sequentialized) Evaluate(p int) int {
	if e, ok := q.sim.(Evaluator); ok {
		return e.Evaluate(p)
	}
	return 0
}
