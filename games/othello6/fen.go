package othello6

import (
	"fmt"
	"strings"

	"github.com/boardgame-arena/arena/games"
)

// centre holds c3, d3, c4 and d4, occupied from the start on.
const centre = 1<<(2*Size+2) | 1<<(2*Size+3) | 1<<(3*Size+2) | 1<<(3*Size+3)

// Position implements games.PositionWriter; see the package comment for the
// format.
func (s *State) Position() string {
	var b [Size*(Size+1) + 1]byte
	n := 0
	for r := range Size {
		if r > 0 {
			b[n] = '/'
			n++
		}
		for f := range Size {
			c := byte('.')
			switch {
			case s.discs[0]&bit(sq(f, r)) != 0:
				c = 'X'
			case s.discs[1]&bit(sq(f, r)) != 0:
				c = 'O'
			}
			b[n] = c
			n++
		}
	}
	b[n] = ' '
	b[n+1] = "xo"[s.side]
	return string(b[:n+2])
}

// ReadPosition implements games.PositionReader: the position in text, with
// an empty history.
func (s *State) ReadPosition(text string) (games.State, error) { return ParsePosition(text) }

// ParsePosition reads a position written by Position. The state has Ply 0
// and no history; a finished position is accepted and is over.
func ParsePosition(text string) (*State, error) {
	bad := func(format string, args ...any) (*State, error) {
		return nil, fmt.Errorf("othello6: bad position %q: %s (want 6 ranks 1→6 of X, O or '.' separated by '/', a space and x or o to move, e.g. %q)",
			text, fmt.Sprintf(format, args...), New().Position())
	}
	fields := strings.Fields(text)
	if len(fields) != 2 {
		return bad("%d fields, want 2 (board and side to move)", len(fields))
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != Size {
		return bad("%d ranks, want %d", len(ranks), Size)
	}
	var discs [2]uint64
	for r, rank := range ranks {
		if len(rank) != Size {
			return bad("rank %d has %d cells, want %d", r+1, len(rank), Size)
		}
		for f := range Size {
			switch rank[f] {
			case 'X':
				discs[0] |= bit(sq(f, r))
			case 'O':
				discs[1] |= bit(sq(f, r))
			case '.':
			default:
				return bad("cell %c%d is %q, want X, O or '.'", 'a'+f, r+1, rank[f])
			}
		}
	}
	if (discs[0]|discs[1])&centre != centre {
		return bad("a centre cell (c3, d3, c4, d4) is empty, which no game reaches")
	}
	var side int
	switch fields[1] {
	case "x":
		side = 0
	case "o":
		side = 1
	default:
		return bad("side to move %q, want x or o", fields[1])
	}
	s, err := FromDiscs(discs[0], discs[1], side)
	if err != nil {
		return bad("%v", err)
	}
	return s, nil
}
