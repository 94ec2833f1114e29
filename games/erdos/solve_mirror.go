package erdos

import (
	"context"
	"errors"
	"fmt"
	"math/bits"

	"github.com/boardgame-arena/arena/games"
)

// # The mirror strategy
//
// The first player opens on the centre with level 3 (c3:3) and answers
// every placement (cell i, level l) with its image through the centre,
// (cell 24−i, level 6−l). The answer is always legal: before the second
// player's move the board is symmetric (the unit on 24−j has level 6−k when
// the unit on j has level k), so cell 24−i is empty as i was, and a unit of
// level 6−l in the row or column of 24−i would mirror a unit of level l in
// the row or column of i, which the second player's move excludes; the new
// unit (i, l) itself is in that row or column only on rank 3 or file c, and
// then has level 3 = 6−l, which the centre's 3 forbids there. So the first
// player always has a move and places the 25th unit: he never loses by
// starvation. Whether he wins is another matter: the full board is decided
// by the columns, and MirrorWins checks it by search. It does not: from the
// start the second player has a defence that takes all five columns
// (TestMirrorFromStart), under both rule sets.

// MirrorOpening is the mirror strategy's first move, c3:3.
var MirrorOpening = MoveOf(2*Size+2, 3)

// MirrorMove returns the mirror strategy's answer to m: the cell's image
// through the centre with the level reversed.
func MirrorMove(m games.Move) games.Move {
	i, l := Decode(m)
	return MoveOf(Cells-1-i, Size+1-l)
}

// symmetric reports whether b is its own image through the centre.
func (b *board) symmetric() bool {
	for i := 0; i < Cells; i++ {
		if l := b.level(i); l != 0 && b.level(Cells-1-i) != Size+1-l {
			return false
		} else if l == 0 && b.level(Cells-1-i) != 0 {
			return false
		}
	}
	return true
}

// MirrorResult is what MirrorWins found.
type MirrorResult struct {
	Wins       bool         // the first player wins against every defence
	Refutation []games.Move // if not: a line to the end (both players' moves) he does not win
	Outcome    games.Outcome
	Nodes      int64 // second-player positions searched
	Answers    int64 // mirror answers played, each checked legal
}

// errNotMirror is returned for a position the strategy cannot be in.
var errNotMirror = errors.New("erdos: the mirror strategy needs the start or a centrally symmetric position with the second player to move")

// MirrorWins searches whether the first player, following the mirror
// strategy from s (the start, where he plays MirrorOpening, or a centrally
// symmetric position with the second player to move), wins against every
// defence. It checks every mirror answer it plays is legal (returning an
// error if one were not) and stops with ctx's error when ctx is done.
func MirrorWins(ctx context.Context, s *State) (MirrorResult, error) {
	b := s.b
	var res MirrorResult
	var pre []games.Move
	if b.ply == 0 && b.reason == NotOver {
		b.place(int(MirrorOpening)%Cells, int(MirrorOpening)/Cells)
		pre = append(pre, MirrorOpening)
	}
	if b.reason != NotOver {
		return res, errNotMirror
	}
	if b.side != 1 || !b.symmetric() || b.level(2*Size+2) != 3 {
		return res, errNotMirror
	}
	m := &mirror{ctx: ctx, memo: map[board]bool{}}
	wins, err := m.wins(&b)
	res.Nodes, res.Answers = m.nodes, m.answers
	if err != nil {
		return res, err
	}
	res.Wins = wins
	if !wins {
		line, end := m.refute(&b)
		res.Refutation, res.Outcome = append(pre, line...), end
	}
	return res, nil
}

type mirror struct {
	ctx     context.Context
	memo    map[board]bool // second-player positions: does the mirror win?
	nodes   int64
	answers int64
	err     error
}

// mirrorKey strips what does not decide the future (the hash) from b.
func mirrorKey(b *board) board {
	k := *b
	k.hash = 0
	return k
}

// wins reports whether the mirror strategy wins from b, the second player
// to move: for every placement of his, the answer is legal and wins.
func (m *mirror) wins(b *board) (bool, error) {
	m.nodes++
	if m.nodes&1023 == 0 && m.ctx.Err() != nil {
		return false, m.ctx.Err()
	}
	k := mirrorKey(b)
	if w, ok := m.memo[k]; ok {
		return w, nil
	}
	result := true
	for l := 0; l < Size && result; l++ {
		for mv := b.legal(l); mv != 0 && result; mv &= mv - 1 {
			c := *b
			i := bits.TrailingZeros32(mv)
			c.place(i, l)
			if c.reason != NotOver { // the second player starved the first, or full
				result = c.winner == 0
				continue
			}
			ok, err := m.answer(&c, i, l)
			if err != nil {
				return false, err
			}
			result = ok
		}
	}
	m.memo[k] = result
	return result, nil
}

// answer plays the mirror answer to (i, l) in c and reports whether the
// strategy wins from there.
func (m *mirror) answer(c *board, i, l int) (bool, error) {
	a := MirrorMove(MoveOf(i, l+1))
	ai, al := Decode(a)
	if c.legal(al-1)>>ai&1 == 0 {
		return false, fmt.Errorf("erdos: mirror answer %s to %s is illegal in a symmetric position (a counterexample to the strategy)",
			FormatMove(a), FormatMove(MoveOf(i, l+1)))
	}
	m.answers++
	c.place(ai, al-1)
	if c.reason != NotOver {
		return c.winner == 0, nil
	}
	return m.wins(c)
}

// refute returns a line from b (second player to move, the mirror not
// winning) on which the first player does not win, and its end.
func (m *mirror) refute(b *board) ([]games.Move, games.Outcome) {
	var line []games.Move
	cur := *b
	for {
		found := false
		for l := 0; l < Size && !found; l++ {
			for mv := cur.legal(l); mv != 0 && !found; mv &= mv - 1 {
				i := bits.TrailingZeros32(mv)
				c := cur
				c.place(i, l)
				if c.reason != NotOver {
					if c.winner != 0 {
						line = append(line, MoveOf(i, l+1))
						return line, games.Outcome{Winner: int(c.winner), Score: int(c.score)}
					}
					continue
				}
				a := MirrorMove(MoveOf(i, l+1))
				ai, al := Decode(a)
				d := c
				d.place(ai, al-1)
				if d.reason != NotOver {
					if d.winner != 0 {
						line = append(line, MoveOf(i, l+1), a)
						return line, games.Outcome{Winner: int(d.winner), Score: int(d.score)}
					}
					continue
				}
				if w, ok := m.memo[mirrorKey(&d)]; ok && !w {
					line = append(line, MoveOf(i, l+1), a)
					cur, found = d, true
				}
			}
		}
		if !found {
			panic("erdos: mirror refutation lost")
		}
	}
}
