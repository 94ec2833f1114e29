package gamestest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
)

// textPile is the pile game with positions as text, "stones/side"; a bug
// switches on one defect of the text format.
type textPile struct{ *pile }

func (p textPile) Clone() games.State { return textPile{p.pile.Clone().(*pile)} }

func (p textPile) Position() string {
	side := p.side()
	if p.bug == "position-side" {
		side = 0 // forgets who is to move
	}
	return fmt.Sprintf("%d/%d", p.stones, side)
}

func (p textPile) ReadPosition(text string) (games.State, error) {
	var stones, side int
	if _, err := fmt.Sscanf(text, "%d/%d", &stones, &side); err != nil || stones < 0 || stones > startStones || side&^1 != 0 {
		return nil, fmt.Errorf("pile: bad position %q", text)
	}
	if p.bug == "position-reject" && stones == 5 {
		return nil, fmt.Errorf("pile: five stones rejected")
	}
	c := &pile{stones: stones, first: side, hist: make([]games.Move, 0, 64), bug: p.bug}
	c.hash = c.ComputeHash()
	return textPile{c}, nil
}

// TestSuiteChecksPositionText: the suite reads every position back through
// the game's text format and names a format that loses information or
// rejects its own text; the correct format passes.
func TestSuiteChecksPositionText(t *testing.T) {
	for _, tt := range []struct{ bug, want string }{
		{"", ""},
		{"position-side", "differs"},
		{"position-reject", "reading back its own position"},
	} {
		v := gamestest.Variant("pile", func() games.Base { return textPile{newPile(tt.bug)} })
		err := gamestest.Check(v, gamestest.Games(4))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("the correct format fails the suite: %v", err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("defect %q reported as %v, want a message containing %q", tt.bug, err, tt.want)
		}
	}
}
