package report

import (
	"context"
	"fmt"
	"html/template"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/search/accuracy"
)

// The section against perfect play (Collector.ScoreAccuracy): each game
// is scored by search/accuracy as the Collector counts it (its values
// from the cache the caller gives, which `arena accuracy` fills, else
// solved within the budget), summed up per player and phase; the games
// the viewer takes are scored with the value of every legal move, which
// the viewer shows at each analysed ply. Only the sums and the viewer's
// games are kept.

// accuracyFigures scores the games a Collector is given.
type accuracyFigures struct {
	o           accuracy.Options
	played, all *accuracy.Analyser // made at the first game, of its spec
	sum         *accuracy.Summary
	failed      int              // games that could not be scored
	firstErr    string           // why the first of them could not
	fixed       *accuracy.Report // a snapshot's sums (see snapshot)
}

// ScoreAccuracy makes c score every game it is given against perfect play
// with o (o.Cache: the values of `arena accuracy`; o.Progress is not
// used), for the page's "against perfect play" section and the viewer's
// values. Call it before the first Add.
func (c *Collector) ScoreAccuracy(o accuracy.Options) {
	c.mu.Lock()
	defer c.mu.Unlock()
	o.Progress, o.AllMoves = nil, false
	c.acc = &accuracyFigures{o: o}
	if c.viewer != nil {
		c.viewer.acc = c.acc
	}
}

// score scores g (with every legal move's value when all) and adds it to
// the sums; it returns the viewer's data of g's analysed plies (see
// viewerGame.Acc), nil when it could not be scored.
func (f *accuracyFigures) score(g *results.GameRecord, all bool) map[int][]any {
	if f.played == nil && f.firstErr == "" {
		var err error
		if f.played, err = accuracy.NewAnalyser(g.GameSpec(), f.o); err == nil {
			o := f.o
			o.AllMoves = true
			f.all, err = accuracy.NewAnalyser(g.GameSpec(), o)
			f.sum = f.played.NewSummary()
		}
		if err != nil {
			f.played = nil
			f.failed, f.firstErr = 1, err.Error()
			return nil
		}
	}
	if f.played == nil {
		f.failed++
		return nil
	}
	a := f.played
	if all {
		a = f.all
	}
	sc, err := a.Game(context.Background(), g)
	if err != nil {
		if f.failed == 0 {
			f.firstErr = err.Error()
		}
		f.failed++
		return nil
	}
	f.sum.Add(sc)
	if !all {
		return nil
	}
	out := map[int][]any{}
	for _, p := range sc.Plies {
		if !p.Known {
			continue
		}
		moves := make([][]any, 0, len(p.Moves))
		for _, m := range p.Moves {
			var v any // null: not settled
			if m.Known {
				v = m.Value
			}
			moves = append(moves, []any{m.Move, v, b01(m.Best)})
		}
		out[p.Ply] = []any{p.Loss, p.Before, p.After, b01(p.Blunder), moves}
	}
	return out
}

func b01(b bool) int {
	if b {
		return 1
	}
	return 0
}

// accuracySection is the page's "against perfect play" section.
type accuracySection struct {
	Rep      *accuracy.Report
	Rows     []accuracyRow
	Worst    []accuracy.WorstMove
	Plot     template.HTML
	Failed   int
	FirstErr string
}

type accuracyRow struct {
	Name                       string
	Moves, Analysed, Unknown   int
	MeanLoss, Interval         string
	Blunders                   int
	BlunderRate, BlunderSpread string
}

