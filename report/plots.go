package report

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// rowHeight is the height a plot gives each player of a vertical list.
const rowHeight = 0.8 * vg.Centimeter

// ratingPlot draws each player's Elo as a point with its interval as a
// horizontal bar, best at the top. An open bound (±Inf) runs to the edge
// of the plot and ends in an arrowhead where a bound ends in a cap (see
// intervalBars).
func ratingPlot(names []string, elo, low, high []float64, level float64) (*plot.Plot, error) {
	n := len(names)
	p := newPlot(fmt.Sprintf("Ratings with %g %% intervals (an arrow: open on that side)", 100*level), "Elo", "")
	// Open bounds are drawn to just beyond the finite extent.
	lo, hi := eloExtent(elo, low, high)
	bars := &intervalBars{lo: lo, hi: hi}
	ticks := make([]plot.Tick, n)
	for i := range n {
		y := float64(n - 1 - i) // the first (best) at the top
		bars.add(y, elo[i], low[i], high[i])
		ticks[i] = plot.Tick{Value: y, Label: names[i]}
	}
	pts, err := plotter.NewScatter(bars.at)
	if err != nil {
		return nil, err
	}
	pts.GlyphStyle = draw.GlyphStyle{Color: colFirst, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
	p.Add(plotter.NewGrid(), bars, pts)
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	p.X.Min, p.X.Max = lo, hi
	return p, nil
}

// intervalBars draws intervals of Elo as bars in colFirst: a line from the
// low end to the high end with a cap across each end the data bound, and
// an arrowhead at an open end (±Inf), whose line runs to the extent lo or
// hi: "and beyond", where a cap there would read as a bound at the plot's
// edge. Horizontal bars (ratings: Elo along x, at = (Elo, row)), or
// vertical ones (a sweep: Elo along y, at = (value, Elo)).
type intervalBars struct {
	vertical  bool
	lo, hi    float64     // the Elo extent an open end is drawn to
	at        plotter.XYs // the points the intervals belong to
	low, high []float64   // Elo; ±Inf open
}

// add appends the interval [l, h] of the Elo e at position pos (the row
// or the x value). A NaN bound counts as open; a bound on the wrong side
// of e is drawn at e.
func (b *intervalBars) add(pos, e, l, h float64) {
	if math.IsNaN(l) {
		l = math.Inf(-1)
	}
	if math.IsNaN(h) {
		h = math.Inf(1)
	}
	b.low, b.high = append(b.low, min(l, e)), append(b.high, max(h, e))
	if b.vertical {
		b.at = append(b.at, plotter.XY{X: pos, Y: e})
	} else {
		b.at = append(b.at, plotter.XY{X: e, Y: pos})
	}
}

// Plot draws the bars.
func (b *intervalBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := draw.LineStyle{Color: colFirst, Width: vg.Points(1.5)}
	capHalf, head := vg.Points(4), vg.Points(6)
	// point maps an Elo on the bar at position pos to the canvas.
	point := func(pos, e float64) vg.Point {
		if b.vertical {
			return vg.Point{X: trX(pos), Y: trY(e)}
		}
		return vg.Point{X: trX(e), Y: trY(pos)}
	}
	// across is a vector of length d across the bar, along its direction.
	across, along := vg.Point{Y: 1}, vg.Point{X: 1}
	if b.vertical {
		across, along = along, across
	}
	for i, xy := range b.at {
		pos := xy.Y
		if b.vertical {
			pos = xy.X
		}
		ends := [2]struct {
			v    float64
			open bool
			dir  vg.Length // −1 at the low end, +1 at the high end
		}{{b.low[i], math.IsInf(b.low[i], -1), -1}, {b.high[i], math.IsInf(b.high[i], 1), 1}}
		ends[0].v, ends[1].v = max(ends[0].v, b.lo), min(ends[1].v, b.hi)
		from, to := point(pos, ends[0].v), point(pos, ends[1].v)
		c.StrokeLine2(sty, from.X, from.Y, to.X, to.Y)
		for k, end := range ends {
			q := [2]vg.Point{from, to}[k]
			if end.open {
				// An arrowhead pointing outwards: two strokes back from the tip.
				back := along.Scale(-end.dir * head)
				c.StrokeLines(sty, []vg.Point{q.Add(back).Add(across.Scale(head / 2)), q, q.Add(back).Add(across.Scale(-head / 2))})
				continue
			}
			c.StrokeLine2(sty, q.X-across.X*capHalf, q.Y-across.Y*capHalf, q.X+across.X*capHalf, q.Y+across.Y*capHalf)
		}
	}
}

// DataRange covers the points and the drawn ends.
func (b *intervalBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i, xy := range b.at {
		l, h := max(b.low[i], b.lo), min(b.high[i], b.hi)
		if b.vertical {
			xmin, xmax, ymin, ymax = min(xmin, xy.X), max(xmax, xy.X), min(ymin, l), max(ymax, h)
		} else {
			xmin, xmax, ymin, ymax = min(xmin, l), max(xmax, h), min(ymin, xy.Y), max(ymax, xy.Y)
		}
	}
	return xmin, xmax, ymin, ymax
}

// heatCells is a plotter of a square matrix of the players' values in
// [0, 1] as coloured cells with a label each. The diagonal is left empty;
// a NaN cell elsewhere (a pair that never met) is grey, which no value's
// colour is (white is 50 %). Row 0 is drawn at the top.
type heatCells struct {
	values [][]float64
	labels [][]string
}

// heatColour maps 0 to red, ½ to white and 1 to green.
func heatColour(v float64) color.Color {
	v = math.Max(0, math.Min(1, v))
	red := [3]float64{0xD7, 0x30, 0x27}
	white := [3]float64{0xFF, 0xFF, 0xFF}
	green := [3]float64{0x1A, 0x98, 0x50}
	from, to, t := red, white, 2*v
	if v > 0.5 {
		from, to, t = white, green, 2*v-1
	}
	var c [3]uint8
	for k := range c {
		c[k] = uint8(math.Round(from[k] + (to[k]-from[k])*t))
	}
	return color.RGBA{c[0], c[1], c[2], 0xFF}
}

// Plot draws the cells, each outlined in colCell (the tests count those).
func (h *heatCells) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	rows := len(h.values)
	edge := draw.LineStyle{Color: colCell, Width: vg.Points(1)}
	sty := text.Style{Color: color.Black, Font: plot.DefaultFont, Handler: plot.DefaultTextHandler, XAlign: draw.XCenter, YAlign: draw.YCenter}
	sty.Font.Size = vg.Points(8)
	for i, row := range h.values {
		y := float64(rows - 1 - i)
		for j, v := range row {
			if i == j {
				continue
			}
			x0, x1 := trX(float64(j)-0.5), trX(float64(j)+0.5)
			y0, y1 := trY(y-0.5), trY(y+0.5)
			pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
			var fill color.Color = colNoData
			if !math.IsNaN(v) {
				fill = heatColour(v)
			}
			c.FillPolygon(fill, pts)
			c.StrokeLines(edge, append(pts, pts[0]))
			if h.labels != nil && h.labels[i][j] != "" {
				c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, h.labels[i][j])
			}
		}
	}
}

