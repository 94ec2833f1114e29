package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

// Options configure a report.
type Options struct {
	// Rating are the options of the ratings, as for arena rate.
	Rating results.AnalysisOptions
	// PNGDir, when not empty, is an existing directory that receives every
	// plot also as NAME.png.
	PNGDir string
	// Title heads the page; empty for "GAME: N games".
	Title string
	// Status is a line shown under the title, e.g. "live: 120 of 400
	// games"; Refresh, when positive, makes the browser reload the page
	// every Refresh seconds (a live report).
	Status  string
	Refresh int
	// Viewer configures the game viewer; NoViewer leaves it out.
	Viewer   ViewerOptions
	NoViewer bool
	// Command, when not nil, is the command line that plays the games of
	// a record of configuration c again (same seed, same openings), shown
	// with the record's configuration; CommandNote, HTML, adds how to use
	// it (such as how to keep the games it plays).
	Command     func(c results.Config) string
	CommandNote template.HTML
}

// Written lists what Write produced besides the page.
type Written struct {
	Plots []string // plot names, in page order
	PNGs  []string // PNG files written (with Options.PNGDir)
}

// Write renders the report of the games in d as one self-contained HTML
// page: inline SVG plots, the tables and the record headers. The ratings
// are results.Analyse's with opt.Rating, the same as arena rate's.
func Write(w io.Writer, d *results.Dataset, opt Options) (Written, error) {
	if d == nil || len(d.Games) == 0 {
		return Written{}, errNoGames
	}
	if err := checkPNGDir(opt.PNGDir); err != nil {
		return Written{}, err
	}
	rep, err := results.Analyse(d, opt.Rating)
	if err != nil {
		return Written{}, err
	}
	src := Source{Game: d.Game, Analysis: rep}
	if src.Games, err = NewCollector(opt.Viewer, opt.NoViewer); err != nil {
		return Written{}, err
	}
	if len(d.Files) == 0 {
		for _, g := range d.Games {
			src.Games.Add(-1, g)
		}
	}
	for k, f := range d.Files {
		src.Files = append(src.Files, FileHead{Path: f.Path, Header: f.Header, Resumes: len(f.Resumes)})
		src.Games.StartFile(k, &f.Header)
		for i := range f.Games {
			src.Games.Add(k, &f.Games[i])
		}
	}
	return WriteSource(w, src, opt)
}

// Source is what a page is made of without holding the games: their
// ratings, their record files' headers and their counts. Files counted
// one game at a time (a results.Tally that a Collector follows) make
// a page of a million games in the memory of a thousand.
type Source struct {
	Game     string
	Files    []FileHead        // in the order of the numbers Games.Add was given
	Analysis *results.Analysis // the ratings (opt.Rating is not used)
	Games    *Collector
}

// FileHead is what a page shows of a record file.
type FileHead struct {
	Path    string
	Header  results.Header
	Resumes int
}

var errNoGames = errors.New("no games to report: the record files hold a header but no finished game yet")

// WriteSource renders the report of src as Write does; the Collector may
// go on counting (a live run) while it is written.
func WriteSource(w io.Writer, src Source, opt Options) (Written, error) {
	if src.Games == nil || src.Analysis == nil || src.Games.Games() == 0 {
		return Written{}, errNoGames
	}
	if err := checkPNGDir(opt.PNGDir); err != nil {
		return Written{}, err
	}
	snap := src.Games.snapshot()
	r := &renderer{pngDir: opt.PNGDir}
	pg, err := build(&src, snap, opt, r)
	if err != nil {
		return Written{}, err
	}
	if snap.view != nil && !opt.NoViewer {
		var vb bytes.Buffer
		if err := writeViewerData(&vb, snap.view); err != nil {
			return Written{}, fmt.Errorf("game viewer: %w", err)
		}
		pg.Viewer = template.HTML(vb.String()) //nolint:gosec // writeViewerData escapes its data
	}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, pg); err != nil {
		return Written{}, err
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return Written{}, err
	}
	out := Written{PNGs: r.pngs}
	for _, s := range pg.plots {
		out.Plots = append(out.Plots, s)
	}
	return out, nil
}

func checkPNGDir(dir string) error {
	if dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return option.New("PNGDir", dir, "not an existing directory (create it first)")
		}
	}
	return nil
}

