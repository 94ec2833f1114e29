package ugi

import (
	"fmt"

	"github.com/boardgame-arena/arena/games"
)

// maxStep is the most plies between two moves of a game that a Client
// follows incrementally; a longer gap is recovered from scratch.
const maxStep = 64

// positionLine sets c.line to the position command of s: "position
// startpos moves …", or "position fen TEXT moves …" when the game began
// elsewhere than the variant's start. States keep no moves, only their
// undo history, so the moves are recovered from positions' hashes (see
// History). Within a game the moves played since the last call are
// found by undoing them on s itself and playing them back (which leaves
// s as it was), checked against a copy of the game at the position last
// sent, and appended: no copy, no allocation. Anything else (a new game,
// a position that does not follow from the last) is recovered from
// scratch.
func (c *Client) positionLine(s games.State) error {
	if c.shadow != nil && c.follow(s) {
		return nil
	}
	hist, root, fen, cp, err := history(s, nil)
	if err != nil {
		return err
	}
	text := ""
	if c.knowStart && root != c.startHash {
		// The game began elsewhere than the variant's start: an opening
		// given as a position.
		if fen == nil {
			return fmt.Errorf("the game did not begin at the start position, and %T writes no position text for 'position fen'", s)
		}
		text = fen.Position()
	}
	c.line = AppendPosition(c.line[:0], text, hist...)
	c.moves = len(hist) > 0
	c.shadow = cp
	return nil
}

// follow brings c.shadow and c.line up to s when s is c.shadow's game
// with moves played since, and reports whether it could.
func (c *Client) follow(s games.State) bool {
	n, k := s.Ply(), c.shadow.Ply()
	if n < k || n-k > maxStep {
		return false
	}
	for i := n; i > k; i-- {
		c.hashes[i-k-1] = s.Hash()
		s.Undo()
	}
	same := s.Hash() == c.shadow.Hash()
	if c.moveBuf == nil {
		c.moveBuf = make([]games.Move, 0, games.MaxMoves)
	}
	for i := k; i < n; i++ {
		found := false
		c.moveBuf = s.LegalMoves(c.moveBuf[:0])
		for _, m := range c.moveBuf {
			s.Play(m)
			if s.Hash() == c.hashes[i-k] {
				if same {
					c.line = AppendMove(c.line, c.moves, c.shadow.FormatMove(m)) // in the position before m
					c.moves = true
					c.shadow.Play(m)
				}
				found = true
				break
			}
			s.Undo()
		}
		if !found {
			// Not a game's history (cannot happen with consistent rules):
			// s stays short of its position, which the referee reports.
			c.shadow = nil
			return false
		}
	}
	return same
}

// History appends to out the moves, in s's notation, that lead from the
// start of s's game (ply 0) to s. States keep their undo history but not
// the moves, so each move is found as the legal move whose position has
// the hash the game had after it.
func History(s games.State, out []string) ([]string, error) {
	out, _, _, _, err := history(s, out)
	return out, err
}

// history is History that also returns the hash of the game's first
// position, when the game writes positions as text that position's text
// (else nil), and a copy of s (with its history).
func history(s games.State, out []string) ([]string, uint64, games.PositionWriter, games.State, error) {
	c := s.Clone()
	n := c.Ply()
	hashes := make([]uint64, n+1)
	for i := n; i > 0; i-- {
		hashes[i] = c.Hash()
		c.Undo()
	}
	root := c.Hash()
	var fen games.PositionWriter
	if w, ok := c.(games.PositionWriter); ok {
		fen = fenText(w.Position())
	}
	buf := make([]games.Move, 0, games.MaxMoves)
	for i := 1; i <= n; i++ {
		found := false
		for _, m := range c.LegalMoves(buf[:0]) {
			c.Play(m)
			h := c.Hash()
			c.Undo()
			if h == hashes[i] {
				out = append(out, c.FormatMove(m))
				c.Play(m)
				found = true
				break
			}
		}
		if !found {
			return out, root, fen, nil, fmt.Errorf("cannot recover ply %d of the game from its positions", i)
		}
	}
	return out, root, fen, c, nil
}

// fenText is a position already written as text.
type fenText string

func (f fenText) Position() string { return string(f) }
