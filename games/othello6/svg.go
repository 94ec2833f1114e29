package othello6

import (
	"fmt"
	"github.com/boardgame-arena/arena/games"
	"math/bits"
	"strconv"
	"strings"
)

// The picture (games.Drawer): a green board with its grid and the cell
// names, then one fragment per disc, a red dot on the last placement, grey
// dots on the legal placements and a caption. Every fragment but the caption is built once, below, so drawing a
// position only appends strings that already exist.
const (
	svgCell   = 60                        // cell side
	svgMargin = 30                        // room for the file letters and rank numbers
	svgBoard  = Size * svgCell            // board side
	svgWidth  = svgMargin + svgBoard + 10 // picture width
	svgCapY   = svgMargin + svgBoard + 32 // caption baseline
	svgHeight = svgMargin + svgBoard + 50 // picture height
	svgRadius = svgCell/2 - 6             // disc radius
	blackFill = `fill="#111111" stroke="#000000"`
	whiteFill = `fill="#f4f4f4" stroke="#555555"`
)

var (
	// svgDiscs[p][i] is player p's disc on square i (X black, O white).
	svgDiscs [2][Size * Size]string
	// svgLast[i] marks square i as the last placement.
	svgLast [Size * Size]string
	// svgLegal[i] marks square i as a legal placement.
	svgLegal [Size * Size]string
	// svgBoardLayer is the fixed layer.
	svgBoardLayer string
	// svgCaptionStart opens the caption's text element.
	svgCaptionStart = fmt.Sprintf(`<text class="caption" x="%d" y="%d" font-size="18" text-anchor="middle" fill="#222222">`, svgWidth/2, svgCapY)
)

func init() {
	for i := range Size * Size {
		x, y := svgCentre(i)
		for p, fill := range [2]string{blackFill, whiteFill} {
			svgDiscs[p][i] = fmt.Sprintf(`<circle class="disc %s" cx="%d" cy="%d" r="%d" %s stroke-width="1.5"/>`,
				[2]string{"x", "o"}[p], x, y, svgRadius, fill)
		}
		svgLast[i] = fmt.Sprintf(`<circle class="last" cx="%d" cy="%d" r="6" fill="#d9534f"/>`, x, y)
		svgLegal[i] = fmt.Sprintf(`<circle class="legal" cx="%d" cy="%d" r="5" fill="#000000" fill-opacity="0.3"/>`, x, y)
	}
	var b strings.Builder
	games.SVGGrid{Width: svgWidth, Height: svgHeight, X: svgMargin, Y: svgMargin, N: Size, Cell: svgCell,
		Fill: "#2e7d32", Line: "#123d14", LineWidth: "1.5"}.Write(&b)
	b.WriteString(`<g font-size="16" fill="#444444" text-anchor="middle">`)
	for k := range Size {
		c := svgMargin + k*svgCell + svgCell/2
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, c, svgMargin-10, 'a'+k)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, svgMargin/2, c+6, '1'+k)
	}
	b.WriteString("</g>\n")
	svgBoardLayer = b.String()
}

// svgCentre returns the centre of square i in the picture.
func svgCentre(i int) (x, y int) {
	return svgMargin + (i%Size)*svgCell + svgCell/2, svgMargin + (i/Size)*svgCell + svgCell/2
}

// SVGSize implements games.Drawer.
func (s *State) SVGSize() (width, height int) { return svgWidth, svgHeight }

// SVGBoard implements games.Drawer: the green board, grid and cell names.
func (s *State) SVGBoard(dst []byte) []byte { return append(dst, svgBoardLayer...) }

// SVGPieces implements games.Drawer: the discs in square order, X's first,
// a red dot on the last placement (when the history holds it: not after a
// pass, nor in a position read from text), a grey dot on every legal
// placement of the player to move, and the caption.
func (s *State) SVGPieces(dst []string) []string {
	for p := range 2 {
		for d := s.discs[p]; d != 0; d &= d - 1 {
			dst = append(dst, svgDiscs[p][bits.TrailingZeros64(d)])
		}
	}
	if s.ply > 0 {
		h := &s.hist[s.ply-1]
		if placed := (s.discs[0] | s.discs[1]) &^ (h.discs[0] | h.discs[1]); placed != 0 {
			dst = append(dst, svgLast[bits.TrailingZeros64(placed)])
		}
	}
	if !s.over {
		for m := s.moves; m != 0; m &= m - 1 {
			dst = append(dst, svgLegal[bits.TrailingZeros64(m)])
		}
	}
	return append(dst, s.svgCaption())
}

// svgCaption is the line under the board: the side to move or the result,
// and both players' discs.
func (s *State) svgCaption() string {
	b := make([]byte, 0, 256)
	b = append(b, svgCaptionStart...)
	x, o := bits.OnesCount64(s.discs[0]), bits.OnesCount64(s.discs[1])
	switch {
	case s.over:
		b = append(b, "game over "...)
		b = append(b, s.Outcome().Result()...)
	case s.side == 0:
		b = append(b, "black (X) to move"...)
	default:
		b = append(b, "white (O) to move"...)
	}
	b = append(b, " · black "...)
	b = strconv.AppendInt(b, int64(x), 10)
	b = append(b, ", white "...)
	b = strconv.AppendInt(b, int64(o), 10)
	b = append(b, "</text>"...)
	return string(b)
}
