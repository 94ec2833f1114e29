package results

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// eloPerNat converts a logistic strength difference in natural units
// (log-odds) to Elo: a difference of 400 Elo is odds of 10 to 1.
const eloPerNat = 400 / math.Ln10

// Result is one game as the rating model sees it.
type Result struct {
	First, Second int     // player indices; First moved first
	Score         float64 // First's points: 1, 0.5 or 0
}

// DrawModel says how draws enter the likelihood.
type DrawModel int

const (
	// HalfWin scores a draw as half a win for each side: the Bradley–Terry
	// (logistic Elo) likelihood with fractional results.
	HalfWin DrawModel = iota
	// Davidson gives draws their own probability: with strengths π = 10^(r/400),
	// P(i wins) ∝ πi, P(j wins) ∝ πj, P(draw) ∝ ν·√(πi·πj), ν fitted.
	// The reported Elo is r·2/(2+ν) (see Fit.EloScale): the log win/loss
	// odds r rescaled, as BayesElo does, so that near equal strength an
	// Elo difference means the same expected score as in HalfWin. Without
	// any draw ν is 0 and the fit is HalfWin's; where the likelihood has
	// no maximum (draws, but no two players both won and lost against
	// each other: ν and the differences grow together, and the Elo would
	// shrink to 0), HalfWin's fit stands in too.
	Davidson
)

// String names the model as the command line does.
func (m DrawModel) String() string {
	if m == Davidson {
		return "davidson"
	}
	return "half"
}

// FitOptions configure a rating fit.
type FitOptions struct {
	Draws DrawModel
	// FirstMove fits an advantage (in Elo) added to whoever moves first.
	FirstMove bool
	// Prior adds that many virtual draws between every two players who met,
	// half with each moving first. With 0 the fit is pure maximum likelihood
	// whenever the maximum exists; when it does not (a player or a group of
	// players scored 100 % against the rest of its group, the first mover
	// always won, or under Davidson there were no draws), AutoPrior is used
	// instead and Fit.Regularised is set. Either way the prior gives a
	// rating, not a bound: Rate leaves open the sides of the intervals
	// that the games leave open, and the zero point is on the players
	// they bound.
	Prior float64
	// Anchor is the index of the player whose rating is fixed at AnchorElo,
	// or -1: every group of connected players then averages 0, over the
	// players whose ratings the data bound when some are not (a perfect
	// or nil score; see Ratings.Reference), else over all.
	Anchor    int
	AnchorElo float64
}

// AutoPrior is the prior (virtual draws per pair that met) used when the
// pure maximum-likelihood ratings do not exist.
const AutoPrior = 1.0

// Fit is a set of fitted ratings.
type Fit struct {
	Elo       []float64 // per player
	FirstMove float64   // Elo added to the first mover (FitOptions.FirstMove)
	DrawNu    float64   // Davidson's ν (Draws == Davidson)
	// EloScale is the factor applied to Davidson's log win/loss odds (in
	// Elo) to put them on the half model's scale: 2/(2+ν). 0 for HalfWin.
	EloScale float64
	// Groups are the sets of players connected by games, largest first;
	// ratings are comparable only within a group. Group[i] is player i's.
	Groups [][]int
	Group  []int
	// Regularised is true when AutoPrior had to be added (see FitOptions.Prior).
	Regularised bool
	// open marks, when Regularised, the players the data cannot bound
	// (openAbove, openBelow, openBoth); the others are rated by maximum
	// likelihood without them. nil when there are none.
	open []int8
	// davidsonUnbounded is set when a Davidson fit was asked for but its
	// likelihood has no maximum (see model.davidsonUnbounded): the half
	// model's fit stands in.
	davidsonUnbounded bool
	LogLik            float64   // log-likelihood of the games at the fit (prior excluded)
	x                 []float64 // the fitted parameters (model.start of the replicates)
}

// cell aggregates the games of one ordered pairing.
type cell struct {
	a, b    int     // a moved first
	w, d, l float64 // a's wins, draws, losses
}

// model is a rating problem: the data's structure and the parametrisation.
type model struct {
	n      int
	opt    FitOptions
	group  []int
	groups [][]int
	varOf  []int    // player → index in x, or -1 for the group's reference player
	met    [][2]int // unordered pairs that played, for the prior
	nx     int      // length of x
	hIdx   int      // index of the first-move advantage in x, or -1
	thIdx  int      // index of log ν in x, or -1
	// start, when as long as x, is where maximise starts: a bootstrap
	// replicate starts from the full data's fit, a few Newton steps
	// from its own.
	start []float64
}

func newModel(n int, cells []cell, opt FitOptions) *model {
	m := &model{n: n, opt: opt, group: make([]int, n), varOf: make([]int, n), hIdx: -1, thIdx: -1}
	// Union-find over players connected by games.
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, c := range cells {
		if c.w+c.d+c.l == 0 {
			continue
		}
		parent[find(c.a)] = find(c.b)
		m.met = append(m.met, [2]int{min(c.a, c.b), max(c.a, c.b)})
	}
	slices.SortFunc(m.met, func(x, y [2]int) int {
		if x[0] != y[0] {
			return x[0] - y[0]
		}
		return x[1] - y[1]
	})
	m.met = slices.Clip(slices.Compact(m.met)) // a pair's two cells (each moving first) once
	byRoot := map[int][]int{}
	var roots []int
	for i := 0; i < n; i++ {
		r := find(i)
		if _, ok := byRoot[r]; !ok {
			roots = append(roots, r)
		}
		byRoot[r] = append(byRoot[r], i)
	}
	for _, r := range roots {
		m.groups = append(m.groups, byRoot[r])
	}
	slices.SortStableFunc(m.groups, func(x, y []int) int { return len(y) - len(x) })
	for g, members := range m.groups {
		for k, p := range members {
			m.group[p] = g
			if k == 0 {
				m.varOf[p] = -1 // the reference: fixed at 0 during the fit
			} else {
				m.varOf[p] = m.nx
				m.nx++
			}
		}
	}
	if opt.FirstMove {
		m.hIdx = m.nx
		m.nx++
	}
	if opt.Draws == Davidson {
		m.thIdx = m.nx
		m.nx++
	}
	return m
}

func (m *model) strength(x []float64, p int) float64 {
	if v := m.varOf[p]; v >= 0 {
		return x[v]
	}
	return 0
}

// curvature is minus the second derivatives of one cell's log-likelihood
// in its rating difference z and in θ = log ν: that cell's share of the
// negative Hessian. Newton's steps multiply by the Hessian through these
// (negHessVec), so the fit never forms a players² matrix.
type curvature struct{ zz, zt, tt float64 }

// logLik returns the log-likelihood of cells at x and adds its gradient
// into grad when grad is not nil.
func (m *model) logLik(x []float64, cells []cell, grad []float64) float64 {
	return m.derivatives(x, cells, grad, nil)
}

