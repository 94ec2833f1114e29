package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// WriteCurveSVG draws a parameter's Elo curve (arena tune sweep) as a
// standalone SVG document: one point per value at its Elo, with a
// vertical bar from low to high (the interval of the given level, e.g.
// 0.95), joined by a line in the order given. When every value is a
// finite number the x axis is numeric (logarithmic when all are positive
// and span a factor of 8 or more, as budgets such as iters do); otherwise
// the values are categories in the order given. An open bound (±Inf) is
// drawn to just beyond the finite data and ends in an arrowhead, not a
// cap (see intervalBars); a NaN Elo leaves the value out.
func WriteCurveSVG(w io.Writer, param string, values []string, elo, low, high []float64, level float64) error {
	p, err := curvePlot(param, values, elo, low, high, level)
	if err != nil {
		return err
	}
	return writeFigure(w, p)
}

// curvePlot builds the figure of WriteCurveSVG.
func curvePlot(param string, values []string, elo, low, high []float64, level float64) (*plot.Plot, error) {
	n := len(values)
	if n == 0 || len(elo) != n || len(low) != n || len(high) != n {
		return nil, errors.New("curve: want one Elo, low and high bound per value")
	}
	xs, numeric := numericValues(values)
	logX := false
	if numeric {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, x := range xs {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		logX = lo > 0 && hi/lo >= 8
	} else {
		for i := range xs {
			xs[i] = float64(i)
		}
	}
	xlabel := param
	if logX {
		xlabel += " (log scale)"
	}
	p := newPlot(fmt.Sprintf("Elo against %s with %g %% intervals (an arrow: open on that side)", param, 100*level), xlabel, "Elo")
	// Open bounds are drawn to just beyond the finite extent.
	lo, hi := eloExtent(elo, low, high)
	bars := &intervalBars{vertical: true, lo: lo, hi: hi}
	ticks := make([]plot.Tick, 0, n)
	for i := range n {
		ticks = append(ticks, plot.Tick{Value: xs[i], Label: values[i]})
		y := elo[i]
		if math.IsNaN(y) || math.IsInf(y, 0) {
			continue // no rating for this value (no games)
		}
		bars.add(xs[i], y, low[i], high[i])
	}
	p.Add(plotter.NewGrid())
	if len(bars.at) > 0 {
		line, err := plotter.NewLine(bars.at)
		if err != nil {
			return nil, err
		}
		line.LineStyle.Color = colThird
		line.LineStyle.Width = vg.Points(1)
		pts, err := plotter.NewScatter(bars.at)
		if err != nil {
			return nil, err
		}
		pts.GlyphStyle = draw.GlyphStyle{Color: colFirst, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
		p.Add(line, bars, pts)
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = lo, hi
	xmin, xmax := xs[0], xs[0]
	for _, x := range xs {
		xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
	}
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Min, p.X.Max = xmin/math.Pow(xmax/xmin, 0.05), xmax*math.Pow(xmax/xmin, 0.05)
	} else {
		m := math.Max((xmax-xmin)*0.05, 0.5)
		if numeric && xmax > xmin {
			m = (xmax - xmin) * 0.05
		}
		p.X.Min, p.X.Max = xmin-m, xmax+m
	}
	return p, nil
}

// numericValues parses every value as a finite number; ok is false (and
// xs is zeroed) when one is not.
func numericValues(values []string) (xs []float64, ok bool) {
	xs = make([]float64, len(values))
	for i, v := range values {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return make([]float64, len(values)), false
		}
		xs[i] = x
	}
	return xs, true
}
