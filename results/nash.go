package results

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// MaxEntNash returns the maximum-entropy Nash equilibrium of the symmetric
// zero-sum game with the antisymmetric payoff matrix a (a[i][j] is i's
// payoff against j, a[j][i] = −a[i][j]): Balduzzi et al.'s Nash averaging
// mixture ("Re-evaluating evaluation", NeurIPS 2018).
//
// The game's value is 0 (a is antisymmetric), so its equilibria are the
// mixtures p with a·p ≤ 0 in every row: a polytope P. Entropy is strictly
// concave, so P has one point of maximal entropy. It is found in two
// steps. Linear programs (gonum's simplex) find a point in the relative
// interior of P, hence the support S (the agents some equilibrium plays)
// and the rows that are 0 in every equilibrium; those equalities and
// Σp = 1 span P's affine hull. On that hull the remaining inequalities
// (p > 0 on S, the other rows < 0) hold strictly somewhere, and a
// log-barrier interior-point method (Newton steps on the hull's null-space
// coordinates, Boyd & Vandenberghe ch. 11) maximises the entropy to a
// duality gap below 1e-10. Each agent's Nash averaging score is then
// (a·p)_i: 0 on the support, negative off it.
func MaxEntNash(a *mat.Dense) ([]float64, error) {
	n, c := a.Dims()
	if n != c || n == 0 {
		return nil, fmt.Errorf("results: payoff matrix is %d×%d, want square and not empty", n, c)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if v := a.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) || v != -a.At(j, i) {
				return nil, fmt.Errorf("results: payoff matrix is not antisymmetric at %d,%d", i, j)
			}
		}
	}
	q0, support, implicit, err := interiorEquilibrium(a)
	if err != nil {
		return nil, err
	}
	p, err := maxEntropyOnHull(a, q0, support, implicit)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// NashScores returns each agent's payoff against the mixture p: (a·p)_i.
func NashScores(a *mat.Dense, p []float64) []float64 {
	n, _ := a.Dims()
	s := make([]float64, n)
	for i := range s {
		for j, pj := range p {
			s[i] += a.At(i, j) * pj
		}
	}
	return s
}

// interiorEquilibrium finds a point in the relative interior of the
// equilibria P = {p ≥ 0, Σp = 1, a·p ≤ 0}, with linear programs over
// (p, s), a·p + s = 0, s ≥ 0, of n+1 rows: each maximises the sum of
// the masses p_i and slacks s_i of the players seen with neither above 0
// in any equilibrium so far. The sum of the equilibria found is one, so
// it has every mass and slack any of them had above 0; when a program
// finds none new, no equilibrium has one, and the sum lies in the
// relative interior. Each program but the last settles at least one
// player, so there are at most n+1, and one when the first equilibrium
// settles them all (the generic case: a unique equilibrium). It returns the
// point (normalised), the support and the rows that are 0 in every
// equilibrium (implicit equalities).
func interiorEquilibrium(a *mat.Dense) (q []float64, support, implicit []bool, err error) {
	n, _ := a.Dims()
	A := mat.NewDense(n+1, 2*n, nil)
	b := make([]float64, n+1)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			A.Set(i, j, a.At(i, j))
		}
		A.Set(i, n+i, 1)
		A.Set(n, i, 1)
	}
	b[n] = 1
	const seen = 1e-9 // a mass or slack above this counts as above 0
	y := make([]float64, n)
	support, strict := make([]bool, n), make([]bool, n)
	c := make([]float64, 2*n)
	for round := 0; ; round++ {
		// A player with mass in an equilibrium has its row at 0 in every
		// one (p·A·p = 0 is a sum of terms p_i(A·p)_i ≤ 0), and a row
		// below 0 in one has no mass in any: only the players seen with
		// neither are still open.
		open := false
		for i := 0; i < n; i++ {
			c[i], c[n+i] = 0, 0
			if !support[i] && !strict[i] {
				c[i], c[n+i], open = -1, -1, true
			}
		}
		if !open && round > 0 {
			break
		}
		f, x, err := lp.Simplex(c, A, b, 1e-12, nil)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("results: Nash equilibrium linear program: %w", err)
		}
		if round > 0 && -f <= seen {
			break
		}
		grew := false
		for i := 0; i < n; i++ {
			y[i] += x[i]
			if x[i] > seen && !support[i] {
				support[i], grew = true, true
			}
			if x[n+i] > seen && !strict[i] {
				strict[i], grew = true, true
			}
		}
		if !grew && round > 0 {
			break
		}
	}
	sum := 0.0
	for i := range y {
		if !support[i] {
			y[i] = 0
		}
		sum += y[i]
	}
	if sum <= 0 {
		return nil, nil, nil, errors.New("results: Nash equilibrium linear program found no equilibrium")
	}
	implicit = make([]bool, n)
	for i := range y {
		y[i] /= sum
		implicit[i] = !strict[i]
	}
	return y, support, implicit, nil
}