// WriteFile writes the report to path through a temporary file in its
// directory renamed over it, so that a reader (a browser watching a live
// run) sees the old page or the new one, never a part; a report that
// fails leaves the old page as it was. It returns what Write produced and
// the page's size. The page is readable by all (0644), for sharing.
func WriteFile(path string, d *results.Dataset, o Options) (Written, int64, error) {
	return writeFile(path, func(w io.Writer) (Written, error) { return Write(w, d, o) })
}

// WriteSourceFile is WriteFile of WriteSource.
func WriteSourceFile(path string, src Source, o Options) (Written, int64, error) {
	return writeFile(path, func(w io.Writer) (Written, error) { return WriteSource(w, src, o) })
}

func writeFile(path string, write func(io.Writer) (Written, error)) (Written, int64, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		// Name the page, not the temporary file the caller never asked for.
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return Written{}, 0, fmt.Errorf("report: cannot write %s in %s: %w", base, dir, err)
	}
	defer os.Remove(tmp.Name()) // after a failure; a no-op once renamed
	wr, err := write(tmp)
	if err != nil {
		tmp.Close()
		return wr, 0, err
	}
	st, err := tmp.Stat()
	if err == nil {
		err = tmp.Chmod(0o644) // CreateTemp makes it 0600
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return wr, 0, fmt.Errorf("report: writing %s: %w", path, err)
	}
	return wr, st.Size(), nil
}

// page is what the template shows.
type page struct {
	Title, Status string
	Refresh       int
	Game          string
	Games         int
	MeanPlies     float64
	Rep           *results.Analysis
	Standings     []standingRow
	Notes         []string
	RatingPlot    template.HTML
	ScorePlot     template.HTML
	LOSPlot       template.HTML
	Meta          *metaSection // with the ratings' meta-game
	Cross         crossTable
	Colours       []colourRow
	FirstPlayer   results.FirstPlayerStats
	FirstMoveElo  string
	ColourPlot    template.HTML
	Terminations  []terminationRow
	Forfeits      []forfeitRow
	MoreForfeits  int
	TermPlot      template.HTML
	LengthPlot    template.HTML
	Search        []searchRow
	TimePlot      template.HTML
	NodesPlot     template.HTML
	MoveTimePlot  template.HTML
	DepthPlot     template.HTML
	ClockPlot     template.HTML
	Matches       []matchSection
	Races         []raceSection
	Workers       []workerRow // broker workers, when a remote worker played
	WorkerZ       string      // the residual's 99 % level
	Configs       []configSection
	CommandNote   template.HTML    // Options.CommandNote
	Viewer        template.HTML    // the viewer's own section (writeViewer)
	Accuracy      *accuracySection // against perfect play (Collector.ScoreAccuracy)
	plots         []string
}

type standingRow struct {
	Rank                    int
	Name                    string
	Elo                     string // formatted
	Minus, Plus             string // the − and + columns: distances to the interval's ends (PlayerRow.Arms)
	EloRaw, LowRaw, HighRaw string // full precision, the bounds themselves, for machines (data-*)
	Games                   int
	Score, DrawRate         string
	Wins, Draws, Losses     int
	Forfeits, TimeLosses    int
}

type crossTable struct {
	Names []string
	Rows  []crossRow
}

type crossRow struct {
	Name  string
	Cells []crossCell
}

type crossCell struct {
	Self       bool
	Played     bool
	Score, WDL string
	LOS        string
}

type colourRow struct {
	Name              string
	AsFirst, AsSecond results.WDL
	First, Second     string // scores in %
}

type terminationRow struct {
	Reason string
	Games  int
	By     string // "a 3, b 1": who forfeited
}

type forfeitRow struct {
	Index          int
	Reason, Player string
	Detail         string
}

type searchRow struct {
	Name      string
	Moves     int
	MSPerMove string
	MaxMS     string
	Nodes     int64
	NodesMove string
	Depth     string // mean reported depth
}

type matchSection struct {
	File, First, Second string
	Penta               results.Penta
	Pairs, Games        int
	WDL                 results.WDL
	Score               string
	Elo, EloLow, EloHi  string
	NElo, NLow, NHigh   string
	LOS                 string
	SPRT                string
	LLR, Lower, Upper   string
	Decision            string
	Uncounted           int
	LLRPlot             template.HTML
}

// raceSection is a race's record (arena race): each candidate's pairs
// against the base counted stage by stage as the race did.
type raceSection struct {
	File, Base          string
	K                   int
	SPRT                string
	Alpha, Beta         string
	EachAlpha, EachBeta string // each candidate's test: α/K and β/2
	Lower, Upper        string
	Stage, Pairs, Games int
	Decision            string // "winner", "none better" or "undecided"
	Winner              string
	Uncounted           int
	Candidates          []raceRow
	LLRPlot             template.HTML
}

