package erdos

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/games"
)

// The picture (games.Drawer): the 5×5 grid with the cell names, then one
// fragment per unit (a tile in its owner's colour with its level: red for
// the first player, blue for the second, grey while its column is
// uncontrolled), a bar under each controlled column in its controller's
// colour, a frame round the last placement and a caption. Every fragment
// but the caption is built once, below.
const (
	svgCell   = 70
	svgLeft   = 30 // room for the rank numbers
	svgTop    = 20
	svgBoard  = Size * svgCell
	svgWidth  = svgLeft + svgBoard + 20
	svgBarY   = svgTop + svgBoard + 30 // the column controllers' bars
	svgCapY   = svgBarY + 50           // caption baseline
	svgHeight = svgCapY + 20
)

// svgFills are the tiles' colours: neutral, first player, second player.
var svgFills = [3]string{"#d0d0d0", "#d9534f", "#337ab7"}

var (
	// svgUnits[o][cell][level-1]: a unit of that level on cell, coloured
	// for owner o−1 (o = 0: neutral).
	svgUnits [3][Cells][Size]string
	// svgCtrl[p][f]: player p controls file f.
	svgCtrl [2][Size]string
	// svgLast[cell]: the last placement was on cell.
	svgLast [Cells]string
	// svgBoardLayer is the fixed layer.
	svgBoardLayer   string
	svgCaptionStart = fmt.Sprintf(`<text class="caption" x="%d" y="%d" font-size="18" text-anchor="middle" fill="#222222">`, svgWidth/2, svgCapY)
)

func init() {
	for c := range Cells {
		x, y := svgCorner(c)
		for o, fill := range svgFills {
			text := "#ffffff"
			if o == 0 {
				text = "#222222"
			}
			for l := range Size {
				svgUnits[o][c][l] = fmt.Sprintf(`<g class="unit p%d"><rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="%s"/><text x="%d" y="%d" font-size="30" font-weight="bold" text-anchor="middle" fill="%s">%d</text></g>`,
					o, x+5, y+5, svgCell-10, svgCell-10, fill, x+svgCell/2, y+svgCell/2+11, text, l+1)
			}
		}
		svgLast[c] = fmt.Sprintf(`<rect class="last" x="%d" y="%d" width="%d" height="%d" rx="10" fill="none" stroke="#f0ad4e" stroke-width="4"/>`,
			x+2, y+2, svgCell-4, svgCell-4)
	}
	for p := range 2 {
		for f := range Size {
			svgCtrl[p][f] = fmt.Sprintf(`<rect class="ctrl p%d" x="%d" y="%d" width="%d" height="14" fill="%s"/>`,
				p+1, svgLeft+f*svgCell+5, svgBarY, svgCell-10, svgFills[p+1])
		}
	}
	var b strings.Builder
	games.SVGGrid{Width: svgWidth, Height: svgHeight, X: svgLeft, Y: svgTop, N: Size, Cell: svgCell,
		Fill: "#f7f3e8", Line: "#8a7f66", LineWidth: "1.5"}.Write(&b)
	b.WriteString(`<g font-size="16" fill="#444444" text-anchor="middle">`)
	for k := range Size {
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, svgLeft+k*svgCell+svgCell/2, svgTop+svgBoard+20, 'a'+k)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, svgLeft/2, svgTop+(Size-1-k)*svgCell+svgCell/2+6, '1'+k)
	}
	b.WriteString("</g>\n")
	// an empty slot for each column's controller
	for f := range Size {
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="14" fill="none" stroke="#cccccc"/>`, svgLeft+f*svgCell+5, svgBarY, svgCell-10)
	}
	b.WriteByte('\n')
	svgBoardLayer = b.String()
}

// svgCorner returns the top left corner of cell c (rank 5 at the top).
func svgCorner(c int) (x, y int) {
	return svgLeft + (c%Size)*svgCell, svgTop + (Size-1-c/Size)*svgCell
}

// SVGSize implements games.Drawer.
func (s *State) SVGSize() (width, height int) { return svgWidth, svgHeight }

// SVGBoard implements games.Drawer: the grid, cell names and the empty
// slots of the column controllers.
func (s *State) SVGBoard(dst []byte) []byte { return append(dst, svgBoardLayer...) }

// SVGPieces implements games.Drawer: the units in cell order, the
// controlled columns, a frame on the last placement (when the history
// holds it) and the caption.
func (s *State) SVGPieces(dst []string) []string {
	for occ := s.b.occ; occ != 0; occ &= occ - 1 {
		c := bits.TrailingZeros32(occ)
		dst = append(dst, svgUnits[s.Owner(c)+1][c][s.b.level(c)-1])
	}
	for p := range 2 {
		for f := s.b.ctrl[p]; f != 0; f &= f - 1 {
			dst = append(dst, svgCtrl[p][bits.TrailingZeros8(f)])
		}
	}
	if s.b.ply > s.start {
		if placed := s.b.occ &^ s.hist[s.b.ply-1].occ; placed != 0 {
			dst = append(dst, svgLast[bits.TrailingZeros32(placed)])
		}
	}
	return append(dst, s.svgCaption())
}

// svgCaption is the line under the board: who moves or the result, and the
// columns each player controls.
func (s *State) svgCaption() string {
	b := make([]byte, 0, 256)
	b = append(b, svgCaptionStart...)
	switch o := s.Outcome(); {
	case s.b.reason == NotOver:
		b = append(b, "player "...)
		b = strconv.AppendInt(b, int64(s.b.side)+1, 10)
		b = append(b, " to move"...)
	default:
		b = append(b, "game over by "...)
		b = append(b, s.b.reason.String()...)
		b = append(b, ' ')
		b = append(b, o.Result()...)
		if o.Winner != games.Draw {
			b = append(b, " (player "...)
			b = strconv.AppendInt(b, int64(o.Winner)+1, 10)
			b = append(b, " wins)"...)
		}
	}
	c1, c2 := s.Columns()
	b = append(b, " · columns "...)
	b = strconv.AppendInt(b, int64(c1), 10)
	b = append(b, "–"...)
	b = strconv.AppendInt(b, int64(c2), 10)
	if s.b.algol {
		b = append(b, " (algol)"...)
	}
	b = append(b, "</text>"...)
	return string(b)
}
