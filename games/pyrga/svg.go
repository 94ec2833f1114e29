package pyrga

import (
	"fmt"
	"github.com/boardgame-arena/arena/games"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// The picture (games.Drawer): the 4×4 board with the cell names; then, as
// fragments, a pale green on the cells where the player to move may place
// something, the pieces nested as they stack (Square outermost, Triangle
// inside, Cylinder on top; White light, Black dark), a badge in the corner
// of each completed tower in its controller's colour, an orange frame on
// the last placement, and a two-line caption with the players' towers and
// stock. A Triangle points in its direction; where the history does not
// tell it (a piece placed before a position read from text) it is drawn
// pointing north with a dashed outline. Every fragment but the caption is
// built once, below.
const (
	svgCell   = 100
	svgLeft   = 30
	svgTop    = 20
	svgBoard  = Size * svgCell
	svgWidth  = svgLeft + svgBoard + 20
	svgCapY   = svgTop + svgBoard + 50
	svgHeight = svgCapY + 30
	noDir     = 4 // a Triangle of unknown direction
)

// Colours of White's and Black's pieces: fill, outline.
var svgColours = [2][2]string{{"#ffffff", "#333333"}, {"#333333", "#aaaaaa"}}

var (
	// svgPieces[p][kind][cell]: player p's Square or Cylinder on cell;
	// svgTriangles[p][cell][dir]: player p's Triangle (dir noDir: unknown).
	svgPieceFrags [2][3][Cells]string
	svgTriangles  [2][Cells][noDir + 1]string
	// svgTowers[p][cell]: a completed tower on cell controlled by p.
	svgTowers [2][Cells]string
	// svgLegal[cell]: the player to move may place a piece on cell.
	svgLegal [Cells]string
	// svgLast[cell]: the last piece went on cell.
	svgLast [Cells]string
	// svgBoardLayer is the fixed layer.
	svgBoardLayer string
)

func init() {
	for c := range Cells {
		x, y := svgCorner(c)
		cx, cy := x+svgCell/2, y+svgCell/2
		for p, col := range svgColours {
			svgPieceFrags[p][Square][c] = fmt.Sprintf(`<rect class="square %s" x="%d" y="%d" width="%d" height="%d" rx="4" fill="%s" stroke="%s" stroke-width="2"/>`,
				svgPlayer[p], x+8, y+8, svgCell-16, svgCell-16, col[0], col[1])
			svgPieceFrags[p][Cylinder][c] = fmt.Sprintf(`<circle class="cylinder %s" cx="%d" cy="%d" r="13" fill="%s" stroke="%s" stroke-width="2"/>`,
				svgPlayer[p], cx, cy, col[0], col[1])
			for d := range noDir + 1 {
				dash := ""
				if d == noDir {
					dash = ` stroke-dasharray="5 3"`
				}
				svgTriangles[p][c][d] = fmt.Sprintf(`<polygon class="triangle %s" points="%s" fill="%s" stroke="%s" stroke-width="2"%s/>`,
					svgPlayer[p], svgTrianglePoints(cx, cy, d), col[0], col[1], dash)
			}
			svgTowers[p][c] = fmt.Sprintf(`<circle class="tower %s" cx="%d" cy="%d" r="8" fill="%s" stroke="#e0a800" stroke-width="3"/>`,
				svgPlayer[p], x+svgCell-10, y+10, col[0])
		}
		svgLegal[c] = fmt.Sprintf(`<rect class="legal" x="%d" y="%d" width="%d" height="%d" fill="#5cb85c" fill-opacity="0.25"/>`, x, y, svgCell, svgCell)
		svgLast[c] = fmt.Sprintf(`<rect class="last" x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#f0ad4e" stroke-width="4"/>`, x+2, y+2, svgCell-4, svgCell-4)
	}
	var b strings.Builder
	games.SVGGrid{Width: svgWidth, Height: svgHeight, X: svgLeft, Y: svgTop, N: Size, Cell: svgCell,
		Fill: "#c8b48a", Line: "#7a6545", LineWidth: "2"}.Write(&b)
	b.WriteString(`<g font-size="16" fill="#444444" text-anchor="middle">`)
	for k := range Size {
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, svgLeft+k*svgCell+svgCell/2, svgTop+svgBoard+20, 'a'+k)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, svgLeft/2, svgTop+(Size-1-k)*svgCell+svgCell/2+6, '1'+k)
	}
	b.WriteString("</g>\n")
	svgBoardLayer = b.String()
}

var svgPlayer = [2]string{"white", "black"}

