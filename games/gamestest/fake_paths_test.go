package gamestest_test

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
	"github.com/boardgame-arena/arena/rng"
)

// row is a small placement game for checking CheckEmpties, CheckPlayouts
// and CheckAllocs: players fill the cells of a row in turn, and
// whoever fills cell 0 wins (eight cells). A bug switches on one deliberate defect.
type row struct {
	full uint8 // filled cells
	hist []games.Move
	who  uint8 // bit c: cell c was filled by the second player
	bug  string
}

func newRow(bug string) *row { return &row{hist: make([]games.Move, 0, 8), bug: bug} }

func (r *row) ToMove() int {
	if r.Terminal() {
		return games.None
	}
	return len(r.hist) & 1
}
func (r *row) Terminal() bool { return r.full == 255 }
func (r *row) Outcome() games.Outcome {
	w := int(r.who & 1)
	return games.Outcome{Winner: w, Score: 1 - 2*w}
}
func (r *row) Ply() int { return len(r.hist) }
func (r *row) Undo() {
	m := r.hist[len(r.hist)-1]
	r.hist = r.hist[:len(r.hist)-1]
	r.full &^= 1 << m
	r.who &^= 1 << m
}
func (r *row) Hash() uint64                   { return uint64(r.full)<<8 | uint64(r.who) }
func (r *row) ComputeHash() uint64            { return r.Hash() }
func (r *row) FormatMove(m games.Move) string { return "c" + strconv.Itoa(int(m)) }
func (r *row) ParseMove(s string) (games.Move, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(s, "c"))
	if err != nil || n < 0 || n > 7 {
		return 0, fmt.Errorf("row: bad move %q", s)
	}
	return games.Move(n), nil
}
func (r *row) String() string { return fmt.Sprintf("%08b %08b", r.full, r.who) }
func (r *row) LegalMoves(buf []games.Move) []games.Move {
	for c := range 8 {
		if r.full&(1<<c) == 0 {
			buf = append(buf, games.Move(c))
		}
	}
	return buf
}
func (r *row) Play(m games.Move) {
	if len(r.hist)&1 == 1 {
		r.who |= 1 << m
	}
	r.full |= 1 << m
	r.hist = append(r.hist, m)
}
func (r *row) Clone() games.State {
	c := *r
	c.hist = append(make([]games.Move, 0, 8), r.hist...)
	return &c
}

// Empties implements games.EmptiesCounter.
func (r *row) Empties() int {
	n := 8 - bits.OnesCount8(r.full)
	if r.bug == "empties" && len(r.hist) == 3 {
		n++
	}
	return n
}

// Evaluate implements games.Evaluator.
func (r *row) Evaluate(p int) int {
	if r.bug == "alloc" {
		r.hist = append([]games.Move(nil), r.hist...)
	}
	return 0
}

// RandomPlayout implements games.Playouter: the generic loop on a copy
// (which appends to r's history array past its end, where nothing lives).
func (r *row) RandomPlayout(rand *rng.Rand) games.Outcome {
	c := *r
	var buf [8]games.Move
	for !c.Terminal() {
		moves := c.LegalMoves(buf[:0])
		i := rand.IntN(len(moves))
		if r.bug == "playout" && len(moves) == 2 {
			i = 1 - i
		}
		c.Play(moves[i])
	}
	return c.Outcome()
}

// TestPathChecksFind: CheckEmpties, CheckPlayouts and CheckAllocs pass a
// sound game and name each defect.
func TestPathChecksFind(t *testing.T) {
	check := map[string]func(v games.Variant) error{
		"empties":  func(v games.Variant) error { return gamestest.CheckEmpties(v, 8, nil) },
		"playouts": func(v games.Variant) error { return gamestest.CheckPlayouts(v, nil, gamestest.Games(100)) },
		"allocs":   func(v games.Variant) error { return gamestest.CheckAllocs(v) },
	}
	for _, tt := range []struct{ check, bug, want string }{
		{"empties", "", ""},
		{"empties", "empties", "Empties is 6 after"},
		{"playouts", "", ""},
		{"playouts", "playout", "the generic loop from the same seed"},
		{"allocs", "", ""},
		{"allocs", "alloc", "Evaluate makes"},
	} {
		v := gamestest.Variant("row", func() games.Base { return newRow(tt.bug) })
		err := check[tt.check](v)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s of a sound game: %v", tt.check, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s with bug %q: %v, want an error containing %q", tt.check, tt.bug, err, tt.want)
		}
	}
	// A start count that is not the game's.
	v := gamestest.Variant("row", func() games.Base { return newRow("") })
	if err := gamestest.CheckEmpties(v, 9, nil); err == nil || !strings.Contains(err.Error(), "at the start, want 9") {
		t.Errorf("a wrong start count: %v", err)
	}
}
