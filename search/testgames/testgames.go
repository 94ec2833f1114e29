// Package testgames holds small games with known solutions for testing
// search algorithms: tic-tac-toe and a take-away game with extra turns
// (sequential), a zero-sum matrix game and Goofspiel (simultaneous). They
// are not registered with games.Register; tests build them directly.
package testgames

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// keys are Zobrist keys shared by the test games, from a fixed seed.
var keys [4096]uint64

func init() {
	r := rng.New(0x7e57)
	for i := range keys {
		keys[i] = r.Uint64()
	}
}

func parseInt(s string, lo, hi int) (games.Move, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("bad move %q: want %d…%d", s, lo, hi)
	}
	return games.Move(n), nil
}

// TicTacToe is 3×3 noughts and crosses. Cells are 0…8, row by row. The
// outcome's Score is +1 or −1 for a win (from the first player's view).
type TicTacToe struct {
	cells [9]int8 // 0 empty, 1 first player, 2 second
	hist  [9]int8
	ply   int
	hash  uint64
}

// NewTicTacToe returns the empty board.
func NewTicTacToe() *TicTacToe { return &TicTacToe{} }

var lines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

func (t *TicTacToe) winner() int {
	for _, l := range lines {
		if c := t.cells[l[0]]; c != 0 && c == t.cells[l[1]] && c == t.cells[l[2]] {
			return int(c) - 1
		}
	}
	return games.None
}

// ToMove implements games.Base.
func (t *TicTacToe) ToMove() int {
	if t.Terminal() {
		return games.None
	}
	return t.ply & 1
}

// Terminal implements games.Base.
func (t *TicTacToe) Terminal() bool { return t.ply == 9 || t.winner() != games.None }

// Outcome implements games.Base.
func (t *TicTacToe) Outcome() games.Outcome {
	switch t.winner() {
	case 0:
		return games.Outcome{Winner: 0, Score: 1}
	case 1:
		return games.Outcome{Winner: 1, Score: -1}
	}
	return games.Outcome{Winner: games.Draw}
}

// Ply implements games.Base.
func (t *TicTacToe) Ply() int { return t.ply }

// Hash implements games.Base.
func (t *TicTacToe) Hash() uint64 { return t.hash }

// ComputeHash implements games.Base: the hash from scratch.
func (t *TicTacToe) ComputeHash() uint64 {
	var h uint64
	for i, c := range t.cells {
		if c != 0 {
			h ^= keys[i*2+int(c)-1]
		}
	}
	return h
}

// LegalMoves implements games.State.
func (t *TicTacToe) LegalMoves(buf []games.Move) []games.Move {
	if t.Terminal() {
		return buf
	}
	for i, c := range t.cells {
		if c == 0 {
			buf = append(buf, games.Move(i))
		}
	}
	return buf
}

// Play implements games.State.
func (t *TicTacToe) Play(m games.Move) {
	p := t.ply & 1
	t.cells[m] = int8(p + 1)
	t.hist[t.ply] = int8(m)
	t.hash ^= keys[int(m)*2+p]
	t.ply++
}

// Undo implements games.Base.
func (t *TicTacToe) Undo() {
	t.ply--
	m := int(t.hist[t.ply])
	t.cells[m] = 0
	t.hash ^= keys[m*2+t.ply&1]
}

// Clone implements games.State.
func (t *TicTacToe) Clone() games.State { c := *t; return &c }

// Evaluate implements games.Evaluator: open lines for p minus open lines for
// the opponent.
func (t *TicTacToe) Evaluate(p int) int {
	if t.Terminal() {
		switch w := t.winner(); w {
		case games.None:
			return 0
		case p:
			return 1000
		default:
			return -1000
		}
	}
	v := 0
	for _, l := range lines {
		var mine, theirs int
		for _, c := range l {
			switch int(t.cells[c]) - 1 {
			case p:
				mine++
			case 1 - p:
				theirs++
			}
		}
		if theirs == 0 {
			v += mine
		}
		if mine == 0 {
			v -= theirs
		}
	}
	return v
}

// FormatMove implements games.Base.
func (t *TicTacToe) FormatMove(m games.Move) string { return strconv.Itoa(int(m)) }

// ParseMove implements games.Base.
func (t *TicTacToe) ParseMove(s string) (games.Move, error) { return parseInt(s, 0, 8) }

// String implements games.Base.
func (t *TicTacToe) String() string {
	var b strings.Builder
	for i, c := range t.cells {
		b.WriteByte(".XO"[c])
		if i%3 == 2 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TakeAway is a pile of stones; a move takes 1, 2 or 3 of them (never more
// than are left). Taking exactly 2 gives the same player another turn; the
// player who takes the last stone wins by the number of turns the opponent
// made. It exercises searches whose players do not strictly alternate.
type TakeAway struct {
	pile  int
	side  int
	turns [2]int
	hist  []takeUndo
}

type takeUndo struct {
	take, side int
}

// NewTakeAway returns a pile of n stones (n ≤ 60), first player to move.
func NewTakeAway(n int) *TakeAway { return &TakeAway{pile: n, hist: make([]takeUndo, 0, n)} }

// ToMove implements games.Base.
func (t *TakeAway) ToMove() int {
	if t.pile == 0 {
		return games.None
	}
	return t.side
}

// Terminal implements games.Base.
func (t *TakeAway) Terminal() bool { return t.pile == 0 }

// Outcome implements games.Base: the last mover wins.
func (t *TakeAway) Outcome() games.Outcome {
	w := t.hist[len(t.hist)-1].side
	margin := t.turns[1-w] + 1
	if w == 1 {
		margin = -margin
	}
	return games.Outcome{Winner: w, Score: margin}
}

// Ply implements games.Base.
func (t *TakeAway) Ply() int { return len(t.hist) }

// Hash implements games.Base.
func (t *TakeAway) Hash() uint64 {
	return keys[t.pile] ^ keys[100+t.side] ^ keys[200+t.turns[0]] ^ keys[300+t.turns[1]]
}

// ComputeHash implements games.Base: Hash is computed from scratch already.
func (t *TakeAway) ComputeHash() uint64 { return t.Hash() }

// LegalMoves implements games.State.
func (t *TakeAway) LegalMoves(buf []games.Move) []games.Move {
	for k := 1; k <= 3 && k <= t.pile; k++ {
		buf = append(buf, games.Move(k))
	}
	return buf
}

// Play implements games.State.
func (t *TakeAway) Play(m games.Move) {
	t.hist = append(t.hist, takeUndo{int(m), t.side})
	t.pile -= int(m)
	t.turns[t.side]++
	if m != 2 {
		t.side = 1 - t.side
	}
}

// Undo implements games.Base.
func (t *TakeAway) Undo() {
	u := t.hist[len(t.hist)-1]
	t.hist = t.hist[:len(t.hist)-1]
	t.pile += u.take
	t.side = u.side
	t.turns[u.side]--
}

// Clone implements games.State.
func (t *TakeAway) Clone() games.State {
	c := *t
	c.hist = append(make([]takeUndo, 0, cap(t.hist)), t.hist...)
	return &c
}

// FormatMove implements games.Base.
func (t *TakeAway) FormatMove(m games.Move) string { return strconv.Itoa(int(m)) }

// ParseMove implements games.Base.
func (t *TakeAway) ParseMove(s string) (games.Move, error) { return parseInt(s, 1, 3) }

// String implements games.Base.
func (t *TakeAway) String() string {
	return fmt.Sprintf("pile %d, player %d to move", t.pile, t.side)
}
