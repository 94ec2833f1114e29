package tryangle

import (
	"bufio"
	"fmt"
	"io"
)

// Colours of the picture: player 0, player 1, nobody.
var svgColours = [3]string{"#d9534f", "#337ab7", "#999999"}

// WriteSVG draws the position on the game's 1920×1080 canvas: triangles
// shaded by owner (neutral ones pale grey), paths, houses coloured by their
// §5.1 owner with both players' unit counts, and a title line with the
// turn and scores. Self-loops are not drawn (the game never shows them).
func WriteSVG(w io.Writer, s *State) error {
	b := bufio.NewWriter(w)
	fmt.Fprintln(b, `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080" viewBox="0 0 1920 1080" font-family="sans-serif">`)
	fmt.Fprintln(b, `<rect x="0" y="0" width="1920" height="1080" fill="#fbfbf8"/>`)
	title := fmt.Sprintf("turn %d/%d   red %d : %d blue", s.Turn(), MaxTurns, s.score[0], s.score[1])
	if s.over {
		title += "   game over " + s.Outcome().Result()
	}
	fmt.Fprintf(b, "<text x=\"960\" y=\"40\" font-size=\"30\" text-anchor=\"middle\">%s</text>\n", title)

	x := func(h uint8) int32 { return s.m.X[h] }
	y := func(h uint8) int32 { return s.m.Y[h] }
	fmt.Fprintln(b, `<g id="triangles" stroke="none">`)
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		if t.dead {
			continue
		}
		fill, opacity := "#cccccc", 0.35
		if t.owner != noOwner {
			fill, opacity = svgColours[t.owner], 0.45
		}
		fmt.Fprintf(b, "<polygon points=\"%d,%d %d,%d %d,%d\" fill=\"%s\" fill-opacity=\"%.2f\"/>\n",
			x(t.c[0]), y(t.c[0]), x(t.c[1]), y(t.c[1]), x(t.c[2]), y(t.c[2]), fill, opacity)
	}
	fmt.Fprintln(b, `</g>`)
	fmt.Fprintln(b, `<g id="paths" stroke="#555555" stroke-width="4">`)
	for _, e := range s.paths() {
		fmt.Fprintf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", s.m.X[e[0]], s.m.Y[e[0]], s.m.X[e[1]], s.m.Y[e[1]])
	}
	fmt.Fprintln(b, `</g>`)
	own0, own1 := s.ownership()
	fmt.Fprintln(b, `<g id="houses" font-size="20" text-anchor="middle">`)
	for h := 0; h < s.n; h++ {
		c := svgColours[2]
		if own0&(1<<h) != 0 {
			c = svgColours[0]
		} else if own1&(1<<h) != 0 {
			c = svgColours[1]
		}
		hx, hy := s.m.X[h], s.m.Y[h]
		fmt.Fprintf(b, "<circle cx=\"%d\" cy=\"%d\" r=\"26\" fill=\"#ffffff\" stroke=\"%s\" stroke-width=\"6\"/>\n", hx, hy, c)
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\"><tspan fill=\"%s\">%d</tspan><tspan fill=\"#444444\">/</tspan><tspan fill=\"%s\">%d</tspan></text>\n",
			hx, hy+7, svgColours[0], s.units[0][h], svgColours[1], s.units[1][h])
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" font-size=\"14\" fill=\"#777777\">%d</text>\n", hx, hy-32, h)
	}
	fmt.Fprintln(b, `</g>`)
	fmt.Fprintln(b, `</svg>`)
	return b.Flush()
}
