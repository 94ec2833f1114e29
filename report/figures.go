package report

import (
	"fmt"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figures for files outside a report (a tune's parameter paths, a sweep's
// Elo curve) are drawn by the same plot functions in the report's style,
// and written as standalone SVG documents.

// writeFigure writes p as a standalone SVG document of the report's plot
// size.
func writeFigure(w io.Writer, p *plot.Plot) error {
	c := vgsvg.New(plotWidth, plotHeight)
	p.Draw(withMargin(draw.New(c)))
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("plot %q: %w", p.Title.Text, err)
	}
	return nil
}

// WriteLinesSVG draws one line per named series, ys[k][i] at x = i+1
// (NaN values left out), as a standalone SVG document.
func WriteLinesSVG(w io.Writer, title, xlabel, ylabel string, names []string, ys [][]float64) error {
	p, err := linesPlot(title, xlabel, ylabel, names, ys)
	if err != nil {
		return err
	}
	return writeFigure(w, p)
}
