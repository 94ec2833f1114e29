package results

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/boardgame-arena/arena/rng"
)

func payoff(rows ...[]float64) *mat.Dense {
	n := len(rows)
	a := mat.NewDense(n, n, nil)
	for i, r := range rows {
		a.SetRow(i, r)
	}
	return a
}

func closeAll(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol {
			t.Fatalf("%s: got %v, want %v (±%g)", what, got, want, tol)
		}
	}
}

var (
	rps = payoff([]float64{0, -0.5, 0.5}, []float64{0.5, 0, -0.5}, []float64{-0.5, 0.5, 0})
	// cyc: 0 beats 1 by x = 0.1, 1 beats 2 by z = 0.2, 2 beats 0 by
	// y = 0.3. Each row of A·p is 0 for p ∝ (z, y, x): p = (1/3, 1/2, 1/6).
	cyc = payoff([]float64{0, 0.1, -0.3}, []float64{-0.1, 0, 0.2}, []float64{0.3, -0.2, 0})
	// four is cyc with a fourth agent; its only equilibrium (support
	// enumeration in testdata/alpharank_ref.py) leaves it out.
	four = payoff([]float64{0, 0.1, -0.3, 0.25}, []float64{-0.1, 0, 0.2, 0.05}, []float64{0.3, -0.2, 0, -0.15}, []float64{-0.25, -0.05, 0.15, 0})
)

func TestNashRockPaperScissors(t *testing.T) {
	p, err := MaxEntNash(rps)
	if err != nil {
		t.Fatal(err)
	}
	closeAll(t, "mixture", p, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-9)
	closeAll(t, "scores", NashScores(rps, p), []float64{0, 0, 0}, 1e-9)
}

func TestNashWeightedCycle(t *testing.T) {
	p, err := MaxEntNash(cyc)
	if err != nil {
		t.Fatal(err)
	}
	closeAll(t, "mixture", p, []float64{1.0 / 3, 1.0 / 2, 1.0 / 6}, 1e-9)
	p, err = MaxEntNash(four)
	if err != nil {
		t.Fatal(err)
	}
	closeAll(t, "four's mixture", p, []float64{1.0 / 3, 1.0 / 2, 1.0 / 6, 0}, 1e-9)
	// Agent 3 against the mixture: (0.25/3 + 0.05/2 − 0.15... ) = −1/12.
	closeAll(t, "four's scores", NashScores(four, p), []float64{0, 0, 0, -1.0 / 12}, 1e-9)
}

func TestNashDominatedAgentGetsNoMass(t *testing.T) {
	// RPS and a fourth agent that scores 0.4 against each of them.
	a := payoff([]float64{0, -0.5, 0.5, 0.1}, []float64{0.5, 0, -0.5, 0.1}, []float64{-0.5, 0.5, 0, 0.1}, []float64{-0.1, -0.1, -0.1, 0})
	p, err := MaxEntNash(a)
	if err != nil {
		t.Fatal(err)
	}
	closeAll(t, "mixture", p, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3, 0}, 1e-9)
	closeAll(t, "scores", NashScores(a, p), []float64{0, 0, 0, -0.1}, 1e-9)
}

// Everybody drew: every mixture is an equilibrium, and the one of
// maximal entropy is uniform.
func TestNashAllDrawsIsUniform(t *testing.T) {
	p, err := MaxEntNash(mat.NewDense(4, 4, nil))
	if err != nil {
		t.Fatal(err)
	}
	closeAll(t, "mixture", p, []float64{0.25, 0.25, 0.25, 0.25}, 1e-9)
}