// derivatives returns the log-likelihood of cells at x, adds its gradient
// into grad when it is not nil, and sets curv[k] to cell k's curvature
// when curv is not nil.
func (m *model) derivatives(x []float64, cells []cell, grad []float64, curv []curvature) float64 {
	h, theta := 0.0, 0.0
	if m.hIdx >= 0 {
		h = x[m.hIdx]
	}
	if m.thIdx >= 0 {
		theta = x[m.thIdx]
	}
	var ll float64
	for k, c := range cells {
		n := c.w + c.d + c.l
		if n == 0 {
			if curv != nil {
				curv[k] = curvature{}
			}
			continue
		}
		z := m.strength(x, c.a) - m.strength(x, c.b) + h
		var gz, gth, hzz, hzt, htt float64 // first and second derivatives in z and θ
		if m.opt.Draws == Davidson {
			// log P(win) = z/2 − log D, log P(draw) = θ − log D,
			// log P(loss) = −z/2 − log D, with D = e^(z/2) + e^(−z/2) + e^θ.
			u := z / 2
			au := math.Abs(u)
			e2, eth := math.Exp(-2*au), math.Exp(theta-au)
			s := 1 + e2 + eth // D = e^|u|·s
			logD := au + math.Log(s)
			ll += (c.w-c.l)*u + c.d*theta - n*logD
			a := math.Copysign((1-e2)/s, u) / 2 // ∂log D/∂z
			b := eth / s                        // ∂log D/∂θ
			gz = (c.w-c.l)/2 - n*a
			gth = c.d - n*b
			hzz = -n * ((1+e2)/(4*s) - a*a)
			hzt = n * a * b
			htt = -n * (b - b*b)
		} else {
			// One exponential and one logarithm per cell: with e = e^−|z|,
			// log σ(z) = min(z, 0) − log(1+e), log σ(−z) = log σ(z) − z.
			sc := c.w + c.d/2
			e := math.Exp(-math.Abs(z))
			lp, p := -math.Log1p(e), 1/(1+e)
			if z < 0 {
				lp, p = z+lp, e*p
			}
			ll += sc*lp + (n-sc)*(lp-z)
			gz = sc - n*p
			hzz = -n * p * (1 - p)
		}
		if curv != nil {
			curv[k] = curvature{-hzz, -hzt, -htt}
		}
		if grad != nil {
			if v := m.varOf[c.a]; v >= 0 {
				grad[v] += gz
			}
			if v := m.varOf[c.b]; v >= 0 {
				grad[v] -= gz
			}
			if m.hIdx >= 0 {
				grad[m.hIdx] += gz
			}
			if m.thIdx >= 0 {
				grad[m.thIdx] += gth
			}
		}
	}
	return ll
}

// negHessVec sets out to −H·v, H the Hessian of the log-likelihood of
// cells whose curvatures are curv: z = x[a] − x[b] + h, so each cell
// adds its curvature times v's change of z to a, minus it to b, and to
// the first-move advantage; θ couples through zt and tt. With diag not
// nil it sets diag to −H's diagonal instead (v unused).
func (m *model) negHessVec(cells []cell, curv []curvature, v, out, diag []float64) {
	if diag != nil {
		clear(diag)
	} else {
		clear(out)
	}
	for k, c := range cells {
		cv := curv[k]
		if cv == (curvature{}) {
			continue
		}
		ia, ib := m.varOf[c.a], m.varOf[c.b]
		if diag != nil {
			for _, i := range [3]int{ia, ib, m.hIdx} {
				if i >= 0 {
					diag[i] += cv.zz
				}
			}
			if m.thIdx >= 0 {
				diag[m.thIdx] += cv.tt
			}
			continue
		}
		var dz, dt float64
		if ia >= 0 {
			dz += v[ia]
		}
		if ib >= 0 {
			dz -= v[ib]
		}
		if m.hIdx >= 0 {
			dz += v[m.hIdx]
		}
		if m.thIdx >= 0 {
			dt = v[m.thIdx]
		}
		oz := cv.zz*dz + cv.zt*dt
		if ia >= 0 {
			out[ia] += oz
		}
		if ib >= 0 {
			out[ib] -= oz
		}
		if m.hIdx >= 0 {
			out[m.hIdx] += oz
		}
		if m.thIdx >= 0 {
			out[m.thIdx] += cv.zt*dz + cv.tt*dt
		}
	}
}

// newtonWork holds the vectors of a Newton fit (each as long as x), and
// the cells' curvatures at the current and the trial point.
type newtonWork struct {
	g, gTry, xTry, d, r, z, p, q, diag []float64
	curv, curvTry                      []curvature
}

// newtonWorks keeps the vectors of finished fits for the next: the
// bootstrap's replicates, one after another on each worker, reuse them
// instead of allocating a fit's worth each (200 MB of garbage at 2 000
// players and 100 resamples).
var newtonWorks sync.Pool

// getNewtonWork returns vectors for a fit of nx parameters over cells
// cells, all zero; putNewtonWork gives them back.
func getNewtonWork(nx, cells int) *newtonWork {
	w, _ := newtonWorks.Get().(*newtonWork)
	if w == nil {
		w = &newtonWork{}
	}
	vecs := []*[]float64{&w.g, &w.gTry, &w.xTry, &w.d, &w.r, &w.z, &w.p, &w.q, &w.diag}
	for _, v := range vecs {
		*v = resized(*v, nx)
	}
	w.curv, w.curvTry = resized(w.curv, cells), resized(w.curvTry, cells)
	return w
}

func putNewtonWork(w *newtonWork) { newtonWorks.Put(w) }

// resized returns v as n zero values, reusing its storage when it can.
func resized[T any](v []T, n int) []T {
	if cap(v) < n {
		return make([]T, n)
	}
	v = v[:n]
	clear(v)
	return v
}

// newtonStep solves −H·d = g for the Newton step d by conjugate gradients
// preconditioned with −H's diagonal (Jacobi), until the residual is below
// tol·|g| or after maxIter products: −H is positive definite where the
// maximum exists (the log-likelihood is concave and each group's
// reference player is fixed), and each product costs one pass over the
// cells. A step cut short is still an ascent direction.
func (m *model) newtonStep(cells []cell, w *newtonWork, tol float64, maxIter int) {
	m.negHessVec(cells, w.curv, nil, nil, w.diag)
	for i, v := range w.diag {
		if v <= 0 {
			w.diag[i] = 1 // a parameter no game moves: left alone
		}
	}
	clear(w.d)
	copy(w.r, w.g)
	stop := tol * floats.Norm(w.g, 2)
	for i := range w.z {
		w.z[i] = w.r[i] / w.diag[i]
	}
	copy(w.p, w.z)
	rz := floats.Dot(w.r, w.z)
	for range maxIter {
		if floats.Norm(w.r, 2) <= stop {
			return
		}
		m.negHessVec(cells, w.curv, w.p, w.q, nil)
		pq := floats.Dot(w.p, w.q)
		if !(pq > 0) {
			return // no curvature left along p (rounding): keep what is solved
		}
		alpha := rz / pq
		floats.AddScaled(w.d, alpha, w.p)
		floats.AddScaled(w.r, -alpha, w.q)
		for i := range w.z {
			w.z[i] = w.r[i] / w.diag[i]
		}
		rzNext := floats.Dot(w.r, w.z)
		for i := range w.p {
			w.p[i] = w.z[i] + rzNext/rz*w.p[i]
		}
		rz = rzNext
	}
}

// mlExists reports whether the likelihood of cells has a finite maximum:
// inside every group each player must have scored against and conceded to
// the rest (the "scored against" graph is strongly connected); a fitted
// first-move advantage needs first movers to have won and lost points; a
// Davidson fit needs both draws and decisive games.
func (m *model) mlExists(cells []cell) bool {
	scored := newScoredGraph(m.n, cells)
	var firstPts, secondPts, draws, decisive float64
	for _, c := range cells {
		firstPts += c.w + c.d/2
		secondPts += c.l + c.d/2
		draws += c.d
		decisive += c.w + c.l
	}
	if m.opt.FirstMove && (firstPts == 0 || secondPts == 0) {
		return false
	}
	if m.opt.Draws == Davidson && decisive == 0 {
		return false // only draws: ν runs off to infinity
	}
	for _, g := range m.groups {
		if len(g) < 2 {
			continue
		}
		for _, forward := range []bool{true, false} {
			if len(reach(scored, g[:1], forward)) != len(g) {
				return false
			}
		}
	}
	return true
}

