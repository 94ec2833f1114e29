package games

import (
	"fmt"
	"strings"
)

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
