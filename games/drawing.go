package games

import (
	"fmt"
	"io"
	"strings"
)

// Drawing: pictures of positions. 'arena play --svg', 'arena replay' and
// the tournament report's viewer (report) draw positions with Drawer.
// Every registered game draws itself (gamestest's TestDrawers requires it),
// but the interface is not part of Base: wrappers such as Sequentialized
// and the test games have no picture, and the callers say so.

// Drawer is implemented by positions that draw themselves as SVG in two
// layers, so that a report can hold thousands of drawn positions in little
// space: a board that is the same for every position of a game, and pieces
// (discs, stones, towers, owners, units, markings, a caption) as separate
// fragments. A fragment must be the same string wherever the same thing is
// drawn (a black disc on c3 is always the same text), because a report keeps
// each distinct fragment once and a position as a list of fragment numbers.
// WriteSVG composes the two into one picture ('arena play --svg').
// Without it a game has no picture: the report's viewer shows its games
// with a note and no board, and 'arena play --svg' refuses it.
type Drawer interface {
	// SVGSize is the picture's width and height in user units (its
	// viewBox is 0 0 width height).
	SVGSize() (width, height int)
	// SVGBoard appends the fixed layer: SVG elements (no <svg> wrapper)
	// that are identical for every position of this game (for a game
	// played on a generated map, every position of the same map).
	SVGBoard(dst []byte) []byte
	// SVGPieces appends the position's own elements, one complete SVG
	// element (or <g> group) per fragment, drawn in order above the board.
	SVGPieces(dst []string) []string
}

// WriteSVG writes d as one standalone SVG document: the board, then the
// pieces.
func WriteSVG(w io.Writer, d Drawer) error {
	width, height := d.SVGSize()
	buf := fmt.Appendf(nil, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">`+"\n", width, height, width, height)
	buf = d.SVGBoard(buf)
	for _, p := range d.SVGPieces(nil) {
		buf = append(buf, p...)
		buf = append(buf, '\n')
	}
	buf = append(buf, "</svg>\n"...)
	_, err := w.Write(buf)
	return err
}

// SVGGrid is the start of the fixed picture layer (Drawer.SVGBoard) of a
// game played on a square grid: a white canvas, the board's square and its
// grid lines. Each game adds its own labels and markings after it.
type SVGGrid struct {
	Width, Height int    // the canvas
	X, Y          int    // the board's top-left corner
	N, Cell       int    // cells per side and the size of one
	Fill, Line    string // colours of the board and its lines
	LineWidth     string // the lines' stroke-width, e.g. "1.5"
}

// Write appends the canvas, the board and its N+1 lines each way to b.
func (g SVGGrid) Write(b *strings.Builder) {
	side := g.N * g.Cell
	fmt.Fprintf(b, `<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>`+"\n", g.Width, g.Height)
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`+"\n", g.X, g.Y, side, side, g.Fill)
	fmt.Fprintf(b, `<g stroke="%s" stroke-width="%s">`, g.Line, g.LineWidth)
	for k := 0; k <= g.N; k++ {
		c := k * g.Cell
		fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`, g.X+c, g.Y, g.X+c, g.Y+side)
		fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`, g.X, g.Y+c, g.X+side, g.Y+c)
	}
	b.WriteString("</g>\n")
}
