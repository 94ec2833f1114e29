package othello6

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/boardgame-arena/arena/rng"
)

// Fitting the solver's ordering evaluation (solve_eval.go). A command, not
// a test (minutes of CPU):
//
//	go test ./games/othello6 -run TestFitOrderEval -fitorder 40000 -v -timeout 0
//
// solves that many positions with 12–20 empties exactly, fits the weights
// by ridge least squares, reports the error on a held-out tenth, and
// writes solve_evalweights.go. -fitdata caches the solved positions.
var (
	fitOrder  = flag.Int("fitorder", 0, "TestFitOrderEval: positions to solve and fit on (0 skips the test)")
	fitData   = flag.String("fitdata", "", "TestFitOrderEval: file caching the solved positions (me opp value per line)")
	fitLambda = flag.Float64("fitlambda", 3, "TestFitOrderEval: ridge penalty on each pattern weight (in squared discs)")
)

type fitSample struct {
	me, opp uint64
	value   int
}

// fitPositions returns n positions with 12–20 empties from games mixing
// random moves with the best moves of a 2-ply heuristic search, so they
// look like the positions a solve meets, solved exactly.
func fitPositions(t *testing.T, n int, seed uint64, keep func(fitSample)) []fitSample {
	r := rng.New(seed)
	so := NewSolver(16)
	var out []fitSample
	start := time.Now()
	for len(out) < n {
		s := New()
		for !s.Terminal() && s.Empties() > 12 {
			ms := s.LegalMoves(nil)
			m := ms[r.IntN(len(ms))]
			if r.IntN(2) == 0 && ms[0] != Pass {
				m = heuristicBest(s, ms, 1)
			}
			s.Play(m)
			if e := s.Empties(); !s.Terminal() && e <= 20 && r.IntN(3) == 0 {
				res, err := so.Solve(context.Background(), s, 1)
				if err != nil {
					t.Fatal(err)
				}
				d := fitSample{s.discs[s.side], s.discs[1-s.side], res.Value}
				out = append(out, d)
				keep(d)
				if len(out)%1000 == 0 {
					t.Logf("%d positions solved, %.0f s", len(out), time.Since(start).Seconds())
				}
			}
		}
	}
	return out[:n]
}