// maxEntropyOnHull maximises the entropy over the equilibria by a
// log-barrier method on their affine hull: the mixtures on the support
// with Σp = 1 and (a·p)_i = 0 for the implicit rows, parametrised as
// q0 + N·z with N a basis of the null space of those equalities.
func maxEntropyOnHull(a *mat.Dense, q0 []float64, support, implicit []bool) ([]float64, error) {
	n, _ := a.Dims()
	var sup, eqRows, ineqRows []int
	for i := 0; i < n; i++ {
		if support[i] {
			sup = append(sup, i)
		}
		if implicit[i] {
			eqRows = append(eqRows, i)
		} else {
			ineqRows = append(ineqRows, i)
		}
	}
	s := len(sup)
	// Equalities on the support's coordinates: the implicit rows and Σq.
	E := mat.NewDense(len(eqRows)+1, s, nil)
	for r, i := range eqRows {
		for k, j := range sup {
			E.Set(r, k, a.At(i, j))
		}
	}
	for k := range sup {
		E.Set(len(eqRows), k, 1)
	}
	N := nullSpace(E)
	q := make([]float64, s)
	for k, j := range sup {
		q[k] = q0[j]
	}
	if N != nil {
		// The inequality rows, restricted to the support (nil: none).
		var G *mat.Dense
		if len(ineqRows) > 0 {
			G = mat.NewDense(len(ineqRows), s, nil)
			for r, i := range ineqRows {
				for k, j := range sup {
					G.Set(r, k, a.At(i, j))
				}
			}
		}
		var err error
		if q, err = barrierMaxEnt(q, N, G); err != nil {
			return nil, err
		}
	}
	p := make([]float64, n)
	sum := 0.0
	for k, j := range sup {
		p[j] = max(q[k], 0)
		sum += p[j]
	}
	for j := range p {
		p[j] /= sum
	}
	return p, nil
}

// nullSpace returns an orthonormal basis of E's null space as columns
// (nil when it is {0}), from E's singular value decomposition.
func nullSpace(E *mat.Dense) *mat.Dense {
	_, c := E.Dims()
	var svd mat.SVD
	if !svd.Factorize(E, mat.SVDFull) {
		return nil
	}
	vals := svd.Values(nil)
	tol := 1e-9 * max(1, vals[0])
	rank := 0
	for _, v := range vals {
		if v > tol {
			rank++
		}
	}
	if rank >= c {
		return nil
	}
	var V mat.Dense
	svd.VTo(&V)
	return mat.DenseCopyOf(V.Slice(0, c, rank, c))
}