type raceRow struct {
	Name               string
	State              string
	LeftAt             int // the stage it qualified, went out or was eliminated (0: plays on)
	Pairs              int
	Penta              results.Penta
	LLR                string
	Elo, EloLow, EloHi string
}

type workerRow struct {
	Name, Flag          string
	Games               int
	Wins, Draws, Losses int
	Forfeits, TimeLoss  int
	NPS, Scale          string
	Residual            string
}

type configSection struct {
	File    string
	Header  string // indented JSON
	Command string
	Resumes int
}

// pct formats a share as a percentage.
func pct(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return strconv.FormatFloat(100*v, 'f', 1, 64) + " %"
}

// raw formats a number in full precision; open bounds as -inf/+inf.
func raw(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// MaxPlayers bounds the players of a report: its crosstable and its
// score and LOS heat maps are players² cells (the bound results.MaxPlayers
// was before ratings could take more; arena rate rates up to 100 000 and
// lists every pairing in its JSON).
const MaxPlayers = 4096

func build(src *Source, c *Collector, opt Options, r *renderer) (*page, error) {
	rep := src.Analysis
	if n := len(rep.Players); n > MaxPlayers {
		return nil, fmt.Errorf("%d players: a report lays out players² tables and plots, at most %d (report.MaxPlayers); rate them without a page (results.Rate: its JSON lists the ratings and every pairing)", n, MaxPlayers)
	}
	pg := &page{
		Title: opt.Title, Status: opt.Status, Refresh: opt.Refresh, Game: src.Game,
		Games: rep.Games, MeanPlies: rep.MeanPlies, Rep: rep, Notes: rep.Notes, FirstPlayer: rep.FirstPlayer,
		CommandNote: opt.CommandNote,
	}
	if pg.Title == "" {
		pg.Title = fmt.Sprintf("%s: %d games", src.Game, rep.Games)
	}
	if rep.FirstMoveElo != nil {
		f := rep.FirstMoveElo
		pg.FirstMoveElo = fmt.Sprintf("%s (%s to %s)", results.FormatElo(f.Value), results.FormatElo(f.Low), results.FormatElo(f.High))
	}
	plotIt := func(dst *template.HTML, name string, p *plot.Plot, err error, h vg.Length) error {
		if err != nil {
			return fmt.Errorf("plot %s: %w", name, err)
		}
		svg, err := r.render(name, p, 0, h)
		if err != nil {
			return err
		}
		*dst = svg
		pg.plots = append(pg.plots, name)
		return nil
	}
	// Standings and the rating plot, in rank order.
	var names []string
	var elo, low, high []float64
	for _, p := range rep.Players {
		var minus, plus string
		if rep.Bootstrap > 0 {
			minus, plus = p.Arms()
		}
		pg.Standings = append(pg.Standings, standingRow{
			Rank: p.Rank, Name: p.Name,
			Elo: results.FormatElo(p.Elo), Minus: minus, Plus: plus,
			EloRaw: raw(p.Elo), LowRaw: raw(p.EloLow), HighRaw: raw(p.EloHigh),
			Games: p.Games, Score: pct(p.Score), DrawRate: pct(p.DrawRate),
			Wins: p.Wins, Draws: p.Draws, Losses: p.Losses, Forfeits: p.Forfeits, TimeLosses: p.TimeLosses,
		})
		names = append(names, p.Name)
		elo, low, high = append(elo, p.Elo), append(low, p.EloLow), append(high, p.EloHigh)
	}
	rp, err := ratingPlot(names, elo, low, high, rep.Level)
	h := max(plotHeight/2, rowHeight*vg.Length(len(names))+3*vg.Centimeter)
	if err := plotIt(&pg.RatingPlot, "ratings", rp, err, h); err != nil {
		return nil, err
	}

	// Score matrix and likelihood of superiority, in rank order.
	idx := map[string]int{}
	for i, n := range names {
		idx[n] = i
	}
	n := len(names)
	score, los := nanMatrix(n), nanMatrix(n)
	scoreLab, losLab := labelMatrix(n), labelMatrix(n)
	cells := make([][]crossCell, n)
	for i := range cells {
		cells[i] = make([]crossCell, n)
		cells[i][i].Self = true
	}
	for _, c := range rep.Crosstable {
		i, j := idx[c.Player], idx[c.Opponent]
		score[i][j] = c.Score
		scoreLab[i][j] = strconv.FormatFloat(100*c.Score, 'f', 0, 64)
		cells[i][j].Played, cells[i][j].Score = true, pct(c.Score)
		cells[i][j].WDL = fmt.Sprintf("%d-%d-%d", c.Wins, c.Draws, c.Losses)
	}
	for _, l := range rep.LOS {
		i, j := idx[l.Player], idx[l.Opponent]
		los[i][j] = l.LOS
		losLab[i][j] = strconv.FormatFloat(100*l.LOS, 'f', 0, 64)
		cells[i][j].LOS = pct(l.LOS)
	}
	for i, name := range names {
		pg.Cross.Rows = append(pg.Cross.Rows, crossRow{Name: name, Cells: cells[i]})
	}
	pg.Cross.Names = names
	if n >= 2 {
		side := max(plotHeight, rowHeight*vg.Length(n)+4*vg.Centimeter)
		if err := plotIt(&pg.ScorePlot, "score-matrix", heatMap("Score of the row player against the column player (%)", "never met", names, score, scoreLab), nil, side); err != nil {
			return nil, err
		}
		if rep.Bootstrap > 0 && len(rep.LOS) > 0 {
			if err := plotIt(&pg.LOSPlot, "los-matrix", heatMap("Likelihood that the row player is stronger (%)", "groups that never met, not comparable", names, los, losLab), nil, side); err != nil {
				return nil, err
			}
		}
	}

	// Nash averaging and α-Rank, when the ratings have them.
	if rep.MetaGame != nil {
		if pg.Meta, err = metaSectionOf(rep, r, &pg.plots); err != nil {
			return nil, err
		}
	}

	// Colours: results as first and second mover.
	first, second := make([]float64, n), make([]float64, n)
	for i, p := range rep.Players {
		pg.Colours = append(pg.Colours, colourRow{Name: p.Name, AsFirst: p.AsFirst, AsSecond: p.AsSecond, First: pct(p.AsFirst.Score()), Second: pct(p.AsSecond.Score())})
		first[i], second[i] = zeroNaN(100*p.AsFirst.Score()), zeroNaN(100*p.AsSecond.Score())
	}
	cp, err := barChart("Score as first and as second mover", "score (%)", names, []series{{"first mover", first}, {"second mover", second}}, false)
	if err := plotIt(&pg.ColourPlot, "colours", cp, err, 0); err != nil {
		return nil, err
	}

	// Terminations, with the forfeits named.
	by := c.forfeitBy
	pg.Forfeits, pg.MoreForfeits = c.forfeits, c.moreForfeits
	var reasons []string
	var counts []float64
	for _, t := range rep.Terminations {
		row := terminationRow{Reason: t.Reason, Games: t.Games}
		var parts []string
		for who, k := range by[t.Reason] {
			parts = append(parts, fmt.Sprintf("%s %d", who, k))
		}
		slices.Sort(parts)
		row.By = strings.Join(parts, ", ")
		pg.Terminations = append(pg.Terminations, row)
		reasons, counts = append(reasons, t.Reason), append(counts, float64(t.Games))
	}
	tp, err := barChart("How games ended", "games", reasons, []series{{"games", counts}}, false)
	if err := plotIt(&pg.TermPlot, "terminations", tp, err, 0); err != nil {
		return nil, err
	}

	// Game lengths.
	lp, err := countHistogram("Game length", "plies", c.lengths)
	if err := plotIt(&pg.LengthPlot, "game-length", lp, err, 0); err != nil {
		return nil, err
	}

	// Time and nodes per move, from the per-player totals of the records.
	figs := make([]playerFigures, n) // by rank; zero for a player without games
	for i, name := range names {
		if f := c.players[name]; f != nil {
			figs[i] = *f
		}
	}
	mean, slow, nodes := make([]float64, n), make([]float64, n), make([]float64, n)
	anyNodes := false
	for i, name := range names {
		ps := &figs[i]
		row := searchRow{Name: name, Moves: ps.moves, Nodes: ps.nodes, MaxMS: strconv.FormatFloat(ps.maxMS, 'f', 2, 64)}
		if ps.moves > 0 {
			mean[i] = ps.timeMS / float64(ps.moves)
			row.MSPerMove = strconv.FormatFloat(mean[i], 'f', 3, 64)
			if ps.nodes > 0 {
				nodes[i] = float64(ps.nodes) / float64(ps.moves)
				row.NodesMove = strconv.FormatFloat(nodes[i], 'f', 0, 64)
				anyNodes = true
			}
		}
		slow[i] = ps.maxMS
		pg.Search = append(pg.Search, row)
	}
	tm, err := barChart("Thinking time per move", "ms", names, []series{{"mean", mean}, {"slowest", slow}}, false)
	if err := plotIt(&pg.TimePlot, "time-per-move", tm, err, 0); err != nil {
		return nil, err
	}
	if anyNodes {
		np, err := barChart("Nodes searched per move (agents that report them)", "nodes", names, []series{{"nodes", nodes}}, false)
		if err := plotIt(&pg.NodesPlot, "nodes-per-move", np, err, 0); err != nil {
			return nil, err
		}
	}

	// Per-move statistics, where the records keep them (move_stats).
	perMove := make([]*valueCounts, n)
	meanDepth := make([]float64, n)
	anyStats, anyDepth := false, false
	for i := range figs {
		f := &figs[i]
		perMove[i] = &f.times
		anyStats = anyStats || f.anyStats
		if f.depthN > 0 {
			anyDepth = true
			meanDepth[i] = f.depthSum / float64(f.depthN)
			pg.Search[i].Depth = strconv.FormatFloat(meanDepth[i], 'f', 1, 64)
		}
	}
	if anyStats {
		bp, err := boxPlotCounts("Time per move (log scale; records with per-move statistics)", "ms", names, perMove, minPlotMS)
		if err := plotIt(&pg.MoveTimePlot, "move-times", bp, err, 0); err != nil {
			return nil, err
		}
	}
	if anyDepth {
		dp, err := barChart("Mean search depth per move (agents that report it)", "plies", names, []series{{"depth", meanDepth}}, false)
		if err := plotIt(&pg.DepthPlot, "depth", dp, err, 0); err != nil {
			return nil, err
		}
	}

	// Clocks: each agent's mean time left after each ply, where records
	// keep clock times (clocks_ms).
	if left, ok := clockMeans(figs); ok {
		cp, err := linesPlot("Time left on the clock after each ply (mean over games)", "plies after the opening", "s", names, left)
		if err := plotIt(&pg.ClockPlot, "clocks", cp, err, 0); err != nil {
			return nil, err
		}
	}

	// Matches, file by file (pairs are counted within one run's rounds).
	for k, f := range src.Files {
		mp := c.matches[k]
		if mp == nil {
			continue
		}
		m, err := matchOf(f.Path, f.Header.Config, mp, r, fmt.Sprintf("llr-%d", k+1))
		if err != nil {
			return nil, err
		}
		if m.LLRPlot != "" {
			pg.plots = append(pg.plots, fmt.Sprintf("llr-%d", k+1))
		}
		pg.Matches = append(pg.Matches, m)
	}

	// Races, file by file, the same way.
	for k, f := range src.Files {
		rp := c.races[k]
		if rp == nil {
			continue
		}
		name := fmt.Sprintf("race-llr-%d", k+1)
		rs, err := raceOf(f.Path, f.Header.Config, rp, r, name)
		if err != nil {
			return nil, err
		}
		pg.plots = append(pg.plots, name)
		pg.Races = append(pg.Races, rs)
	}

	pg.Workers, pg.WorkerZ = c.workerTable, c.workerLevel

	if c.acc != nil {
		var err error
		if pg.Accuracy, err = c.acc.section(r, &pg.plots); err != nil {
			return nil, err
		}
	}

	// The configurations and the commands that reproduce them.
	for _, f := range src.Files {
		js, err := json.MarshalIndent(f.Header, "", "  ")
		if err != nil {
			return nil, err
		}
		cs := configSection{File: f.Path, Header: string(js), Resumes: f.Resumes}
		if opt.Command != nil {
			cs.Command = opt.Command(f.Header.Config)
		}
		pg.Configs = append(pg.Configs, cs)
	}
	return pg, nil
}

// clockMeans returns, for each player (by rank), the mean over games of
// its time left in seconds after each ply after the opening (NaN where no
// game of it had a clock there); ok is false when no game has clock times.
func clockMeans(figs []playerFigures) (left [][]float64, ok bool) {
	left = make([][]float64, len(figs))
	for k, f := range figs {
		ok = ok || f.anyClk
		left[k] = make([]float64, len(f.clockSum))
		for i := range f.clockSum {
			left[k][i] = math.NaN()
			if f.clockN[i] > 0 {
				left[k][i] = f.clockSum[i] / float64(f.clockN[i])
			}
		}
	}
	return left, ok
}

// minPlotMS is the least time per move a log-scale plot shows: a
// microsecond, the records' resolution (faster moves are drawn there).
const minPlotMS = 0.001

// maxForfeitRows bounds the list of forfeited games on the page.
const maxForfeitRows = 50

func zeroNaN(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

func nanMatrix(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		for j := range m[i] {
			m[i][j] = math.NaN()
		}
	}
	return m
}

func labelMatrix(n int) [][]string {
	m := make([][]string, n)
	for i := range m {
		m[i] = make([]string, n)
	}
	return m
}

// matchOf is the section of a match file, its game pairs counted in
// round order as the match itself did (matchPairs), with the LLR after
// each pair.
func matchOf(path string, cfg results.Config, mp *matchPairs, r *renderer, plotName string) (matchSection, error) {
	tr := mp.tr
	e := tr.Penta.Estimate(0.95)
	m := matchSection{
		File: path, First: cfg.Agents[0].Name, Second: cfg.Agents[1].Name,
		Penta: tr.Penta, Pairs: tr.Penta.Pairs(), Games: 2 * tr.Penta.Pairs(), WDL: tr.WDL,
		Score: pct(e.Score), Elo: results.FormatElo(e.Elo), EloLow: results.FormatElo(e.EloLow), EloHi: results.FormatElo(e.EloHigh),
		NElo: results.FormatElo(e.NElo), NLow: results.FormatElo(e.NEloLow), NHigh: results.FormatElo(e.NEloHigh),
		LOS: pct(e.LOS), Decision: "no test", Uncounted: mp.games - 2*tr.Penta.Pairs(),
	}
	if cfg.SPRT != nil {
		lo, hi := cfg.SPRT.Bounds()
		m.SPRT, m.Decision = cfg.SPRT.String(), tr.Decision.String()
		m.LLR, m.Lower, m.Upper = strconv.FormatFloat(tr.LLR, 'f', 2, 64), strconv.FormatFloat(lo, 'f', 2, 64), strconv.FormatFloat(hi, 'f', 2, 64)
		p, err := llrPointsPlot(mp.llr.trace(), lo, hi)
		if err != nil {
			return m, fmt.Errorf("plot %s: %w", plotName, err)
		}
		if m.LLRPlot, err = r.render(plotName, p, 0, 0); err != nil {
			return m, err
		}
	}
	return m, nil
}

// raceOf is the section of a race file, its candidates' pairs counted
// stage by stage as the race itself did (racePairs).
func raceOf(path string, cfg results.Config, rp *racePairs, r *renderer, plotName string) (raceSection, error) {
	race := rp.race
	k := len(race.Candidates)
	lo, hi := race.Bounds()
	f2 := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
	s := raceSection{
		File: path, Base: cfg.Agents[0].Name, K: k, SPRT: race.Test.String(),
		Alpha: g(race.Test.Alpha), Beta: g(race.Test.Beta), EachAlpha: g(race.Test.Alpha / float64(k)), EachBeta: g(race.Test.Beta / 2),
		Lower: f2(lo), Upper: f2(hi), Stage: race.Stage, Pairs: race.Pairs(), Games: 2 * race.Pairs(),
		Decision: "undecided", Uncounted: rp.games - 2*race.Pairs(),
	}
	switch {
	case race.Winner() >= 0:
		s.Decision, s.Winner = "winner", cfg.Agents[race.Winner()+1].Name
	case race.Decided():
		s.Decision = "none better"
	}
	names := make([]string, k)
	traces := make([][]llrPoint, k)
	left := make([]int, k)
	for i, c := range race.Candidates {
		names[i] = cfg.Agents[i+1].Name
		traces[i], left[i] = rp.llr[i].trace(), c.LeftAt
		row := raceRow{Name: names[i], State: c.State.String(), LeftAt: c.LeftAt, Pairs: c.Penta.Pairs(), Penta: c.Penta, LLR: f2(c.LLR), Elo: "n/a"}
		if row.Pairs > 0 {
			e := c.Penta.Estimate(0.95)
			row.Elo, row.EloLow, row.EloHi = results.FormatElo(e.Elo), results.FormatElo(e.EloLow), results.FormatElo(e.EloHigh)
		}
		s.Candidates = append(s.Candidates, row)
	}
	p, err := raceLLRPlot(names, traces, left, lo, hi)
	if err != nil {
		return s, fmt.Errorf("plot %s: %w", plotName, err)
	}
	s.LLRPlot, err = r.render(plotName, p, 0, 0)
	return s, err
}
