package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// The values these tests pin are computed here by hand from the data,
// with nothing of the package but the data: z from the error function,
// Elo from the score, Wilson's bound, the pentanomial's normal interval
// and, for a small bootstrap, the exact distribution of the resamples.

// z95 is the normal quantile of a 95 % two-sided interval.
var z95 = math.Sqrt2 * math.Erfinv(0.95)

// eloOf is the logistic Elo difference of an expected score.
func eloOf(s float64) float64 { return 400 * math.Log10(s/(1-s)) }

// wilsonAll is Wilson's lower bound for n trials all won: n/(n+z²).
func wilsonAll(n float64) float64 { return n / (n + z95*z95) }

// pairedGames is a record of colour-swapped game pairs: for each pairing
// a b and each outcome string (a's points per game, "1", "=", "0"), games
// 2k (a first) and 2k+1 (b first) are a pair. Indices run on across
// pairings, so every pair is games 2k and 2k+1 of the dataset.
type pairing struct {
	a, b    string
	results string // a's result in each game: 1, = or 0; even length
}

func pairedDataset(players []string, ps ...pairing) *Dataset {
	var gs []*GameRecord
	for _, p := range ps {
		for k, r := range p.results {
			first, second := p.a, p.b
			pts := map[rune]float64{'1': 1, '=': 0.5, '0': 0}[r]
			if k%2 == 1 {
				first, second, pts = p.b, p.a, 1-pts
			}
			winner := map[float64]int{1: 0, 0.5: -1, 0: 1}[pts]
			result := map[int]string{0: "1-0", 1: "0-1", -1: "1/2-1/2"}[winner]
			gs = append(gs, &GameRecord{Record: KindGame, Index: len(gs), Game: "othello6", Result: result, Winner: winner,
				Termination: Normal, Forfeit: -1, Players: [2]Player{{Name: first}, {Name: second}}})
		}
	}
	return NewDataset("othello6", players, gs)
}

// rows returns the report's rows by name.
func rows(t *testing.T, d *Dataset, o AnalysisOptions) (*Analysis, map[string]PlayerRow) {
	t.Helper()
	if o.Bootstrap == 0 {
		o.Bootstrap = 200
	}
	rep, err := Analyse(d, o)
	if err != nil {
		t.Fatal(err)
	}
	row := map[string]PlayerRow{}
	for _, p := range rep.Players {
		row[p.Name] = p
	}
	return rep, row
}

func near(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) < 1e-9
}

// repeat returns s n times.
func repeat(s string, n int) string { return strings.Repeat(s, n) }

