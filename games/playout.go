package games

import (
	"sync"

	"github.com/boardgame-arena/arena/rng"
)

// RandomPlayout plays uniformly random legal moves from s until the game
// ends, returns the outcome, and undoes the moves again. It uses the game's
// Playouter when there is one.
func RandomPlayout(s State, r *rng.Rand) Outcome {
	if p, ok := s.(Playouter); ok {
		return p.RandomPlayout(r)
	}
	buf := movePool.Get().(*[MaxMoves]Move)
	defer movePool.Put(buf)
	n := 0
	for !s.Terminal() {
		moves := s.LegalMoves(buf[:0])
		s.Play(moves[r.IntN(len(moves))])
		n++
	}
	o := s.Outcome()
	for ; n > 0; n-- {
		s.Undo()
	}
	return o
}

// movePool recycles move buffers: a buffer passed to an interface method
// escapes to the heap, so a stack array would cost an allocation per call.
var movePool = sync.Pool{New: func() any { return new([MaxMoves]Move) }}

// RandomPlies plays up to n uniformly random legal moves on s (fewer if the
// game ends first) and returns how many it played. Tests and benchmarks use
// it for reproducible midgame positions.
func RandomPlies(s State, n int, r *rng.Rand) int {
	buf := movePool.Get().(*[MaxMoves]Move)
	defer movePool.Put(buf)
	played := 0
	for ; played < n && !s.Terminal(); played++ {
		moves := s.LegalMoves(buf[:0])
		s.Play(moves[r.IntN(len(moves))])
	}
	return played
}
