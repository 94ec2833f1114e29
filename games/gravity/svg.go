package gravity

import (
	"fmt"
	"github.com/boardgame-arena/arena/games"
	"math/bits"
	"strconv"
	"strings"
)

// The picture (games.Drawer): the 9×9 grid with an arrow for each of the
// 36 slots round it (labelled with its column letter or row number), then
// one fragment per tile (X red, O yellow), the last move (its slot's arrow
// filled in the mover's colour and a ring on the landing cell), a hatched
// band on the side the player to move may not use, and a caption. Every
// fragment but the caption is built once, below.
const (
	svgCell   = 44
	svgMargin = 44 // room for the slots' arrows and labels
	svgBoard  = Size * svgCell
	svgWidth  = 2*svgMargin + svgBoard
	svgCapY   = svgWidth + 22
	svgHeight = svgWidth + 36
)

// svgFills are the tiles' colours: X, O.
var svgFills = [2]string{"#d9534f", "#f0ad4e"}

var (
	// svgTiles[p][cell]: player p's tile on cell.
	svgTiles [2][Cells]string
	// svgSlots[p][slot]: player p's last move came in through slot.
	svgSlots [2][Slots]string
	// svgLanded[cell]: the last tile landed on cell.
	svgLanded [Cells]string
	// svgBanned[side]: the player to move may not use side.
	svgBanned [4]string
	// svgBoardLayer is the fixed layer.
	svgBoardLayer   string
	svgCaptionStart = fmt.Sprintf(`<text class="caption" x="%d" y="%d" font-size="18" text-anchor="middle" fill="#222222">`, svgWidth/2, svgCapY)
)

// svgArrow returns the points of the arrow of slot, pointing into the board.
func svgArrow(slot int) string {
	side, line := slot/Size, slot%Size
	c := svgMargin + line*svgCell + svgCell/2 // the line's centre
	var pts [3][2]int
	switch side {
	case Top:
		pts = [3][2]int{{c - 9, svgMargin - 22}, {c + 9, svgMargin - 22}, {c, svgMargin - 6}}
	case Bottom:
		pts = [3][2]int{{c - 9, svgMargin + svgBoard + 22}, {c + 9, svgMargin + svgBoard + 22}, {c, svgMargin + svgBoard + 6}}
	case Left:
		pts = [3][2]int{{svgMargin - 22, c - 9}, {svgMargin - 22, c + 9}, {svgMargin - 6, c}}
	default:
		pts = [3][2]int{{svgMargin + svgBoard + 22, c - 9}, {svgMargin + svgBoard + 22, c + 9}, {svgMargin + svgBoard + 6, c}}
	}
	return fmt.Sprintf("%d,%d %d,%d %d,%d", pts[0][0], pts[0][1], pts[1][0], pts[1][1], pts[2][0], pts[2][1])
}

func init() {
	for cell := range Cells {
		x, y := svgCentre(cell)
		for p := range 2 {
			svgTiles[p][cell] = fmt.Sprintf(`<circle class="tile %c" cx="%d" cy="%d" r="17" fill="%s" stroke="#333333" stroke-width="1.5"/>`,
				"xo"[p], x, y, svgFills[p])
		}
		svgLanded[cell] = fmt.Sprintf(`<circle class="last" cx="%d" cy="%d" r="20" fill="none" stroke="#222222" stroke-width="3"/>`, x, y)
	}
	for p := range 2 {
		for slot := range Slots {
			svgSlots[p][slot] = fmt.Sprintf(`<polygon class="slot-last" points="%s" fill="%s" stroke="#222222"/>`, svgArrow(slot), svgFills[p])
		}
	}
	bands := [4][4]int{
		Top:    {svgMargin, 0, svgBoard, svgMargin - 2},
		Bottom: {svgMargin, svgMargin + svgBoard + 2, svgBoard, svgMargin - 2},
		Left:   {0, svgMargin, svgMargin - 2, svgBoard},
		Right:  {svgMargin + svgBoard + 2, svgMargin, svgMargin - 2, svgBoard},
	}
	for side, r := range bands {
		svgBanned[side] = fmt.Sprintf(`<rect class="banned" x="%d" y="%d" width="%d" height="%d" fill="#000000" fill-opacity="0.12" stroke="#999999" stroke-dasharray="4 3"/>`,
			r[0], r[1], r[2], r[3])
	}
	var b strings.Builder
	games.SVGGrid{Width: svgWidth, Height: svgHeight, X: svgMargin, Y: svgMargin, N: Size, Cell: svgCell,
		Fill: "#e8eef5", Line: "#9aa7b5", LineWidth: "1"}.Write(&b)
	b.WriteString(`<g fill="#c5ccd4">`)
	for slot := range Slots {
		fmt.Fprintf(&b, `<polygon points="%s"/>`, svgArrow(slot))
	}
	b.WriteString("</g>\n")
	b.WriteString(`<g font-size="12" fill="#444444" text-anchor="middle">`)
	for k := range Size {
		c := svgMargin + k*svgCell + svgCell/2
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, c, 12, 'A'+k)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, c, svgMargin+svgBoard+38, 'A'+k)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, 8, c+4, '1'+k)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, svgWidth-8, c+4, '1'+k)
	}
	b.WriteString("</g>\n")
	svgBoardLayer = b.String()
}

// svgCentre returns the centre of cell (row 1 at the top).
func svgCentre(cell int) (x, y int) {
	return svgMargin + (cell%Size)*svgCell + svgCell/2, svgMargin + (cell/Size)*svgCell + svgCell/2
}

// SVGSize implements games.Drawer.
func (s *State) SVGSize() (width, height int) { return svgWidth, svgHeight }

// SVGBoard implements games.Drawer: the grid, the slots' arrows and labels.
func (s *State) SVGBoard(dst []byte) []byte { return append(dst, svgBoardLayer...) }

// SVGPieces implements games.Drawer: the tiles row by row, X's first, the
// last move (its slot and landing cell), the side the player to move may
// not use, and the caption.
func (s *State) SVGPieces(dst []string) []string {
	for p := range 2 {
		for r := range Size {
			for row := s.lines[p][dirRow][r]; row != 0; row &= row - 1 {
				dst = append(dst, svgTiles[p][r*Size+bits.TrailingZeros16(row)])
			}
		}
	}
	if s.ply > 0 {
		h := &s.hist[s.ply-1]
		dst = append(dst, svgSlots[(s.ply-1)&1][h.slot], svgLanded[h.cell])
	}
	if last := s.last[s.ply&1]; s.end == endNone && last != NoSide {
		dst = append(dst, svgBanned[last])
	}
	return append(dst, s.svgCaption())
}

// svgCaption is the line under the board: who moves and from where not, or
// the result.
func (s *State) svgCaption() string {
	b := make([]byte, 0, 256)
	b = append(b, svgCaptionStart...)
	switch s.end {
	case endFive:
		b = append(b, "game over: "...)
		b = append(b, "XO"[(s.ply-1)&1])
		b = append(b, " wins with five in a row, "...)
		b = append(b, s.Outcome().Result()...)
	case endFull:
		b = append(b, "game over: board full, O wins, "...)
		b = append(b, s.Outcome().Result()...)
	default:
		p := s.ply & 1
		b = append(b, "XO"[p])
		b = append(b, " to move"...)
		if last := s.last[p]; last != NoSide {
			b = append(b, ", not from the "...)
			b = append(b, sideNames[last]...)
		}
	}
	b = append(b, " · "...)
	b = strconv.AppendInt(b, int64(s.ply), 10)
	b = append(b, " tiles</text>"...)
	return string(b)
}
