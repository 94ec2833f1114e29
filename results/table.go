package results

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Formats lists the output formats of Analysis.Write.
var Formats = []string{"text", "json", "csv", "markdown"}

// maxLOSPlayers bounds the LOS matrix printed in text and markdown (it is
// always complete in JSON).
const maxLOSPlayers = 16

// maxCrossPlayers bounds the crosstable printed in text and markdown.
const maxCrossPlayers = 100

// Write renders the report: "text" (tables for a terminal), "markdown",
// "csv" (the standings only, one row per player) or "json" (the Analysis).
func (r *Analysis) Write(w io.Writer, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "csv":
		return r.writeCSV(w)
	case "text", "markdown":
		return r.writeTables(w, format == "markdown")
	}
	return fmt.Errorf("unknown format %q (valid: %s)", format, strings.Join(Formats, ", "))
}

// WriteStandings renders only the standings table (text or markdown).
func (r *Analysis) WriteStandings(w io.Writer, markdown bool) error {
	return table(w, markdown, r.standingsHeader(), r.standingsRows(), standingsAlign)
}

var standingsAlign = []tw.Align{tw.AlignRight, tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignCenter, tw.AlignRight}

func (r *Analysis) standingsHeader() []string {
	return []string{"Rank", "Name", "Elo", "−", "+", "Games", "Score %", "W-D-L", "Draw %"}
}

func (r *Analysis) standingsRows() [][]string {
	var rows [][]string
	for _, p := range r.Players {
		minus, plus := "", ""
		if r.Bootstrap > 0 {
			minus, plus = p.Arms()
		}
		rows = append(rows, []string{
			strconv.Itoa(p.Rank), p.Name, fmt.Sprintf("%.1f", p.Elo), minus, plus,
			strconv.Itoa(p.Games), fmt.Sprintf("%.1f", 100*p.Score),
			fmt.Sprintf("%d-%d-%d", p.Wins, p.Draws, p.Losses), fmt.Sprintf("%.1f", 100*p.DrawRate),
		})
	}
	return rows
}

// Arms formats the − and + columns of the standings, as every table and
// page prints them: the distances from Elo down to EloLow and up to
// EloHigh, one decimal, ∞ on an open side. The bounds themselves are
// EloLow and EloHigh (elo_low, elo_high in JSON and CSV).
func (p PlayerRow) Arms() (minus, plus string) {
	return armText(p.Elo - p.EloLow), armText(p.EloHigh - p.Elo)
}

// armText formats one arm of an interval; an open one is ∞.
func armText(v float64) string {
	if math.IsInf(v, 0) {
		return "∞"
	}
	return fmt.Sprintf("%.1f", v)
}

// csvFloat formats a number for CSV: -inf and +inf for open bounds.
func csvFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func (r *Analysis) title() string {
	model := "draw = half a win"
	if r.DrawModel == Davidson.String() {
		model = fmt.Sprintf("Davidson draws, log win/loss odds × 2/(2+ν) = %.3f for the half model's scale", r.EloScale)
	}
	s := fmt.Sprintf("%s: %d games; Elo by maximum likelihood (%s", r.Game, r.Games, model)
	if r.FirstMoveElo != nil {
		s += ", first-move advantage fitted"
	}
	s += ")"
	if r.Anchor != "" {
		s += fmt.Sprintf(", %s anchored at %g", r.Anchor, r.AnchorElo)
	} else if r.MeanOf == nil {
		s += ", mean 0"
	}
	if r.MeanOf != nil {
		s += ", mean 0 over the players whose ratings the data bound (all but " + strings.Join(r.outsideMean(), ", ") + ")"
	}
	if r.Bootstrap > 0 {
		s += fmt.Sprintf("; %g %% intervals from %d bootstrap resamples (− and +: the distances from the Elo to their ends)", 100*r.Level, r.Bootstrap)
	}
	return s
}

