package results

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// Statistics at the extremes with the options that change the fit: a
// prior, Davidson's draws, the likelihood of superiority, and a match
// whose record holds games its SPRT did not count. Expected values come
// from the data by hand, as in intervals_test.go.

// wilsonAt is one end of Wilson's interval for a score s over n trials
// (z < 0 for the lower end), by hand.
func wilsonAt(s, n, z float64) float64 {
	return (s + z*z/(2*n) + z*math.Sqrt(s*(1-s)/n+z*z/(4*n*n))) / (1 + z*z/n)
}

// pentaNormal is the pentanomial's mean pair score (per game) and its
// standard error, by hand: pair scores 0, ¼, ½, ¾, 1 with counts c.
func pentaNormal(c [5]float64) (mean, se float64) {
	xs := [5]float64{0, 0.25, 0.5, 0.75, 1}
	var n, v float64
	for i := range c {
		n += c[i]
		mean += c[i] * xs[i]
	}
	mean /= n
	for i := range c {
		v += c[i] * (xs[i] - mean) * (xs[i] - mean)
	}
	return mean, math.Sqrt(v / n / n)
}

// TestPriorDoesNotBoundWhatTheDataLeaveOpen: a prior gives a rating to a
// player the games cannot bound, not an interval. With --prior a 60-0-0
// printed ± 0.0 (every resample alike, each refitted to the same prior
// rating), 60 draws the same, a strict order and a sweeper in a pool
// intervals some 50 Elo wide around the prior's ratings. Now each is
// what the data give without a prior: match's interval for two players,
// open where the games leave it open, the performance bound on the
// other side, the zero point on the players the data bound.
func TestPriorDoesNotBoundWhatTheDataLeaveOpen(t *testing.T) {
	inf := math.Inf(1)
	half := eloOf(wilsonAll(30)) / 2
	drawn := eloOf(wilsonAt(0.5, 30, z95)) / 2 // 30 pairs of draws: Wilson at ½
	for _, tc := range []struct {
		name          string
		results       string
		prior         float64
		elo, low, hig float64 // strong's
	}{
		// The prior's rating: 60.5 of 61 points.
		{"60-0-0, prior 1", repeat("1", 60), 1, eloOf(60.5/61) / 2, half, inf},
		// 70 of 80: below what the data allow (half); the interval
		// keeps the rating in it.
		{"60-0-0, prior 20", repeat("1", 60), 20, eloOf(70.0/80) / 2, eloOf(70.0/80) / 2, inf},
		{"0-60-0, prior 1", repeat("=", 60), 1, 0, -drawn, drawn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := pairedDataset([]string{"strong", "weak"}, pairing{"strong", "weak", tc.results})
			_, row := rows(t, d, AnalysisOptions{Prior: tc.prior})
			s, w := row["strong"], row["weak"]
			if !near(s.Elo, tc.elo) || !near(w.Elo, -tc.elo) {
				t.Errorf("Elo %v and %v, want ±%v", s.Elo, w.Elo, tc.elo)
			}
			if !near(s.EloLow, tc.low) || !near(s.EloHigh, tc.hig) || !near(w.EloLow, -tc.hig) || !near(w.EloHigh, -tc.low) {
				t.Errorf("strong [%v, %v], weak [%v, %v]; want [%v, %v] and its mirror", s.EloLow, s.EloHigh, w.EloLow, w.EloHigh, tc.low, tc.hig)
			}
		})
	}

	// a swept b and c, who traded points (13 of 20 to b). The prior rates
	// a; its interval is open above and its lower bound the performance
	// bound: b's and c's mean (0, the zero point) plus Wilson's for its
	// 20 pairs. b and c average 0 whatever a's rating.
	mix := repeat("10", 3) + repeat("==", 2) + repeat("1=", 3) + "0011"
	pool := pairedDataset([]string{"a", "b", "c"}, pairing{"a", "b", repeat("1", 20)}, pairing{"a", "c", repeat("1", 20)}, pairing{"b", "c", mix + mix})
	rep, row := rows(t, pool, AnalysisOptions{Prior: 5})
	if a := row["a"]; !near(a.EloLow, eloOf(wilsonAll(20))) || !math.IsInf(a.EloHigh, 1) {
		t.Errorf("a: [%v, %v], want [%v, +Inf]", a.EloLow, a.EloHigh, eloOf(wilsonAll(20)))
	}
	if b, c := row["b"], row["c"]; !near(b.Elo, -c.Elo) || b.Elo <= 0 || math.IsInf(b.EloLow, 0) || math.IsInf(c.EloHigh, 0) {
		t.Errorf("b %v [%v, %v], c %v [%v, %v]: want ±, finite", b.Elo, b.EloLow, b.EloHigh, c.Elo, c.EloLow, c.EloHigh)
	}
	if !slices.Equal(rep.MeanOf, []string{"b", "c"}) || !strings.Contains(strings.Join(rep.Notes, "\n"), "the Elo shown for them is the prior's (5 virtual draws per pair that met)") {
		t.Errorf("mean of %v, notes %q", rep.MeanOf, rep.Notes)
	}
	fit, err := FitRatings(3, pool.Results(), FitOptions{Prior: 5, Anchor: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !near(fit.Elo[1], row["b"].Elo) || !near(fit.Elo[2], row["c"].Elo) || !near(fit.Elo[0], row["a"].Elo) {
		t.Errorf("FitRatings %v, Rate a %v, b %v, c %v: the same zero point", fit.Elo, row["a"].Elo, row["b"].Elo, row["c"].Elo)
	}

	// A strict order: nobody is bounded against anybody, prior or not:
	// a's lower bound is the mean of its differences' to the group.
	strict := pairedDataset([]string{"a", "b", "c"}, pairing{"a", "b", repeat("1", 10)}, pairing{"b", "c", repeat("1", 10)}, pairing{"a", "c", repeat("1", 10)})
	_, row = rows(t, strict, AnalysisOptions{Prior: 1})
	if a, want := row["a"], 2*eloOf(wilsonAll(5))/3; !near(a.EloLow, want) || !math.IsInf(a.EloHigh, 1) {
		t.Errorf("strict order, a: [%v, %v], want [%v, +Inf]", a.EloLow, a.EloHigh, want)
	}
	if b := row["b"]; !math.IsInf(b.EloLow, -1) || !math.IsInf(b.EloHigh, 1) {
		t.Errorf("strict order, b: [%v, %v], want open both ways", b.EloLow, b.EloHigh)
	}
}

// TestTwoPlayerLOSIsTheMatchs: two players' likelihood of superiority is
// match's, Φ((score − ½)/se) over the pentanomial (or, without pairs,
// the trinomial), as their interval is; it was the bootstrap's share of
// resamples (74 % where match says 71 % on the pairs below).
func TestTwoPlayerLOSIsTheMatchs(t *testing.T) {
	phi := func(x float64) float64 { return (1 + math.Erf(x/math.Sqrt2)) / 2 }
	// [4, 6, 10, 6, 6]: pairs LL, LD, DD+WL, WD, WW.
	results := repeat("00", 4) + repeat("0=", 3) + repeat("=0", 3) + repeat("==", 5) + repeat("10", 5) + repeat("=1", 3) + repeat("1=", 3) + repeat("11", 6)
	mean, se := pentaNormal([5]float64{4, 6, 10, 6, 6})
	want := phi((mean - 0.5) / se)
	d := pairedDataset([]string{"s", "w"}, pairing{"s", "w", results})
	for _, o := range []AnalysisOptions{{}, {Prior: 2}, {Anchor: "w"}} {
		rep, _ := rows(t, d, o)
		los := map[string]float64{}
		for _, l := range rep.LOS {
			los[l.Player] = l.LOS
		}
		if !near(los["s"], want) || !near(los["w"], 1-want) {
			t.Errorf("%+v: LOS s>w %v, w>s %v; match's %v", o, los["s"], los["w"], want)
		}
	}
	// By games: 31-10-19 (the trinomial).
	w, dr, l := 31.0, 10.0, 19.0
	n := w + dr + l
	m := (w + dr/2) / n
	v := (w*(1-m)*(1-m) + dr*(0.5-m)*(0.5-m) + l*m*m) / n
	r, err := Rate(2, games(0, 1, 31, 10, 19), FitOptions{Anchor: -1}, BootstrapOptions{Replicates: 300, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if want := phi((m - 0.5) / math.Sqrt(v/n)); !near(r.LOS[0][1], want) || !near(r.LOS[1][0], 1-want) {
		t.Errorf("by games: LOS %v and %v, want %v and its complement", r.LOS[0][1], r.LOS[1][0], want)
	}
}

// TestDavidsonWithoutDrawsIsTheHalfModel: without a draw Davidson's fit is
// the half model's (ν = 0), so two players get match's interval under
// either model; they kept the bootstrap's under Davidson (at 47-0-3 a
// lower bound 12 Elo lower than match's half). With draws Davidson's
// difference is the log win/loss odds rescaled, not the Elo of the score
// that match bounds: the bootstrap stays.
func TestDavidsonWithoutDrawsIsTheHalfModel(t *testing.T) {
	mean, se := pentaNormal([5]float64{0, 0, 3, 0, 22})
	low := eloOf(mean-z95*se) / 2
	d := pairedDataset([]string{"strong", "weak"}, pairing{"strong", "weak", "10" + repeat("1", 18) + "01" + repeat("1", 18) + "10" + repeat("1", 8)})
	for _, draws := range []DrawModel{HalfWin, Davidson} {
		_, row := rows(t, d, AnalysisOptions{Draws: draws})
		if s := row["strong"]; !near(s.Elo, eloOf(0.94)/2) || !near(s.EloLow, low) || !math.IsInf(s.EloHigh, 1) {
			t.Errorf("%v: strong %v [%v, %v], want %v [%v, +Inf]", draws, s.Elo, s.EloLow, s.EloHigh, eloOf(0.94)/2, low)
		}
	}
	drawn := pairedDataset([]string{"strong", "weak"}, pairing{"strong", "weak", repeat("1=", 10) + repeat("10", 10) + repeat("0=", 5)})
	rep, _ := rows(t, drawn, AnalysisOptions{Draws: Davidson})
	if strings.Contains(strings.Join(rep.Notes, "\n"), "score differences") {
		t.Errorf("Davidson with draws took match's interval: %q", rep.Notes)
	}
}

// TestUncountedMatchGamesNoted: a match record holding games its SPRT did
// not count (they finished after the decision) is rated whole, and the
// report says what match counted, from a Tally and a Dataset alike.
func TestUncountedMatchGamesNoted(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05, Model: Logistic}
	h := Header{Record: KindHeader, Version: FormatVersion, Created: "2026-01-01T00:00:00Z", Concurrency: 2, Config: Config{
		Kind: Match, Game: "othello6", GamesPerPair: 100, Seed: 1, MaxPlies: 200, TotalGames: 100, SPRT: &test,
		Agents: []AgentInfo{{Name: "a", Spec: "random:name=a"}, {Name: "b", Spec: "random:name=b"}}}}
	var buf bytes.Buffer
	line, err := MarshalLine(h)
	if err != nil {
		t.Fatal(err)
	}
	buf.Write(line)
	// a wins all 60 games; pairs complete, game 2r with a first.
	want := NewPairTracker(&test, 0)
	var gs []GameRecord
	for i := 0; i < 60; i++ {
		g := GameRecord{Record: KindGame, Index: i, Round: i / 2, Game: "othello6", Result: "1-0", Winner: 0, Termination: Normal, Forfeit: -1,
			Players: [2]Player{{Agent: 0, Name: "a", Spec: "random:name=a"}, {Agent: 1, Name: "b", Spec: "random:name=b"}}}
		if i%2 == 1 {
			g.Players[0], g.Players[1] = g.Players[1], g.Players[0]
			g.Result, g.Winner = "0-1", 1
		}
		gs = append(gs, g)
		want.Add(&gs[i])
		line, err := MarshalLine(g)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(line)
	}
	if want.Decision != AcceptH1 || want.DecidedAt >= 30 {
		t.Fatalf("the test needs an SPRT that decides before 30 pairs: %v after %d", want.Decision, want.DecidedAt)
	}
	k := want.DecidedAt
	note := fmt.Sprintf("m.jsonl: arena match counted %d game pairs (%d games), up to its SPRT's decision (H1 accepted); the %d games that finished after the decision are rated here too", k, 2*k, 60-2*k)
	tally := NewTally()
	if _, err := tally.Read(bytes.NewReader(buf.Bytes()), "m.jsonl"); err != nil {
		t.Fatal(err)
	}
	f, err := Read(bytes.NewReader(buf.Bytes()), "m.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Merge(f)
	if err != nil {
		t.Fatal(err)
	}
	for name, build := range map[string]func(AnalysisOptions) (*Analysis, error){"tally": tally.Analyse, "dataset": func(o AnalysisOptions) (*Analysis, error) { return Analyse(ds, o) }} {
		rep, err := build(AnalysisOptions{Bootstrap: 10})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Games != 60 || !slices.Contains(rep.Notes, note) {
			t.Errorf("%s: %d games, notes %q; want 60 and %q", name, rep.Games, rep.Notes, note)
		}
	}
}

// TestDrawnBodiesAreNotExact: players bounded in the data whose games
// with each other were all drawn come out equal in every resample, so the
// bootstrap gave them an interval of width 0 (0.0 [0.0, 0.0]), under any
// model. Their intervals are their score differences' (Wilson's at ½ for
// pairs all drawn), averaged over the others so rated, as for players
// none of whom is bounded against another.
func TestDrawnBodiesAreNotExact(t *testing.T) {
	at := func(pairs float64) float64 { return eloOf(wilsonAt(0.5, pairs, z95)) }
	three := pairedDataset([]string{"a", "b", "c"}, pairing{"a", "b", repeat("=", 10)}, pairing{"b", "c", repeat("=", 10)}, pairing{"a", "c", repeat("=", 10)})
	two := pairedDataset([]string{"a", "b"}, pairing{"a", "b", repeat("=", 60)})
	swept := pairedDataset([]string{"a", "b", "c"}, pairing{"a", "b", repeat("=", 10)}, pairing{"b", "c", repeat("1", 10)}, pairing{"a", "c", repeat("1", 10)})
	for _, tc := range []struct {
		name string
		d    *Dataset
		o    AnalysisOptions
		half float64 // a's and b's interval: ± half
	}{
		{"three drawn", three, AnalysisOptions{}, 2 * at(5) / 3},
		{"three drawn, davidson", three, AnalysisOptions{Draws: Davidson}, 2 * at(5) / 3},
		{"two drawn, first move", two, AnalysisOptions{FirstMove: true}, at(30) / 2},
		{"two drawn, davidson", two, AnalysisOptions{Draws: Davidson}, at(30) / 2},
		{"two drawn, c swept", swept, AnalysisOptions{}, at(5) / 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, row := rows(t, tc.d, tc.o)
			for _, name := range []string{"a", "b"} {
				if p := row[name]; !near(p.Elo, 0) || !near(p.EloLow, -tc.half) || !near(p.EloHigh, tc.half) {
					t.Errorf("%s: %v [%v, %v], want 0 ± %v", name, p.Elo, p.EloLow, p.EloHigh, tc.half)
				}
			}
		})
	}
	// c's upper bound: a's and b's mean plus Wilson's for its 10 pairs.
	if _, row := rows(t, swept, AnalysisOptions{}); !math.IsInf(row["c"].EloLow, -1) || !near(row["c"].EloHigh, -eloOf(wilsonAll(10))) {
		t.Errorf("c: [%v, %v], want [-Inf, %v]", row["c"].EloLow, row["c"].EloHigh, -eloOf(wilsonAll(10)))
	}
}

// TestAnchorOnAnUnboundedPlayer: anchored on z, who lost all its games,
// a and b kept their mean-0 ratings beside z's 0 (so a, who beat z 20-0,
// was rated 26 Elo above it), and z's interval was [−∞, 0]. Now a and b
// stand where the fit puts them relative to z (a − b by maximum
// likelihood, their place by the prior's rating of z), z's interval is
// its given rating, and the others', which the games do not bound
// relative to z, are open both ways, with a prior too.
func TestAnchorOnAnUnboundedPlayer(t *testing.T) {
	d := pairedDataset([]string{"a", "b", "z"},
		pairing{"a", "b", repeat("1=", 4) + repeat("10", 4) + "01" + "=0"}, // 11.5 of 20
		pairing{"a", "z", repeat("1", 20)},
		pairing{"b", "z", repeat("1", 20)},
	)
	_, free := rows(t, d, AnalysisOptions{})
	for _, prior := range []float64{0, 2} {
		rep, row := rows(t, d, AnalysisOptions{Anchor: "z", AnchorElo: 100, Prior: prior})
		a, b, z := row["a"], row["b"], row["z"]
		if prior == 0 && (!near(a.Elo-b.Elo, eloOf(11.5/20)) || !near(a.Elo-z.Elo, free["a"].Elo-free["z"].Elo)) {
			t.Errorf("a %v, b %v, z %v: want a − b = %v and a − z = %v as unanchored", a.Elo, b.Elo, z.Elo, eloOf(11.5/20), free["a"].Elo-free["z"].Elo)
		}
		if z.Elo != 100 || z.EloLow != 100 || z.EloHigh != 100 || a.Elo < 300 || b.Elo < 300 {
			t.Errorf("prior %v: z %v [%v, %v], a %v, b %v: want z at 100 exactly, a and b far above", prior, z.Elo, z.EloLow, z.EloHigh, a.Elo, b.Elo)
		}
		for _, p := range []PlayerRow{a, b} {
			if !math.IsInf(p.EloLow, -1) || !math.IsInf(p.EloHigh, 1) {
				t.Errorf("prior %v: %s [%v, %v], want open both ways", prior, p.Name, p.EloLow, p.EloHigh)
			}
		}
		if !strings.Contains(strings.Join(rep.Notes, "\n"), "the games do not bound the anchor z's rating") {
			t.Errorf("prior %v: notes %q", prior, rep.Notes)
		}
	}
}

// TestDavidsonWithoutAMaximum: under Davidson a player who never lost but
// drew (47-3-0) has no most likely rating: ν and the difference grow
// together without end, and the fit stopped somewhere on the way, at
// +0.6 Elo for a 97 % score (2.2 for a 60-0-0 with a prior's draws). The
// half model rates such games instead, and says so; where one pair's
// decisive results went both ways ν is bounded and Davidson stays.
func TestDavidsonWithoutAMaximum(t *testing.T) {
	for _, tc := range []struct {
		name  string
		games []Result
		prior float64
		diff  float64
	}{
		{"47-3-0", games(0, 1, 47, 3, 0), 0, eloOf(48.5 / 50)},
		{"0-60-0", games(0, 1, 0, 60, 0), 0, 0},
		{"60-0-0, prior 1", games(0, 1, 60, 0, 0), 1, eloOf(60.5 / 61)},
	} {
		fit, err := FitRatings(2, tc.games, FitOptions{Draws: Davidson, Prior: tc.prior, Anchor: -1})
		if err != nil {
			t.Fatal(err)
		}
		if got := fit.Elo[0] - fit.Elo[1]; !near(got, tc.diff) || !fit.davidsonUnbounded || fit.DrawNu != 0 {
			t.Errorf("%s: difference %v (ν %v), want the half model's %v", tc.name, got, fit.DrawNu, tc.diff)
		}
	}
	// The report says so, and two players take match's interval.
	d := pairedDataset([]string{"strong", "weak"}, pairing{"strong", "weak", "1=" + repeat("1", 18) + "=1" + repeat("1", 18) + "1=" + repeat("1", 8)})
	mean, se := pentaNormal([5]float64{0, 0, 0, 3, 22})
	rep, row := rows(t, d, AnalysisOptions{Draws: Davidson})
	if s := row["strong"]; !near(s.Elo, eloOf(0.97)/2) || !near(s.EloLow, eloOf(mean-z95*se)/2) || !math.IsInf(s.EloHigh, 1) {
		t.Errorf("strong %v [%v, %v], want %v [%v, +Inf]", s.Elo, s.EloLow, s.EloHigh, eloOf(0.97)/2, eloOf(mean-z95*se)/2)
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "Davidson's draw model has no most likely ratings here") {
		t.Errorf("notes %q", rep.Notes)
	}
	// ν is bounded where some pair won and lost against each other, and
	// where draws and wins cannot all spread apart: a beat b and c, b
	// beat c, a drew c (a–c would need to be both 4 apart and within 2).
	for name, rs := range map[string][]Result{
		"a pair both ways": append(games(0, 1, 9, 1, 0), games(1, 2, 5, 2, 3)...),
		"a cycle":          append(append(games(0, 1, 5, 0, 0), games(1, 2, 5, 0, 0)...), games(0, 2, 0, 4, 0)...),
	} {
		fit, err := FitRatings(3, rs, FitOptions{Draws: Davidson, Anchor: -1})
		if err != nil {
			t.Fatal(err)
		}
		if fit.davidsonUnbounded || fit.DrawNu <= 0 {
			t.Errorf("%s: ν %v, the half model stood in: Davidson's maximum exists", name, fit.DrawNu)
		}
	}
}
