package tryangle

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
)

// drawAt returns the picture of map seed's random game (seed 4) undone to
// turn ply+1.
func drawAt(t *testing.T, seed int64, ply int) (*State, []byte) {
	t.Helper()
	s := New(Generate(seed))
	randomGame(t, s, 4, nil)
	for s.Ply() > ply {
		s.Undo()
	}
	var buf bytes.Buffer
	if err := games.WriteSVG(&buf, s); err != nil {
		t.Fatal(err)
	}
	return s, buf.Bytes()
}

func TestSVG(t *testing.T) {
	s, doc := drawAt(t, 6, 65) // a position with 8 owned triangles
	counts, err := gamestest.SVGCount(doc)
	if err != nil {
		t.Fatalf("not well-formed XML: %v", err)
	}
	n := s.Houses()
	if counts["svg"] != 1 || counts["polygon"] != len(s.Triangles()) || counts["line"] != len(s.Paths()) ||
		counts["circle"] != n || counts[".house"] != n || counts[".units"] != n ||
		counts["text"] != 2*n+1 || counts["tspan"] != 3*n {
		t.Errorf("elements %v for %d triangles, %d paths, %d houses", counts, len(s.Triangles()), len(s.Paths()), n)
	}
	// owned triangles are shaded in their owner's colour
	owned := 0
	for _, tr := range s.Triangles() {
		if tr.Owner >= 0 {
			owned++
		}
	}
	if got := strings.Count(string(doc), `fill-opacity="0.45"`); got != owned || owned == 0 {
		t.Errorf("%d shaded triangles, %d owned", got, owned)
	}
	// each house's unit counts, in house order
	units := regexp.MustCompile(`<tspan fill="#d9534f">(\d+)</tspan><tspan fill="#444444">/</tspan><tspan fill="#337ab7">(\d+)</tspan>`).FindAllStringSubmatch(string(doc), -1)
	if len(units) != n {
		t.Fatalf("%d unit counts for %d houses", len(units), n)
	}
	for h, u := range units {
		if u[1] != strconv.Itoa(s.Units(0, h)) || u[2] != strconv.Itoa(s.Units(1, h)) {
			t.Errorf("house %d shows %s/%s, has %d/%d", h, u[1], u[2], s.Units(0, h), s.Units(1, h))
		}
	}
	if !strings.Contains(string(doc), ">turn "+strconv.Itoa(s.Turn())+"/200 · red "+strconv.Itoa(s.Score(0))+" : "+strconv.Itoa(s.Score(1))+" blue</text>") {
		t.Errorf("caption missing: turn %d, scores %d:%d", s.Turn(), s.Score(0), s.Score(1))
	}
}

// TestSVGFragmentsRepeat: the board is the same in every position of a
// map, and a path that is in two positions is the same fragment in both.
func TestSVGFragmentsRepeat(t *testing.T) {
	s := New(Generate(6))
	board := string(s.SVGBoard(nil))
	first := s.SVGPieces(nil)
	randomGame(t, s, 4, func() {
		if string(s.SVGBoard(nil)) != board {
			t.Fatalf("turn %d: the board layer changed", s.Turn())
		}
	})
	last := s.SVGPieces(nil)
	paths := func(frags []string) []string {
		var out []string
		for _, f := range frags {
			if strings.HasPrefix(f, `<line class="path"`) {
				out = append(out, f)
			}
		}
		return out
	}
	p0, p1 := paths(first), paths(last)
	common := 0
	for _, p := range New(Generate(6)).Paths() {
		if slices.Contains(s.Paths(), p) {
			common++
		}
	}
	shared := 0
	for _, f := range p0 {
		if slices.Contains(p1, f) {
			shared++
		}
	}
	if shared != common || common == 0 {
		t.Errorf("%d path fragments repeat between the first and last position, %d paths are in both", shared, common)
	}
}

// TestSVGScalesMap: an explicit map beyond the canvas is scaled into it,
// keeping its shape.
func TestSVGScalesMap(t *testing.T) {
	m, err := ParseMap("-100000,-50000_100000,-50000_0,50000", "0,1_1,2_0,2", "3,0_0,3_0,0")
	if err != nil {
		t.Fatal(err)
	}
	s := New(m)
	var buf bytes.Buffer
	if err := games.WriteSVG(&buf, s); err != nil {
		t.Fatal(err)
	}
	centres := regexp.MustCompile(`<circle class="house" cx="(-?\d+)" cy="(-?\d+)"`).FindAllStringSubmatch(buf.String(), -1)
	if len(centres) != 3 {
		t.Fatalf("%d houses drawn, want 3", len(centres))
	}
	var xs, ys []int
	for _, c := range centres {
		x, _ := strconv.Atoi(c[1])
		y, _ := strconv.Atoi(c[2])
		if x < svgHouseRadius || x > svgWidth-svgHouseRadius || y < 60 || y > svgHeight-svgHouseRadius {
			t.Errorf("house at %d,%d is off the canvas", x, y)
		}
		xs, ys = append(xs, x), append(ys, y)
	}
	// the map is twice as wide as high, and house 2 is midway across
	w, h := xs[1]-xs[0], ys[2]-ys[0]
	if w != 2*h || ys[0] != ys[1] || xs[2] != (xs[0]+xs[1])/2 {
		t.Errorf("shape lost: houses at x %v y %v", xs, ys)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteSVGReportsErrors(t *testing.T) {
	if err := games.WriteSVG(failWriter{}, New(Generate(6))); err == nil {
		t.Error("write error lost")
	}
}

// BenchmarkSVGPieces draws every position of a game, as a report does:
// undoing it to the start, then playing it again (ns/position includes the
// undo or play; draw=false measures those alone).
func BenchmarkSVGPieces(b *testing.B) {
	for _, draw := range []bool{true, false} {
		b.Run(fmt.Sprintf("draw=%v", draw), func(b *testing.B) { benchmarkSVGPieces(b, draw) })
	}
}

func benchmarkSVGPieces(b *testing.B, draw bool) {
	s := New(Generate(6))
	moves := randomGame(b, s, 4, nil)
	var dst []string
	b.ReportAllocs()
	for b.Loop() {
		for s.Ply() > 0 {
			if draw {
				dst = s.SVGPieces(dst[:0])
			}
			s.Undo()
		}
		for _, m := range moves {
			if draw {
				dst = s.SVGPieces(dst[:0])
			}
			s.PlayJoint(m[0], m[1])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*2*len(moves)), "ns/position")
}

// TestSVGCache: fragments kept from earlier positions are those a fresh
// state formats, and a full cache starts again instead of growing.
func TestSVGCache(t *testing.T) {
	s := New(Generate(3))
	var seen []string
	randomGame(t, s, 9, func() {
		got := s.SVGPieces(nil)
		if want := s.clone().SVGPieces(nil); !slices.Equal(got, want) {
			t.Fatalf("turn %d: drawn with the cache %s", s.Turn(), strings.Join(got, "\n"))
		}
		seen = got
	})
	sc := s.scr()
	for i := range svgCacheMax + 1 {
		sc.svg[uint64(i)<<40] = "junk"
	}
	if got := s.SVGPieces(nil); !slices.Equal(got, seen) {
		t.Error("a full cache changed the picture")
	}
	if n := len(sc.svg); n > len(seen) {
		t.Errorf("the cache holds %d fragments after a full one was dropped, want at most %d", n, len(seen))
	}
}
