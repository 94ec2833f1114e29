package report

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// cycleGames is a pool of three players who beat each other round in a
// circle, a beats b and b beats c by wins of 9 games of 10, c beats a by
// 6 of 10 (an edge of probability under 0.95), and a fourth player, d,
// who lost every game to each of them.
func cycleGames() *results.Dataset {
	var gs []*results.GameRecord
	add := func(a, b string, wins, games int) {
		for k := range games {
			winner := 1 // b wins
			if k < wins {
				winner = 0
			}
			first, second := a, b
			if k%2 == 1 {
				first, second, winner = b, a, 1-winner
			}
			gs = append(gs, &results.GameRecord{Record: results.KindGame, Index: len(gs), Game: "othello6",
				Result: map[int]string{0: "1-0", 1: "0-1"}[winner], Winner: winner,
				Termination: results.Normal, Forfeit: -1, Players: [2]results.Player{{Name: first}, {Name: second}}})
		}
	}
	add("a", "b", 9, 10)
	add("b", "c", 9, 10)
	add("c", "a", 6, 10)
	for _, p := range []string{"a", "b", "c"} {
		add(p, "d", 6, 6)
	}
	return results.NewDataset("othello6", nil, gs)
}

// TestMetaGameSection: with the ratings' meta-game the page has its
// section (after the score matrix, in the nav), whose table, payoffs,
// plots and cycles are the Analysis's; without it, none of them.
func TestMetaGameSection(t *testing.T) {
	d := cycleGames()
	opt := Options{Rating: results.AnalysisOptions{Bootstrap: 60, Seed: 1, MetaGame: &results.MetaGameOptions{}}, NoViewer: true}
	var buf bytes.Buffer
	wr, err := Write(&buf, d, opt)
	if err != nil {
		t.Fatal(err)
	}
	root := parsePage(t, buf.String())
	rep, err := results.Analyse(d, opt.Rating)
	if err != nil {
		t.Fatal(err)
	}
	sec := root.byID("metagame")
	if sec == nil {
		t.Fatal("no meta-game section")
	}
	if !strings.Contains(root.find(func(n *node) bool { return n.name == "nav" })[0].allText(), "Meta-game") {
		t.Error("the nav has no link to the meta-game")
	}
	// Plots: the two masses after the score matrices, then one graph per cycle.
	want := []string{"nash", "alpharank"}
	for k := range rep.MetaGame.Cycles {
		want = append(want, "cycle-"+strconv.Itoa(k+1))
	}
	at := slices.Index(wr.Plots, "nash")
	if at < 0 || at+len(want) > len(wr.Plots) || !slices.Equal(wr.Plots[at:at+len(want)], want) || wr.Plots[at-1] != "los-matrix" {
		t.Errorf("plots %q, want %q after los-matrix", wr.Plots, want)
	}
	// The table: one row per player in the meta-game, the Analysis's values.
	rows := root.byID("metagame-table").find(func(n *node) bool { return n.name == "tr" && n.attr["data-player"] != "" })
	if len(rows) != 4 {
		t.Fatalf("%d meta-game rows, want 4", len(rows))
	}
	byName := map[string]*results.MetaRow{}
	for _, p := range rep.Players {
		byName[p.Name] = p.MetaRow
	}
	var nash, alpha float64
	for _, r := range rows {
		m := byName[r.attr["data-player"]]
		n, _ := strconv.ParseFloat(r.attr["data-nash"], 64)
		a, _ := strconv.ParseFloat(r.attr["data-alpharank"], 64)
		s, _ := strconv.ParseFloat(r.attr["data-nash-score"], 64)
		if m == nil || n != m.NashMass || a != m.AlphaRankMass || s != m.NashScore {
			t.Errorf("row %s: nash %v α-Rank %v score %v, want %+v", r.attr["data-player"], n, a, s, m)
		}
		nash, alpha = nash+n, alpha+a
	}
	if math.Abs(nash-1) > 1e-9 || math.Abs(alpha-1) > 1e-9 {
		t.Errorf("masses sum to %v (Nash) and %v (α-Rank)", nash, alpha)
	}
	if d := byName["d"]; d.NashMass > 1e-6 {
		t.Errorf("the dominated player d has Nash mass %v", d.NashMass)
	}
	// Payoffs: the matrix in the meta-game's order, antisymmetric.
	prows := root.byID("payoff-table").find(func(n *node) bool { return n.name == "tr" && n.attr["data-player"] != "" })
	if len(prows) != len(rep.MetaGame.Players) {
		t.Fatalf("%d payoff rows, want %d", len(prows), len(rep.MetaGame.Players))
	}
	for i, r := range prows {
		cells := r.find(func(n *node) bool { return n.name == "td" && n.attr["data-payoff"] != "" })
		if r.attr["data-player"] != rep.MetaGame.Players[i] || len(cells) != len(prows)-1 {
			t.Fatalf("payoff row %d: %s with %d cells", i, r.attr["data-player"], len(cells))
		}
		for k, c := range cells {
			j := k
			if k >= i {
				j++
			}
			if v, _ := strconv.ParseFloat(c.attr["data-payoff"], 64); v != rep.MetaGame.Payoff[i][j] || !strings.HasPrefix(c.attr["style"], "background:#") {
				t.Errorf("payoff %d,%d: %v (style %q), want %v", i, j, v, c.attr["style"], rep.MetaGame.Payoff[i][j])
			}
		}
	}
	// The cycle a > b > c > a is listed and drawn.
	items := root.byID("cycle-list").find(func(n *node) bool { return n.name == "li" })
	if len(items) != len(rep.MetaGame.Cycles) || len(items) != 1 {
		t.Fatalf("%d cycles listed, want the Analysis's %d (one)", len(items), len(rep.MetaGame.Cycles))
	}
	if got, want := items[0].attr["data-probability"], strconv.FormatFloat(rep.MetaGame.Cycles[0].Probability, 'f', 2, 64); got != want {
		t.Errorf("cycle probability %s, want %s", got, want)
	}
	if n := len(root.byID("cycle-graphs").find(func(n *node) bool { return n.name == "svg" })); n != 1 {
		t.Errorf("%d cycle graphs, want 1", n)
	}

	// Without the meta-game: no section, no link, no plots of it.
	opt.Rating.MetaGame = nil
	buf.Reset()
	wr, err = Write(&buf, d, opt)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `id="metagame"`) || strings.Contains(buf.String(), "#metagame") || slices.Contains(wr.Plots, "nash") {
		t.Error("a page without the meta-game shows it")
	}
}