// withPrior returns cells plus prior virtual draws on every pair that met.
func (m *model) withPrior(cells []cell, prior float64) []cell {
	out := slices.Clone(cells)
	index := map[[2]int]int{}
	for i, c := range out {
		index[[2]int{c.a, c.b}] = i
	}
	for _, p := range m.met {
		for _, k := range [][2]int{{p[0], p[1]}, {p[1], p[0]}} {
			i, ok := index[k]
			if !ok {
				i = len(out)
				index[k] = i
				out = append(out, cell{a: k[0], b: k[1]})
			}
			out[i].d += prior / 2
		}
	}
	return out
}

// errNoFit reports an optimiser failure.
var errNoFit = errors.New("results: the rating fit did not converge")

// maximise finds the maximum-likelihood parameters for cells by Newton's
// method with the Hessian kept sparse: each step is solved by conjugate
// gradients on Hessian-vector products over the cells (newtonStep), so
// time and memory grow with the pairs that met, not with players². The
// log-likelihood is concave, so a backtracking line search on it makes
// every step an ascent, and near the maximum full steps converge
// quadratically; the fit stops when a step moves no parameter by more
// than 1e-12 (a fraction of an Elo that no table prints) or cannot
// improve the likelihood further. The gradient threshold is scaled by
// the number of games so that one threshold suits small and large data.
func (m *model) maximise(cells []cell) ([]float64, error) {
	x := make([]float64, m.nx)
	if m.thIdx >= 0 {
		var d, total float64
		for _, c := range cells {
			d += c.d
			total += c.w + c.d + c.l
		}
		frac := min(max(d/total, 0.01), 0.99)
		x[m.thIdx] = math.Log(2 * frac / (1 - frac)) // ν for the observed draw rate at equal strength
	}
	if len(m.start) == m.nx {
		copy(x, m.start)
	}
	if m.nx == 0 {
		return x, nil
	}
	var total float64
	for _, c := range cells {
		total += c.w + c.d + c.l
	}
	scale := 1 / max(total, 1)
	w := getNewtonWork(m.nx, len(cells))
	defer putNewtonWork(w)
	ll := m.derivatives(x, cells, w.g, w.curv)
	converged := false
	for range maxNewton {
		gNorm := floats.Norm(w.g, 2)
		if floats.Norm(w.g, math.Inf(1))*scale < 1e-14 {
			converged = true
			break
		}
		// Inexact Newton: a loose solve far from the maximum, tighter as
		// the gradient shrinks (superlinear convergence).
		m.newtonStep(cells, w, min(0.1, gNorm*scale), maxCG+m.nx)
		gd := floats.Dot(w.g, w.d)
		if !(gd > 0) {
			break
		}
		if floats.Norm(w.g, math.Inf(1))*scale < 1e-10 && floats.Norm(w.d, math.Inf(1)) > 1e-3 {
			// A negligible gradient, yet a long step: the likelihood
			// flattens out along a direction without a maximum (one the
			// structural test does not see, such as a first-move
			// advantage that explains every result). Stop where the
			// dense fit stopped, at the gradient threshold; diverged
			// catches what runs further.
			converged = true
			break
		}
		accepted := false
		var step float64
		search := func() {
			for t := 1.0; t > 1e-10; t /= 2 {
				for i := range x {
					w.xTry[i] = x[i] + t*w.d[i]
				}
				clear(w.gTry)
				llTry := m.derivatives(w.xTry, cells, w.gTry, w.curvTry)
				// Near the maximum the likelihood changes by less than the
				// rounding of its sum over the cells: a step that lowers it
				// by no more than that and shrinks the gradient is taken too.
				flat := llTry >= ll-1e-11*max(1, math.Abs(ll)) && floats.Norm(w.gTry, 2) < gNorm
				if llTry >= ll+1e-4*t*gd || flat {
					accepted, ll, step = true, llTry, t*floats.Norm(w.d, math.Inf(1))
					return
				}
			}
		}
		search()
		if dInf := floats.Norm(w.d, math.Inf(1)); !accepted && dInf > maxNewtonStep {
			// Conjugate gradients ran off along a direction of almost no
			// curvature (seen in resamples of 20 000 players: a step of
			// 1e30): take the preconditioned gradient instead, at most
			// maxNewtonStep long, rather than give up far from the maximum.
			for i := range w.d {
				w.d[i] = w.g[i] / w.diag[i]
			}
			floats.Scale(maxNewtonStep/max(maxNewtonStep, floats.Norm(w.d, math.Inf(1))), w.d)
			if gd = floats.Dot(w.g, w.d); gd > 0 {
				search()
			}
		}
		if !accepted {
			break // no better point in doubles: at the maximum to rounding
		}
		copy(x, w.xTry)
		w.g, w.gTry = w.gTry, w.g
		w.curv, w.curvTry = w.curvTry, w.curv
		if step < 1e-12 {
			converged = true
			break
		}
	}
	if !converged {
		// A search that stalls once the optimum is reached to machine
		// precision stands if the gradient is negligible.
		for _, v := range w.g {
			if math.Abs(v)*scale > 1e-6 {
				return nil, errNoFit
			}
		}
	}
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errNoFit
		}
	}
	return x, nil
}

// maxNewton bounds the Newton steps of a fit; maxCG (plus the number of
// parameters) the conjugate-gradient products of one step.
const (
	maxNewton = 200
	maxCG     = 1000
)

// maxNewtonStep (natural units, 1 737 Elo) is the longest step that a
// failed line search is not trusted with: longer, the step is replaced by
// the preconditioned gradient (see maximise).
const maxNewtonStep = 10.0

// fitCells fits cells (regularising if needed) and returns the Fit.
func (m *model) fitCells(cells []cell) (*Fit, error) {
	if m.opt.Draws == Davidson && m.thIdx == m.nx-1 {
		var draws float64
		for _, c := range cells {
			draws += c.d
		}
		noDraws := draws == 0 && m.opt.Prior == 0
		prior := cells
		if m.opt.Prior > 0 {
			prior = m.withPrior(cells, m.opt.Prior)
		}
		if noDraws || m.davidsonUnbounded(prior) {
			// No draws: the most likely ν is 0, where Davidson's likelihood
			// is the half model's on decisive games, whose maximum exists
			// unless someone scored 100 %. Fit that, with ν = 0. Draws
			// that ν can follow to infinity (davidsonUnbounded): Davidson
			// has no rating to give (its Elo would shrink to 0 on the
			// way), so the half model rates the games instead.
			half := *m
			half.opt.Draws, half.thIdx, half.nx = HalfWin, -1, m.nx-1
			f, err := half.fitCells(cells)
			if f != nil {
				f.DrawNu, f.EloScale = 0, 1 // 2/(2+0)
				f.davidsonUnbounded = !noDraws
			}
			return f, err
		}
	}
	data := cells
	regularised := false
	switch {
	case m.opt.Prior > 0:
		data = m.withPrior(cells, m.opt.Prior)
	case !m.mlExists(cells):
		data = m.withPrior(cells, AutoPrior)
		regularised = true
	}
	x, err := m.maximise(data)
	if err == nil && !regularised && m.opt.Prior == 0 && diverged(x) {
		// The structural test missed a degenerate case: fall back too.
		data, regularised = m.withPrior(cells, AutoPrior), true
		x, err = m.maximise(data)
	}
	if err != nil {
		return nil, err
	}
	f := &Fit{Elo: make([]float64, m.n), Groups: m.groups, Group: m.group, Regularised: regularised, x: x}
	f.LogLik = m.logLik(x, cells, nil)
	for p := range f.Elo {
		f.Elo[p] = m.strength(x, p) * eloPerNat
	}
	if m.hIdx >= 0 {
		f.FirstMove = x[m.hIdx] * eloPerNat
	}
	if m.thIdx >= 0 {
		f.DrawNu = math.Exp(x[m.thIdx])
		// Put Davidson's ratings on the half model's scale, as BayesElo
		// rescales its draw model: near equal strength Davidson's expected
		// score rises by 1/(2(2+ν)) per natural unit, the logistic one by
		// 1/4, so the log win/loss odds are multiplied by 2/(2+ν). Then one
		// Elo means the same expected score per Elo in both models.
		scale := 2 / (2 + f.DrawNu)
		for p := range f.Elo {
			f.Elo[p] *= scale
		}
		f.FirstMove *= scale
		f.EloScale = scale
	}
	m.anchor(f.Elo)
	return f, nil
}