// DataRange covers every cell.
func (h *heatCells) DataRange() (xmin, xmax, ymin, ymax float64) {
	cols := 0
	for _, r := range h.values {
		cols = max(cols, len(r))
	}
	return -0.5, float64(cols) - 0.5, -0.5, float64(len(h.values)) - 0.5
}

// heatMap draws a square matrix of the players' results: rows are the
// player, columns the opponent, values in [0, 1] (NaN: no data, grey).
// When a cell is grey the title says what grey means: noData.
func heatMap(title, noData string, names []string, values [][]float64, labels [][]string) *plot.Plot {
	if grey(values) {
		title += "; grey: " + noData
	}
	p := newPlot(title, "opponent", "")
	p.Add(&heatCells{values: values, labels: labels})
	n := len(names)
	xt, yt := make([]plot.Tick, n), make([]plot.Tick, n)
	for i, name := range names {
		xt[i] = plot.Tick{Value: float64(i), Label: name}
		yt[i] = plot.Tick{Value: float64(n - 1 - i), Label: name}
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.ConstantTicks(xt), plot.ConstantTicks(yt)
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	p.X.Tick.Length, p.Y.Tick.Length = 0, 0
	return p
}

// grey reports whether a heat map of values has a grey cell: a NaN off
// the diagonal.
func grey(values [][]float64) bool {
	for i, row := range values {
		for j, v := range row {
			if i != j && math.IsNaN(v) {
				return true
			}
		}
	}
	return false
}

// series is one set of bars of a bar chart.
type series struct {
	name   string
	values []float64
}

var seriesColours = []color.Color{colFirst, colSecond, colThird}

// barChart draws grouped bars (up to three series) over named categories.
// stacked puts the series on top of each other instead.
func barChart(title, ylabel string, cats []string, ss []series, stacked bool) (*plot.Plot, error) {
	p := newPlot(title, "", ylabel)
	width := vg.Points(math.Min(40, 300/float64(max(1, len(cats)))))
	group := width
	if !stacked && len(ss) > 1 {
		width = group / vg.Length(len(ss))
	}
	var prev *plotter.BarChart
	for k, s := range ss {
		b, err := plotter.NewBarChart(plotter.Values(s.values), width)
		if err != nil {
			return nil, err
		}
		b.Color = seriesColours[k%len(seriesColours)]
		b.LineStyle.Width = 0
		if stacked {
			if prev != nil {
				b.StackOn(prev)
			}
			prev = b
		} else if len(ss) > 1 {
			b.Offset = -group/2 + width*vg.Length(k) + width/2
		}
		p.Add(b)
		if len(ss) > 1 {
			p.Legend.Add(s.name, b)
		}
	}
	p.Legend.Top = true
	p.NominalX(cats...)
	if len(cats) > 4 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	}
	p.Y.Min = 0
	return p, nil
}

