package games

import (
	"fmt"

	"github.com/boardgame-arena/arena/rng"
)

// Fast paths: each gives the same answers as generic code over the core
// interfaces, only sooner. A game without them plays, searches and is
// refereed alike, more slowly; the conformance suite (games/gamestest)
// checks that the fast and generic answers agree.

// LegalChecker is implemented by sequential games that can tell whether
// one move is legal without listing them all. IsLegal calls it, and a
// referee (arena) checks every move an agent plays with IsLegal, so it is
// on the hot path. Legal(m) must agree exactly with membership in
// LegalMoves. Without it IsLegal lists the legal moves and looks.
type LegalChecker interface {
	Legal(m Move) bool
}

// Playouter is implemented by states with a fast game-specific random
// playout. search/mcts's random rollouts and RandomPlayout call it;
// without it they play the generic loop (LegalMoves, Play, then Undo
// back), which the registered games run 1.5 to 3.5 times more slowly
// (benchmarks/README.md), so MCTS gets fewer iterations.
type Playouter interface {
	// RandomPlayout plays uniformly random legal moves to the end of the game
	// without changing the state and returns the outcome.
	RandomPlayout(r *rng.Rand) Outcome
}

// BulkPerfter is implemented by states with a fast game-specific perft.
// 'arena perft' and the benchmarks use it; without it the generic Perft
// (Play and Undo through the State interface) counts the same leaves.
type BulkPerfter interface {
	// PerftBulk returns the same count as Perft(s, depth).
	PerftBulk(depth int) uint64
}

// Copier is implemented by simultaneous games whose states can become a
// copy of another position of the same game in place, keeping their own
// buffers and caches (TryAngle Catch's plan lists of positions seen
// before). A DUCT worker (search/mcts) copies each new root into the state
// of its last search instead of cloning it, so a reused subtree's
// positions find what the last search computed for them; without it the
// root is cloned and those caches start empty. CopyFrom reports false (and
// leaves the state unusable) when src is not a position of the same game.
type Copier interface {
	CopyFrom(src SimState) bool
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