// TestTwoPlayerIntervalsAreTheMatchs: two players' intervals are those of
// the difference as arena match gives it, half each at mean 0, the whole
// of it with an anchor. At 60-0-0 and 47-0-3 the winner's lower bound
// and the loser's upper one are finite (they were −∞ to +∞ for both,
// from the bootstrap of resamples every one of which, or too many, were
// sweeps), the other side open.
func TestTwoPlayerIntervalsAreTheMatchs(t *testing.T) {
	// The pentanomial's normal interval, by hand: pair scores (per game)
	// x with counts c, n pairs.
	penta := func(c [5]float64) (lo, hi float64) {
		mean, se := pentaNormal(c)
		lo, hi = math.Inf(-1), math.Inf(1)
		if mean-z95*se > 0 {
			lo = eloOf(mean - z95*se)
		}
		if mean+z95*se < 1 {
			hi = eloOf(mean + z95*se)
		}
		return lo, hi
	}
	l4703, _ := penta([5]float64{0, 0, 3, 0, 22})
	l4730, _ := penta([5]float64{0, 0, 0, 3, 22})
	l, h := penta([5]float64{4, 6, 10, 6, 4})
	inf := math.Inf(1)
	for _, tc := range []struct {
		name            string
		results         string // strong's, per game, in pairs
		elo, diffLo, hi float64
	}{
		// 30 pairs won: Wilson's bound for 30 trials, as match prints +357.1.
		{"60-0-0", repeat("1", 60), eloOf(60.5/61) / 2, eloOf(wilsonAll(30)), inf},
		// Three pairs WL: [0, 0, 3, 0, 22]; match prints +340.1 to +inf.
		{"47-0-3", "10" + repeat("1", 18) + "01" + repeat("1", 18) + "10" + repeat("1", 8), eloOf(0.94) / 2, l4703, inf},
		{"47-3-0", "1=" + repeat("1", 18) + "=1" + repeat("1", 18) + "1=" + repeat("1", 8), eloOf(0.97) / 2, l4730, inf},
		// Every kind of pair: a bounded match, both sides from the
		// pentanomial [4, 6, 10, 6, 4].
		{"bounded", repeat("00", 4) + repeat("0=", 3) + repeat("=0", 3) + repeat("==", 5) + repeat("10", 5) + repeat("=1", 3) + repeat("1=", 3) + repeat("11", 4), 0, l, h},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := pairedDataset([]string{"strong", "weak"}, pairing{"strong", "weak", tc.results})
			_, row := rows(t, d, AnalysisOptions{})
			s, w := row["strong"], row["weak"]
			if !near(s.Elo, tc.elo) || !near(w.Elo, -tc.elo) {
				t.Errorf("Elo %v and %v, want ±%v", s.Elo, w.Elo, tc.elo)
			}
			if !near(s.EloLow, tc.diffLo/2) || !near(s.EloHigh, tc.hi/2) {
				t.Errorf("strong's interval [%v, %v], want [%v, %v]: half the match's", s.EloLow, s.EloHigh, tc.diffLo/2, tc.hi/2)
			}
			if !near(w.EloLow, -tc.hi/2) || !near(w.EloHigh, -tc.diffLo/2) {
				t.Errorf("weak's interval [%v, %v], want [%v, %v]", w.EloLow, w.EloHigh, -tc.hi/2, -tc.diffLo/2)
			}
			// With the weak player anchored at 0, strong has the whole
			// interval of the difference.
			_, row = rows(t, d, AnalysisOptions{Anchor: "weak"})
			if s, w := row["strong"], row["weak"]; !near(s.EloLow, tc.diffLo) || !near(s.EloHigh, tc.hi) || w.EloLow != 0 || w.EloHigh != 0 {
				t.Errorf("anchored: strong [%v, %v] (want [%v, %v]), weak [%v, %v] (want 0)", s.EloLow, s.EloHigh, tc.diffLo, tc.hi, w.EloLow, w.EloHigh)
			}
		})
	}
	// The same games without pairs (Rate knows only games): the trinomial,
	// Wilson's bound for 60 trials.
	r, err := Rate(2, games(0, 1, 60, 0, 0), FitOptions{Anchor: -1}, BootstrapOptions{Replicates: 100, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := eloOf(wilsonAll(60)) / 2; !near(r.Low[0], want) || !math.IsInf(r.High[0], 1) || !near(r.High[1], -want) || !math.IsInf(r.Low[1], -1) {
		t.Errorf("60-0-0 by games: [%v, %v] and [%v, %v], want [%v, +Inf] and [-Inf, %v]", r.Low[0], r.High[0], r.Low[1], r.High[1], want, -want)
	}
	// A game without its partner: the games are not all paired, so the
	// trinomial over the 59 games.
	d := pairedDataset([]string{"strong", "weak"}, pairing{"strong", "weak", repeat("1", 60)})
	d.Games = d.Games[:59]
	d.fileOf = d.fileOf[:59]
	if _, row := rows(t, d, AnalysisOptions{}); !near(row["strong"].EloLow, eloOf(wilsonAll(59))/2) {
		t.Errorf("59 games, one unpaired: lower bound %v, want %v", row["strong"].EloLow, eloOf(wilsonAll(59))/2)
	}
}

// TestOpenSidesInEveryFormat: the open side of a 60-0-0 is ∞ in the
// text's − or + column, null in JSON and ±inf in CSV; the closed side a
// finite number in each, and a note says where the interval comes from.
func TestOpenSidesInEveryFormat(t *testing.T) {
	rep, row := rows(t, pairedDataset([]string{"strong", "weak"}, pairing{"strong", "weak", repeat("1", 60)}), AnalysisOptions{})
	low := eloOf(wilsonAll(30)) / 2
	var text, js, c bytes.Buffer
	for f, b := range map[string]*bytes.Buffer{"text": &text, "json": &js, "csv": &c} {
		if err := rep.Write(b, f); err != nil {
			t.Fatal(err)
		}
	}
	minus, plus := row["strong"].Arms()
	if want := fmt.Sprintf("%.1f", row["strong"].Elo-low); minus != want || plus != "∞" {
		t.Errorf("strong's − and + %q %q, want %q and ∞", minus, plus, want)
	}
	for _, want := range []string{"│ " + minus + " │     ∞ │", "│     ∞ │ " + minus + " │", "score differences as arena match computes them"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	var doc struct {
		Players []struct {
			Name    string   `json:"name"`
			EloLow  *float64 `json:"elo_low"`
			EloHigh *float64 `json:"elo_high"`
		} `json:"players"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range doc.Players {
		if p.Name == "strong" && (p.EloLow == nil || !near(*p.EloLow, low) || p.EloHigh != nil) ||
			p.Name == "weak" && (p.EloLow != nil || p.EloHigh == nil || !near(*p.EloHigh, -low)) {
			t.Errorf("JSON %s: elo_low %v, elo_high %v", p.Name, p.EloLow, p.EloHigh)
		}
	}
	if !strings.Contains(c.String(), ",+inf,") || !strings.Contains(c.String(), ",-inf,") {
		t.Errorf("CSV without ±inf:\n%s", c.String())
	}
}

// TestGauntletIntervals: a gauntlet (g meets everyone, the others never
// each other). Where g swept one opponent and traded points with the
// rest, the swept player's upper bound is finite: g's rating plus Wilson's
// bound for its pairs; and the zero point is the mean of the players the
// data bound (g, y, z), whose ratings are, the pool being a tree, each
// pairing's score difference. Where g swept everyone, nobody is bounded
// against anybody: g's lower bound is the mean of its differences' (the
// others never met, so theirs are open both ways).
func TestGauntletIntervals(t *testing.T) {
	d := pairedDataset([]string{"g", "x", "y", "z"},
		pairing{"g", "x", repeat("1", 10)},
		pairing{"g", "y", repeat("1", 6) + "0=0="}, // 7 of 10
		pairing{"g", "z", repeat("=", 8) + "10"},   // 5 of 10
	)
	rep, row := rows(t, d, AnalysisOptions{})
	dy, dz := eloOf(0.7), 0.0
	g := (dy + dz) / 3
	want := map[string]float64{"g": g, "y": g - dy, "z": g - dz}
	for name, e := range want {
		if !near(row[name].Elo, e) || math.IsInf(row[name].EloLow, 0) || math.IsInf(row[name].EloHigh, 0) {
			t.Errorf("%s: %v [%v, %v], want %v with a finite interval", name, row[name].Elo, row[name].EloLow, row[name].EloHigh, e)
		}
	}
	if x, up := row["x"], g-eloOf(wilsonAll(5)); !math.IsInf(x.EloLow, -1) || !near(x.EloHigh, up) {
		t.Errorf("x: [%v, %v], want [-Inf, %v]", x.EloLow, x.EloHigh, up)
	}
	if !slices.Equal(rep.MeanOf, []string{"g", "y", "z"}) || !strings.Contains(rep.title(), "mean 0 over the players whose ratings the data bound (all but x)") {
		t.Errorf("mean of %v, title %q", rep.MeanOf, rep.title())
	}

	sweep := pairedDataset([]string{"g", "x", "y", "z"},
		pairing{"g", "x", repeat("1", 10)}, pairing{"g", "y", repeat("1", 10)}, pairing{"g", "z", repeat("1", 10)})
	_, row = rows(t, sweep, AnalysisOptions{})
	if g, want := row["g"], 3*eloOf(wilsonAll(5))/4; !near(g.EloLow, want) || !math.IsInf(g.EloHigh, 1) {
		t.Errorf("g swept all: [%v, %v], want [%v, +Inf]", g.EloLow, g.EloHigh, want)
	}
	for _, name := range []string{"x", "y", "z"} {
		if p := row[name]; !math.IsInf(p.EloLow, -1) || !math.IsInf(p.EloHigh, 1) {
			t.Errorf("%s: [%v, %v], want open both ways", name, p.EloLow, p.EloHigh)
		}
	}
	// Anchored on g, each swept player's upper bound is its own pair's.
	_, row = rows(t, sweep, AnalysisOptions{Anchor: "g"})
	for _, name := range []string{"x", "y", "z"} {
		if p := row[name]; !math.IsInf(p.EloLow, -1) || !near(p.EloHigh, -eloOf(wilsonAll(5))) {
			t.Errorf("anchored on g: %s [%v, %v], want [-Inf, %v]", name, p.EloLow, p.EloHigh, -eloOf(wilsonAll(5)))
		}
	}
}

// TestChainIntervals: players connected only through others. a met only
// b and swept it; e met only a and swept it; b and c traded points. The
// zero point is the mean of b and c; a's lower bound is b's rating plus
// Wilson's bound for its 5 pairs, e's is a's lower bound plus its own:
// each link of the chain adds its margin (a player beaten only by an
// unbounded player keeps the bounded side of that player's bound).
func TestChainIntervals(t *testing.T) {
	d := pairedDataset([]string{"a", "b", "c", "e"},
		pairing{"a", "b", repeat("1", 10)},
		pairing{"b", "c", repeat("1", 6) + "0000"}, // 6 of 10
		pairing{"e", "a", repeat("1", 10)},
	)
	_, row := rows(t, d, AnalysisOptions{})
	b := eloOf(0.6) / 2
	if !near(row["b"].Elo, b) || !near(row["c"].Elo, -b) {
		t.Errorf("b %v, c %v: want ±%v (their mean is the zero point)", row["b"].Elo, row["c"].Elo, b)
	}
	aLow := b + eloOf(wilsonAll(5))
	if a := row["a"]; !near(a.EloLow, aLow) || !math.IsInf(a.EloHigh, 1) {
		t.Errorf("a: [%v, %v], want [%v, +Inf]", a.EloLow, a.EloHigh, aLow)
	}
	if e := row["e"]; !near(e.EloLow, aLow+eloOf(wilsonAll(5))) || !math.IsInf(e.EloHigh, 1) {
		t.Errorf("e: [%v, %v], want [%v, +Inf]", e.EloLow, e.EloHigh, aLow+eloOf(wilsonAll(5)))
	}
}

// TestNilScoreLeavesTheMean: z lost every game to a and b, who traded
// points (12 of 20 to a). The zero point is a's and b's mean, so they are
// ±half their difference whatever rating the prior gives z (the mean of
// all three moved with it); z's upper bound is its opponents' mean plus
// Wilson's bound for its 10 pairs; the title and JSON say who averages 0.
func TestNilScoreLeavesTheMean(t *testing.T) {
	d := pairedDataset([]string{"a", "b", "z"},
		pairing{"a", "b", repeat("1=", 4) + repeat("10", 4) + "01" + "=0"}, // 4·1.5 + 4 + 1 + 0.5 = 11.5 of 20
		pairing{"a", "z", repeat("1", 20)},
		pairing{"b", "z", repeat("1", 20)},
	)
	rep, row := rows(t, d, AnalysisOptions{})
	half := eloOf(11.5/20) / 2
	if !near(row["a"].Elo, half) || !near(row["b"].Elo, -half) {
		t.Errorf("a %v, b %v: want ±%v", row["a"].Elo, row["b"].Elo, half)
	}
	if z := row["z"]; !math.IsInf(z.EloLow, -1) || !near(z.EloHigh, -eloOf(wilsonAll(20))) {
		t.Errorf("z: [%v, %v], want [-Inf, %v]", z.EloLow, z.EloHigh, -eloOf(wilsonAll(20)))
	}
	if !slices.Equal(rep.MeanOf, []string{"a", "b"}) || !strings.Contains(rep.title(), "(all but z)") {
		t.Errorf("mean of %v, title %q", rep.MeanOf, rep.title())
	}
	// FitRatings places the group alike.
	fit, err := FitRatings(3, d.Results(), FitOptions{Anchor: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !near(fit.Elo[0], half) || !near(fit.Elo[1], -half) {
		t.Errorf("FitRatings: %v, want a and b at ±%v", fit.Elo, half)
	}
}

// TestBootstrapBoundsExact pins a percentile bootstrap interval to the
// exact distribution of the resamples. z lost all its 16 games, so every
// resample leaves it unbounded and rates a and b on their own games, at
// mean 0: a is half the Elo of its score in the resample's a–b games,
// whose counts (wins, draws, losses) are multinomial over all 28 games.
// Enumerating them gives the exact distribution; the 4000 resamples'
// 2.5 % and 97.5 % quantiles must lie between its quantiles at those
// levels ± three standard errors of an empirical quantile's level. (With
// the mean of all three as the zero point, a moved with z's prior rating:
// about 170 Elo above.)
func TestBootstrapBoundsExact(t *testing.T) {
	aw, ad, al := 6, 2, 4
	rs := games(0, 1, aw, ad, al)
	rs = append(rs, games(0, 2, 8, 0, 0)...)
	rs = append(rs, games(1, 2, 8, 0, 0)...)
	n := len(rs)
	r, err := Rate(3, rs, FitOptions{Anchor: -1}, BootstrapOptions{Replicates: 4000, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	// The exact distribution of a's replicate value: ±Inf when a or b
	// took no point (a sweep leaves them open), NaN when they did not
	// meet in the resample (open both ways: −Inf for the lower end, +Inf
	// for the upper).
	type atom struct{ v, p float64 }
	var atoms []atom
	lf := func(k int) float64 { v, _ := math.Lgamma(float64(k) + 1); return v }
	pw, pd, pl := float64(aw)/float64(n), float64(ad)/float64(n), float64(al)/float64(n)
	pr := 1 - pw - pd - pl
	for w := 0; w <= n; w++ {
		for dd := 0; w+dd <= n; dd++ {
			for l := 0; w+dd+l <= n; l++ {
				rest := n - w - dd - l
				lp := lf(n) - lf(w) - lf(dd) - lf(l) - lf(rest) + float64(w)*math.Log(pw) + float64(dd)*math.Log(pd) + float64(l)*math.Log(pl) + float64(rest)*math.Log(pr)
				v := math.NaN()
				if g := w + dd + l; g > 0 {
					s := (float64(w) + float64(dd)/2) / float64(g)
					switch {
					case s == 1:
						v = math.Inf(1)
					case s == 0:
						v = math.Inf(-1)
					default:
						v = eloOf(s) / 2
					}
				}
				atoms = append(atoms, atom{v, math.Exp(lp)})
			}
		}
	}
	// quantile is the smallest value whose cumulative probability reaches
	// q (gonum's Empirical), with NaN counted as nanAs.
	quantile := func(q float64, nanAs float64) float64 {
		vals := map[float64]float64{}
		for _, a := range atoms {
			if math.IsNaN(a.v) {
				a.v = nanAs
			}
			vals[a.v] += a.p
		}
		keys := make([]float64, 0, len(vals))
		for k := range vals {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var cum float64
		for _, k := range keys {
			if cum += vals[k]; cum >= q {
				return k
			}
		}
		return math.Inf(1)
	}
	const level = 0.025
	delta := 3 * math.Sqrt(level*(1-level)/4000)
	lo, hi := quantile(level, math.Inf(-1)), quantile(1-level, math.Inf(1))
	loBand := [2]float64{quantile(level-delta, math.Inf(-1)), quantile(level+delta, math.Inf(-1))}
	hiBand := [2]float64{quantile(1-level-delta, math.Inf(1)), quantile(1-level+delta, math.Inf(1))}
	in := func(v float64, b [2]float64) bool { return b[0] <= v && v <= b[1] }
	if !in(r.Low[0], loBand) || !in(r.High[0], hiBand) || !in(-r.High[1], loBand) || !in(-r.Low[1], hiBand) {
		t.Errorf("a [%v, %v], b [%v, %v]; the exact bootstrap gives a [%v, %v], the lower end within %v, the upper within %v",
			r.Low[0], r.High[0], r.Low[1], r.High[1], lo, hi, loBand, hiBand)
	}
	t.Logf("a: [%.2f, %.2f] from 4000 resamples; exactly [%.2f, %.2f], bands %.2f and %.2f", r.Low[0], r.High[0], lo, hi, loBand, hiBand)
}