// davidsonUnbounded reports whether Davidson's likelihood of cells (with
// draws) grows without end as ν and some rating differences grow
// together, as in a 47-3-0: P(loss) → 0 while the draws keep their share,
// and the reported Elo, r·2/(2+ν), shrinks to 0 (+0.6 for that 47-3-0,
// where the half model says +302). Along such a direction, with ν's log
// growing by t, every decisive game needs its winner's rating to grow by
// at least 2t more than its loser's, and every draw its players' ratings
// to stay within 2t: a system of difference constraints, feasible if and
// only if its graph has no negative cycle (Bellman–Ford). One pair with
// decisive results both ways makes it infeasible: ν is then bounded, and
// the check is over at once. (With a first-move advantage the
// advantage could grow too; that direction is not looked for.)
func (m *model) davidsonUnbounded(cells []cell) bool {
	for _, c := range cells {
		if c.w > 0 && c.l > 0 {
			return false // the common case, found without a map
		}
	}
	won := map[[2]int]bool{} // {winner, loser} of some decisive game
	draws := false
	for _, c := range cells {
		if c.w > 0 {
			won[[2]int{c.a, c.b}] = true
		}
		if c.l > 0 {
			won[[2]int{c.b, c.a}] = true
		}
		draws = draws || c.d > 0
	}
	if !draws {
		return false
	}
	type edge struct {
		from, to int
		w        float64 // x[to] ≤ x[from] + w
	}
	var edges []edge
	for k := range won {
		if won[[2]int{k[1], k[0]}] {
			return false
		}
		edges = append(edges, edge{k[0], k[1], -2})
	}
	for _, c := range cells {
		if c.d > 0 {
			edges = append(edges, edge{c.a, c.b, 2}, edge{c.b, c.a, 2})
		}
	}
	// From a virtual source at distance 0 to every player: n rounds
	// settle every shortest path unless a cycle is negative.
	dist := make([]float64, m.n)
	for range m.n {
		changed := false
		for _, e := range edges {
			if d := dist[e.from] + e.w; d < dist[e.to] {
				dist[e.to], changed = d, true
			}
		}
		if !changed {
			return true
		}
	}
	return false
}

// diverged flags parameters that ran off towards infinity (beyond 40 natural
// units, about 7000 Elo).
func diverged(x []float64) bool {
	for _, v := range x {
		if math.Abs(v) > 40 {
			return true
		}
	}
	return false
}

// anchor shifts each group: the anchor's group so that the anchor has its
// fixed rating, every other group to mean 0.
func (m *model) anchor(elo []float64) {
	for g, members := range m.groups {
		shift := 0.0
		if a := m.opt.Anchor; a >= 0 && a < m.n && m.group[a] == g {
			shift = m.opt.AnchorElo - elo[a]
		} else {
			for _, p := range members {
				shift -= elo[p]
			}
			shift /= float64(len(members))
		}
		for _, p := range members {
			elo[p] += shift
		}
	}
}

// aggregate counts results per ordered pairing, in the order of
// cellsOf (by first mover, then second): the same cells, whatever order
// the games come in. It sorts the games' pairings rather than filling a
// players² table, so that its memory grows with the games.
func aggregate(n int, games []Result) ([]cell, error) {
	keys := make([]int64, len(games)) // first·n + second, with the score's outcome
	for i, g := range games {
		if g.First < 0 || g.First >= n || g.Second < 0 || g.Second >= n || g.First == g.Second {
			return nil, fmt.Errorf("results: game %d has players %d and %d (of %d)", i, g.First, g.Second, n)
		}
		var outcome int64
		switch g.Score {
		case 1:
		case 0.5:
			outcome = 1
		case 0:
			outcome = 2
		default:
			return nil, fmt.Errorf("results: game %d has score %v (want 1, 0.5 or 0)", i, g.Score)
		}
		keys[i] = (int64(g.First)*int64(n)+int64(g.Second))*3 + outcome
	}
	slices.Sort(keys)
	var cells []cell
	for _, k := range keys {
		pair := k / 3
		a, b := int(pair/int64(n)), int(pair%int64(n))
		if len(cells) == 0 || cells[len(cells)-1].a != a || cells[len(cells)-1].b != b {
			cells = append(cells, cell{a: a, b: b})
		}
		c := &cells[len(cells)-1]
		switch k % 3 {
		case 0:
			c.w++
		case 1:
			c.d++
		default:
			c.l++
		}
	}
	return cells, nil
}

// cellsOf lists the ordered pairings that played, by first mover and then
// second: seated[a][b] is a's results moving first against b.
func cellsOf(seated [][]WDL) ([]cell, error) {
	var cells []cell
	for a, row := range seated {
		if len(row) != len(seated) {
			return nil, fmt.Errorf("results: row %d of the results has %d entries for %d players", a, len(row), len(seated))
		}
		for b, w := range row {
			if w.Games() == 0 {
				continue
			}
			if a == b || w.Wins < 0 || w.Draws < 0 || w.Losses < 0 {
				return nil, fmt.Errorf("results: player %d against %d: %v", a, b, w)
			}
			cells = append(cells, cell{a: a, b: b, w: float64(w.Wins), d: float64(w.Draws), l: float64(w.Losses)})
		}
	}
	return cells, nil
}

// FitRatings fits the ratings of n players from games (one maximum-likelihood
// fit over all of them) without confidence intervals.
func FitRatings(n int, games []Result, opt FitOptions) (*Fit, error) {
	cells, err := aggregate(n, games)
	if err != nil {
		return nil, err
	}
	if opt.Anchor >= n {
		return nil, fmt.Errorf("results: anchor %d out of range", opt.Anchor)
	}
	return newModel(n, cells, opt).fitData(cells)
}

// fitData fits the full data. When the maximum-likelihood ratings do not
// exist because some players scored 100 % or 0 % against the main body of
// their group (and no prior was asked for), those players keep the
// AutoPrior fit's rating relative to the main body, which is rated by
// maximum likelihood without them, and the group is placed so that its
// main body (if two or more) averages 0: the prior then touches nothing
// the data can bound. A prior the user asked for rates everybody, but
// those players are marked open all the same (the prior gives them a
// rating, not a bound) and the main body averages 0 alike.
func (m *model) fitData(cells []cell) (*Fit, error) {
	f, err := m.fitCells(cells)
	if err != nil || !f.Regularised && m.opt.Prior == 0 {
		return f, err
	}
	open := m.openings(cells)
	if open == nil {
		return f, nil
	}
	if m.opt.Prior == 0 {
		elo, firstMove, err := m.fitOpen(cells, slices.Clone(open), f)
		if err != nil {
			return nil, err
		}
		for p, o := range open {
			if o == bounded {
				f.Elo[p] = elo[p]
			}
		}
		f.FirstMove = firstMove
	}
	f.open = open
	// The zero point: the mean of the players the data bound, not one
	// that moves with the prior's ratings (see Ratings.anchorOnBounded).
	for g, members := range m.groups {
		if a := m.opt.Anchor; a >= 0 && m.group[a] == g {
			continue
		}
		var in []int
		for _, p := range members {
			if open[p] == bounded {
				in = append(in, p)
			}
		}
		if len(in) < 2 || len(in) == len(members) {
			continue
		}
		shift := -meanOf(f.Elo, in)
		for _, p := range members {
			f.Elo[p] += shift
		}
	}
	return f, nil
}

