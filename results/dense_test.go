package results

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// derivatives returns the log-likelihood of cells at x, adds its gradient
// into grad and its Hessian into hess when they are not nil.
func (m *model) denseDerivatives(x []float64, cells []cell, grad []float64, hess *mat.SymDense) float64 {
	h, theta := 0.0, 0.0
	if m.hIdx >= 0 {
		h = x[m.hIdx]
	}
	if m.thIdx >= 0 {
		theta = x[m.thIdx]
	}
	var ll float64
	for _, c := range cells {
		n := c.w + c.d + c.l
		if n == 0 {
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
			sc := c.w + c.d/2
			ll += sc*logSigmoid(z) + (n-sc)*logSigmoid(-z)
			p := sigmoid(z)
			gz = sc - n*p
			hzz = -n * p * (1 - p)
		}
		if hess != nil {
			// z = x[a] − x[b] + h: the chain rule with coefficients ±1.
			var idx [3]int
			var coef [3]float64
			k := 0
			for _, v := range []struct {
				i int
				c float64
			}{{m.varOf[c.a], 1}, {m.varOf[c.b], -1}, {m.hIdx, 1}} {
				if v.i >= 0 {
					idx[k], coef[k] = v.i, v.c
					k++
				}
			}
			for i := 0; i < k; i++ {
				for j := i; j < k; j++ {
					addSym(hess, idx[i], idx[j], coef[i]*coef[j]*hzz)
				}
				if m.thIdx >= 0 {
					addSym(hess, idx[i], m.thIdx, coef[i]*hzt)
				}
			}
			if m.thIdx >= 0 {
				addSym(hess, m.thIdx, m.thIdx, htt)
			}
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

// addSym adds v to the symmetric entry (i, j).
func addSym(h *mat.SymDense, i, j int, v float64) {
	if i == j {
		h.SetSym(i, i, h.At(i, i)+v)
		return
	}
	h.SetSym(i, j, h.At(i, j)+v)
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
			m.denseDerivatives(x, cells, nil, hess)
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

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

func logSigmoid(z float64) float64 {
	if z >= 0 {
		return -math.Log1p(math.Exp(-z))
	}
	return z - math.Log1p(math.Exp(z))
}
