package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ExportPGN writes the games as tag-only PGN, the input Ordo and BayesElo
// read: Event, Round, White, Black and Result, and no moves. "White" is the
// player who moved first, whatever the game calls its sides. Round is
// "R.S": game pair R of its pairing (from 1), side S = 1 when the pairing's
// first-listed agent moved first, else 2.
func ExportPGN(w io.Writer, d *Dataset) error {
	for _, g := range d.Games {
		event := "arena " + g.GameSpec()
		side := 1
		if g.Players[0].Agent > g.Players[1].Agent {
			side = 2
		}
		_, err := fmt.Fprintf(w, "[Event %s]\n[Round \"%d.%d\"]\n[White %s]\n[Black %s]\n[Result \"%s\"]\n\n%s\n\n",
			pgnString(event), g.Round+1, side, pgnString(g.Players[0].Name), pgnString(g.Players[1].Name), g.Result, g.Result)
		if err != nil {
			return err
		}
	}
	return nil
}

// pgnString quotes a PGN tag value, escaping backslashes and quotes.
func pgnString(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// ExportCSV writes one row per game.
func ExportCSV(w io.Writer, d *Dataset) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"index", "pair", "round", "game", "first", "second", "result", "first_points",
		"termination", "forfeit", "detail", "plies", "first_time_ms", "second_time_ms", "first_nodes", "second_nodes", "seed", "opening", "moves"})
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	for _, g := range d.Games {
		cw.Write([]string{
			strconv.Itoa(g.Index), strconv.Itoa(g.Pair), strconv.Itoa(g.Round), g.GameSpec(),
			g.Players[0].Name, g.Players[1].Name, g.Result, f(g.Points(0)),
			g.Termination, strconv.Itoa(g.Forfeit), g.Detail, strconv.Itoa(g.Plies),
			f(round(g.Players[0].TimeMS, 3)), f(round(g.Players[1].TimeMS, 3)),
			strconv.FormatInt(g.Players[0].Nodes, 10), strconv.FormatInt(g.Players[1].Nodes, 10),
			strconv.FormatUint(g.Seed, 10), strings.Join(g.Opening, " "), strings.Join(g.Moves, " "),
		})
	}
	cw.Flush()
	return cw.Error()
}