// svgTrianglePoints returns a Triangle's corners round (cx, cy), its tip
// towards dir (North up; noDir is drawn as North).
func svgTrianglePoints(cx, cy, dir int) string {
	// angle of the tip, counter-clockwise from east, in SVG's downward y
	angle := [noDir + 1]float64{North: -90, East: 0, South: 90, West: 180, noDir: -90}[dir] * math.Pi / 180
	const tip, back, half = 32.0, 22.0, 28.0
	px := func(along, across float64) int {
		return cx + int(math.Round(along*math.Cos(angle)-across*math.Sin(angle)))
	}
	py := func(along, across float64) int {
		return cy + int(math.Round(along*math.Sin(angle)+across*math.Cos(angle)))
	}
	return fmt.Sprintf("%d,%d %d,%d %d,%d", px(tip, 0), py(tip, 0), px(-back, -half), py(-back, -half), px(-back, half), py(-back, half))
}

// svgCorner returns the top left corner of cell c (rank 4 at the top).
func svgCorner(c int) (x, y int) {
	return svgLeft + (c%Size)*svgCell, svgTop + (Size-1-c/Size)*svgCell
}

// SVGSize implements games.Drawer.
func (s *State) SVGSize() (width, height int) { return svgWidth, svgHeight }

// SVGBoard implements games.Drawer: the board and the cell names.
func (s *State) SVGBoard(dst []byte) []byte { return append(dst, svgBoardLayer...) }

// SVGPieces implements games.Drawer: the cells where the player to move
// may place a piece, then per cell its Square, Triangle and Cylinder, the
// towers' badges, the last placement and the caption.
func (s *State) SVGPieces(dst []string) []string {
	if !s.over {
		legal := s.legal[0] | s.legal[1] | s.legal[2] | s.legal[3] | s.legal[4] | s.legal[5]
		for l := legal; l != 0; l &= l - 1 {
			dst = append(dst, svgLegal[bits.TrailingZeros16(l)])
		}
	}
	// The Triangles' directions are in the moves the state knows: those
	// played on it and the last move of a position read from text.
	var dirs [Cells]int8
	for c := range dirs {
		dirs[c] = noDir
	}
	for i := max(s.start-1, 0); i < s.ply; i++ {
		if kind, cell, dir := Decode(s.moves[i]); kind == Triangle {
			dirs[cell] = int8(dir)
		}
	}
	var occ uint16
	for p := range 2 {
		occ |= s.pieces[p][Square] | s.pieces[p][Triangle] | s.pieces[p][Cylinder]
	}
	for ; occ != 0; occ &= occ - 1 {
		c := bits.TrailingZeros16(occ)
		bit := uint16(1) << c
		for kind := range 3 {
			for p := range 2 {
				if s.pieces[p][kind]&bit == 0 {
					continue
				}
				if kind == Triangle {
					dst = append(dst, svgTriangles[p][c][dirs[c]])
				} else {
					dst = append(dst, svgPieceFrags[p][kind][c])
				}
			}
		}
	}
	full := (s.pieces[0][Square] | s.pieces[1][Square]) & (s.pieces[0][Triangle] | s.pieces[1][Triangle]) & (s.pieces[0][Cylinder] | s.pieces[1][Cylinder])
	for p := range 2 {
		for t := full & majority(&s.pieces[p]); t != 0; t &= t - 1 {
			dst = append(dst, svgTowers[p][bits.TrailingZeros16(t)])
		}
	}
	if s.ply > 0 {
		_, cell, _ := Decode(s.moves[s.ply-1])
		dst = append(dst, svgLast[cell])
	}
	return append(dst, s.svgCaption())
}

// svgCaption is the two lines under the board: who moves or the result,
// then each player's towers and stock.
func (s *State) svgCaption() string {
	b := make([]byte, 0, 256)
	b = append(b, svgCaptionStart...)
	if s.over {
		o := s.Outcome()
		b = append(b, "game over "...)
		b = append(b, o.Result()...)
		b = append(b, " (score "...)
		b = strconv.AppendInt(b, int64(o.Score), 10)
		b = append(b, ')')
	} else {
		b = append(b, svgNames[s.ply&1]...)
		b = append(b, " to move"...)
	}
	b = append(b, svgCaptionMiddle...)
	t := s.Tallies()
	for p := range 2 {
		if p == 1 {
			b = append(b, " · "...)
		}
		b = append(b, svgNames[p]...)
		b = append(b, ": towers "...)
		b = strconv.AppendInt(b, int64(t[p].Towers), 10)
		b = append(b, ", stock"...)
		for kind := range 3 {
			b = append(b, ' ', kindLetters[kind])
			b = strconv.AppendInt(b, int64(s.Stock(p, kind)), 10)
		}
	}
	b = append(b, "</tspan></text>"...)
	return string(b)
}

var (
	svgNames         = [2]string{"White", "Black"}
	svgCaptionStart  = fmt.Sprintf(`<text class="caption" x="%d" y="%d" font-size="17" text-anchor="middle" fill="#222222"><tspan>`, svgWidth/2, svgCapY)
	svgCaptionMiddle = fmt.Sprintf(`</tspan><tspan x="%d" dy="22" font-size="14">`, svgWidth/2)
)