// outsideMean lists the players with games that MeanOf leaves out, in
// rank order (none of the anchor's group).
func (r *Analysis) outsideMean() []string {
	anchorGroup := -1
	for _, p := range r.Players {
		if r.Anchor != "" && p.Name == r.Anchor {
			anchorGroup = p.Group
		}
	}
	var out []string
	for _, p := range r.Players {
		if p.Games > 0 && p.Group != anchorGroup && !slices.Contains(r.MeanOf, p.Name) {
			out = append(out, p.Name)
		}
	}
	return out
}

func (r *Analysis) writeTables(w io.Writer, md bool) error {
	heading := func(text string) {
		if md {
			fmt.Fprintf(w, "\n### %s\n\n", text)
		} else {
			fmt.Fprintf(w, "\n%s\n", text)
		}
	}
	if md {
		fmt.Fprintf(w, "%s\n\n", r.title())
	} else {
		fmt.Fprintf(w, "%s\n\n", r.title())
	}
	if err := r.WriteStandings(w, md); err != nil {
		return err
	}
	if r.MetaGame != nil && len(r.MetaGame.Players) > 0 {
		heading(r.metaGameTitle())
		if err := r.writeMetaGame(w, md); err != nil {
			return err
		}
	}
	if len(r.Players) > 1 {
		heading("Crosstable: the row player's results against the column player (W-D-L, score %)")
		if err := r.writeCross(w, md); err != nil {
			return err
		}
	}
	if len(r.Players) > 1 {
		heading("Results by colour (the first player moves first)")
		if err := r.writeColours(w, md); err != nil {
			return err
		}
	}
	if len(r.LOS) > 0 && len(r.Players) <= maxLOSPlayers {
		heading("Likelihood of superiority (%): the row player is stronger than the column player")
		if err := r.writeLOS(w, md); err != nil {
			return err
		}
	}
	var facts []string
	fp := r.FirstPlayer
	facts = append(facts, fmt.Sprintf("First player: %d-%d-%d, score %.1f %%", fp.Wins, fp.Draws, fp.Losses, 100*fp.Score))
	if e := r.FirstMoveElo; e != nil {
		bounds := ""
		if r.Bootstrap > 0 {
			bounds = fmt.Sprintf(" (%s to %s)", FormatElo(e.Low), FormatElo(e.High))
		}
		facts = append(facts, fmt.Sprintf("First-move advantage: %s Elo%s", FormatElo(e.Value), bounds))
	}
	if r.DrawNu > 0 {
		facts = append(facts, fmt.Sprintf("Davidson draw parameter ν: %.3f", r.DrawNu))
	}
	var terms []string
	for _, t := range r.Terminations {
		terms = append(terms, fmt.Sprintf("%s %d", t.Reason, t.Games))
	}
	if len(terms) == 0 {
		terms = []string{"none"}
	}
	facts = append(facts, "Terminations: "+strings.Join(terms, ", "))
	facts = append(facts, fmt.Sprintf("Mean game length: %.1f plies", r.MeanPlies))
	for _, n := range r.Notes {
		facts = append(facts, "Note: "+n)
	}
	fmt.Fprintln(w)
	for _, f := range facts {
		if md {
			fmt.Fprintf(w, "* %s\n", f)
		} else {
			fmt.Fprintln(w, f)
		}
	}
	return nil
}