// BootstrapOptions configure confidence intervals.
type BootstrapOptions struct {
	Replicates int     // resampled data sets; 0 for no intervals
	Seed       uint64  // replicate r draws from rng.Derive(Seed, r), whatever the parallelism
	Workers    int     // parallel fits; 0 for GOMAXPROCS
	Level      float64 // interval coverage; 0 means 0.95
}

// Ratings are fitted ratings with bootstrap intervals.
type Ratings struct {
	*Fit
	// Low and High bound each rating's interval (percentile bootstrap over
	// games: both ends come from the resampled fits, so they need not be
	// symmetric). Without replicates they equal Elo. A bound is −Inf or
	// +Inf when the data cannot bound the rating on that side: in more
	// than the tail's share of resamples the player (or its group of
	// players) scored 100 % or 0 % against the rest, so that its
	// maximum-likelihood rating there is infinite (Ordo prints these
	// bounds as < or >). Where the bootstrap cannot give an interval (a
	// group of two, or of players none of whom is bounded against
	// another) it comes from the score differences as arena match
	// computes them (see pairBounds). A prior (FitOptions.Prior) bounds
	// every resample's ratings but none of these open sides.
	Low, High []float64
	// FirstMoveLow and FirstMoveHigh bound the first-move advantage.
	FirstMoveLow, FirstMoveHigh float64
	// LOS[i][j] is the likelihood of superiority: the share of replicates in
	// which i rated above j, or was above it whatever the ratings because
	// only i took points from the other, directly or through others (ties
	// and unknown places count half); for a group of two whose interval is
	// match's (pairBounds), match's Φ((score − ½)/se), from the same
	// estimate. NaN across groups or without replicates. Nil in a pool of
	// more than LOSMaxPlayers players: LOSAt has it for neighbours in the
	// ranking.
	LOS        [][]float64
	losNear    map[[2]int]float64 // LOS of neighbours, when LOS is nil
	Replicates int
	Level      float64
	// Reference marks, per group, the players whose ratings average 0
	// (Elo's zero point): the anchor player's group has only the anchor;
	// every other group the players whose ratings the data bound (see
	// anchorOnBounded), all of them when every interval is finite.
	Reference []bool
	// byPairs lists the players whose intervals come from their score
	// differences (pairBounds), not from the bootstrap.
	byPairs []int
	// RegularisedReplicates counts replicates that needed AutoPrior.
	RegularisedReplicates int
	// OpenReplicates counts replicates in which some players' ratings were
	// unbounded (see Low and High); their maximum-likelihood ratings there
	// are ±Inf.
	OpenReplicates int
}

// Rate fits the ratings of n players and bootstraps their intervals: the
// games are resampled with replacement Replicates times, each resample is
// fitted the same way (same anchoring), and the interval is the central
// Level share of the replicate ratings. The order of games does not
// matter: a resample is drawn from the counts (see RateCounts).
func Rate(n int, games []Result, fo FitOptions, bo BootstrapOptions) (*Ratings, error) {
	cells, err := aggregate(n, games)
	if err != nil {
		return nil, err
	}
	return rateCells(n, cells, nil, fo, bo)
}

// RateCounts is Rate from counts: seated[a][b] holds a's wins, draws and
// losses moving first against b, for len(seated) players. Resampling n
// games with replacement gives each (pairing, outcome) a multinomial
// count with the data's shares as probabilities, so the bootstrap draws
// those counts directly: the same distribution as drawing games one by
// one, at a cost independent of the number of games.
func RateCounts(seated [][]WDL, fo FitOptions, bo BootstrapOptions) (*Ratings, error) {
	cells, err := cellsOf(seated)
	if err != nil {
		return nil, err
	}
	return rateCells(len(seated), cells, nil, fo, bo)
}

func rateCells(n int, cells []cell, pairs map[[2]int]pairCount, fo FitOptions, bo BootstrapOptions) (*Ratings, error) {
	games := 0
	for _, c := range cells {
		games += int(c.w + c.d + c.l)
	}
	if fo.Anchor >= n {
		return nil, fmt.Errorf("results: anchor %d out of range", fo.Anchor)
	}
	m := newModel(n, cells, fo)
	fit, err := m.fitData(cells)
	if err != nil {
		return nil, err
	}
	r := &Ratings{Fit: fit, FirstMoveLow: fit.FirstMove, FirstMoveHigh: fit.FirstMove, Level: bo.Level}
	if r.Level == 0 {
		r.Level = 0.95
	}
	if r.Level <= 0 || r.Level >= 1 {
		return nil, fmt.Errorf("results: confidence level %v is not between 0 and 1", bo.Level)
	}
	var reps []replicate
	if bo.Replicates > 0 && games > 0 {
		if reps, err = bootstrap(m, cells, games, fit, bo); err != nil {
			return nil, err
		}
	}
	dense := n <= losDenseMax
	if dense {
		// LOS is players² by its nature; without replicates every entry
		// is NaN, and the rows share one row of NaN (memory in the
		// players).
		r.LOS = make([][]float64, n)
		var nanRow []float64
		for i := range r.LOS {
			if nanRow == nil || len(reps) > 0 {
				nanRow = make([]float64, n)
				for j := range nanRow {
					nanRow[j] = math.NaN()
				}
			}
			r.LOS[i] = nanRow
		}
	} else {
		r.losNear = map[[2]int]float64{}
	}
	r.Replicates = len(reps)
	for _, rep := range reps {
		if rep.regularised {
			r.RegularisedReplicates++
		}
		if rep.open != nil {
			r.OpenReplicates++
		}
	}
	r.quantiles(reps)
	r.anchorOnBounded(m, reps)
	if len(reps) == 0 {
		return r, nil
	}
	lo, hi := (1-r.Level)/2, 1-(1-r.Level)/2
	// With or without a prior: a prior bounds the ratings of every fit, so
	// resamples alike or sweeps repeated gave the bootstrap nothing to
	// vary (a 60-0-0 had an interval of width 0), and it cannot bound what
	// the data leave open.
	r.performanceBounds(fit.open, fo.Anchor, cells, pairs)
	if a := fo.Anchor; a >= 0 {
		// The anchor's rating is given. When the games do not bound it
		// relative to the rest of its group, theirs are not bounded
		// relative to it (as the resamples say without a prior; with one
		// they rated them all the same).
		r.Low[a], r.High[a] = fo.AnchorElo, fo.AnchorElo
		if fit.open != nil && fit.open[a] != bounded {
			for _, p := range fit.Groups[fit.Group[a]] {
				if p != a {
					r.Low[p], r.High[p] = math.Inf(-1), math.Inf(1)
				}
			}
		}
	}
	if fo.FirstMove {
		firstMoves := make([]float64, len(reps))
		for k, rep := range reps {
			firstMoves[k] = rep.firstMove
		}
		slices.Sort(firstMoves)
		r.FirstMoveLow = stat.Quantile(lo, stat.Empirical, firstMoves, nil)
		r.FirstMoveHigh = stat.Quantile(hi, stat.Empirical, firstMoves, nil)
	}
	if !dense {
		r.neighbourLOS(reps)
		r.pairBounds(m, cells, pairs)
		return r, nil
	}
	// Replicate by replicate, over the pairs of each group: players²
	// comparisons per replicate, each rating looked up once.
	for _, g := range fit.Groups {
		for _, i := range g {
			for _, j := range g {
				if i != j {
					r.LOS[i][j] = 0
				}
			}
		}
	}
	order := make([]float64, n)
	for _, rep := range reps {
		for p := range order {
			order[p] = rep.order(p)
		}
		for _, g := range fit.Groups {
			for _, i := range g {
				row := r.LOS[i]
				for _, j := range g {
					if i != j {
						row[j] += rep.above(order, i, j)
					}
				}
			}
		}
	}
	for _, g := range fit.Groups {
		for _, i := range g {
			for _, j := range g {
				if i != j {
					r.LOS[i][j] /= float64(len(reps))
				}
			}
		}
	}
	r.pairBounds(m, cells, pairs)
	return r, nil
}