// TestMetaGameWithoutBootstrap: with no resamples the masses are drawn
// without bars and the table without intervals.
func TestMetaGameWithoutBootstrap(t *testing.T) {
	opt := Options{Rating: results.AnalysisOptions{Bootstrap: 0, MetaGame: &results.MetaGameOptions{Alpha: 5}}, NoViewer: true}
	var buf bytes.Buffer
	if _, err := Write(&buf, cycleGames(), opt); err != nil {
		t.Fatal(err)
	}
	root := parsePage(t, buf.String())
	if !strings.Contains(root.byID("metagame").allText(), "α = 5, given") {
		t.Error("the section does not give α as given")
	}
	for _, r := range root.byID("metagame-table").find(func(n *node) bool { return n.name == "tr" && n.attr["data-player"] != "" }) {
		if strings.Contains(r.allText(), "–") {
			t.Errorf("row %q has an interval without resamples", r.allText())
		}
	}
}

// TestMassPlotMarkers: a point per player and, with bars, a capped
// interval each (masses are bounded: never an arrowhead); without, none.
func TestMassPlotMarkers(t *testing.T) {
	names := []string{"a", "b", "c"}
	v, lo, hi := []float64{0.5, 0.3, 0.2}, []float64{0.2, 0, 0}, []float64{0.8, 0.6, 1}
	for _, bars := range []bool{true, false} {
		p, err := massPlot("masses", names, v, lo, hi, bars)
		paths, texts := renderSVG(t, p, err)
		caps, arrows := strokeShapes(t, paths, false)
		if want := map[bool]int{true: 6, false: 0}[bars]; caps != want || arrows != 0 {
			t.Errorf("bars %v: %d caps and %d arrowheads, want %d and 0", bars, caps, arrows, want)
		}
		if got := count(paths, "fill", colFirst); got != len(names) {
			t.Errorf("bars %v: %d markers, want %d", bars, got, len(names))
		}
		for _, n := range names {
			if !containsText(texts, n) {
				t.Errorf("no label %q among %q", n, texts)
			}
		}
	}
}

