package report

import (
	"math"
	"strconv"

	"github.com/boardgame-arena/arena/results"
)

// workerRows is the Workers table: one row per broker worker of the
// games counted in t, when a remote worker played any game (remote); z is
// the residual's 99 % level.
func workerRows(t *results.WorkerTally, remote bool) (rows []workerRow, z string) {
	if !remote {
		return nil, ""
	}
	tally := t.Rows()
	n := 0
	for _, r := range tally {
		if !math.IsNaN(r.Residual) {
			n++
		}
	}
	_, z99 := results.ResidualThresholds(max(n, 1))
	for _, r := range tally {
		row := workerRow{Name: r.Worker, Flag: r.Flag, Games: r.Games, Wins: r.Wins, Draws: r.Draws, Losses: r.Losses,
			Forfeits: r.Forfeits, TimeLoss: r.TimeLosses, NPS: "–", Scale: "–", Residual: "–"}
		if row.Name == "" {
			row.Name = "this machine"
		}
		if r.Scale > 0 {
			row.Scale = strconv.FormatFloat(r.Scale, 'g', 3, 64)
			if r.NPS > 0 {
				row.NPS = strconv.FormatFloat(r.NPS, 'f', 0, 64)
			}
		}
		if !math.IsNaN(r.Residual) {
			row.Residual = strconv.FormatFloat(r.Residual, 'f', 2, 64)
		}
		rows = append(rows, row)
	}
	return rows, strconv.FormatFloat(z99, 'f', 2, 64)
}
