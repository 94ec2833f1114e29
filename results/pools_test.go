package results

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/boardgame-arena/arena/rng"
)

// pool simulates a large pool (issue #34): players with normal true
// ratings (spread 200 Elo); rounds 0 plays a round robin (every pair
// once), else each round pairs the players at random, two games with
// colours swapped (Swiss-like: each meets about rounds others). A fifth
// of the games are draws. Reproducible from seed.
func pool(players, rounds int, seed uint64) []Result {
	r := rng.New(seed)
	elo := make([]float64, players)
	for i := range elo {
		elo[i] = 200 * math.Sqrt(-2*math.Log(1-r.Float64())) * math.Cos(2*math.Pi*r.Float64())
	}
	var out []Result
	play := func(a, b int) {
		score, u := 0.0, r.Float64()
		switch pa := 1 / (1 + math.Pow(10, (elo[b]-elo[a])/400)); {
		case u < 0.2:
			score = 0.5
		case u < 0.2+0.8*pa:
			score = 1
		}
		out = append(out, Result{First: a, Second: b, Score: score})
	}
	if rounds == 0 {
		for a := range players {
			for b := a + 1; b < players; b++ {
				if (a+b)%2 == 0 {
					play(a, b)
				} else {
					play(b, a)
				}
			}
		}
		return out
	}
	perm := make([]int, players)
	for i := range perm {
		perm[i] = i
	}
	for range rounds {
		for i := len(perm) - 1; i > 0; i-- {
			j := r.IntN(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		for k := 0; k+1 < players; k += 2 {
			play(perm[k], perm[k+1])
			play(perm[k+1], perm[k])
		}
	}
	return out
}

// BenchmarkPool is Rate on large pools (issue #34): a 1 000-player round
// robin and a 10 000-player Swiss-like pool (20 rounds) without
// intervals, a 300-player round robin with 100 bootstrap resamples, and a
// 2 000-player Swiss-like pool without and with 100 (one worker).
func BenchmarkPool(b *testing.B) {
	for _, c := range []struct {
		players, rounds, reps int
	}{{1000, 0, 0}, {10000, 20, 0}, {300, 0, 100}, {2000, 20, 0}, {2000, 20, 100}} {
		kind := "rr"
		if c.rounds > 0 {
			kind = fmt.Sprintf("swiss%d", c.rounds)
		}
		b.Run(fmt.Sprintf("%s-%d-players-%d-resamples", kind, c.players, c.reps), func(b *testing.B) {
			games := pool(c.players, c.rounds, 1)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Rate(c.players, games, FitOptions{Anchor: -1}, BootstrapOptions{Replicates: c.reps, Seed: 1, Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSparseFitMatchesDense checks the sparse Newton fit against the
// dense one it replaced (denseMaximise, gonum's Newton on the full
// Hessian) on the pools of the tests, under every model. The dense fit
// could stop up to about 1e-8 natural units short (a line search failing
// where its scaled gradient was below 1e-6); the sparse one must reach a
// gradient of 1e-12 per game (the concave likelihood's maximum), at
// least the dense fit's likelihood, and the same parameters to 1e-6
// natural units (under 0.001 Elo: no table prints the difference).
func TestSparseFitMatchesDense(t *testing.T) {
	r := rng.New(7)
	pools := map[string]struct {
		n     int
		games []Result
	}{
		"five":     {5, simulate(r, []float64{-150, -40, 0, 60, 130}, 24, 0.3)},
		"ten":      {10, simulate(r, []float64{-300, -200, -150, -40, 0, 60, 130, 200, 250, 300}, 10, 0.3)},
		"lopsided": {4, simulate(r, []float64{-800, 0, 50, 900}, 6, 0.1)},
		"swiss":    {60, pool(60, 5, 3)},
		"rr":       {40, pool(40, 0, 4)},
	}
	opts := map[string]FitOptions{
		"half":           {Anchor: -1},
		"davidson":       {Anchor: -1, Draws: Davidson},
		"first":          {Anchor: -1, FirstMove: true},
		"davidson-first": {Anchor: -1, Draws: Davidson, FirstMove: true},
		"prior":          {Anchor: -1, Prior: 2, FirstMove: true},
	}
	for pn, p := range pools {
		cells, err := aggregate(p.n, p.games)
		if err != nil {
			t.Fatal(err)
		}
		for on, o := range opts {
			m := newModel(p.n, cells, o)
			data := m.withPrior(cells, max(o.Prior, AutoPrior))
			want, err := m.denseMaximise(data)
			if err != nil {
				t.Fatalf("%s %s: dense: %v", pn, on, err)
			}
			got, err := m.maximise(data)
			if err != nil {
				t.Fatalf("%s %s: sparse: %v", pn, on, err)
			}
			grad := make([]float64, m.nx)
			ll := m.logLik(got, data, grad)
			if g := floats.Norm(grad, math.Inf(1)) / float64(len(p.games)); g > 1e-12 {
				t.Errorf("%s %s: gradient %g per game at the sparse fit", pn, on, g)
			}
			if llDense := m.logLik(want, data, nil); ll < llDense-1e-12*math.Abs(llDense) {
				t.Errorf("%s %s: log-likelihood %.17g below the dense fit's %.17g", pn, on, ll, llDense)
			}
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-6 {
					t.Errorf("%s %s: x[%d] = %.15g, dense %.15g", pn, on, i, got[i], want[i])
				}
			}
		}
	}
}

// TestDominanceOrder checks the component form of dominance against its
// definition (i reaches j along "took points from", j does not reach i)
// on random sparse results, strict orders and cycles included.
func TestDominanceOrder(t *testing.T) {
	r := rng.New(11)
	for trial := range 200 {
		n := 2 + r.IntN(12)
		var cells []cell
		for range r.IntN(3 * n) {
			a, b := r.IntN(n), r.IntN(n)
			if a == b {
				continue
			}
			cells = append(cells, cell{a: a, b: b, w: float64(r.IntN(2)), d: float64(r.IntN(4) / 3), l: float64(r.IntN(2))})
		}
		s := newScoredGraph(n, cells)
		d := newDominanceOrder(s)
		for i := range n {
			down := reach(s, []int{i}, true)
			for j := range n {
				want := i != j && down[j] && !reach(s, []int{j}, true)[i]
				if got := d.over(i, j); got != want {
					t.Fatalf("trial %d: over(%d, %d) = %v, want %v (cells %v)", trial, i, j, got, want, cells)
				}
				if has := s.has(i, j); has != slices.ContainsFunc(cells, func(c cell) bool {
					return c.a == i && c.b == j && c.w+c.d > 0 || c.a == j && c.b == i && c.l+c.d > 0
				}) {
					t.Fatalf("trial %d: has(%d, %d) = %v", trial, i, j, has)
				}
			}
		}
	}
}

// TestSparsePoolMemory checks that rating a sparse pool takes memory in
// the pairs that met, not players²: 2 000 players in 20 Swiss-like rounds
// (40 000 games) must allocate less than one players² table of float64
// (32 MB; the dense fit allocated about 150 MB: players² tables of
// counts, LOS and the Hessian), and twice the players with the same
// rounds less than 2.5 times as much (players² would be 4 times).
// Counted in bytes allocated, never time.
func TestSparsePoolMemory(t *testing.T) {
	fits := []struct {
		name string
		run  func(players int, games []Result) error
	}{
		{"FitRatings", func(players int, games []Result) error {
			_, err := FitRatings(players, games, FitOptions{Anchor: -1})
			return err
		}},
		{"Rate", func(players int, games []Result) error {
			_, err := Rate(players, games, FitOptions{Anchor: -1, Draws: Davidson, FirstMove: true}, BootstrapOptions{})
			return err
		}},
	}
	for _, f := range fits {
		var bytes [2]uint64
		for k, players := range []int{2000, 4000} {
			games := pool(players, 20, 5)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if err := f.run(players, games); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			bytes[k] = after.TotalAlloc - before.TotalAlloc
			t.Logf("%s of %d players: %d bytes allocated", f.name, players, bytes[k])
		}
		if limit := uint64(2000 * 2000 * 8); bytes[0] > limit {
			t.Errorf("%s of 2000 players allocated %d bytes, more than %d (players² float64)", f.name, bytes[0], limit)
		}
		if r := float64(bytes[1]) / float64(bytes[0]); r > 2.5 {
			t.Errorf("%s: twice the players allocated %.2f times as much", f.name, r)
		}
	}
}

// TestLargeCrosstableNotPrinted checks that text output leaves out the
// players² crosstable of a large pool (at 2 000 players it took 40 s and
// 6 GB of allocations to lay out) and says where the pairings are.
func TestLargeCrosstableNotPrinted(t *testing.T) {
	games := pool(maxCrossPlayers+1, 2, 9)
	s := summaryOf(t, maxCrossPlayers+1, games)
	a, err := buildReport("othello6", s, AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := a.Write(&out, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "too many to print as a table") || strings.Contains(out.String(), "1-0-1 50%") {
		t.Errorf("the crosstable of %d players was printed:\n%.2000s", maxCrossPlayers+1, out.String())
	}
}

// TestLargePoolReportMemory checks that the whole report of a sparse pool
// of 6 000 players (20 Swiss-like rounds, 120 000 games), counted as a
// Tally counts record files and analysed with 10 bootstrap resamples,
// allocates far less than one players² table of 48 bytes a pair (the
// crosstables Summary kept, 1.7 GB here) or of LOS rows (40 bytes a pair
// and resample set: 1.4 GB): memory in the players and the pairs that
// met. More than 4 096 players were refused (results.MaxPlayers).
// Counted in bytes allocated, never time.
func TestLargePoolReportMemory(t *testing.T) {
	const players = 6000
	games := pool(players, 20, 11)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := summaryOf(t, players, games)
	a, err := buildReport("othello6", s, AnalysisOptions{Bootstrap: 10, Seed: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	bytes := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d players, %d games, 10 resamples: %d bytes allocated, %d crosstable rows, %d LOS rows", players, len(games), bytes, len(a.Crosstable), len(a.LOS))
	if limit := uint64(players * players * 8); bytes > limit {
		t.Errorf("rating %d players allocated %d bytes, more than %d (players² × 8, a sixth of the players² crosstables alone)", players, bytes, limit)
	}
	// Every pairing is listed (each pair from both sides), and LOS only
	// for neighbours in the ranking: two rows a player, but the ends.
	met := len(s.Met())
	if len(a.Crosstable) != 2*met {
		t.Errorf("%d crosstable rows for %d pairs that met", len(a.Crosstable), met)
	}
	if len(a.LOS) != 2*(players-1) {
		t.Errorf("%d LOS rows, want %d (neighbours in the ranking of one group)", len(a.LOS), 2*(players-1))
	}
	for k := 1; k < len(a.Players); k++ {
		if a.Players[k].Group != 0 {
			t.Fatalf("the pool is not connected: %s is in group %d", a.Players[k].Name, a.Players[k].Group)
		}
	}
}

// TestNeighbourLOS checks the likelihood of superiority of a pool above
// LOSMaxPlayers (lowered here to 0): each player's against its
// neighbours in the ranking of its group is the full table's, every
// other entry NaN, and the report lists it in the standings' order with
// a note saying so.
func TestNeighbourLOS(t *testing.T) {
	const players = 40
	games := pool(players, 4, 13)
	games = append(games, Result{First: players, Second: players + 1, Score: 1}, Result{First: players + 1, Second: players, Score: 0.5}) // a group of two
	n := players + 2
	bo := BootstrapOptions{Replicates: 30, Seed: 3, Workers: 2}
	full, err := Rate(n, games, FitOptions{Anchor: -1}, bo)
	if err != nil {
		t.Fatal(err)
	}
	defer func(v int) { losDenseMax = v }(losDenseMax)
	losDenseMax = 0
	near, err := Rate(n, games, FitOptions{Anchor: -1}, bo)
	if err != nil {
		t.Fatal(err)
	}
	if near.LOS != nil {
		t.Fatal("LOS table kept above losDenseMax")
	}
	neighbours := map[[2]int]bool{}
	for _, g := range full.Groups {
		ranked := slices.Clone(g)
		slices.SortStableFunc(ranked, func(a, b int) int {
			if full.Elo[a] != full.Elo[b] {
				if full.Elo[a] > full.Elo[b] {
					return -1
				}
				return 1
			}
			return a - b
		})
		for k := 1; k < len(ranked); k++ {
			neighbours[[2]int{ranked[k-1], ranked[k]}], neighbours[[2]int{ranked[k], ranked[k-1]}] = true, true
		}
	}
	if len(neighbours) != 2*(players-1)+2 {
		t.Fatalf("%d neighbour entries", len(neighbours))
	}
	for i := range n {
		for j := range n {
			got, want := near.LOSAt(i, j), full.LOSAt(i, j)
			switch {
			case neighbours[[2]int{i, j}] && got != want:
				t.Errorf("LOS of %d over its neighbour %d: %v, the full table's %v", i, j, got, want)
			case !neighbours[[2]int{i, j}] && !math.IsNaN(got):
				t.Errorf("LOS of %d over %d, not neighbours: %v, want NaN", i, j, got)
			}
		}
	}
	// The report: rows in the order of the standings, and the note.
	// (A group of two takes arena match's LOS from its game pairs, which
	// a Summary counts and Rate does not.)
	s := summaryOf(t, n, games)
	cells, err := s.cells()
	if err != nil {
		t.Fatal(err)
	}
	if near, err = rateCells(n, cells, s.pairs, FitOptions{Anchor: -1}, bo); err != nil {
		t.Fatal(err)
	}
	a, err := buildReport("othello6", s, AnalysisOptions{Bootstrap: bo.Replicates, Seed: bo.Seed, Workers: bo.Workers})
	if err != nil {
		t.Fatal(err)
	}
	var want []LOSRow
	for _, p := range a.Players {
		for _, q := range a.Players {
			if neighbours[[2]int{p.index, q.index}] {
				want = append(want, LOSRow{p.Name, q.Name, near.LOSAt(p.index, q.index)})
			}
		}
	}
	if !slices.Equal(a.LOS, want) {
		t.Errorf("LOS rows %v, want %v", a.LOS, want)
	}
	if !slices.ContainsFunc(a.Notes, func(s string) bool { return strings.Contains(s, "neighbours in the ranking only") }) {
		t.Errorf("no note on the neighbours' LOS: %q", a.Notes)
	}
}

// summaryOf counts games of n players as a Tally counts a record file's
// (players p0, p1, …; games 2k and 2k+1 a colour-swapped pair).
func summaryOf(t *testing.T, n int, games []Result) *Summary {
	tl := NewTally()
	for p := range n {
		if _, err := tl.player(fmt.Sprintf("p%d", p)); err != nil {
			t.Fatal(err)
		}
	}
	for i, g := range games {
		f := gameFacts{index: i, winner: -1, forfeit: -1, termination: Normal}
		switch g.Score {
		case 1:
			f.winner = 0
		case 0:
			f.winner = 1
		}
		tl.Summary.add(&f, [2]int{g.First, g.Second}, 0)
	}
	tl.Summary.endSource()
	return tl.Summary
}

// TestLargePoolResampleConverges rates a resample of a 20 000-player
// Swiss-like pool in which conjugate gradients ran off along a direction
// of almost no curvature (a Newton step of 1e30 natural units that no
// line search could shorten enough): the fit gave up ("did not
// converge") and so did Rate. The fit now falls back on the
// preconditioned gradient for such a step.
func TestLargePoolResampleConverges(t *testing.T) {
	const players = 20000
	r, err := Rate(players, pool(players, 20, 1), FitOptions{Anchor: -1}, BootstrapOptions{Replicates: 2, Seed: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for p := range players {
		if math.IsNaN(r.Elo[p]) || math.IsNaN(r.Low[p]) || math.IsNaN(r.High[p]) || r.Low[p] > r.High[p] {
			t.Fatalf("player %d: Elo %v, interval %v to %v", p, r.Elo[p], r.Low[p], r.High[p])
		}
	}
}
