package report

import (
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/boardgame-arena/arena/results"
)

// The meta-game section: Nash averaging and α-Rank as the ratings
// computed them (results.Analysis.MetaGame, from the same pair counts as
// the Elo fit: never from games held for the page), drawn as two plots
// of masses with their intervals, the payoff matrix as a coloured table
// and the most probable cycles as small graphs.

// metaTemplate is the section, which the page includes when the ratings
// have a meta-game.
var metaTemplate = template.Must(pageTemplate.New("metagame").Parse(`<section id="metagame">
<h2>Meta-game: Nash averaging and α-Rank</h2>
<p>The pool as a game whose moves are the players, paid each pair's score share minus ½ (both colours, a draw half a point). Nash averaging: the maximum-entropy Nash mixture and each player's expected score against it; α-Rank: the stationary distribution of the evolutionary dynamic (population {{.Population}}, α = {{.Alpha}}, {{.AlphaHow}}){{if .Replicates}}; {{printf "%g" (mul100 .Level)}} % intervals from {{.Replicates}} bootstrap resamples{{end}}. How to read them, and when they disagree with Elo: the ratings documentation (docs/ratings.md).</p>
{{if .Excluded}}<p class="note" id="metagame-excluded">Left out (some pairing of theirs never met): {{join .Excluded}}.</p>
{{end}}<table class="sortable" id="metagame-table">
<thead><tr><th class="name">Player</th><th>Nash %</th><th>interval</th><th>Nash score %</th><th>interval</th><th>α-Rank %</th><th>interval</th></tr></thead>
<tbody>
{{range .Rows}}<tr data-player="{{.Name}}" data-nash="{{.NashRaw}}" data-nash-score="{{.ScoreRaw}}" data-alpharank="{{.RankRaw}}"><td class="name">{{.Name}}</td><td>{{.Nash}}</td><td>{{if $.Replicates}}{{.NashLow}}–{{.NashHigh}}{{end}}</td><td>{{.Score}}</td><td>{{if $.Replicates}}{{.ScoreLow}}–{{.ScoreHi}}{{end}}</td><td>{{.Alpha}}</td><td>{{if $.Replicates}}{{.AlphaLow}}–{{.AlphaHi}}{{end}}</td></tr>
{{end}}</tbody>
</table>
{{.NashPlot}}{{.AlphaPlot}}
<h3>Payoffs</h3>
<table id="payoff-table">
<thead><tr><th class="name">Player</th>{{range .Players}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{range .Payoff}}<tr data-player="{{.Name}}"><td class="name">{{.Name}}</td>{{range .Cells}}{{if .Self}}<td class="self"></td>{{else}}<td data-payoff="{{.Raw}}" style="{{.Style}}">{{.Value}}</td>{{end}}{{end}}</tr>
{{end}}</tbody>
</table>
<p class="note">The row player's score share against the column player minus ½, in percentage points (red −50, white 0, green +50, as the score matrix's colours).</p>
<h3>Cycles</h3>
{{if .Cycles}}<ul id="cycle-list">
{{range .Cycles}}<li data-probability="{{.Probability}}">{{index .Players 0}} beat {{index .Players 1}} ({{index .Edges 0}}), {{index .Players 1}} beat {{index .Players 2}} ({{index .Edges 1}}), {{index .Players 2}} beat {{index .Players 0}} ({{index .Edges 2}}): the cycle holds with probability {{.Probability}}</li>
{{end}}</ul>
<p class="note">An edge's p is the probability that the first player's expected score against the second is over ½ (a Beta posterior on their games), beside the score observed; a cycle's probability is their product. A real cycle has every edge near 1; in the graphs an edge below 0.95 is dashed.</p>
<div id="cycle-graphs">{{range .Cycles}}<div style="display:inline-block;width:49%;max-width:380px;vertical-align:top">{{.Plot}}</div>{{end}}</div>
{{else}}<p id="cycle-list">No cycles: no three players who all met beat each other round in a circle.</p>
{{end}}</section>
`))