func TestFitOrderEval(t *testing.T) {
	if *fitOrder <= 0 {
		t.Skip("a command: -fitorder N fits the ordering evaluation on N solved positions")
	}
	var data []fitSample
	if *fitData != "" {
		if f, err := os.Open(*fitData); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				var d fitSample
				if _, err := fmt.Sscan(sc.Text(), &d.me, &d.opp, &d.value); err != nil {
					t.Fatal(err)
				}
				data = append(data, d)
			}
			f.Close()
		}
	}
	if len(data) < *fitOrder {
		// More positions from other games (a seed of its own for each
		// batch, so the cache grows reproducibly), appended to the cache
		// as they are solved.
		keep := func(fitSample) {}
		if *fitData != "" {
			f, err := os.OpenFile(*fitData, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			keep = func(d fitSample) {
				if _, err := fmt.Fprintln(f, d.me, d.opp, d.value); err != nil {
					t.Fatal(err)
				}
			}
		}
		data = append(data, fitPositions(t, *fitOrder-len(data), 2015+uint64(len(data)), keep)...)
	}
	data = data[:*fitOrder]

	// Parameters: one per pattern configuration seen (a line and its
	// reverse share one), then the four scalars.
	param := [4][numConfigs]int{}
	for g := range param {
		for c := range param[g] {
			param[g][c] = -1
		}
	}
	np := 0
	id := func(g, c int) int {
		if g != 3 {
			c = min(c, reverseConfig(c))
		}
		if param[g][c] < 0 {
			param[g][c] = np
			np++
		}
		return param[g][c]
	}
	type row struct {
		idx  []int
		sc   [4]float64
		y    float64
		test bool
	}
	rows := make([]row, len(data))
	for k, d := range data {
		rw := row{y: float64(d.value), test: k%10 == 9}
		orderPatterns(d.me, d.opp, func(g, c int) { rw.idx = append(rw.idx, id(g, c)) })
		mob, front, par := orderScalars(d.me, d.opp, Moves(d.me, d.opp), Moves(d.opp, d.me))
		rw.sc = [4]float64{float64(mob), float64(front), float64(par), 1}
		rows[k] = rw
	}
	P := np + 4
	ata := mat.NewSymDense(P, nil)
	atb := mat.NewVecDense(P, nil)
	for _, rw := range rows {
		if rw.test {
			continue
		}
		// The row's entries: pattern indicators (counted) and scalars.
		ent := map[int]float64{}
		for _, i := range rw.idx {
			ent[i]++
		}
		for s, v := range rw.sc {
			if v != 0 {
				ent[np+s] += v
			}
		}
		for i, vi := range ent {
			atb.SetVec(i, atb.AtVec(i)+vi*rw.y)
			for j, vj := range ent {
				if j >= i {
					ata.SetSym(i, j, ata.At(i, j)+vi*vj)
				}
			}
		}
	}
	for i := 0; i < np; i++ {
		ata.SetSym(i, i, ata.At(i, i)+*fitLambda)
	}
	var ch mat.Cholesky
	if !ch.Factorize(ata) {
		t.Fatal("normal equations not positive definite")
	}
	var x mat.VecDense
	if err := ch.SolveVecTo(&x, atb); err != nil {
		t.Fatal(err)
	}
	var w orderEvalWeights
	tables := [4]*[numConfigs]int16{&w.edge, &w.second, &w.diag, &w.corner}
	for g := range tables {
		for c := 0; c < numConfigs; c++ {
			cc := c
			if g != 3 {
				cc = min(c, reverseConfig(c))
			}
			if p := param[g][cc]; p >= 0 {
				tables[g][c] = int16(math.Round(x.AtVec(p) * orderUnit))
			}
		}
	}
	w.mobility = int32(math.Round(x.AtVec(np) * orderUnit))
	w.frontier = int32(math.Round(x.AtVec(np+1) * orderUnit))
	w.parity = int32(math.Round(x.AtVec(np+2) * orderUnit))
	w.bias = int32(math.Round(x.AtVec(np+3) * orderUnit))

	// Held-out error of the new evaluation and of the agents' evaluation
	// (scaled by its own least-squares fit).
	saved := orderWeights
	orderWeights = w
	defer func() { orderWeights = saved }()
	var se, n float64
	var sx, sy, sxx, sxy float64
	var olds []float64
	var ys []float64
	for k, d := range data {
		if !rows[k].test {
			continue
		}
		mm, om := Moves(d.me, d.opp), Moves(d.opp, d.me)
		e := float64(orderEval(d.me, d.opp, mm, om))/orderUnit - float64(d.value)
		se += e * e
		n++
		o := float64(evalBoards(defaultWeights, d.me, d.opp, mm, om, true))
		olds, ys = append(olds, o), append(ys, float64(d.value))
		sx, sy, sxx, sxy = sx+o, sy+float64(d.value), sxx+o*o, sxy+o*float64(d.value)
	}
	a := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	b := (sy - a*sx) / n
	var seOld float64
	for k := range olds {
		e := a*olds[k] + b - ys[k]
		seOld += e * e
	}
	t.Logf("%d parameters, %d positions (%d held out): rms error %.2f discs (agents' evaluation, best linear scaling: %.2f, %.1f units a disc)",
		P, len(data), int(n), math.Sqrt(se/n), math.Sqrt(seOld/n), 1/a)
	if err := os.WriteFile("solve_evalweights.go", []byte(formatOrderWeights(&w, len(data))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// reverseConfig is the configuration of the six cells in reverse order.
func reverseConfig(c int) int {
	r := 0
	for k := 0; k < Size; k++ {
		r = 3*r + c%3
		c /= 3
	}
	return r
}

func formatOrderWeights(w *orderEvalWeights, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by TestFitOrderEval (solve_fit_test.go) from %d solved positions; DO NOT EDIT.\n\npackage othello6\n\n", n)
	b.WriteString("var orderWeights = orderEvalWeights{\n")
	for _, tb := range []struct {
		name string
		t    *[numConfigs]int16
	}{{"edge", &w.edge}, {"second", &w.second}, {"diag", &w.diag}, {"corner", &w.corner}} {
		fmt.Fprintf(&b, "\t%s: [numConfigs]int16{", tb.name)
		for c, v := range tb.t {
			if c%18 == 0 {
				b.WriteString("\n\t\t")
			} else {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%d,", v)
		}
		b.WriteString("\n\t},\n")
	}
	fmt.Fprintf(&b, "\tmobility: %d, frontier: %d, parity: %d, bias: %d,\n}\n", w.mobility, w.frontier, w.parity, w.bias)
	return b.String()
}