// histogram draws the distribution of values in bins bins.
// Whole numbers (plies) get bins of a whole width centred on them, so that
// no bin straddles a value; the number of bins may then come out lower.
func histogram(title, xlabel string, values []float64, bins int) (*plot.Plot, error) {
	p := newPlot(title, xlabel, "games")
	h, err := plotter.NewHist(plotter.Values(values), bins)
	if err != nil {
		return nil, err
	}
	if whole(values) {
		h.Bins = wholeBins(values, bins)
		h.Width = h.Bins[0].Max - h.Bins[0].Min
	}
	styleHist(h)
	p.Add(h)
	return p, nil
}

// countHistogram is histogram of whole numbers given as counts (value →
// how many), with binsFor's number of bins: the same plot as histogram
// of the values one by one.
func countHistogram(title, xlabel string, counts map[int]int) (*plot.Plot, error) {
	if len(counts) == 0 {
		return nil, errors.New("no values")
	}
	lo, hi, n := math.Inf(1), math.Inf(-1), 0
	for v, k := range counts {
		lo, hi, n = math.Min(lo, float64(v)), math.Max(hi, float64(v)), n+k
	}
	bins := binCount(n, lo, hi)
	p := newPlot(title, xlabel, "games")
	// NewHist of the extremes gives the styles; the bins are counted here.
	h, err := plotter.NewHist(plotter.Values{lo, hi}, bins)
	if err != nil {
		return nil, err
	}
	h.Bins = wholeBinsOf(lo, hi, bins, func(add func(v float64, k int)) {
		for v, k := range counts {
			add(float64(v), k)
		}
	})
	h.Width = h.Bins[0].Max - h.Bins[0].Min
	styleHist(h)
	p.Add(h)
	return p, nil
}

func styleHist(h *plotter.Histogram) {
	h.FillColor = colFirst
	h.LineStyle.Color = color.White
	h.LineStyle.Width = vg.Points(0.5)
}

// wholeBins counts whole numbers in at most bins bins of a whole width,
// each centred on whole numbers: [lo−½, lo−½+w), …
func wholeBins(values []float64, bins int) []plotter.HistogramBin {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return wholeBinsOf(lo, hi, bins, func(add func(v float64, k int)) {
		for _, v := range values {
			add(v, 1)
		}
	})
}

// wholeBinsOf is wholeBins of the values from lo to hi that each calls
// add with, k times each.
func wholeBinsOf(lo, hi float64, bins int, each func(add func(v float64, k int))) []plotter.HistogramBin {
	w := math.Ceil((hi - lo + 1) / float64(bins))
	out := make([]plotter.HistogramBin, int(math.Ceil((hi-lo+1)/w)))
	for k := range out {
		out[k].Min = lo - 0.5 + float64(k)*w
		out[k].Max = out[k].Min + w
	}
	each(func(v float64, k int) { out[int((v-lo)/w)].Weight += float64(k) })
	return out
}

