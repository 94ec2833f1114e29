package results

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// denseHessian sets hess to the Hessian of the log-likelihood of cells
// at x, assembled from the cells' curvatures into a players² matrix (as
// the fit before issue #34 did).
func (m *model) denseHessian(x []float64, cells []cell, hess *mat.SymDense) {
	curv := make([]curvature, len(cells))
	m.derivatives(x, cells, nil, curv)
	add := func(i, j int, v float64) {
		if i >= 0 && j >= 0 {
			hess.SetSym(i, j, hess.At(i, j)+v)
		}
	}
	for k, c := range cells {
		cv := curv[k]
		idx := [3]int{m.varOf[c.a], m.varOf[c.b], m.hIdx}
		coef := [3]float64{1, -1, 1}
		for i := range idx {
			for j := i; j < len(idx); j++ {
				add(idx[i], idx[j], -coef[i]*coef[j]*cv.zz)
			}
			add(idx[i], m.thIdx, -coef[i]*cv.zt)
		}
		add(m.thIdx, m.thIdx, -cv.tt)
	}
}

// denseMaximise is the fit before issue #34, kept as the reference the
// sparse fit (maximise) is tested against: it finds the maximum-likelihood parameters for cells with gonum's
// Newton method and the analytic gradient and Hessian (the log-likelihood
// is concave, so Newton converges in a handful of steps). The objective is
// scaled by the number of games so that one gradient threshold suits small
// and large data sets.
func (m *model) denseMaximise(cells []cell) ([]float64, error) {
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
	if m.nx == 0 {
		return x, nil
	}
	var total float64
	for _, c := range cells {
		total += c.w + c.d + c.l
	}
	scale := 1 / max(total, 1)
	p := optimize.Problem{
		Func: func(x []float64) float64 { return -m.logLik(x, cells, nil) * scale },
		Grad: func(grad, x []float64) {
			clear(grad)
			m.logLik(x, cells, grad)
			for i := range grad {
				grad[i] *= -scale
			}
		},
		Hess: func(hess *mat.SymDense, x []float64) {
			hess.Zero()
			m.denseHessian(x, cells, hess)
			hess.ScaleSym(-scale, hess)
		},
	}
	settings := &optimize.Settings{
		GradientThreshold: 1e-10,
		Converger:         &optimize.FunctionConverge{Absolute: 1e-15, Relative: 1e-15, Iterations: 50},
		MajorIterations:   1000,
	}
	res, err := optimize.Minimize(p, x, settings, &optimize.Newton{})
	if res == nil {
		return nil, fmt.Errorf("%w: %v", errNoFit, err)
	}
	if err != nil {
		// A line search can fail once the optimum is reached to machine
		// precision; accept the point if the gradient is negligible.
		g := make([]float64, m.nx)
		p.Grad(g, res.X)
		for _, v := range g {
			if math.Abs(v) > 1e-6 {
				return nil, fmt.Errorf("%w: %v", errNoFit, err)
			}
		}
	}
	for _, v := range res.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errNoFit
		}
	}
	return res.X, nil
}