// metaSection is what the template shows of the meta-game.
type metaSection struct {
	Population int
	Alpha      string
	AlphaHow   string
	Replicates int
	Level      float64
	Rows       []metaRow // in the standings' order
	Excluded   []string
	Players    []string // the payoff matrix's order
	Payoff     []payoffRow
	Cycles     []cycleSection
	NashPlot   template.HTML
	AlphaPlot  template.HTML
}

type metaRow struct {
	Name                       string
	Nash, NashLow, NashHigh    string // % with one decimal
	Score, ScoreLow, ScoreHi   string
	Alpha, AlphaLow, AlphaHi   string
	NashRaw, ScoreRaw, RankRaw string // full precision, shares (0 to 1)
}

type payoffRow struct {
	Name  string
	Cells []payoffCell
}

type payoffCell struct {
	Self  bool
	Value string       // score − ½, in percentage points, signed
	Raw   string       // full precision
	Style template.CSS // the heat maps' colour of the score
}

type cycleSection struct {
	Players     [3]string
	Edges       [3]string // "0.98 (63.0 %)"
	Probability string
	Plot        template.HTML
}

// metaSectionOf builds the section of rep's meta-game, rendering its plots
// through r and listing their names in *plots, in page order.
func metaSectionOf(rep *results.Analysis, r *renderer, plots *[]string) (*metaSection, error) {
	mg := rep.MetaGame
	s := &metaSection{Population: mg.Population, Alpha: strconv.FormatFloat(mg.Alpha, 'g', 4, 64),
		Replicates: mg.Replicates, Level: rep.Level, Excluded: mg.Excluded, Players: mg.Players}
	switch {
	case !mg.AlphaSwept:
		s.AlphaHow = "given"
	case mg.AlphaConverged:
		s.AlphaHow = "swept until the distribution stopped changing"
	default:
		s.AlphaHow = "swept: the largest numerically safe, the distribution still changing"
	}
	render := func(name string, p *plot.Plot, err error, w, h vg.Length) (template.HTML, error) {
		if err != nil {
			return "", fmt.Errorf("plot %s: %w", name, err)
		}
		svg, err := r.render(name, p, w, h)
		if err == nil {
			*plots = append(*plots, name)
		}
		return svg, err
	}
	pc := func(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) }
	var names []string
	var nash, nashLo, nashHi, rank, rankLo, rankHi []float64
	for _, p := range rep.Players {
		m := p.MetaRow
		if m == nil {
			continue
		}
		s.Rows = append(s.Rows, metaRow{Name: p.Name,
			Nash: pc(m.NashMass), NashLow: pc(m.NashMassLow), NashHigh: pc(m.NashMassHigh),
			Score: pc(m.NashScore), ScoreLow: pc(m.NashScoreLow), ScoreHi: pc(m.NashScoreHigh),
			Alpha: pc(m.AlphaRankMass), AlphaLow: pc(m.AlphaRankMassLow), AlphaHi: pc(m.AlphaRankMassHigh),
			NashRaw: raw(m.NashMass), ScoreRaw: raw(m.NashScore), RankRaw: raw(m.AlphaRankMass)})
		names = append(names, p.Name)
		nash, nashLo, nashHi = append(nash, m.NashMass), append(nashLo, m.NashMassLow), append(nashHi, m.NashMassHigh)
		rank, rankLo, rankHi = append(rank, m.AlphaRankMass), append(rankLo, m.AlphaRankMassLow), append(rankHi, m.AlphaRankMassHigh)
	}
	for i, name := range mg.Players {
		row := payoffRow{Name: name}
		for j, v := range mg.Payoff[i] {
			if i == j {
				row.Cells = append(row.Cells, payoffCell{Self: true})
				continue
			}
			c := color.RGBAModel.Convert(heatColour(v + 0.5)).(color.RGBA)
			row.Cells = append(row.Cells, payoffCell{
				Value: fmt.Sprintf("%+.1f", 100*v), Raw: raw(v),
				Style: template.CSS(fmt.Sprintf("background:#%02X%02X%02X", c.R, c.G, c.B)),
			})
		}
		s.Payoff = append(s.Payoff, row)
	}
	if len(names) > 0 {
		h := max(plotHeight/2, rowHeight*vg.Length(len(names))+3*vg.Centimeter)
		bars := mg.Replicates > 0
		var err error
		p, perr := massPlot(s.massTitle("Nash averaging: the maximum-entropy Nash mixture"), names, nash, nashLo, nashHi, bars)
		if s.NashPlot, err = render("nash", p, perr, 0, h); err != nil {
			return nil, err
		}
		p, perr = massPlot(s.massTitle("α-Rank: the stationary distribution"), names, rank, rankLo, rankHi, bars)
		if s.AlphaPlot, err = render("alpharank", p, perr, 0, h); err != nil {
			return nil, err
		}
	}
	for k, c := range mg.Cycles {
		cs := cycleSection{Players: c.Players, Probability: strconv.FormatFloat(c.Probability, 'f', 2, 64)}
		for e := range cs.Edges {
			cs.Edges[e] = edgeLabel(c, e)
		}
		p, err := cycleGraph(k+1, c)
		if cs.Plot, err = render(fmt.Sprintf("cycle-%d", k+1), p, err, cycleWidth, cycleHeight); err != nil {
			return nil, err
		}
		s.Cycles = append(s.Cycles, cs)
	}
	return s, nil
}