func (r *Analysis) writeCross(w io.Writer, md bool) error {
	if len(r.Players) > maxCrossPlayers {
		// players² cells, wider than any screen, and slower to lay out
		// than the whole fit.
		_, err := fmt.Fprintf(w, "%d players: too many to print as a table (at most %d); the JSON output lists every pairing\n", len(r.Players), maxCrossPlayers)
		return err
	}
	cell := map[[2]string]CrossRow{}
	for _, c := range r.Crosstable {
		cell[[2]string{c.Player, c.Opponent}] = c
	}
	header := []string{""}
	align := []tw.Align{tw.AlignLeft}
	for _, p := range r.Players {
		header = append(header, p.Name)
		align = append(align, tw.AlignCenter)
	}
	header = append(header, "Total")
	align = append(align, tw.AlignCenter)
	var rows [][]string
	for _, a := range r.Players {
		row := []string{a.Name}
		for _, b := range r.Players {
			c, ok := cell[[2]string{a.Name, b.Name}]
			switch {
			case a.Name == b.Name:
				row = append(row, "—")
			case !ok:
				row = append(row, "")
			default:
				row = append(row, fmt.Sprintf("%d-%d-%d %.0f%%", c.Wins, c.Draws, c.Losses, 100*c.Score))
			}
		}
		row = append(row, fmt.Sprintf("%d-%d-%d %.1f%%", a.Wins, a.Draws, a.Losses, 100*a.Score))
		rows = append(rows, row)
	}
	return table(w, md, header, rows, align)
}

func (r *Analysis) writeColours(w io.Writer, md bool) error {
	cell := func(x WDL) string {
		if x.Games() == 0 {
			return ""
		}
		return fmt.Sprintf("%d-%d-%d %.1f%%", x.Wins, x.Draws, x.Losses, 100*x.Score())
	}
	var rows [][]string
	for _, p := range r.Players {
		rows = append(rows, []string{p.Name, cell(p.AsFirst), cell(p.AsSecond), strconv.Itoa(p.Forfeits)})
	}
	return table(w, md, []string{"", "As first", "As second", "Forfeits"}, rows, []tw.Align{tw.AlignLeft, tw.AlignCenter, tw.AlignCenter, tw.AlignRight})
}

func (r *Analysis) writeLOS(w io.Writer, md bool) error {
	los := map[[2]string]float64{}
	for _, l := range r.LOS {
		los[[2]string{l.Player, l.Opponent}] = l.LOS
	}
	header := []string{""}
	align := []tw.Align{tw.AlignLeft}
	for _, p := range r.Players {
		header = append(header, p.Name)
		align = append(align, tw.AlignRight)
	}
	var rows [][]string
	for _, a := range r.Players {
		row := []string{a.Name}
		for _, b := range r.Players {
			v, ok := los[[2]string{a.Name, b.Name}]
			switch {
			case a.Name == b.Name:
				row = append(row, "—")
			case !ok:
				row = append(row, "·") // different groups: not comparable
			default:
				row = append(row, fmt.Sprintf("%.1f", 100*v))
			}
		}
		rows = append(rows, row)
	}
	return table(w, md, header, rows, align)
}

func (r *Analysis) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"rank", "name", "elo", "elo_low", "elo_high", "games", "score", "points", "wins", "draws", "losses", "draw_rate", "group", "forfeits"})
	f := csvFloat
	for _, p := range r.Players {
		cw.Write([]string{
			strconv.Itoa(p.Rank), p.Name, f(round(p.Elo, 2)), f(round(p.EloLow, 2)), f(round(p.EloHigh, 2)),
			strconv.Itoa(p.Games), f(round(p.Score, 5)), f(p.Points), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws),
			strconv.Itoa(p.Losses), f(round(p.DrawRate, 5)), strconv.Itoa(p.Group), strconv.Itoa(p.Forfeits),
		})
	}
	cw.Flush()
	return cw.Error()
}

func round(v float64, digits int) float64 {
	p, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', digits, 64), 64)
	return p
}

// table renders one table with tablewriter: box drawing for terminals,
// pipes for markdown. Header texts are kept as given.
func table(w io.Writer, md bool, header []string, rows [][]string, align []tw.Align) error {
	var rend tw.Renderer = renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleLight)})
	if md {
		rend = renderer.NewMarkdown()
	}
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(rend),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignCenter),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	)
	t.Header(header)
	if err := t.Bulk(rows); err != nil {
		return err
	}
	return t.Render()
}