// TestCycleGraph: three nodes, three arrowheads, an edge dashed exactly
// when its probability as labelled is under 0.95 (0.9496 is "p 0.95",
// solid), and each edge's label.
func TestCycleGraph(t *testing.T) {
	c := results.CycleRow{Players: [3]string{"rock", "paper", "scissors"}, Scores: [3]float64{0.7, 0.9, 0.55},
		EdgeProbabilities: [3]float64{0.9496, 0.999, 0.7}, Probability: 0.9496 * 0.999 * 0.7}
	p, err := cycleGraph(1, c)
	paths, texts := renderSVG(t, p, err)
	if n := count(paths, "fill", colFirst); n != 3 {
		t.Errorf("%d nodes, want 3", n)
	}
	if n := count(paths, "fill", colCycle); n != 3 {
		t.Errorf("%d arrowheads, want 3", n)
	}
	edges, dashed := 0, 0
	for _, q := range paths {
		if strings.Contains(q.style, "stroke:"+hex(colCycle)) {
			edges++
			if strings.Contains(q.style, "stroke-dasharray") {
				dashed++
			}
		}
	}
	if edges != 3 || dashed != 1 {
		t.Errorf("%d edges, %d dashed, want 3 and 1", edges, dashed)
	}
	for _, want := range []string{"Cycle 1: probability 0.66", "rock", "paper", "scissors", "p 0.95, 70.0 %", "p 1.00, 90.0 %", "p 0.70, 55.0 %"} {
		if !containsText(texts, want) {
			t.Errorf("no text %q among %q", want, texts)
		}
	}
}

// TestMetaGamePageIsDeterministic: the section's resamples depend on the
// seed alone, so pages made with one or several bootstrap workers are
// the same to the byte.
func TestMetaGamePageIsDeterministic(t *testing.T) {
	var pages [2]string
	for k, workers := range []int{1, 3} {
		var buf bytes.Buffer
		opt := Options{Rating: results.AnalysisOptions{Bootstrap: 40, Seed: 2, Workers: workers, MetaGame: &results.MetaGameOptions{}}, NoViewer: true}
		if _, err := Write(&buf, cycleGames(), opt); err != nil {
			t.Fatal(err)
		}
		pages[k] = buf.String()
	}
	if pages[0] != pages[1] {
		t.Error("the page with 1 bootstrap worker differs from the page with 3")
	}
	if !strings.Contains(pages[0], `id="metagame"`) {
		t.Error("no meta-game section")
	}
}

// TestMetaGameExcluded: players left out of the meta-game (some pairing
// of theirs never met) are named in the section and have no row there,
// while the standings keep them.
func TestMetaGameExcluded(t *testing.T) {
	d := gauntletGames() // g met x, y and z; x, y and z never met each other
	opt := Options{Rating: results.AnalysisOptions{Bootstrap: 20, Seed: 1, MetaGame: &results.MetaGameOptions{}}, NoViewer: true}
	var buf bytes.Buffer
	if _, err := Write(&buf, d, opt); err != nil {
		t.Fatal(err)
	}
	root := parsePage(t, buf.String())
	rep, err := results.Analyse(d, opt.Rating)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.MetaGame.Excluded) != 2 {
		t.Fatalf("the Analysis leaves out %q, want two of x, y, z", rep.MetaGame.Excluded)
	}
	ex := root.byID("metagame-excluded")
	if ex == nil || !strings.Contains(ex.allText(), strings.Join(rep.MetaGame.Excluded, ", ")) {
		t.Fatalf("the section does not name %q as left out", rep.MetaGame.Excluded)
	}
	rows := root.byID("metagame-table").find(func(n *node) bool { return n.name == "tr" && n.attr["data-player"] != "" })
	if len(rows) != 2 {
		t.Errorf("%d meta-game rows, want 2", len(rows))
	}
	for _, r := range rows {
		if slices.Contains(rep.MetaGame.Excluded, r.attr["data-player"]) {
			t.Errorf("%s is left out but has a row", r.attr["data-player"])
		}
	}
	if n := len(root.byID("standings-table").find(func(n *node) bool { return n.name == "tr" && n.attr["data-player"] != "" })); n != 4 {
		t.Errorf("%d standings rows, want 4", n)
	}
}