// massTitle is a mass plot's title, with its intervals when there are.
func (s *metaSection) massTitle(what string) string {
	if s.Replicates == 0 {
		return what + " (%)"
	}
	return fmt.Sprintf("%s (%%) with %g %% intervals", what, 100*s.Level)
}

// massPlot draws each player's share (0 to 1, drawn in %) as a point and,
// with bars, its interval [low, high] as a horizontal bar, the first
// player at the top: ratingPlot's look on a fixed 0–100 % axis.
func massPlot(title string, names []string, v, low, high []float64, bars bool) (*plot.Plot, error) {
	n := len(names)
	p := newPlot(title, "%", "")
	ib := &intervalBars{lo: 0, hi: 100}
	ticks := make([]plot.Tick, n)
	for i := range n {
		y := float64(n - 1 - i)
		ib.add(y, 100*v[i], 100*low[i], 100*high[i])
		ticks[i] = plot.Tick{Value: y, Label: names[i]}
	}
	pts, err := plotter.NewScatter(ib.at)
	if err != nil {
		return nil, err
	}
	pts.GlyphStyle = draw.GlyphStyle{Color: colFirst, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
	p.Add(plotter.NewGrid())
	if bars {
		p.Add(ib)
	}
	p.Add(pts)
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	p.X.Min, p.X.Max = 0, 100
	return p, nil
}

// The size of a cycle's graph.
const (
	cycleWidth  = 8 * vg.Centimeter
	cycleHeight = 7 * vg.Centimeter
)

// colCycle is the colour of a cycle graph's edges and arrowheads.
var colCycle = color.RGBA{0x6A, 0x3D, 0x9A, 0xFF}

// cycleGraph draws a cycle as three players on a triangle joined by
// directed edges, each labelled with the probability that it holds and
// the observed score; an edge whose probability, to the two decimals
// shown, is under 0.95 is dashed.
func cycleGraph(k int, c results.CycleRow) (*plot.Plot, error) {
	p := newPlot(fmt.Sprintf("Cycle %d: probability %.2f", k, c.Probability), "", "")
	p.HideAxes()
	p.Add(&cycleDrawing{c: c})
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -1.45, 1.45, -0.95, 1.35
	return p, nil
}

// cycleDrawing is the plotter of cycleGraph.
type cycleDrawing struct{ c results.CycleRow }

// cycleNodes are the three players' places: the first at the top, the
// others clockwise, so the edges run clockwise.
var cycleNodes = [3]plotter.XY{{X: 0, Y: 1}, {X: math.Sqrt(3) / 2, Y: -0.5}, {X: -math.Sqrt(3) / 2, Y: -0.5}}

// Plot draws the nodes (filled colFirst), the edges and arrowheads
// (colCycle) and the labels.
func (d *cycleDrawing) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	at := func(xy plotter.XY) vg.Point { return vg.Point{X: trX(xy.X), Y: trY(xy.Y)} }
	radius := vg.Points(7)
	label := text.Style{Color: color.Black, Font: plot.DefaultFont, Handler: plot.DefaultTextHandler}
	label.Font.Size = vg.Points(9)
	for e := range 3 {
		from, to := at(cycleNodes[e]), at(cycleNodes[(e+1)%3])
		dir := to.Sub(from)
		length := vg.Length(math.Hypot(float64(dir.X), float64(dir.Y)))
		u := dir.Scale(1 / length)
		a, b := from.Add(u.Scale(radius+vg.Points(2))), to.Add(u.Scale(-radius-vg.Points(2)))
		sty := draw.LineStyle{Color: colCycle, Width: vg.Points(1.5)}
		if math.Round(100*d.c.EdgeProbabilities[e]) < 95 { // as labelled: "p 0.95" is solid
			sty.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		head := vg.Points(8)
		across := vg.Point{X: -u.Y, Y: u.X}
		c.StrokeLine2(sty, a.X, a.Y, b.Add(u.Scale(-head/2)).X, b.Add(u.Scale(-head/2)).Y)
		c.FillPolygon(colCycle, []vg.Point{b, b.Add(u.Scale(-head)).Add(across.Scale(head / 2)), b.Add(u.Scale(-head)).Add(across.Scale(-head / 2))})
		// The label outside the triangle, beside the edge's middle.
		mid := plotter.XY{X: (cycleNodes[e].X + cycleNodes[(e+1)%3].X) / 2, Y: (cycleNodes[e].Y + cycleNodes[(e+1)%3].Y) / 2}
		out := at(plotter.XY{X: mid.X * 1.35, Y: mid.Y * 1.35})
		ls := label
		ls.XAlign, ls.YAlign = draw.XCenter, draw.YCenter
		if mid.X > 0.01 {
			ls.XAlign = draw.XLeft
		} else if mid.X < -0.01 {
			ls.XAlign = draw.XRight
		}
		c.FillText(ls, out, edgeLabel(d.c, e))
	}
	for k, xy := range cycleNodes {
		pt := at(xy)
		c.FillPolygon(colFirst, circle(pt, radius))
		ls := label
		ls.XAlign = draw.XCenter
		ls.Font.Size = vg.Points(10)
		if xy.Y > 0 {
			ls.YAlign = draw.YBottom
			pt.Y += radius + vg.Points(3)
		} else {
			ls.YAlign = draw.YTop
			pt.Y -= radius + vg.Points(3)
		}
		c.FillText(ls, pt, d.c.Players[k])
	}
}

// edgeLabel is the probability that edge e of c holds and its score.
func edgeLabel(c results.CycleRow, e int) string {
	return fmt.Sprintf("p %.2f, %.1f %%", c.EdgeProbabilities[e], 100*c.Scores[e])
}

// circle is a polygon close enough to a circle of radius r about pt.
func circle(pt vg.Point, r vg.Length) []vg.Point {
	const sides = 24
	out := make([]vg.Point, sides)
	for i := range out {
		a := 2 * math.Pi * float64(i) / sides
		out[i] = vg.Point{X: pt.X + r*vg.Length(math.Cos(a)), Y: pt.Y + r*vg.Length(math.Sin(a))}
	}
	return out
}

// DataRange is the drawing's fixed frame (cycleGraph sets the axes).
func (d *cycleDrawing) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -1.45, 1.45, -0.95, 1.35
}