// Balduzzi et al.'s invariance: a copy of an agent splits its mass and
// leaves every agent's Nash averaging score as it was.
func TestNashCopyInvariance(t *testing.T) {
	base, err := MaxEntNash(four)
	if err != nil {
		t.Fatal(err)
	}
	want := NashScores(four, base)
	for _, copied := range []int{0, 1, 3} {
		for copies := 1; copies <= 3; copies++ {
			n := 4 + copies
			a := mat.NewDense(n, n, nil)
			orig := func(i int) int {
				if i < 4 {
					return i
				}
				return copied
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					a.Set(i, j, four.At(orig(i), orig(j)))
				}
			}
			p, err := MaxEntNash(a)
			if err != nil {
				t.Fatal(err)
			}
			scores := NashScores(a, p)
			for i := 0; i < n; i++ {
				if math.Abs(scores[i]-want[orig(i)]) > 1e-9 {
					t.Fatalf("copying agent %d %d times: scores %v, want %v for the originals", copied, copies, scores, want)
				}
			}
			// The copies share the original's mass equally (maximal entropy).
			share := base[copied] / float64(copies+1)
			for i := 0; i < n; i++ {
				w := base[orig(i)]
				if orig(i) == copied {
					w = share
				}
				if math.Abs(p[i]-w) > 1e-7 {
					t.Fatalf("copying agent %d %d times: mixture %v, want %v each for the copies", copied, copies, p, share)
				}
			}
		}
	}
}

func TestNashRejectsNonAntisymmetric(t *testing.T) {
	if _, err := MaxEntNash(payoff([]float64{0, 0.1}, []float64{0.2, 0})); err == nil {
		t.Fatal("no error for a payoff matrix that is not antisymmetric")
	}
}

func TestAlphaRankRockPaperScissorsIsUniform(t *testing.T) {
	for _, alpha := range []float64{0.1, 1, 10, 100} {
		pi, err := AlphaRank(rps, 50, alpha)
		if err != nil {
			t.Fatal(err)
		}
		closeAll(t, "α-Rank", pi, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-9)
	}
}