// report sums the games scored so far up, and draws the mean loss by phase.
func (f *accuracyFigures) section(r *renderer, plots *[]string) (*accuracySection, error) {
	s := &accuracySection{Failed: f.failed, FirstErr: f.firstErr}
	rep := f.fixed
	if rep == nil && f.sum != nil {
		rep = f.sum.Report()
	}
	if rep == nil || rep.Game == "" {
		return s, nil
	}
	s.Rep, s.Worst = rep, rep.Worst
	for _, p := range rep.Players {
		row := accuracyRow{Name: p.Name, Moves: p.Moves, Analysed: p.MovesAnalysed, Unknown: p.Unknown, Blunders: p.Blunders,
			MeanLoss: "–", BlunderRate: "–"}
		if p.MovesAnalysed > 0 {
			row.MeanLoss, row.BlunderRate = fmt.Sprintf("%.2f", p.MeanLoss), fmt.Sprintf("%.1f %%", 100*p.BlunderRate)
			if rep.Bootstrap > 0 {
				row.Interval = fmt.Sprintf("%.2f to %.2f", p.MeanLossLo, p.MeanLossHi)
				row.BlunderSpread = fmt.Sprintf("%.1f to %.1f %%", 100*p.BlunderRateLo, 100*p.BlunderRateHi)
			}
		}
		s.Rows = append(s.Rows, row)
	}
	p, err := lossPlot(rep)
	if err != nil {
		return nil, fmt.Errorf("plot accuracy: %w", err)
	}
	if p != nil {
		if s.Plot, err = r.render("accuracy", p, 0, 0); err != nil {
			return nil, err
		}
		*plots = append(*plots, "accuracy")
	}
	return s, nil
}

// lossPlot draws each player's mean loss per move by phase, the opening
// on the left, with its 95 % interval; nil when nothing was analysed.
func lossPlot(rep *accuracy.Report) (*plot.Plot, error) {
	// The phases, in the order of the game.
	var phases []int
	seen := map[int]bool{}
	for _, p := range rep.Players {
		for _, ph := range p.Phases {
			if !seen[ph.From] && ph.MovesAnalysed > 0 {
				seen[ph.From] = true
				phases = append(phases, ph.From)
			}
		}
	}
	if len(phases) == 0 {
		return nil, nil
	}
	for i := range phases { // insertion sort: a few phases
		for j := i; j > 0 && (rep.PhaseUnit == "empties") == (phases[j] > phases[j-1]); j-- {
			phases[j], phases[j-1] = phases[j-1], phases[j]
		}
	}
	at := map[int]int{}
	labels := make([]plot.Tick, len(phases))
	for i, from := range phases {
		at[from] = i
		to := from + rep.PhaseWidth - 1
		if rep.PhaseUnit == "empties" {
			to = from - rep.PhaseWidth + 1
		}
		labels[i] = plot.Tick{Value: float64(i), Label: fmt.Sprintf("%d-%d", from, to)}
	}
	p := newPlot("Mean value lost per move against perfect play, by phase (95 % intervals)", rep.PhaseUnit+" before the move", "value lost per move")
	p.Add(plotter.NewGrid())
	p.X.Tick.Marker = plot.ConstantTicks(labels)
	n := float64(len(rep.Players))
	for k, pl := range rep.Players {
		var xys plotter.XYs
		var errs plotter.YErrors
		shift := 0.0
		if n > 1 {
			shift = (float64(k)/(n-1) - 0.5) * 0.3 // the bars of one phase side by side
		}
		for _, ph := range pl.Phases {
			if ph.MovesAnalysed == 0 {
				continue
			}
			xys = append(xys, plotter.XY{X: float64(at[ph.From]) + shift, Y: ph.MeanLoss})
			lo, hi := 0.0, 0.0
			if rep.Bootstrap > 0 {
				lo, hi = math.Max(0, ph.MeanLoss-ph.MeanLossLo), math.Max(0, ph.MeanLossHi-ph.MeanLoss)
			}
			errs = append(errs, struct{ Low, High float64 }{lo, hi})
		}
		if len(xys) == 0 {
			continue
		}
		col := lineColours[k%len(lineColours)]
		l, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		l.LineStyle.Color, l.LineStyle.Width = col, vg.Points(1.5)
		pts.Color = col
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{xys, errs})
		if err != nil {
			return nil, err
		}
		bars.LineStyle.Color = col
		p.Add(l, pts, bars)
		p.Legend.Add(pl.Name, l, pts)
	}
	p.Y.Min = 0
	p.Legend.Top = true
	return p, nil
}

// snapshot is the figures summed up now, for a page written while games
// are still added.
func (f *accuracyFigures) snapshot() *accuracyFigures {
	s := &accuracyFigures{failed: f.failed, firstErr: f.firstErr, fixed: &accuracy.Report{}}
	if f.sum != nil {
		s.fixed = f.sum.Report()
	}
	return s
}
