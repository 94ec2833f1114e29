package tryangle

import (
	"fmt"

	"github.com/boardgame-arena/arena/games"
)

// MoveFault implements games.MoveFaulter: an output line with an unknown
// command is a critical error that loses the game (spec §7.1), although
// the line is a valid move (the referee plays it, as CodinGame's does).
func (s *State) MoveFault(p int, m games.Move) string {
	if m&interned == 0 {
		return ""
	}
	if ln := s.lines.get(m); ln != nil && ln.Unknown != "" {
		return fmt.Sprintf("unknown command %q, a critical error that loses the game (TryAngle Catch §7.1)", ln.Unknown)
	}
	return ""
}