// whole reports whether every value is a whole number.
func whole(values []float64) bool {
	for _, v := range values {
		if v != math.Trunc(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return len(values) > 0
}

// binsFor picks a histogram's number of bins: about √n, one per distinct
// integer value when the values span fewer, and at most 40.
func binsFor(values []float64) int {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return binCount(len(values), lo, hi)
}

// binCount is binsFor of n values from lo to hi.
func binCount(n int, lo, hi float64) int {
	span := int(hi-lo) + 1
	b := int(math.Ceil(math.Sqrt(float64(n))))
	return max(1, min(b, span, 40))
}

// llrPlot draws the SPRT's log-likelihood ratio (llr[i]: after pair i+1)
// against the games counted, with the acceptance bounds as dashed lines.
func llrPlot(llr []float64, lower, upper float64) (*plot.Plot, error) {
	pts := make([]llrPoint, len(llr))
	for i, v := range llr {
		pts[i] = llrPoint{i + 1, v}
	}
	return llrPointsPlot(pts, lower, upper)
}

// llrPointsPlot is llrPlot of the LLR after some of the pairs (the last
// pair's last), such as an llrTrace's.
func llrPointsPlot(pts []llrPoint, lower, upper float64) (*plot.Plot, error) {
	p := newPlot(fmt.Sprintf("SPRT log-likelihood ratio after each game pair (dashed: the bounds %.2f and %.2f)", lower, upper), "games", "LLR")
	xys := make(plotter.XYs, len(pts)+1) // from (0, 0)
	for i, v := range pts {
		xys[i+1] = plotter.XY{X: float64(2 * v.pair), Y: v.llr}
	}
	line, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	line.LineStyle.Color, line.LineStyle.Width = colFirst, vg.Points(1.5)
	p.Add(plotter.NewGrid(), line)
	pairs := 1
	if len(pts) > 0 {
		pairs = max(pts[len(pts)-1].pair, 1)
	}
	end := float64(2 * pairs)
	for _, b := range []float64{lower, upper} {
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: b}, {X: end, Y: b}})
		if err != nil {
			return nil, err
		}
		l.LineStyle.Color, l.LineStyle.Width = colBound, vg.Points(1)
		l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
	}
	p.Y.Min = math.Min(p.Y.Min, lower*1.1)
	p.Y.Max = math.Max(p.Y.Max, upper*1.1)
	return p, nil
}

// boxPlot draws one box (quartiles, whiskers, outliers) per category; a
// category without values gets no box.
// The values are drawn on a log scale (times span orders of magnitude),
// each at least floor.
func boxPlot(title, ylabel string, cats []string, values [][]float64, floor float64) (*plot.Plot, error) {
	counts := make([]*valueCounts, len(values))
	for i, vs := range values {
		counts[i] = &valueCounts{}
		for _, v := range vs {
			counts[i].add(v)
		}
	}
	return boxPlotCounts(title, ylabel, cats, counts, floor)
}

// boxPlotCounts is boxPlot of values given by their counts: the same
// quartiles, whiskers and extremes as gonum's box of the values one by
// one (order statistics), and each distinct outlier drawn once (the
// repeats would be drawn on top of it).
func boxPlotCounts(title, ylabel string, cats []string, values []*valueCounts, floor float64) (*plot.Plot, error) {
	p := newPlot(title, "", ylabel)
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	for i, vc := range values {
		if vc == nil || vc.n == 0 {
			continue
		}
		xs, ks := vc.sorted(floor)
		b, err := plotter.NewBoxPlot(vg.Points(30), float64(i), plotter.Values{xs[0]})
		if err != nil {
			return nil, err
		}
		setFiveStats(b, xs, ks)
		b.FillColor = colFirst
		b.MedianStyle.Color = color.White
		p.Add(b)
	}
	if p.Y.Min >= p.Y.Max {
		// All values equal: gonum would widen the range by ±1, below zero,
		// which a log scale cannot show (it panics). A decade each side.
		p.Y.Min, p.Y.Max = math.Max(p.Y.Min, floor)/10, math.Max(p.Y.Max, floor)*10
	}
	p.NominalX(cats...)
	if len(cats) > 4 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	}
	return p, nil
}

// setFiveStats sets b's statistics as plotter.NewBoxPlot computes them
// from the sorted values, given as the distinct values xs (increasing)
// each ks times; b's Values become the distinct outliers.
func setFiveStats(b *plotter.BoxPlot, xs []float64, ks []int) {
	n := 0
	for _, k := range ks {
		n += k
	}
	// at is the value at index i of the sorted values.
	at := func(i int) float64 {
		for j, k := range ks {
			if i < k {
				return xs[j]
			}
			i -= k
		}
		return xs[len(xs)-1]
	}
	// median of the sorted values from index lo, count of them (as
	// gonum's median of a slice).
	median := func(lo, count int) float64 {
		if count == 1 {
			return at(lo)
		}
		m := at(lo + count/2)
		if count%2 == 0 {
			m += at(lo + count/2 - 1)
			m /= 2
		}
		return m
	}
	if n == 1 {
		b.Median, b.Quartile1, b.Quartile3 = xs[0], xs[0], xs[0]
	} else {
		b.Median = median(0, n)
		b.Quartile1 = median(0, n/2)
		b.Quartile3 = median(n/2, n-n/2)
	}
	b.Min, b.Max = xs[0], xs[len(xs)-1]
	low := b.Quartile1 - 1.5*(b.Quartile3-b.Quartile1)
	high := b.Quartile3 + 1.5*(b.Quartile3-b.Quartile1)
	b.AdjLow, b.AdjHigh = math.Inf(1), math.Inf(-1)
	b.Values, b.Outside = nil, nil
	for _, v := range xs {
		if v > high || v < low {
			b.Outside = append(b.Outside, len(b.Values))
			b.Values = append(b.Values, v)
			continue
		}
		b.AdjLow, b.AdjHigh = math.Min(b.AdjLow, v), math.Max(b.AdjHigh, v)
	}
}

