package testgames

import (
	"time"

	"github.com/boardgame-arena/arena/games"
)

// Slow wraps a sequential game so that every Play busy-waits for d: a game
// with expensive moves, for testing how searches keep to their time budget
// when nodes or playouts are slow. Only the games.State methods pass through
// (no evaluation, fast playout or hints); clones are slow too.
func Slow(s games.State, d time.Duration) games.State { return &slow{s, d} }

type slow struct {
	games.State
	d time.Duration
}

func (s *slow) Play(m games.Move) {
	// A busy wait, not a sleep: the work of a costly move takes a core.
	for end := time.Now().Add(s.d); time.Now().Before(end); {
	}
	s.State.Play(m)
}

func (s *slow) Clone() games.State { return &slow{s.State.Clone(), s.d} }
