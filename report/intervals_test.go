package report

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// gauntletGames: g sweeps x and y, trades points with z; x, y and z never
// meet. So the standings have open and closed bounds, and the score
// matrix pairs that never met.
func gauntletGames() *results.Dataset {
	var gs []*results.GameRecord
	add := func(a, b string, aPoints ...float64) {
		for k, pts := range aPoints {
			first, second := a, b
			if k%2 == 1 {
				first, second, pts = b, a, 1-pts
			}
			winner := map[float64]int{1: 0, 0.5: -1, 0: 1}[pts]
			gs = append(gs, &results.GameRecord{Record: results.KindGame, Index: len(gs), Game: "othello6",
				Result: map[int]string{0: "1-0", 1: "0-1", -1: "1/2-1/2"}[winner], Winner: winner,
				Termination: results.Normal, Forfeit: -1, Players: [2]results.Player{{Name: first}, {Name: second}}})
		}
	}
	add("g", "x", 1, 1, 1, 1, 1, 1, 1, 1)
	add("g", "y", 1, 1, 1, 1, 1, 1, 1, 1)
	add("g", "z", 1, 0, 0.5, 1, 0, 1, 0.5, 0.5)
	return results.NewDataset("othello6", []string{"g", "x", "y", "z"}, gs)
}

// TestStandingsArmsAreDistances: the page's − and + columns are what
// arena rate's tables print, the distances from the Elo to the
// interval's ends (∞ where open); the ends themselves are in the rows'
// data-elo-low and data-elo-high. The page printed the ends under the
// same headers.
func TestStandingsArmsAreDistances(t *testing.T) {
	d := gauntletGames()
	opt := Options{Rating: results.AnalysisOptions{Bootstrap: 100, Seed: 1}}
	var buf bytes.Buffer
	if _, err := Write(&buf, d, opt); err != nil {
		t.Fatal(err)
	}
	root := parsePage(t, buf.String())
	rep, err := results.Analyse(d, opt.Rating)
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := rep.WriteStandings(&md, true); err != nil {
		t.Fatal(err)
	}
	// The markdown table's − and + by name.
	table := map[string][2]string{}
	for _, line := range strings.Split(md.String(), "\n") {
		f := strings.Split(line, "|")
		if len(f) > 6 {
			table[strings.TrimSpace(f[2])] = [2]string{strings.TrimSpace(f[4]), strings.TrimSpace(f[5])}
		}
	}
	arm := func(v float64) string {
		if math.IsInf(v, 0) {
			return "∞"
		}
		return fmt.Sprintf("%.1f", v)
	}
	parse := func(s string) float64 {
		v, err := strconv.ParseFloat(strings.TrimPrefix(s, "+"), 64)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return v
	}
	rows := root.byID("standings-table").find(func(n *node) bool { return n.name == "tr" && n.attr["data-player"] != "" })
	open := 0
	for _, r := range rows {
		var cells []string
		for _, c := range r.children {
			cells = append(cells, c.allText())
		}
		name := r.attr["data-player"]
		elo, low, high := parse(r.attr["data-elo"]), parse(r.attr["data-elo-low"]), parse(r.attr["data-elo-high"])
		want := [2]string{arm(elo - low), arm(high - elo)}
		if got := [2]string{cells[3], cells[4]}; got != want || table[name] != want {
			t.Errorf("%s: − and + on the page %q, in the table %q; want the distances %q (Elo %v, interval %v to %v)", name, got, table[name], want, elo, low, high)
		}
		if want[0] == "∞" || want[1] == "∞" {
			open++
		}
	}
	if len(rows) != 4 || open == 0 {
		t.Fatalf("%d rows, %d with an open side: the test needs both kinds", len(rows), open)
	}
	if note := root.byID("standings").allText(); !strings.Contains(note, "− and + are the distances from the Elo") {
		t.Errorf("the standings do not say what − and + are: %s", note)
	}
	// The score matrix: x, y and z never met, and the caption says grey
	// means that.
	if m := root.byID("matrix").allText(); !strings.Contains(m, "grey cell a pair that never met") || !strings.Contains(m, "grey: never met") {
		t.Errorf("the matrix section does not explain its grey cells: %s", m)
	}
}