// LOSMaxPlayers is the largest pool whose likelihood of superiority is
// computed for every two players of a group (Ratings.LOS, players²
// entries, and as many rows in a report: 4 000 players with 100
// resamples took 3.7 GB, most of it those rows). A larger pool has it
// only for neighbours in the ranking (see Ratings.LOSAt): each player
// against the players just above and below it in its group, the
// comparisons a ranking of thousands is read by.
const LOSMaxPlayers = 1000

// losDenseMax is LOSMaxPlayers, which a test lowers to check the
// neighbours' LOS against the full table's on a small pool.
var losDenseMax = LOSMaxPlayers

// LOSAt returns the likelihood of superiority of i over j (see LOS): NaN
// across groups, without replicates, and, in a pool of more than
// LOSMaxPlayers players, for two players who are not neighbours in the
// ranking of the fit.
func (r *Ratings) LOSAt(i, j int) float64 {
	if r.LOS != nil {
		return r.LOS[i][j]
	}
	if l, ok := r.losNear[[2]int{i, j}]; ok {
		return l
	}
	return math.NaN()
}

func (r *Ratings) setLOS(i, j int, l float64) {
	if r.LOS != nil {
		r.LOS[i][j] = l
		return
	}
	r.losNear[[2]int{i, j}] = l
}

// neighbourLOS sets the likelihood of superiority of each player over
// its neighbours in the ranking of its group by the full data's fit (the
// next above and below; ties by index), counted over reps as for the
// full table.
func (r *Ratings) neighbourLOS(reps []replicate) {
	if len(reps) == 0 {
		return
	}
	var near [][2]int
	for _, g := range r.Groups {
		ranked := slices.Clone(g)
		slices.SortStableFunc(ranked, func(a, b int) int {
			switch {
			case r.Elo[a] > r.Elo[b]:
				return -1
			case r.Elo[a] < r.Elo[b]:
				return 1
			}
			return a - b
		})
		for k := 1; k < len(ranked); k++ {
			near = append(near, [2]int{ranked[k-1], ranked[k]})
		}
	}
	// Both ways: they need not add up to 1 (two players both open below
	// in a resample are neither above the other).
	counts := make([][2]float64, len(near))
	order := make([]float64, len(r.Elo))
	for _, rep := range reps {
		for p := range order {
			order[p] = rep.order(p)
		}
		for k, pq := range near {
			counts[k][0] += rep.above(order, pq[0], pq[1])
			counts[k][1] += rep.above(order, pq[1], pq[0])
		}
	}
	for k, pq := range near {
		r.losNear[pq] = counts[k][0] / float64(len(reps))
		r.losNear[[2]int{pq[1], pq[0]}] = counts[k][1] / float64(len(reps))
	}
}

// above counts whether i is above j in rep (1, or 0.5 for a tie or an
// unknown place, else 0), order holding each player's rep.order.
func (rep *replicate) above(order []float64, i, j int) float64 {
	a, b := order[i], order[j]
	switch {
	case rep.over != nil && rep.over.over(i, j):
		return 1
	case rep.over != nil && rep.over.over(j, i):
		return 0
	case math.IsNaN(a) || math.IsNaN(b) || math.Abs(a-b) <= losTie:
		return 0.5 // tied, or one side's place is unknown
	case a > b:
		return 1
	}
	return 0
}

// losTie is the rating difference (Elo) under which two players of a
// replicate count as tied for the likelihood of superiority. Players
// whose resampled results are symmetric have equal ratings, which a fit
// reproduces only to rounding (the last bits of 1e-14 Elo went either
// way, and counted as one above the other); a tie counts half.
const losTie = 1e-6

// quantiles sets Low and High from the replicates' ratings (to Elo
// without replicates).
func (r *Ratings) quantiles(reps []replicate) {
	r.Low, r.High = slices.Clone(r.Elo), slices.Clone(r.Elo)
	if len(reps) == 0 {
		return
	}
	lo, hi := (1-r.Level)/2, 1-(1-r.Level)/2
	lows, highs := make([]float64, len(reps)), make([]float64, len(reps))
	for p := range r.Elo {
		for k, rep := range reps {
			lows[k], highs[k] = rep.bounds(p)
		}
		slices.Sort(lows)
		slices.Sort(highs)
		r.Low[p] = stat.Quantile(lo, stat.Empirical, lows, nil)
		r.High[p] = stat.Quantile(hi, stat.Empirical, highs, nil)
	}
}

// anchorOnBounded moves the zero point of every group without the anchor
// player from the mean of all its players to the mean of the players
// whose ratings the data bound: those bounded in the games whose interval
// is finite on both sides (Reference). The others' ratings are a prior's
// (a perfect or nil score) or so uncertain that some resamples put them
// at infinity; a mean that includes them moves with them, and every
// other rating with it, so that intervals anchored on it covered the
// truth too rarely. A group with fewer than two such players keeps the
// mean of its bounded players, or of all.
//
// Each replicate is moved alike: its reference players (those of the
// group's reference that the replicate bounds) get the mean they have in
// the data's fit. Relative ratings within a group do not change, so
// neither do the open sides of the intervals.
func (r *Ratings) anchorOnBounded(m *model, reps []replicate) {
	r.Reference = make([]bool, m.n)
	for g, members := range m.groups {
		if a := m.opt.Anchor; a >= 0 && m.group[a] == g {
			r.Reference[a] = true
			continue
		}
		var finite, inData []int
		for _, p := range members {
			if r.open != nil && r.open[p] != bounded {
				continue
			}
			inData = append(inData, p)
			if !math.IsInf(r.Low[p], 0) && !math.IsInf(r.High[p], 0) {
				finite = append(finite, p)
			}
		}
		ref := members
		switch {
		case len(finite) >= 2:
			ref = finite
		case len(inData) >= 2:
			ref = inData
		}
		for _, p := range ref {
			r.Reference[p] = true
		}
		if len(ref) == len(members) {
			continue // the fit's and the replicates' zero point already
		}
		shift := -meanOf(r.Elo, ref)
		for _, p := range members {
			r.Elo[p] += shift
		}
		for _, rep := range reps {
			var in []int
			for _, p := range ref {
				if rep.open == nil || rep.open[p] == bounded {
					in = append(in, p)
				}
			}
			d := shift // no reference player bounded: moved as the fit was
			if len(in) > 0 {
				d = meanOf(r.Elo, in) - meanOf(rep.elo, in)
			}
			for _, p := range members {
				rep.elo[p] += d
			}
		}
	}
	r.quantiles(reps)
}

func meanOf(v []float64, players []int) float64 {
	var sum float64
	for _, p := range players {
		sum += v[p]
	}
	return sum / float64(len(players))
}