// lineColours are the colours of the lines of several players: the marks'
// colours first, then more that nothing else uses.
var lineColours = []color.RGBA{colFirst, colSecond, colThird,
	{0x2C, 0xA0, 0x2C, 0xFF}, {0x94, 0x67, 0xBD, 0xFF}, {0x8C, 0x56, 0x4B, 0xFF},
	{0xE3, 0x77, 0xC2, 0xFF}, {0xBC, 0xBD, 0x22, 0xFF}, {0x17, 0xBE, 0xCF, 0xFF}}

// linesPlot draws one line per named series at x = 1, 2, …; NaN values
// are left out, and a series of NaN only gets no line.
func linesPlot(title, xlabel, ylabel string, names []string, ys [][]float64) (*plot.Plot, error) {
	p := newPlot(title, xlabel, ylabel)
	p.Add(plotter.NewGrid())
	for k, name := range names {
		var xys plotter.XYs
		for i, y := range ys[k] {
			if !math.IsNaN(y) {
				xys = append(xys, plotter.XY{X: float64(i + 1), Y: y})
			}
		}
		if len(xys) == 0 {
			continue
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		l.LineStyle.Color, l.LineStyle.Width = lineColours[k%len(lineColours)], vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(name, l)
	}
	p.Legend.Left = true // bottom left: clocks run down from the top left
	p.Y.Min = math.Min(p.Y.Min, 0)
	return p, nil
}

// eloExtent is the range an Elo plot shows: the finite values among the
// ratings and their bounds, padded by a tenth (at least 10 Elo) on each
// side, so that an open bound can be drawn to just beyond it; −100 to 100
// when nothing is finite.
func eloExtent(elo, low, high []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, vs := range [][]float64{elo, low, high} {
		for _, v := range vs {
			if !math.IsInf(v, 0) && !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo > hi {
		lo, hi = -100, 100
	}
	pad := math.Max((hi-lo)*0.1, 10)
	return lo - pad, hi + pad
}

// raceLLRPlot draws each race candidate's LLR after each of its counted
// pairs (traces[k], as llrTrace's), one coloured line per candidate, with
// a point where it qualified, went out or was eliminated (left[k], a
// stage; 0 while it plays), and the candidates' bounds as dashed lines.
func raceLLRPlot(names []string, traces [][]llrPoint, left []int, lower, upper float64) (*plot.Plot, error) {
	p := newPlot(fmt.Sprintf("Race: each candidate's LLR after each game pair (dashed: the bounds %.2f and %.2f)", lower, upper), "game pairs per candidate", "LLR")
	p.Add(plotter.NewGrid())
	end := 1
	for k, pts := range traces {
		xys := make(plotter.XYs, len(pts)+1) // from (0, 0)
		for i, v := range pts {
			xys[i+1] = plotter.XY{X: float64(v.pair), Y: v.llr}
		}
		colour := lineColours[k%len(lineColours)]
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		l.LineStyle.Color, l.LineStyle.Width = colour, vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(names[k], l)
		if n := len(pts); n > 0 {
			end = max(end, pts[n-1].pair)
		}
		// The point where it left (a qualified one plays on), when drawn.
		if at := slices.IndexFunc(pts, func(v llrPoint) bool { return v.pair == left[k] }); left[k] > 0 && at >= 0 {
			s, err := plotter.NewScatter(plotter.XYs{xys[at+1]})
			if err != nil {
				return nil, err
			}
			s.GlyphStyle = draw.GlyphStyle{Color: colour, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
			p.Add(s)
		}
	}
	for _, b := range []float64{lower, upper} {
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: b}, {X: float64(end), Y: b}})
		if err != nil {
			return nil, err
		}
		l.LineStyle.Color, l.LineStyle.Width = colBound, vg.Points(1)
		l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
	}
	p.Legend.Left = true
	p.Y.Min = math.Min(p.Y.Min, lower*1.1)
	p.Y.Max = math.Max(p.Y.Max, upper*1.1)
	return p, nil
}
