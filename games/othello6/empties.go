package othello6

import "math/bits"

// Empties implements games.EmptiesCounter: the cells not yet covered by a
// disc (0 once the board is full; a finished game may leave some empty).
func (s *State) Empties() int {
	return Size*Size - bits.OnesCount64(s.discs[0]|s.discs[1])
}