// pairBounds gives the intervals the bootstrap cannot give: those of a
// group in which no two players are bounded against each other (each
// won or lost every game against everyone it met, directly or through
// others, as in a two-player 60-0-0: every resample is alike), those of
// players bounded in the data all of whose games with each other were
// drawn (every resample rates them equal), and, with
// the half model (or Davidson's without a draw, whose fit is the half
// model's) and no first-move advantage, those of every group of two,
// whose rating difference is a function of their score alone; a prior
// changes that function, not what the score says. The interval of the
// difference of two players who met is the one arena match gives for its
// two agents (pairEstimate); a player's interval is that of its
// difference to the anchor player, or of its mean difference to the
// others so rated (their mean is the zero point): for two players, half
// the difference's on each side. A player that never met one of them is
// open on both sides under the mean. A group of two also takes match's
// likelihood of superiority, from the same estimate.
//
// Under Davidson with draws or with a first-move advantage, a group of
// two keeps the bootstrap's intervals: its fitted difference is not the
// logistic Elo of the score that match's interval bounds (Davidson's is
// rescaled by 2/(2+ν), the first-move fit's is the difference with the
// colours taken out).
func (r *Ratings) pairBounds(m *model, cells []cell, pairs map[[2]int]pairCount) {
	for g, members := range m.groups {
		if len(members) < 2 {
			continue
		}
		var body []int // the players bounded in the data
		for _, p := range members {
			if r.open == nil || r.open[p] == bounded {
				body = append(body, p)
			}
		}
		plain := !m.opt.FirstMove && len(members) == 2
		drawn := len(body) >= 2 // every game within the body drawn
		for _, c := range cells {
			if m.group[c.a] != g {
				continue
			}
			plain = plain && (m.opt.Draws == HalfWin || c.d == 0 || r.davidsonUnbounded)
			in := r.open == nil || r.open[c.a] == bounded && r.open[c.b] == bounded // both in the body
			drawn = drawn && (!in || c.w+c.l == 0)
		}
		anchor := -1
		if a := m.opt.Anchor; a >= 0 && m.group[a] == g {
			anchor = a
		}
		var set []int // the players rated from their score differences to each other
		switch {
		case len(body) == 0 || plain:
			set = members
		case drawn && (anchor < 0 || slices.Contains(body, anchor)):
			// Every resample draws every game of the body again: its
			// ratings come out equal every time, an interval of width 0.
			set = body
		default:
			continue
		}
		for _, p := range set {
			low, high := 0.0, 0.0
			switch anchor {
			case p:
				low, high = m.opt.AnchorElo, m.opt.AnchorElo
			case -1:
				for _, q := range set {
					if q != p {
						e := pairEstimate(p, q, cells, pairs, r.Level)
						low, high = low+e.EloLow, high+e.EloHigh
					}
				}
				low, high = low/float64(len(set)), high/float64(len(set))
			default:
				e := pairEstimate(p, anchor, cells, pairs, r.Level)
				low, high = e.EloLow+m.opt.AnchorElo, e.EloHigh+m.opt.AnchorElo
			}
			r.Low[p], r.High[p] = min(low, r.Elo[p]), max(high, r.Elo[p])
			r.byPairs = append(r.byPairs, p)
		}
		if plain {
			p, q := members[0], members[1]
			if e := pairEstimate(p, q, cells, pairs, r.Level); !math.IsNaN(e.LOS) {
				r.setLOS(p, q, e.LOS)
				r.setLOS(q, p, 1-e.LOS)
			}
		}
	}
}

// pairEstimate is the estimate of the rating difference of p over q
// (NaN, with the interval −∞ to ∞, if they never met) that arena match
// gives for its two agents at the ratings' level: from the pentanomial of
// their colour-swapped game pairs when all their games are in complete
// pairs (pairs, nil for none), else from the trinomial of their games;
// either is Wilson's score interval when every pair (game) ended alike
// (see Penta.Estimate).
func pairEstimate(p, q int, cells []cell, pairs map[[2]int]pairCount, level float64) Estimate {
	var w WDL // p's results against q
	for _, c := range cells {
		switch {
		case c.a == p && c.b == q:
			w.Wins, w.Draws, w.Losses = w.Wins+int(c.w), w.Draws+int(c.d), w.Losses+int(c.l)
		case c.a == q && c.b == p:
			w.Wins, w.Draws, w.Losses = w.Wins+int(c.l), w.Draws+int(c.d), w.Losses+int(c.w)
		}
	}
	if w.Games() == 0 {
		nan := math.NaN()
		return Estimate{Elo: nan, EloLow: math.Inf(-1), EloHigh: math.Inf(1), LOS: nan}
	}
	if pc := pairs[pairKey([2]int{p, q})]; pc.unpaired == 0 && 2*pc.penta.Pairs() == w.Games() {
		penta := pc.penta // from the lower index's view
		if p > q {
			slices.Reverse(penta[:])
		}
		return penta.Estimate(level)
	}
	return EstimateWDL(w, level)
}

// performanceBounds replaces the intervals of players whom the data
// themselves cannot bound (open is the full data's openings): every
// resample repeats their perfect or nil score, so the bootstrap says
// nothing about them. The open side is infinite; the other is a
// performance bound: the mean rating of the player's opponents (per game)
// plus the Elo of the far end of Wilson's interval for the player's score,
// which holds for any score in [0, 1] (its variance is at most s(1−s)).
// As arena match counts them, the trials are the player's colour-swapped
// game pairs when all its games are in complete pairs (pairs), else its
// games. An opponent the data do not bound either counts with its own
// bound on the same side (a player that beat only a player that beat the
// rest is above the rest by both margins) if it is beyond the player
// (took no points from a player open above; gave none to one open
// below); the games against any other, or one whose bound on that side
// is infinite, say nothing of that side and are left out.
//
// Players bounded in the data whom too many resamples leave unbounded
// (their lower bound came out +Inf, or their upper −Inf) get the same
// performance bound on that side. The anchor player (or −1) keeps its
// given rating, and counts as bounded for the others.
func (r *Ratings) performanceBounds(open []int8, anchor int, cells []cell, pairs map[[2]int]pairCount) {
	z := distuv.UnitNormal.Quantile(1 - (1-r.Level)/2)
	side := make([]int8, len(r.Elo))
	var todo []int
	for p := range r.Elo {
		o := bounded
		if open != nil {
			o = open[p]
		}
		switch {
		case p == anchor:
			continue // its rating is given: others are bounded against it
		case o != bounded:
		case math.IsInf(r.Low[p], 1):
			o = openAbove
		case math.IsInf(r.High[p], -1):
			o = openBelow
		default:
			continue
		}
		side[p] = o
		r.Low[p], r.High[p] = math.Inf(-1), math.Inf(1)
		if o == openAbove || o == openBelow {
			todo = append(todo, p)
		}
	}
	scored := newScoredGraph(len(r.Elo), cells)
	// opponent is what an opponent's rating adds to p's bound on p's side
	// (±Inf: nothing).
	opponent := func(p, q int) float64 {
		switch {
		case side[q] == bounded:
			return r.Elo[q]
		case side[p] == openAbove && !scored.has(q, p):
			return r.Low[q]
		case side[p] == openBelow && !scored.has(p, q):
			return r.High[q]
		}
		return math.Inf(1)
	}
	// Each pass settles at least one more link of a chain of open
	// players, so as many passes as such players reach the fixed point.
	for range todo {
		for _, p := range todo {
			var games, points, opp float64
			allPaired := true
			for _, c := range cells {
				q, w, d, l := c.b, c.w, c.d, c.l
				switch p {
				case c.a:
				case c.b:
					q, w, l = c.a, c.l, c.w
				default:
					continue
				}
				v := opponent(p, q)
				if math.IsInf(v, 0) {
					continue
				}
				n := w + d + l
				games, points, opp = games+n, points+w+d/2, opp+n*v
				pc := pairs[pairKey([2]int{p, q})]
				allPaired = allPaired && pc.unpaired == 0 && pc.penta.Pairs() > 0
			}
			if games == 0 {
				continue
			}
			trials := int(games)
			if allPaired {
				trials = int(games) / 2
			}
			s, mean := points/games, opp/games
			switch side[p] {
			case openAbove:
				r.Low[p] = min(mean+scoreToElo(wilson(s, trials, -z)), r.Elo[p])
			case openBelow:
				r.High[p] = max(mean+scoreToElo(wilson(s, trials, z)), r.Elo[p])
			}
		}
	}
}

// Directions in which a resample leaves a rating unbounded.
const (
	bounded   int8 = 0
	openAbove int8 = 1 // scored 100 % against the main body of its group
	openBelow int8 = -1
	openBoth  int8 = 2 // no comparison with the main body in either direction
)

