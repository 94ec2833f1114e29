package tryangle

import (
	"fmt"
	"math/bits"
	"strconv"
)

// The picture (games.Drawer) is the game's 1920×1080 canvas. The board, the
// same for every position of a map, is the background and each house's
// number. The pieces are one fragment per thing drawn: each triangle shaded
// by its owner (neutral ones pale grey), each path, each house circled in
// its §5.1 owner's colour, each house's unit counts (red/blue), and a
// caption with the turn and scores. Self-loops are not drawn (the game never
// shows them). A map whose houses lie outside the canvas (explicit maps may
// use coordinates up to ±100000) is scaled to fit it.
const (
	svgWidth, svgHeight = 1920, 1080
	svgHouseRadius      = 26
)

// Colours of the picture: player 0, player 1, nobody.
var svgColours = [3]string{"#d9534f", "#337ab7", "#999999"}

// svgPlace returns the houses' positions on the canvas: the map's own
// coordinates when every house fits the canvas with room for its circle and
// number, otherwise the map's bounding box scaled (keeping its shape) into
// the canvas below the caption.
func svgPlace(m *Map) (xs, ys [MaxHouses]int32) {
	if m.N == 0 {
		return xs, ys
	}
	lx, hx, ly, hy := m.X[0], m.X[0], m.Y[0], m.Y[0]
	for h := 1; h < m.N; h++ {
		lx, hx = min(lx, m.X[h]), max(hx, m.X[h])
		ly, hy = min(ly, m.Y[h]), max(hy, m.Y[h])
	}
	const pad = svgHouseRadius + 8
	if lx >= pad && hx <= svgWidth-pad && ly >= 60+pad && hy <= svgHeight-pad {
		return m.X, m.Y
	}
	// Fit [lx,hx]×[ly,hy] into [pad, W−pad]×[60+pad, H−pad].
	const bw, bh = svgWidth - 2*pad, svgHeight - 60 - 2*pad
	sx, sy := int64(hx-lx), int64(hy-ly)
	num, den := int64(1), int64(1) // scale num/den, the smaller of the two fits
	switch {
	case sx == 0 && sy == 0:
	case sx*bh >= sy*bw:
		num, den = bw, sx
	default:
		num, den = bh, sy
	}
	for h := 0; h < m.N; h++ {
		xs[h] = int32(pad + (int64(m.X[h]-lx)*num)/den)
		ys[h] = int32(60 + pad + (int64(m.Y[h]-ly)*num)/den)
	}
	return xs, ys
}

// SVGSize implements games.Drawer.
func (s *State) SVGSize() (width, height int) { return svgWidth, svgHeight }

// SVGBoard implements games.Drawer: the background and the houses' numbers
// (fixed for a map).
func (s *State) SVGBoard(dst []byte) []byte {
	xs, ys := svgPlace(s.m)
	dst = append(dst, `<rect x="0" y="0" width="1920" height="1080" fill="#fbfbf8"/>`+"\n"...)
	dst = append(dst, `<g font-size="14" fill="#777777" text-anchor="middle">`...)
	for h := 0; h < s.n; h++ {
		dst = append(dst, `<text x="`...)
		dst = strconv.AppendInt(dst, int64(xs[h]), 10)
		dst = append(dst, `" y="`...)
		dst = strconv.AppendInt(dst, int64(ys[h]-svgHouseRadius-6), 10)
		dst = append(dst, `">`...)
		dst = strconv.AppendInt(dst, int64(h), 10)
		dst = append(dst, `</text>`...)
	}
	return append(dst, "</g>\n"...)
}

// SVGPieces implements games.Drawer: the triangles (in the §3.4 order),
// the paths (a < b, sorted), the houses' circles and unit counts in house
// order, and the caption.
func (s *State) SVGPieces(dst []string) []string {
	xs, ys := svgPlace(s.m)
	b := make([]byte, 0, 160)
	num := func(v int32) { b = strconv.AppendInt(b, int64(v), 10) }
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		if t.dead {
			continue
		}
		fill, opacity := "#cccccc", "0.35"
		if t.owner != noOwner {
			fill, opacity = svgColours[t.owner], "0.45"
		}
		b = append(b[:0], `<polygon class="triangle" points="`...)
		for k, c := range t.c {
			if k > 0 {
				b = append(b, ' ')
			}
			num(xs[c])
			b = append(b, ',')
			num(ys[c])
		}
		b = append(b, `" fill="`...)
		b = append(b, fill...)
		b = append(b, `" fill-opacity="`...)
		b = append(b, opacity...)
		b = append(b, `"/>`...)
		dst = append(dst, string(b))
	}
	for a := 0; a < s.n; a++ {
		for bs := s.adj[a] &^ (1<<(a+1) - 1); bs != 0; bs &= bs - 1 {
			c := bits.TrailingZeros64(bs)
			b = append(b[:0], `<line class="path" x1="`...)
			num(xs[a])
			b = append(b, `" y1="`...)
			num(ys[a])
			b = append(b, `" x2="`...)
			num(xs[c])
			b = append(b, `" y2="`...)
			num(ys[c])
			b = append(b, `" stroke="#555555" stroke-width="4"/>`...)
			dst = append(dst, string(b))
		}
	}
	own0, own1 := s.ownership()
	for h := 0; h < s.n; h++ {
		c := svgColours[2]
		if own0&(1<<h) != 0 {
			c = svgColours[0]
		} else if own1&(1<<h) != 0 {
			c = svgColours[1]
		}
		b = append(b[:0], `<circle class="house" cx="`...)
		num(xs[h])
		b = append(b, `" cy="`...)
		num(ys[h])
		b = append(b, `" r="26" fill="#ffffff" stroke="`...)
		b = append(b, c...)
		b = append(b, `" stroke-width="6"/>`...)
		dst = append(dst, string(b))
	}
	for h := 0; h < s.n; h++ {
		b = append(b[:0], `<text class="units" x="`...)
		num(xs[h])
		b = append(b, `" y="`...)
		num(ys[h] + 7)
		b = append(b, `" font-size="20" text-anchor="middle"><tspan fill="#d9534f">`...)
		num(s.units[0][h])
		b = append(b, `</tspan><tspan fill="#444444">/</tspan><tspan fill="#337ab7">`...)
		num(s.units[1][h])
		b = append(b, `</tspan></text>`...)
		dst = append(dst, string(b))
	}
	b = fmt.Appendf(b[:0], `<text class="caption" x="960" y="40" font-size="30" text-anchor="middle">turn %d/%d   red %d : %d blue`, s.Turn(), MaxTurns, s.score[0], s.score[1])
	if s.over {
		b = append(b, "   game over "...)
		b = append(b, s.Outcome().Result()...)
	}
	b = append(b, "</text>"...)
	return append(dst, string(b))
}
