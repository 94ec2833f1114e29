package gamestest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/games/gamestest"
)

// TestDrawers checks the pictures of every registered game and variant
// (games.Drawer): every game draws itself, so 'arena play --svg' and the
// report's viewer work for all of them.
func TestDrawers(t *testing.T) {
	n := 4
	if testing.Short() {
		n = 1
	}
	for _, g := range games.All() {
		for _, spec := range append([]string{g.Name}, g.Variants...) {
			t.Run(spec, func(t *testing.T) {
				v, err := games.Lookup(spec)
				if err != nil {
					t.Fatal(err)
				}
				if err := gamestest.CheckDrawer(v, gamestest.Games(n)); err != nil {
					t.Error(err)
				}
			})
		}
	}
}

// TestCheckDrawerFinds shows that CheckDrawer names the defects of a
// broken picture.
func TestCheckDrawerFinds(t *testing.T) {
	tests := []struct {
		name string
		d    drawing
		want string
	}{
		{"unclosed fragment", drawing{piece: `<circle r="1">`}, "is not one well-formed element"},
		{"two elements", drawing{piece: `<circle r="1"/><circle r="2"/>`}, "2 root elements"},
		{"text fragment", drawing{piece: `hello`}, "outside the element"},
		{"board changes", drawing{piece: `<circle r="1"/>`, boardPly: true}, "SVGBoard differs"},
		{"board not appended", drawing{piece: `<circle r="1"/>`, overwrite: true}, "SVGBoard differs"},
		{"bad board", drawing{piece: `<circle r="1"/>`, board: `<g>`}, "SVGBoard is not"},
		{"escape", drawing{piece: `<text>a & b</text>`}, "not one well-formed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.d
			v := gamestest.Variant("drawing", func() games.Base { c := d; c.pile = newPile(""); return &c })
			err := gamestest.CheckDrawer(v, gamestest.Games(1))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
	none := gamestest.Variant("pile", func() games.Base { return newPile("") })
	if err := gamestest.CheckDrawer(none); err == nil || !strings.Contains(err.Error(), "does not draw itself") {
		t.Errorf("a game without pictures: %v", err)
	}
	ok := gamestest.Variant("drawing", func() games.Base { return &drawing{pile: newPile(""), piece: `<circle r="1"/>`} })
	if err := gamestest.CheckDrawer(ok); err != nil {
		t.Errorf("a sound picture: %v", err)
	}
}

// drawing is the pile game with a picture, broken as its fields say.
type drawing struct {
	*pile
	piece     string // the one fragment drawn besides the caption
	board     string // the board layer ("" for a sound one)
	boardPly  bool   // the board shows the ply
	overwrite bool   // SVGBoard ignores dst
}

func (d *drawing) Clone() games.State {
	c := *d
	c.pile = d.pile.Clone().(*pile)
	return &c
}

func (d *drawing) SVGSize() (int, int) { return 100, 100 }

func (d *drawing) SVGBoard(dst []byte) []byte {
	switch {
	case d.board != "":
		return append(dst, d.board...)
	case d.boardPly:
		return fmt.Appendf(dst, `<text>%d</text>`, d.Ply())
	case d.overwrite:
		return []byte(`<rect/>`)
	}
	return append(dst, `<rect/>`...)
}

func (d *drawing) SVGPieces(dst []string) []string {
	return append(dst, d.piece, fmt.Sprintf(`<text>%d stones</text>`, d.stones))
}
