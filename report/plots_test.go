package report

import (
	"encoding/xml"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"github.com/boardgame-arena/arena/results"
	"gonum.org/v1/plot/plotter"
)

// svgPath is a <path> of a rendered plot.
type svgPath struct {
	style, d string
}

// parseSVG parses a rendered plot with encoding/xml and returns its paths
// and texts; it fails the test when the SVG is not well-formed.
func parseSVG(t *testing.T, svg string) (paths []svgPath, texts []string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	inText := false
	roots := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG does not parse: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if e.Name.Local == "svg" {
				roots++
			}
			inText = e.Name.Local == "text"
			if e.Name.Local == "path" {
				var p svgPath
				for _, a := range e.Attr {
					switch a.Name.Local {
					case "style":
						p.style = a.Value
					case "d":
						p.d = a.Value
					}
				}
				paths = append(paths, p)
			}
		case xml.CharData:
			if inText {
				texts = append(texts, strings.TrimSpace(string(e)))
			}
		case xml.EndElement:
			inText = false
		}
	}
	if roots != 1 {
		t.Fatalf("want one <svg> element, got %d", roots)
	}
	return paths, texts
}

// hex is a colour as vgsvg writes it.
func hex(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

// count returns the paths filled (kind "fill") or stroked ("stroke") in c.
func count(paths []svgPath, kind string, c color.RGBA) int {
	n := 0
	for _, p := range paths {
		if strings.Contains(p.style, kind+":"+hex(c)) {
			n++
		}
	}
	return n
}

func renderSVG(t *testing.T, p *plot.Plot, err error) ([]svgPath, []string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	r := &renderer{}
	svg, err := r.render("test", p, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(svg), "<?xml") {
		t.Error("the inline SVG keeps its XML declaration")
	}
	return parseSVG(t, string(svg))
}

func TestRatingPlotMarkers(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		name            string
		elo, low, high  []float64
		wantOpenAtEdges bool
	}{
		{"bounded", []float64{50, 0, -50}, []float64{10, -40, -90}, []float64{90, 40, -10}, false},
		{"open bounds", []float64{300, 10, -20, -300}, []float64{100, -30, -60, -inf}, []float64{inf, 50, 20, -100}, true},
		{"one player", []float64{0}, []float64{-inf}, []float64{inf}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			names := make([]string, len(tc.elo))
			for i := range names {
				names[i] = fmt.Sprintf("player%d", i)
			}
			p, err := ratingPlot(names, tc.elo, tc.low, tc.high, 0.95)
			paths, texts := renderSVG(t, p, err)
			// A closed end has a cap across the bar (a vertical stroke), an
			// open one an arrowhead (a three-point stroke) and no cap.
			open := 0
			for i := range tc.elo {
				if math.IsInf(tc.low[i], 0) {
					open++
				}
				if math.IsInf(tc.high[i], 0) {
					open++
				}
			}
			if caps, arrows := strokeShapes(t, paths, false); caps != 2*len(names)-open || arrows != open {
				t.Errorf("%d caps and %d arrowheads, want %d and %d", caps, arrows, 2*len(names)-open, open)
			}
			if got := count(paths, "fill", colFirst); got != len(names) {
				t.Errorf("%d rating markers, want %d", got, len(names))
			}
			// Each interval is one horizontal line (caps are separate).
			if got := count(paths, "stroke", colFirst); got < len(names) {
				t.Errorf("%d interval strokes, want at least %d", got, len(names))
			}
			for _, n := range names {
				if !containsText(texts, n) {
					t.Errorf("no label %q among %q", n, texts)
				}
			}
		})
	}
}

// strokeShapes counts the paths stroked in colFirst that are caps (a
// segment across the bars: vertical for horizontal bars) and arrowheads
// (three points, the tip in the middle).
func strokeShapes(t *testing.T, paths []svgPath, verticalBars bool) (caps, arrows int) {
	t.Helper()
	for _, p := range paths {
		if !strings.Contains(p.style, "stroke:"+hex(colFirst)) {
			continue
		}
		f := strings.FieldsFunc(p.d, func(r rune) bool { return r == 'M' || r == 'L' || r == ' ' || r == ',' })
		xy := make([]float64, len(f))
		for i, v := range f {
			var err error
			if xy[i], err = strconv.ParseFloat(v, 64); err != nil {
				t.Fatalf("path %q: %v", p.d, err)
			}
		}
		switch {
		case len(xy) == 6:
			arrows++
		case len(xy) == 4 && !verticalBars && xy[0] == xy[2], len(xy) == 4 && verticalBars && xy[1] == xy[3]:
			caps++
		}
	}
	return caps, arrows
}

