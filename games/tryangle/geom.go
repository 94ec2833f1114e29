package tryangle

import "math/bits"

// Geometry of §3: the strict orientation predicate, segment crossing, and the
// "house inside a triangle" test, all on integer coordinates exactly as the
// original referee writes them (collinear cases included).

// ccw reports whether a, b, c turn counter-clockwise in the referee's sense:
// (c.y−a.y)·(b.x−a.x) > (b.y−a.y)·(c.x−a.x). Collinear triples give false.
func ccw(ax, ay, bx, by, cx, cy int64) bool {
	return (cy-ay)*(bx-ax) > (by-ay)*(cx-ax)
}

// crossesXY is §3.2 for segments e = (e1, e2) and f = (f1, f2) given by house
// ids and coordinates. Sharing an endpoint is never a crossing; a degenerate
// first segment (e1 == e2) never crosses.
func crossesXY(e1, e2, f1, f2 int, xs, ys *[MaxHouses]int32) bool {
	if e1 == e2 || e1 == f1 || e1 == f2 || e2 == f1 || e2 == f2 {
		return false
	}
	p := func(i int) (int64, int64) { return int64(xs[i]), int64(ys[i]) }
	ax, ay := p(e1)
	bx, by := p(e2)
	cx, cy := p(f1)
	dx, dy := p(f2)
	return ccw(ax, ay, cx, cy, dx, dy) != ccw(bx, by, cx, cy, dx, dy) &&
		ccw(ax, ay, bx, by, cx, cy) != ccw(ax, ay, bx, by, dx, dy)
}

// emptyTriangle reports whether no house other than the corners a, b, c lies
// inside the triangle by the §3.4 test (all three orientations equal).
func emptyTriangle(a, b, c, n int, xs, ys *[MaxHouses]int32) bool {
	ax, ay := int64(xs[a]), int64(ys[a])
	bx, by := int64(xs[b]), int64(ys[b])
	cx, cy := int64(xs[c]), int64(ys[c])
	for h := 0; h < n; h++ {
		if h == a || h == b || h == c {
			continue
		}
		hx, hy := int64(xs[h]), int64(ys[h])
		s1 := ccw(hx, hy, ax, ay, bx, by)
		s2 := ccw(hx, hy, bx, by, cx, cy)
		s3 := ccw(hx, hy, cx, cy, ax, ay)
		if s1 == s2 && s2 == s3 {
			return false
		}
	}
	return true
}

// forEachTriangle calls fn for every triangle of the graph in §3.4 order:
// a < b < c lexicographically, pairwise adjacent, no house inside.
func forEachTriangle(n int, adj *[MaxHouses]uint64, xs, ys *[MaxHouses]int32, fn func(a, b, c int)) {
	for a := 0; a < n; a++ {
		for bs := adj[a] &^ (1<<(a+1) - 1); bs != 0; bs &= bs - 1 {
			b := bits.TrailingZeros64(bs)
			for cs := adj[b] & adj[a] &^ (1<<(b+1) - 1); cs != 0; cs &= cs - 1 {
				c := bits.TrailingZeros64(cs)
				if emptyTriangle(a, b, c, n, xs, ys) {
					fn(a, b, c)
				}
			}
		}
	}
}

// biconnected is the generator's "strongly connected" test (§2.4): removing
// any one house leaves the others connected.
func biconnected(n int, adj *[MaxHouses]uint64) bool {
	all := uint64(1)<<n - 1
	if n == 64 {
		all = ^uint64(0)
	}
	for blocked := 0; blocked < n; blocked++ {
		start := 0
		if blocked == 0 {
			start = 1
		}
		if start >= n {
			continue
		}
		allowed := all &^ (1 << blocked)
		seen := uint64(1) << start
		frontier := seen
		for frontier != 0 {
			var next uint64
			for f := frontier; f != 0; f &= f - 1 {
				next |= adj[bits.TrailingZeros64(f)]
			}
			next &= allowed &^ seen
			seen |= next
			frontier = next
		}
		// unreached houses, counting blocked itself
		if bits.OnesCount64(all&^seen) > 1 {
			return false
		}
	}
	return true
}
