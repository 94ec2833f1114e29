package results

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// DefaultPopulation is α-Rank's population size m when none is given:
// OpenSpiel's default.
const DefaultPopulation = 50

// Bounds of the α sweep (see SweepAlpha).
const (
	alphaStart  = 1e-4 // OpenSpiel's first α
	alphaMax    = 1e6
	alphaRelTol = 1e-5 // np.allclose's defaults, as OpenSpiel's sweep
	alphaAbsTol = 1e-8
	// minTransition is the smallest transition probability the sweep
	// lets α reach: smaller ones make the chain nearly reducible, and the
	// linear solve loses the mass of the states they leave.
	minTransition = 1e-100
)

// AlphaRank returns α-Rank's stationary distribution (Omidshafiei et
// al., "α-Rank: Multi-Agent Evaluation by Evolution", Scientific Reports
// 2019) for one population of m individuals playing the symmetric game
// with payoff matrix a (a[i][j] is i's payoff against j) at ranking
// intensity alpha.
//
// The chain's states are the monomorphic populations. From σ a mutant τ
// arises with probability 1/(n−1) and takes over with the fixation
// probability of the finite-population Moran process with Fermi
// selection, in which an individual's fitness is its mean payoff against
// the rest of the population (the paper's single-population model;
// OpenSpiel's use_local_selection_model=False). With k mutants,
// f_τ − f_σ = ((k−1)a_ττ + (m−k)a_τσ − k a_στ − (m−k−1)a_σσ)/(m−1), and
// ρ = 1 / (1 + Σ_{l=1}^{m−1} Π_{k=1}^{l} e^{−α(f_τ−f_σ)}).
// The stationary distribution solves πᵀC = πᵀ, Σπ = 1 (gonum's LU).
func AlphaRank(a *mat.Dense, m int, alpha float64) ([]float64, error) {
	c, _, err := alphaChain(a, m, alpha)
	if err != nil {
		return nil, err
	}
	return stationary(c)
}

// alphaChain returns α-Rank's transition matrix and its smallest
// off-diagonal entry above 0.
func alphaChain(a *mat.Dense, m int, alpha float64) (*mat.Dense, float64, error) {
	n, c := a.Dims()
	switch {
	case n != c || n == 0:
		return nil, 0, fmt.Errorf("results: payoff matrix is %d×%d, want square and not empty", n, c)
	case m < 2:
		return nil, 0, fmt.Errorf("results: α-Rank population %d, want at least 2", m)
	case !(alpha >= 0) || math.IsInf(alpha, 0):
		return nil, 0, fmt.Errorf("results: α-Rank intensity %v, want a finite number ≥ 0", alpha)
	}
	C := mat.NewDense(n, n, nil)
	smallest := 1.0
	logs := make([]float64, m)
	for s := 0; s < n; s++ {
		stay := 1.0
		for r := 0; r < n; r++ {
			if r == s {
				continue
			}
			p := fixation(a, m, alpha, s, r, logs) / float64(n-1)
			C.Set(s, r, p)
			stay -= p
			if p > 0 {
				smallest = min(smallest, p)
			}
		}
		C.Set(s, s, stay)
	}
	return C, smallest, nil
}

// fixation is the probability that one mutant r takes over a population
// of m playing s. The sum over l of products is evaluated in log space:
// its terms span hundreds of orders of magnitude at large α. logs (m
// long) is scratch space.
func fixation(a *mat.Dense, m int, alpha float64, s, r int, logs []float64) float64 {
	// logs[l-1] = −α Σ_{k=1}^{l} (f_r(k) − f_s(k)); ρ = 1/(1 + Σ e^{logs}).
	mf := float64(m)
	acc, big := 0.0, 0.0
	logs[0] = 0 // the 1 in 1 + Σ
	for l := 1; l < m; l++ {
		k := float64(l)
		diff := ((k-1)*a.At(r, r) + (mf-k)*a.At(r, s) - k*a.At(s, r) - (mf-k-1)*a.At(s, s)) / (mf - 1)
		acc -= alpha * diff
		logs[l] = acc
		big = max(big, acc)
	}
	sum := 0.0
	for _, v := range logs {
		sum += math.Exp(v - big)
	}
	return math.Exp(-big) / sum
}

// stationary solves πᵀC = πᵀ with Σπ = 1: (Cᵀ − I)π = 0 with its last
// equation replaced by the sum.
func stationary(C *mat.Dense) ([]float64, error) {
	n, _ := C.Dims()
	if n == 1 {
		return []float64{1}, nil
	}
	M := mat.NewDense(n, n, nil)
	M.CloneFrom(C.T())
	for i := 0; i < n; i++ {
		M.Set(i, i, M.At(i, i)-1)
	}
	b := mat.NewVecDense(n, nil)
	for j := 0; j < n; j++ {
		M.Set(n-1, j, 1)
	}
	b.SetVec(n-1, 1)
	var pi mat.VecDense
	if err := pi.SolveVec(M, b); err != nil {
		return nil, fmt.Errorf("results: α-Rank stationary distribution: %w", err)
	}
	out := make([]float64, n)
	sum := 0.0
	for i := range out {
		v := pi.AtVec(i)
		if math.IsNaN(v) || v < -1e-9 {
			return nil, errors.New("results: α-Rank stationary distribution: the chain is numerically reducible")
		}
		out[i] = max(v, 0)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out, nil
}

// SweepAlpha chooses α-Rank's ranking intensity as the paper recommends,
// as large as the distribution still changes: starting at 1e-4 it
// doubles α until the stationary distribution stops changing (every mass
// within 1e-8 + 1e-5 of its own size, OpenSpiel's sweep_pi_vs_alpha
// tolerances), and stops earlier, at the last safe α, when a transition
// probability would fall below 1e-100 (a nearly reducible chain) or α
// would pass 1e6. It returns α, its distribution and whether the
// distribution had converged.
func SweepAlpha(a *mat.Dense, m int) (alpha float64, pi []float64, converged bool, err error) {
	alpha = alphaStart
	if pi, err = AlphaRank(a, m, alpha); err != nil {
		return 0, nil, false, err
	}
	for next := 2 * alpha; next <= alphaMax; next *= 2 {
		C, smallest, err := alphaChain(a, m, next)
		if err != nil {
			return 0, nil, false, err
		}
		if smallest < minTransition {
			return alpha, pi, false, nil
		}
		p, err := stationary(C)
		if err != nil {
			return alpha, pi, false, nil
		}
		same := true
		for i := range p {
			same = same && math.Abs(p[i]-pi[i]) <= alphaAbsTol+alphaRelTol*math.Abs(p[i])
		}
		alpha, pi = next, p
		if same {
			return alpha, pi, true, nil
		}
	}
	return alpha, pi, false, nil
}
