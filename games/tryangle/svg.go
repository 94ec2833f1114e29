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
// order, and the caption. Fragments are kept in the state's scratch (not
// shared with clones), so that drawing the positions of a game one after
// another formats only what changed.
func (s *State) SVGPieces(dst []string) []string {
	d := svgDrawer{s: s}
	d.xs, d.ys = svgPlace(s.m)
	if sc := s.scr(); sc.svg == nil || len(sc.svg) > svgCacheMax {
		sc.svg = make(map[uint64]string, 512)
	}
	d.cache = s.sc.svg
	for i := 0; i < s.ntri; i++ {
		if t := &s.tris[i]; !t.dead {
			dst = append(dst, d.triangle(t.c, int(t.owner)))
		}
	}
	for a := 0; a < s.n; a++ {
		for bs := s.adj[a] &^ (1<<(a+1) - 1); bs != 0; bs &= bs - 1 {
			dst = append(dst, d.path(a, bits.TrailingZeros64(bs)))
		}
	}
	own0, own1 := s.ownership()
	for h := 0; h < s.n; h++ {
		c := 2
		if own0&(1<<h) != 0 {
			c = 0
		} else if own1&(1<<h) != 0 {
			c = 1
		}
		dst = append(dst, d.house(h, c))
	}
	for h := 0; h < s.n; h++ {
		dst = append(dst, d.units(h, s.units[0][h], s.units[1][h]))
	}
	b := fmt.Appendf(d.buf[:0], `<text class="caption" x="960" y="40" font-size="30" text-anchor="middle">turn %d/%d · red %d : %d blue`, s.Turn(), MaxTurns, s.score[0], s.score[1])
	if s.over {
		b = append(b, " · game over "...)
		b = append(b, s.Outcome().Result()...)
	}
	b = append(b, "</text>"...)
	return append(dst, string(b))
}

// svgCacheMax bounds the fragments a state keeps: past it, the cache
// starts again (a long game's unit counts would otherwise pile up).
const svgCacheMax = 8192

// Kinds of fragment in the cache key's low 3 bits.
const (
	svgKeyTriangle = 1 + iota
	svgKeyPath
	svgKeyHouse
	svgKeyUnits
)

// svgDrawer formats the fragments of one picture, through the cache.
type svgDrawer struct {
	s      *State
	xs, ys [MaxHouses]int32
	cache  map[uint64]string
	buf    [192]byte
}

// point appends house h's position as "x,y".
func (d *svgDrawer) point(b []byte, h int) []byte {
	b = strconv.AppendInt(b, int64(d.xs[h]), 10)
	b = append(b, ',')
	return strconv.AppendInt(b, int64(d.ys[h]), 10)
}

// attr appends name="v" with a space before it.
func attr(b []byte, name string, v int32) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, `="`...)
	b = strconv.AppendInt(b, int64(v), 10)
	return append(b, '"')
}

// keep stores the fragment in b under key and returns it.
func (d *svgDrawer) keep(key uint64, b []byte) string {
	f := string(b)
	d.cache[key] = f
	return f
}

func (d *svgDrawer) triangle(c [3]uint8, owner int) string {
	key := svgKeyTriangle | uint64(c[0])<<3 | uint64(c[1])<<9 | uint64(c[2])<<15 | uint64(owner+1)<<21
	if f, ok := d.cache[key]; ok {
		return f
	}
	fill, opacity := "#cccccc", "0.35"
	if owner != noOwner {
		fill, opacity = svgColours[owner], "0.45"
	}
	b := append(d.buf[:0], `<polygon class="triangle" points="`...)
	b = d.point(b, int(c[0]))
	b = append(b, ' ')
	b = d.point(b, int(c[1]))
	b = append(b, ' ')
	b = d.point(b, int(c[2]))
	b = append(b, `" fill="`...)
	b = append(b, fill...)
	b = append(b, `" fill-opacity="`...)
	b = append(b, opacity...)
	return d.keep(key, append(b, `"/>`...))
}

func (d *svgDrawer) path(a, c int) string {
	key := svgKeyPath | uint64(a)<<3 | uint64(c)<<9
	if f, ok := d.cache[key]; ok {
		return f
	}
	b := append(d.buf[:0], `<line class="path"`...)
	b = attr(b, "x1", d.xs[a])
	b = attr(b, "y1", d.ys[a])
	b = attr(b, "x2", d.xs[c])
	b = attr(b, "y2", d.ys[c])
	return d.keep(key, append(b, ` stroke="#555555" stroke-width="4"/>`...))
}

func (d *svgDrawer) house(h, colour int) string {
	key := svgKeyHouse | uint64(h)<<3 | uint64(colour)<<9
	if f, ok := d.cache[key]; ok {
		return f
	}
	b := append(d.buf[:0], `<circle class="house"`...)
	b = attr(b, "cx", d.xs[h])
	b = attr(b, "cy", d.ys[h])
	b = append(b, ` r="26" fill="#ffffff" stroke="`...)
	b = append(b, svgColours[colour]...)
	return d.keep(key, append(b, `" stroke-width="6"/>`...))
}

func (d *svgDrawer) units(h int, u0, u1 int32) string {
	const limit = 1 << 26 // counts beyond it are drawn but not kept
	key := svgKeyUnits | uint64(h)<<3 | uint64(u0)<<9 | uint64(u1)<<35
	if u0 < limit && u1 < limit {
		if f, ok := d.cache[key]; ok {
			return f
		}
	}
	b := append(d.buf[:0], `<text class="units"`...)
	b = attr(b, "x", d.xs[h])
	b = attr(b, "y", d.ys[h]+7)
	b = append(b, ` font-size="20" text-anchor="middle"><tspan fill="#d9534f">`...)
	b = strconv.AppendInt(b, int64(u0), 10)
	b = append(b, `</tspan><tspan fill="#444444">/</tspan><tspan fill="#337ab7">`...)
	b = strconv.AppendInt(b, int64(u1), 10)
	b = append(b, `</tspan></text>`...)
	if u0 < limit && u1 < limit {
		return d.keep(key, b)
	}
	return string(b)
}