func containsText(texts []string, s string) bool {
	for _, t := range texts {
		if t == s {
			return true
		}
	}
	return false
}

func TestHeatMapCells(t *testing.T) {
	nan := math.NaN()
	names := []string{"a", "b", "c"}
	values := [][]float64{{nan, 0.75, 1}, {0.25, nan, nan}, {0, nan, nan}} // b and c never met
	labels := [][]string{{"", "75", "100"}, {"25", "", ""}, {"0", "", ""}}
	paths, texts := renderSVG(t, heatMap("scores", "never met", names, values, labels), nil)
	// A pair that never met is a grey cell (it was left out: white, as
	// 50 % is), and the title says what grey means.
	if got := count(paths, "stroke", colCell); got != 6 {
		t.Errorf("%d cells, want 6 (9 minus the diagonal)", got)
	}
	if got := count(paths, "fill", colNoData); got != 2 {
		t.Errorf("%d grey cells, want 2 (b and c never met)", got)
	}
	if !containsText(texts, "scores; grey: never met") {
		t.Errorf("the title does not say what grey means: %q", texts)
	}
	full := [][]float64{{nan, 0.5}, {0.5, nan}}
	if fp, ft := renderSVG(t, heatMap("scores", "never met", names[:2], full, nil), nil); count(fp, "fill", colNoData) != 0 || !containsText(ft, "scores") {
		t.Errorf("everybody met: grey cells or a grey legend: %q", ft)
	}
	for _, l := range []string{"75", "100", "25", "0"} {
		if !containsText(texts, l) {
			t.Errorf("no cell label %q among %q", l, texts)
		}
	}
	// The colour scale: 0 red, ½ white, 1 green.
	for _, tc := range []struct {
		v    float64
		want color.RGBA
	}{{0, color.RGBA{0xD7, 0x30, 0x27, 0xFF}}, {0.5, color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}}, {1, color.RGBA{0x1A, 0x98, 0x50, 0xFF}}, {-3, color.RGBA{0xD7, 0x30, 0x27, 0xFF}}} {
		if got := heatColour(tc.v); got != tc.want {
			t.Errorf("heatColour(%v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

func TestBarChartBars(t *testing.T) {
	cats := []string{"x", "y", "z"}
	for _, tc := range []struct {
		name    string
		ss      []series
		stacked bool
		// want bars per colour; a chart of several series also draws one
		// legend swatch per series in its colour.
		want map[color.RGBA]int
	}{
		{"one series", []series{{"s", []float64{1, 2, 3}}}, false, map[color.RGBA]int{colFirst: 3, colSecond: 0}},
		{"two series", []series{{"s", []float64{1, 2, 3}}, {"t", []float64{3, 2, 1}}}, false, map[color.RGBA]int{colFirst: 3 + 1, colSecond: 3 + 1}},
		{"three stacked", []series{{"w", []float64{1, 2, 3}}, {"d", []float64{1, 1, 1}}, {"l", []float64{2, 2, 2}}}, true, map[color.RGBA]int{colFirst: 4, colSecond: 4, colThird: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := barChart("bars", "n", cats, tc.ss, tc.stacked)
			paths, texts := renderSVG(t, p, err)
			for c, want := range tc.want {
				if got := count(paths, "fill", c); got != want {
					t.Errorf("%d bars in %s, want %d", got, hex(c), want)
				}
			}
			for _, c := range cats {
				if !containsText(texts, c) {
					t.Errorf("no category label %q", c)
				}
			}
		})
	}
}

func TestHistogramBins(t *testing.T) {
	var values []float64
	for i := 1; i <= 10; i++ {
		values = append(values, float64(i))
	}
	for _, bins := range []int{1, 5, 10} {
		p, err := histogram("lengths", "plies", values, bins)
		paths, _ := renderSVG(t, p, err)
		if got := count(paths, "fill", colFirst); got != bins {
			t.Errorf("%d bins drawn, want %d", got, bins)
		}
	}
	for _, tc := range []struct {
		values []float64
		want   int
	}{
		{[]float64{5}, 1},
		{[]float64{5, 5, 5, 5}, 1},          // one distinct value
		{[]float64{1, 2, 3, 4, 5, 6, 7}, 3}, // ⌈√7⌉
		{make([]float64, 10000), 1},
	} {
		if got := binsFor(tc.values); got != tc.want {
			t.Errorf("binsFor(%d values) = %d, want %d", len(tc.values), got, tc.want)
		}
	}
}

// points counts the vertices of a path's d attribute.
func points(d string) int {
	return strings.Count(d, "M") + strings.Count(d, "L")
}

func TestLLRPlot(t *testing.T) {
	llr := []float64{0.3, 0.1, 0.6, 1.2, 0.9, 1.8, 2.5}
	p, err := llrPlot(llr, -2.94, 2.94)
	paths, _ := renderSVG(t, p, err)
	if got := count(paths, "stroke", colBound); got != 2 {
		t.Errorf("%d bound lines, want 2", got)
	}
	longest := 0
	for _, q := range paths {
		if strings.Contains(q.style, "stroke:"+hex(colFirst)) {
			longest = max(longest, points(q.d))
		}
	}
	if longest != len(llr)+1 {
		t.Errorf("the LLR line has %d points, want %d (the origin and one per pair)", longest, len(llr)+1)
	}
}

func TestBoxPlotBoxes(t *testing.T) {
	values := [][]float64{{1, 2, 3, 4, 100}, nil, {0, 0.5, 2}}
	p, err := boxPlot("times", "ms", []string{"a", "b", "c"}, values, 0.001)
	paths, _ := renderSVG(t, p, err)
	if got := count(paths, "fill", colFirst); got != 2 {
		t.Errorf("%d boxes, want 2 (the category without values has none)", got)
	}
}

func TestRenderPNG(t *testing.T) {
	dir := t.TempDir()
	r := &renderer{pngDir: dir}
	p, err := histogram("lengths", "plies", []float64{1, 2, 3}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.render("lengths", p, 0, 0); err != nil {
		t.Fatal(err)
	}
	if len(r.pngs) != 1 || r.pngs[0] != filepath.Join(dir, "lengths.png") {
		t.Fatalf("PNGs written: %q", r.pngs)
	}
	f, err := os.Open(r.pngs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 500 || b.Dy() < 250 {
		t.Errorf("PNG of %v pixels, want a plot-sized image", b)
	}
	bad := &renderer{pngDir: filepath.Join(dir, "missing", "dir")}
	if _, err := bad.render("x", p, 0, 0); err == nil {
		t.Error("no error writing a PNG into a missing directory")
	}
}

// TestDegeneratePlots: data without spread still gives a well-formed plot
// with every mark (all games of one length, all times zero, every bound
// open).
func TestDegeneratePlots(t *testing.T) {
	p, err := histogram("lengths", "plies", []float64{30, 30, 30}, binsFor([]float64{30, 30, 30}))
	paths, _ := renderSVG(t, p, err)
	if got := count(paths, "fill", colFirst); got != 1 {
		t.Errorf("%d bins for games of one length, want 1", got)
	}
	p, err = barChart("times", "ms", []string{"a", "b"}, []series{{"mean", []float64{0, 0}}}, false)
	renderSVG(t, p, err)
	inf := math.Inf(1)
	p, err = ratingPlot([]string{"a", "b"}, []float64{0, 0}, []float64{-inf, -inf}, []float64{inf, inf}, 0.95)
	paths, _ = renderSVG(t, p, err)
	if got := count(paths, "fill", colFirst); got != 2 {
		t.Errorf("%d markers with every bound open, want 2", got)
	}
	p, err = boxPlot("times", "ms", []string{"a"}, [][]float64{{0, 0, 0}}, 0.001)
	paths, _ = renderSVG(t, p, err)
	if got := count(paths, "fill", colFirst); got != 1 {
		t.Errorf("%d boxes of zero times, want 1", got)
	}
}

// TestHistogramWholeBins: plies are counted in bins of whole width centred
// on whole numbers, each game in exactly one bin.
func TestHistogramWholeBins(t *testing.T) {
	values := []float64{20, 24, 30, 31, 31, 32, 33, 33, 33, 36}
	for _, bins := range []int{1, 3, 6, 17, 40} {
		h := struct{ Bins []plotter.HistogramBin }{wholeBins(values, bins)}
		total := 0.0
		for k, b := range h.Bins {
			if b.Max-b.Min != h.Bins[0].Max-h.Bins[0].Min || math.Abs(b.Min-math.Trunc(b.Min)) != 0.5 {
				t.Errorf("bins=%d: bin %d is [%v, %v)", bins, k, b.Min, b.Max)
			}
			for _, v := range values {
				if v >= b.Min && v < b.Max {
					total++
				}
			}
		}
		if sum := func() (s float64) {
			for _, b := range h.Bins {
				s += b.Weight
			}
			return
		}(); sum != float64(len(values)) || total != float64(len(values)) {
			t.Errorf("bins=%d: weights add to %v, %v values fall in a bin; want %d", bins, sum, total, len(values))
		}
		if len(h.Bins) > bins {
			t.Errorf("%d bins, asked for at most %d", len(h.Bins), bins)
		}
	}
}

func TestLinesPlot(t *testing.T) {
	nan := math.NaN()
	ys := [][]float64{{3, 2.5, 2, 1.5}, {3, nan, 2}, {nan, nan}}
	p, err := linesPlot("clocks", "plies", "s", []string{"a", "b", "c"}, ys)
	paths, texts := renderSVG(t, p, err)
	for k, want := range []int{4, 2, 0} {
		c := lineColours[k]
		longest, lines := 0, 0
		for _, q := range paths {
			if strings.Contains(q.style, "stroke:"+hex(c)) {
				lines++
				longest = max(longest, points(q.d))
			}
		}
		// A drawn series also has its legend swatch, a line of 2 points.
		if want == 0 && lines != 0 || want > 0 && (lines != 2 || longest != want) {
			t.Errorf("series %d: %d strokes, the longest of %d points; want a line of %d points", k, lines, longest, want)
		}
	}
	if !containsText(texts, "a") || !containsText(texts, "b") || containsText(texts, "c") {
		t.Errorf("legend texts %q: want a and b, not c (no data)", texts)
	}
}

// clockMeansOf is clockMeans of the named players' figures of games.
func clockMeansOf(games []*results.GameRecord, names []string) ([][]float64, bool) {
	c, _ := NewCollector(ViewerOptions{}, true)
	for _, g := range games {
		c.Add(-1, g)
	}
	figs := make([]playerFigures, len(names))
	for i, n := range names {
		if f := c.players[n]; f != nil {
			figs[i] = *f
		}
	}
	return clockMeans(figs)
}

func TestClockMeans(t *testing.T) {
	g := func(first, second string, clocks ...[2]float64) *results.GameRecord {
		return &results.GameRecord{Players: [2]results.Player{{Name: first}, {Name: second}}, Clocks: clocks}
	}
	games := []*results.GameRecord{
		g("a", "b", [2]float64{900, 1000}, [2]float64{900, 800}, [2]float64{700, 800}),
		g("b", "a", [2]float64{500, 1000}, [2]float64{500, 600}),
		g("a", "c", [2]float64{1000, results.NoClock}),
		g("b", "c"), // no clock
	}
	left, ok := clockMeansOf(games, []string{"a", "b", "c"})
	if !ok {
		t.Fatal("no clock data found")
	}
	want := [][]float64{{(0.9 + 1 + 1) / 3, (0.9 + 0.6) / 2, 0.7}, {(1 + 0.5) / 2, (0.8 + 0.5) / 2, 0.8}, {}}
	for k := range want {
		if len(left[k]) != len(want[k]) {
			t.Errorf("player %d: %v, want %v", k, left[k], want[k])
			continue
		}
		for i := range want[k] {
			if math.Abs(left[k][i]-want[k][i]) > 1e-12 {
				t.Errorf("player %d ply %d: %v, want %v", k, i+1, left[k][i], want[k][i])
			}
		}
	}
	if _, ok := clockMeansOf(games[3:], []string{"b", "c"}); ok {
		t.Error("clock data found in games without clocks")
	}
}