// barrierMaxEnt minimises Σ q log q over q = q0 + N·z subject to q > 0
// and G·q < 0 (each row strictly), starting from q0, which satisfies
// them: the barrier problem t·Σq log q − Σ log q − Σ log(−G·q) is
// minimised by damped Newton steps for t = 1, 10, 100, … until the
// duality gap bound (constraints)/t is below 1e-10.
func barrierMaxEnt(q0 []float64, N, G *mat.Dense) ([]float64, error) {
	s, k := N.Dims()
	m := 0
	if G != nil {
		m, _ = G.Dims()
	}
	z := make([]float64, k)
	q := make([]float64, s)
	g := make([]float64, m)
	at := func(z []float64) bool { // sets q and g; false when infeasible
		for i := range q {
			q[i] = q0[i]
			for j, zj := range z {
				q[i] += N.At(i, j) * zj
			}
			if !(q[i] > 0) {
				return false
			}
		}
		for r := range g {
			g[r] = 0
			for i, qi := range q {
				g[r] -= G.At(r, i) * qi
			}
			if !(g[r] > 0) {
				return false
			}
		}
		return true
	}
	value := func(t float64) float64 {
		f := 0.0
		for _, qi := range q {
			f += t*qi*math.Log(qi) - math.Log(qi)
		}
		for _, gr := range g {
			f -= math.Log(gr)
		}
		return f
	}
	if !at(z) {
		return nil, errors.New("results: maximum-entropy Nash: the starting point is not strictly feasible")
	}
	gradQ := make([]float64, s)
	hessQ := mat.NewSymDense(s, nil)
	var gradZ, step mat.VecDense
	var tmp mat.Dense
	trial := make([]float64, k)
	for t := 1.0; float64(s+m)/t > 1e-10; t *= 10 {
		for iter := 0; ; iter++ {
			if iter == 200 {
				return nil, errors.New("results: maximum-entropy Nash: Newton's method did not converge")
			}
			at(z)
			f := value(t)
			hessQ.Zero()
			for i, qi := range q {
				gradQ[i] = t*(math.Log(qi)+1) - 1/qi
				hessQ.SetSym(i, i, t/qi+1/(qi*qi))
			}
			for r, gr := range g {
				for i := 0; i < s; i++ {
					ai := G.At(r, i)
					gradQ[i] += ai / gr
					for j := i; j < s; j++ {
						hessQ.SetSym(i, j, hessQ.At(i, j)+ai*G.At(r, j)/(gr*gr))
					}
				}
			}
			gradZ.MulVec(N.T(), mat.NewVecDense(s, gradQ))
			tmp.Mul(N.T(), hessQ)
			hz := mat.NewDense(k, k, nil)
			hz.Mul(&tmp, N)
			hessZ := mat.NewSymDense(k, nil)
			for i := 0; i < k; i++ {
				for j := i; j < k; j++ {
					hessZ.SetSym(i, j, (hz.At(i, j)+hz.At(j, i))/2)
				}
			}
			var chol mat.Cholesky
			if !chol.Factorize(hessZ) {
				return nil, errors.New("results: maximum-entropy Nash: the barrier's Hessian is not positive definite")
			}
			if err := chol.SolveVecTo(&step, &gradZ); err != nil {
				return nil, fmt.Errorf("results: maximum-entropy Nash: %w", err)
			}
			// dec/2 (the Newton decrement's square over 2) bounds the
			// barrier problem's suboptimality, dec/(2t) the entropy's:
			// 1e-12 of it is as far as rounding lets the line search see
			// (the barrier's values grow with t).
			dec := mat.Dot(&gradZ, &step)
			if dec/(2*t) <= 1e-12 {
				break
			}
			// Backtracking along −step, staying strictly feasible.
			h := 1.0
			for ; h > 1e-20; h /= 2 {
				for j := range trial {
					trial[j] = z[j] - h*step.AtVec(j)
				}
				if at(trial) && value(t) <= f-0.25*h*dec {
					break
				}
			}
			if h <= 1e-20 {
				break // no progress possible at this precision
			}
			copy(z, trial)
		}
	}
	at(z)
	return q, nil
}