// replicate is one bootstrap fit.
type replicate struct {
	elo  []float64
	open []int8 // per player (nil: all bounded); an open player's elo is not used
	// over.over(i, j) when i is above j whatever the ratings (see
	// dominance); nil when no player is open.
	over        *dominanceOrder
	firstMove   float64
	regularised bool
}

// bounds returns the values of player p that the lower and the upper
// quantile see: its maximum-likelihood rating, infinite when open (both
// infinities when its side is unknown, which widens both ends).
func (r *replicate) bounds(p int) (low, high float64) {
	low, high = r.elo[p], r.elo[p]
	if r.open == nil {
		return low, high
	}
	switch r.open[p] {
	case openAbove:
		low, high = math.Inf(1), math.Inf(1)
	case openBelow:
		low, high = math.Inf(-1), math.Inf(-1)
	case openBoth:
		low, high = math.Inf(-1), math.Inf(1)
	}
	return low, high
}

// order returns p's place for the likelihood of superiority: its rating,
// ±Inf when open on one side, NaN when its place is unknown.
func (r *replicate) order(p int) float64 {
	if r.open != nil {
		switch r.open[p] {
		case openAbove:
			return math.Inf(1)
		case openBelow:
			return math.Inf(-1)
		case openBoth:
			return math.NaN()
		}
	}
	return r.elo[p]
}

// dominance answers over(i, j) when i took points from j, directly or
// through others, and j never from i in the same way: then the
// maximum-likelihood ratings put i arbitrarily far above j, whether or not
// either is bounded against the rest (openings). It is the order the
// likelihood of superiority keeps where ratings are open: a player who
// won every game of a gauntlet is above each opponent in every resample,
// where comparing open ratings alone said nothing (50 %).
func (m *model) dominance(cells []cell) *dominanceOrder {
	return newDominanceOrder(newScoredGraph(m.n, cells))
}

// openings finds the players whose ratings cells cannot bound. In each
// group the main body is the largest set of players who all took points
// from each other, directly or through others (the largest strongly
// connected component of the "took points from" graph). A player who
// took points from the main body's side but never conceded any to it
// can be rated arbitrarily high relative to it (openAbove), one who
// never took any arbitrarily low (openBelow), one with no link either
// way is openBoth. It returns nil when every group is one body.
func (m *model) openings(cells []cell) []int8 {
	scored := newScoredGraph(m.n, cells)
	var open []int8
	for _, g := range m.groups {
		if len(g) < 2 {
			continue
		}
		// Strongly connected components: a player's component is what it
		// reaches and what reaches it. Groups are small (players, not
		// games), so two searches per player are cheap enough.
		// Of components equally large, the body is the most central (as
		// many players above it as below): when nobody took points from
		// anybody who beat them (a strict order, as a resample of a
		// lopsided field can be) every component is one player, and the
		// middle one keeps the order's information where an end one
		// would call everybody else unbounded on one side.
		var body []int
		bodyBalance := -1
		assigned := map[int]bool{}
		for _, p := range g {
			if assigned[p] {
				continue
			}
			down, up := reach(scored, []int{p}, true), reach(scored, []int{p}, false)
			var comp []int
			for _, q := range g {
				if down[q] && up[q] {
					comp = append(comp, q)
					assigned[q] = true
				}
			}
			balance := min(len(down), len(up)) - len(comp)
			if len(comp) > len(body) || len(comp) == len(body) && balance > bodyBalance {
				body, bodyBalance = comp, balance
			}
		}
		if len(body) == len(g) {
			continue
		}
		if open == nil {
			open = make([]int8, m.n)
		}
		if len(body) < 2 {
			// Nobody took points from anybody who took points from them:
			// no two players are compared, so no rating in the group is
			// bounded relative to the others (one placed alone would sit
			// at its full-data rating: an interval of width zero). Relative
			// to the group's mean, though, a player who took points from
			// every other, directly or through others, is above all of them
			// by as much as one likes (open above), one from whom every
			// other took points below (as the winner and the loser of two
			// players who met); the rest are unknown both ways.
			for _, p := range g {
				open[p] = openBoth
				switch {
				case len(reach(scored, []int{p}, true)) == len(g):
					open[p] = openAbove
				case len(reach(scored, []int{p}, false)) == len(g):
					open[p] = openBelow
				}
			}
			continue
		}
		below, above := reach(scored, body, true), reach(scored, body, false) // the body took points from below; above took points from the body
		for _, p := range g {
			switch {
			case above[p] && below[p]: // the body: what reaches it and it reaches
			case above[p]:
				open[p] = openAbove
			case below[p]:
				open[p] = openBelow
			default:
				open[p] = openBoth
			}
		}
	}
	return open
}

// fitOpen refits a resample in which some players are unbounded (open):
// the main bodies alone (their maximum-likelihood fit ignores the games of
// players who run off to ±Inf), each body placed so that its mean is that
// of the same players in the full-data fit (or at the anchor when it is in
// the body). An anchor outside its group's body leaves that group's ratings
// unknown relative to it (the body is placed by the full fit all the same:
// before, at mean 0 beside an anchor that had lost every game to it).
func (m *model) fitOpen(sample []cell, open []int8, full *Fit) (elo []float64, firstMove float64, err error) {
	body := make([]cell, 0, len(sample))
	for _, c := range sample {
		if open[c.a] == bounded && open[c.b] == bounded {
			body = append(body, c)
		}
	}
	opt := m.opt
	opt.Anchor = -1
	bm := newModel(m.n, body, opt)
	f, err := bm.fitCells(body)
	if err != nil {
		return nil, 0, err
	}
	elo = f.Elo
	for g, members := range m.groups {
		var in []int
		for _, p := range members {
			if open[p] == bounded {
				in = append(in, p)
			}
		}
		if len(in) == 0 {
			continue
		}
		var shift float64
		if a := m.opt.Anchor; a >= 0 && m.group[a] == g && open[a] == bounded {
			shift = m.opt.AnchorElo - elo[a]
		} else {
			if a >= 0 && m.group[a] == g {
				// An open anchor: the body keeps its place relative to
				// it in the full fit (the prior's), unknown both ways.
				for _, p := range members {
					if p != a {
						open[p] = openBoth
					}
				}
			}
			for _, p := range in {
				shift += full.Elo[p] - elo[p]
			}
			shift /= float64(len(in))
		}
		for _, p := range in {
			elo[p] += shift
		}
	}
	return elo, f.FirstMove, nil
}

// bootstrap fits Replicates resamples of the games (games in all, as
// counted in cells) in parallel. Without a
// user prior, a resample whose maximum-likelihood ratings do not exist
// because some players scored 100 % or 0 % against the rest marks those
// players open (unbounded on that side) and rates the others without
// them, instead of flooring everyone with AutoPrior.
func bootstrap(m *model, cells []cell, games int, full *Fit, bo BootstrapOptions) ([]replicate, error) {
	warm := *m
	warm.start = full.x
	m = &warm
	reps := make([]replicate, bo.Replicates)
	k, err := eachResample(cells, games, bo, func(k int, sample []cell) error {
		f, err := m.fitCells(sample)
		if err != nil {
			return err
		}
		rep := replicate{elo: f.Elo, firstMove: f.FirstMove, regularised: f.Regularised}
		if f.Regularised && m.opt.Prior == 0 {
			if open := m.openings(sample); open != nil {
				elo, fm, err := m.fitOpen(sample, open, full)
				if err != nil {
					return err
				}
				for p, o := range open {
					if o == bounded {
						rep.elo[p] = elo[p]
					}
				}
				rep.open, rep.firstMove, rep.regularised = open, fm, false
				rep.over = m.dominance(sample)
			}
		}
		reps[k] = rep
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("bootstrap replicate %d: %w", k, err)
	}
	return reps, nil
}