// Reference values: testdata/alpharank_ref.py (fixation by the explicit
// sum of products, stationary distribution as numpy's left eigenvector).
func TestAlphaRankPinned(t *testing.T) {
	for _, c := range []struct {
		a     *mat.Dense
		m     int
		alpha float64
		want  []float64
	}{
		{cyc, 50, 1, []float64{0.1946609595105164, 0.5272560153444966, 0.2780830251449869}},
		{cyc, 10, 5, []float64{0.24321597548498322, 0.4626763474038907, 0.2941076771111261}},
		{four, 50, 1, []float64{0.25354001855379843, 0.43074502551129623, 0.20475037584698857, 0.11096458008791683}},
		{four, 20, 3, []float64{0.27998716981016863, 0.4033805541489342, 0.20273275904414437, 0.11389951699675271}},
	} {
		pi, err := AlphaRank(c.a, c.m, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		closeAll(t, "α-Rank", pi, c.want, 1e-12)
	}
}

// α-Rank is not invariant to copies (docs/ratings.md's synthetic
// example): rock, paper, scissors at 65 % and two copies of rock. With a
// large α a paper population falls to scissors (1 of 4 mutants), a
// scissors one to any rock (3 of 4), a rock one to paper (1 of 4), and
// copies drift among themselves; balance gives paper = all rocks and
// scissors = paper/3, so paper 3/7 and the others 1/7 each, where
// without the copies every player has 1/3.
func TestAlphaRankCopiesOfRock(t *testing.T) {
	e := 0.15
	// rock, paper, scissors, rock2, rock3.
	a := payoff([]float64{0, -e, e, 0, 0}, []float64{e, 0, -e, e, e}, []float64{-e, e, 0, -e, -e}, []float64{0, -e, e, 0, 0}, []float64{0, -e, e, 0, 0})
	alpha, pi, converged, err := SweepAlpha(a, 50)
	if err != nil || !converged {
		t.Fatalf("sweep: α %g, converged %v, err %v", alpha, converged, err)
	}
	closeAll(t, "α-Rank", pi, []float64{1.0 / 7, 3.0 / 7, 1.0 / 7, 1.0 / 7, 1.0 / 7}, 1e-8)
}

// A transitive pool: 0 beats 1 beats 2 beats 3, and the sweep's α puts
// the mass on 0.
func TestAlphaRankTransitiveSweep(t *testing.T) {
	a := payoff([]float64{0, 0.1, 0.2, 0.3}, []float64{-0.1, 0, 0.1, 0.2}, []float64{-0.2, -0.1, 0, 0.1}, []float64{-0.3, -0.2, -0.1, 0})
	alpha, pi, converged, err := SweepAlpha(a, 50)
	if err != nil {
		t.Fatal(err)
	}
	if !converged || pi[0] < 1-1e-6 {
		t.Fatalf("sweep: α %g, π %v, converged %v; want the mass on agent 0", alpha, pi, converged)
	}
	// At a small α the chain is still near uniform but ordered.
	pi, err = AlphaRank(a, 50, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if !(pi[0] > pi[1] && pi[1] > pi[2] && pi[2] > pi[3]) || pi[3] < 0.2 {
		t.Fatalf("α 0.01: π %v, want near uniform and ordered", pi)
	}
}

// seatedOf builds RateCounts' input for n players from (first, second,
// wins, draws, losses) rows.
func seatedOf(n int, rows ...[5]int) [][]WDL {
	s := make([][]WDL, n)
	for i := range s {
		s[i] = make([]WDL, n)
	}
	for _, r := range rows {
		s[r[0]][r[1]] = WDL{Wins: r[2], Draws: r[3], Losses: r[4]}
	}
	return s
}

func TestRateMetaGameCycle(t *testing.T) {
	// 0 scores 6/8 against 1, 1 scores 6/8 against 2, 2 scores 6.5/8
	// against 0: payoffs x = z = 0.25, y = 0.3125 in cyc's notation, so
	// the Nash mixture is (z, y, x)/0.8125 = (4, 5, 4)/13.
	seated := seatedOf(3, [5]int{0, 1, 3, 0, 1}, [5]int{1, 0, 1, 0, 3}, [5]int{1, 2, 5, 2, 1}, [5]int{2, 0, 6, 1, 1})
	g, err := RateMetaGame(seated, MetaGameOptions{}, BootstrapOptions{Replicates: 200, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	closeAll(t, "Nash", g.Nash, []float64{4.0 / 13, 5.0 / 13, 4.0 / 13}, 1e-9)
	closeAll(t, "Nash scores", g.NashScore, []float64{0.5, 0.5, 0.5}, 1e-9)
	if len(g.Players) != 3 || len(g.Excluded) != 0 || !g.AlphaSwept || g.Population != DefaultPopulation || g.Replicates != 200 {
		t.Fatalf("players %v, excluded %v, swept %v, population %d, replicates %d", g.Players, g.Excluded, g.AlphaSwept, g.Population, g.Replicates)
	}
	for p := range 3 {
		if !(g.NashLow[p] <= g.Nash[p] && g.Nash[p] <= g.NashHigh[p]) || !(g.AlphaRankLow[p] <= g.AlphaRank[p] && g.AlphaRank[p] <= g.AlphaRankHigh[p]) || g.NashHigh[p]-g.NashLow[p] < 0.05 {
			t.Fatalf("player %d: Nash %g in [%g, %g], α-Rank %g in [%g, %g]", p, g.Nash[p], g.NashLow[p], g.NashHigh[p], g.AlphaRank[p], g.AlphaRankLow[p], g.AlphaRankHigh[p])
		}
	}
	// Edges: Beta(6.5, 2.5), Beta(6.5, 2.5), Beta(7, 2) above ½
	// (testdata/alpharank_ref.py; the last is 247/256 exactly).
	if len(g.Cycles) != 1 {
		t.Fatalf("cycles %+v, want one", g.Cycles)
	}
	c := g.Cycles[0]
	if c.Players != [3]int{0, 1, 2} || c.Score != [3]float64{0.75, 0.75, 0.8125} {
		t.Fatalf("cycle %+v", c)
	}
	closeAll(t, "edges", c.Edge[:], []float64{0.9233108096781435, 0.9233108096781435, 247.0 / 256}, 1e-9)
	closeAll(t, "cycle", []float64{c.Probability}, []float64{0.8225320479037465}, 1e-9)

	// The same seed gives the same intervals, whatever the parallelism.
	again, err := RateMetaGame(seated, MetaGameOptions{}, BootstrapOptions{Replicates: 200, Seed: 5, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	closeAll(t, "reproduced Nash low", again.NashLow, g.NashLow, 0)
	closeAll(t, "reproduced α-Rank high", again.AlphaRankHigh, g.AlphaRankHigh, 0)
}

// A gauntlet: 0 met everyone, 1 and 2 met each other, 3 met only 0. The
// meta-game keeps 0, 1 and 2, and drops 3.
func TestRateMetaGameDropsIncompletePairings(t *testing.T) {
	seated := seatedOf(5, [5]int{0, 1, 2, 0, 2}, [5]int{0, 2, 2, 0, 2}, [5]int{1, 2, 2, 0, 2}, [5]int{0, 3, 2, 0, 2})
	g, err := RateMetaGame(seated, MetaGameOptions{Alpha: 1}, BootstrapOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Players) != 3 || g.Players[2] != 2 || len(g.Excluded) != 1 || g.Excluded[0] != 3 {
		t.Fatalf("players %v, excluded %v; want 0 1 2 and 3", g.Players, g.Excluded)
	}
	if !math.IsNaN(g.Nash[3]) || !math.IsNaN(g.AlphaRank[4]) || g.Alpha != 1 || g.AlphaSwept {
		t.Fatalf("Nash %v, α-Rank %v, α %g swept %v", g.Nash, g.AlphaRank, g.Alpha, g.AlphaSwept)
	}
	closeAll(t, "all even", g.Nash[:3], []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-9)
}

func TestMetaGameOptionsCheck(t *testing.T) {
	for _, o := range []MetaGameOptions{{Population: 1}, {Alpha: -1}, {Alpha: math.NaN()}, {Cycles: -1}} {
		if err := o.Check(); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// Small games with many ties and zeros (degenerate: equilibria in faces,
// rows 0 throughout): every answer is an equilibrium, a distribution.
func TestNashDegenerateGames(t *testing.T) {
	var r rng.Rand
	r.Seed(1)
	for k := 0; k < 400; k++ {
		n := 1 + r.IntN(7)
		a := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				v := float64(r.IntN(5)-2) / 4
				a.Set(i, j, v)
				a.Set(j, i, -v)
			}
		}
		p, err := MaxEntNash(a)
		if err != nil {
			t.Fatalf("%v: %v", mat.Formatted(a), err)
		}
		s := NashScores(a, p)
		sum := 0.0
		for i := range p {
			sum += p[i]
			if s[i] > 1e-9 || p[i] < 0 {
				t.Fatalf("%v: mixture %v scores %v: not an equilibrium", mat.Formatted(a), p, s)
			}
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("%v: mixture %v sums to %g", mat.Formatted(a), p, sum)
		}
	}
}

// randomPayoff is an n-player antisymmetric payoff matrix with entries
// uniform in [−½, ½] (seeded).
func randomPayoff(n int, seed uint64) *mat.Dense {
	var r rng.Rand
	r.Seed(seed)
	a := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			v := r.Float64() - 0.5
			a.Set(i, j, v)
			a.Set(j, i, -v)
		}
	}
	return a
}

func benchmarkMaxEntNash(b *testing.B, n int) {
	a := randomPayoff(n, 1)
	for b.Loop() {
		if _, err := MaxEntNash(a); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMaxEntNash10(b *testing.B) { benchmarkMaxEntNash(b, 10) }
func BenchmarkMaxEntNash30(b *testing.B) { benchmarkMaxEntNash(b, 30) }

func BenchmarkAlphaRank30(b *testing.B) {
	a := randomPayoff(30, 1)
	for b.Loop() {
		if _, err := AlphaRank(a, DefaultPopulation, 5); err != nil {
			b.Fatal(err)
		}
	}
}

// A face on which the entropy's maximum lies on an inequality: 0 and 1
// drew, 2 loses to 1 (by 4/11) and beats 0 (by 7/18). The equilibria are
// p₂ = 0 and (7/18)p₀ ≤ (4/11)p₁, that is p₀ ≤ 72/149; the entropy of
// (p₀, 1−p₀) grows towards ½, so the maximum is p = (72, 77, 0)/149.
// (A bootstrap resample of TestRateMetaGameCycle's games.)
func TestNashMaxEntropyOnABound(t *testing.T) {
	a := payoff([]float64{0, 0, -7.0 / 18}, []float64{0, 0, 4.0 / 11}, []float64{7.0 / 18, -4.0 / 11, 0})
	p, err := MaxEntNash(a)
	if err != nil {
		t.Fatal(err)
	}
	closeAll(t, "mixture", p, []float64{72.0 / 149, 77.0 / 149, 0}, 1e-8)
}
