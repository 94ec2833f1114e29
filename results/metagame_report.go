package results

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/olekukonko/tablewriter/tw"
)

// MetaGameReport is the meta-game part of an Analysis (Analysis.MetaGame;
// the per-player values are in PlayerRow): what a report needs to draw
// the mixture, α-Rank and the cycles.
type MetaGameReport struct {
	// Players are the meta-game's players, in Payoff's order; Excluded
	// the players with games left out because some pairing never met.
	Players  []string `json:"players"`
	Excluded []string `json:"excluded,omitempty"`
	// Payoff[i][j] is Players[i]'s score against Players[j] minus ½.
	Payoff         [][]float64 `json:"payoff"`
	Alpha          float64     `json:"alpha"`
	AlphaSwept     bool        `json:"alpha_swept"`
	AlphaConverged bool        `json:"alpha_converged"`
	Population     int         `json:"population"`
	Replicates     int         `json:"replicates"`
	Cycles         []CycleRow  `json:"cycles"`
}

// CycleRow is a Cycle by name: Players[0] scored Scores[0] against
// Players[1], and so on round the triple; EdgeProbabilities are the
// posterior probabilities that each edge holds, Probability their
// product.
type CycleRow struct {
	Players           [3]string  `json:"players"`
	Scores            [3]float64 `json:"scores"`
	EdgeProbabilities [3]float64 `json:"edge_probabilities"`
	Probability       float64    `json:"probability"`
}

// MetaRow is a player's Nash averaging and α-Rank (PlayerRow's; absent
// when the meta-game was not computed or left the player out).
type MetaRow struct {
	NashMass          float64 `json:"nash_mass"`
	NashMassLow       float64 `json:"nash_mass_low"`
	NashMassHigh      float64 `json:"nash_mass_high"`
	NashScore         float64 `json:"nash_score"` // expected score share against the Nash mixture
	NashScoreLow      float64 `json:"nash_score_low"`
	NashScoreHigh     float64 `json:"nash_score_high"`
	AlphaRankMass     float64 `json:"alpharank_mass"`
	AlphaRankMassLow  float64 `json:"alpharank_mass_low"`
	AlphaRankMassHigh float64 `json:"alpharank_mass_high"`
}

// addMetaGame computes the meta-game of the cells' players and adds it
// to r (rows still in player order, index set).
func (r *Analysis) addMetaGame(names []string, cells []cell, o MetaGameOptions, bo BootstrapOptions) error {
	if len(names) > MaxMetaGamePlayers {
		return fmt.Errorf("%w: %d players, the meta-game takes at most %d", named("MetaGame"), len(names), MaxMetaGamePlayers)
	}
	g, err := rateMetaCells(len(names), cells, o, bo)
	if err != nil {
		return err
	}
	mg := &MetaGameReport{Alpha: g.Alpha, AlphaSwept: g.AlphaSwept, AlphaConverged: g.AlphaConverged,
		Population: g.Population, Replicates: g.Replicates, Players: []string{}, Payoff: [][]float64{}, Cycles: []CycleRow{}}
	for k, p := range g.Players {
		mg.Players = append(mg.Players, names[p])
		row := make([]float64, len(g.Players))
		for j := range row {
			row[j] = g.Payoff.At(k, j)
		}
		mg.Payoff = append(mg.Payoff, row)
	}
	for _, p := range g.Excluded {
		mg.Excluded = append(mg.Excluded, names[p])
	}
	for _, c := range g.Cycles {
		mg.Cycles = append(mg.Cycles, CycleRow{
			Players: [3]string{names[c.Players[0]], names[c.Players[1]], names[c.Players[2]]},
			Scores:  c.Score, EdgeProbabilities: c.Edge, Probability: c.Probability,
		})
	}
	for k := range r.Players {
		p := r.Players[k].index
		if math.IsNaN(g.Nash[p]) {
			continue
		}
		r.Players[k].MetaRow = &MetaRow{
			g.Nash[p], g.NashLow[p], g.NashHigh[p],
			g.NashScore[p], g.NashScoreLow[p], g.NashScoreHigh[p],
			g.AlphaRank[p], g.AlphaRankLow[p], g.AlphaRankHigh[p],
		}
	}
	r.MetaGame = mg
	if len(mg.Excluded) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("the meta-game (Nash averaging, α-Rank) leaves out %s: every two of its players must have met, and these had not met some of the others", strings.Join(mg.Excluded, ", ")))
	}
	return nil
}

// writeMetaGame writes the meta-game table and its cycles.
func (r *Analysis) writeMetaGame(w io.Writer, md bool) error {
	mg := r.MetaGame
	pct := func(v float64) string { return fmt.Sprintf("%.1f", 100*v) }
	span := func(lo, hi float64) string {
		if mg.Replicates == 0 {
			return ""
		}
		return fmt.Sprintf("%.1f–%.1f", 100*lo, 100*hi)
	}
	var rows [][]string
	for _, p := range r.Players {
		m := p.MetaRow
		if m == nil {
			continue
		}
		rows = append(rows, []string{p.Name, pct(m.NashMass), span(m.NashMassLow, m.NashMassHigh),
			pct(m.NashScore), span(m.NashScoreLow, m.NashScoreHigh),
			pct(m.AlphaRankMass), span(m.AlphaRankMassLow, m.AlphaRankMassHigh)})
	}
	iv := fmt.Sprintf("%g %%", 100*r.Level)
	header := []string{"Name", "Nash %", iv, "Nash score %", iv, "α-Rank %", iv}
	right := tw.AlignRight
	if err := table(w, md, header, rows, []tw.Align{tw.AlignLeft, right, right, right, right, right, right}); err != nil {
		return err
	}
	var lines []string
	for _, c := range mg.Cycles {
		lines = append(lines, fmt.Sprintf("Cycle %s > %s > %s > %s: probability %.2f (edges %.2f, %.2f, %.2f; scores %.1f %%, %.1f %%, %.1f %%)",
			c.Players[0], c.Players[1], c.Players[2], c.Players[0], c.Probability,
			c.EdgeProbabilities[0], c.EdgeProbabilities[1], c.EdgeProbabilities[2],
			100*c.Scores[0], 100*c.Scores[1], 100*c.Scores[2]))
	}
	if len(mg.Cycles) == 0 {
		lines = append(lines, "No cycles: no three players who all met beat each other round in a circle")
	}
	fmt.Fprintln(w)
	for _, l := range lines {
		if md {
			l = "* " + l
		}
		fmt.Fprintln(w, l)
	}
	return nil
}

// metaGameTitle heads the meta-game table.
func (r *Analysis) metaGameTitle() string {
	mg := r.MetaGame
	how := "given"
	if mg.AlphaSwept {
		how = "swept until the distribution stopped changing"
		if !mg.AlphaConverged {
			how = "swept: the largest numerically safe, the distribution still changing"
		}
	}
	s := fmt.Sprintf("Meta-game: Nash averaging (maximum-entropy Nash mixture, and the expected score against it) and α-Rank (population %d, α = %.4g, %s)", mg.Population, mg.Alpha, how)
	if mg.Replicates > 0 {
		s += fmt.Sprintf("; %g %% intervals from %d resamples", 100*r.Level, mg.Replicates)
	}
	return s
}
