package tune

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/optimize"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

// Texel tuning fits a game's evaluation weights to the results of recorded
// games. A position p with evaluation e (from the side to move's view,
// with weights w) is expected to score
//
//	σ(e) = 1 / (1 + 10^(−K·e/400))
//
// for the side to move, the logistic curve of Elo ratings with e scaled
// by K. The error is the mean over the positions of (r − σ(e))², r being the
// game's final result for the side to move (1, ½ or 0). K is fitted first,
// with the start weights (a one-dimensional minimisation); then the
// weights, with K fixed, by gonum's Nelder–Mead within each weight's
// [Min, Max], followed by a ±1 search on the integers (the weights are
// integers: Nelder–Mead works on reals rounded to the nearest integer).

// Limits and defaults of Texel tuning.
const (
	// DefaultPositions is the number of positions sampled when
	// SampleOptions.Max is 0. A position is a cloned game state: about
	// 2.5 KB for othello6 (its undo stack is part of the state), so the
	// default costs about 125 MB there.
	DefaultPositions = 50_000
	// MaxPositions bounds SampleOptions.Max (about 1.3 GB of othello6
	// states).
	MaxPositions = 500_000
	// DefaultEvaluations is the most error evaluations the weight fit
	// spends when FitOptions.Evaluations is 0.
	DefaultEvaluations = 3000
	// MaxEvaluations bounds FitOptions.Evaluations.
	MaxEvaluations = 1_000_000
	// DefaultHeldOut is the share of games kept out of the fit to measure
	// it (SampleOptions.HeldOut).
	DefaultHeldOut = 0.1
)

// Position is what Texel tuning needs of a position: its evaluation, whose
// weights can be changed, and the side to move. The sequential games whose
// evaluation has weights (games.Weighted) provide it.
type Position interface {
	games.Evaluator
	games.Weighted
	ToMove() int
}

// Quieter is implemented by positions that can tell whether they are quiet:
// whether their static evaluation can be trusted, with no capture or
// threat pending. Sample keeps only quiet positions of games that have
// one. None of the five games has such a notion today: Othello, Erdos,
// Pyrga and Gravity have no captures that a quiescence search would
// resolve, so every position is kept.
type Quieter interface {
	Quiet() bool
}

// A Sample is one training position and the result of its game for the
// side to move: 1 (won), 0.5 (drawn) or 0 (lost).
type Sample struct {
	Pos    Position
	Result float64
}

// SampleOptions says which positions of recorded games are used.
type SampleOptions struct {
	// SkipPlies is the number of plies of every game that are not
	// sampled, counted from its start position (after a "fen" start);
	// negative means the game's opening plies (games.Entry.OpeningPlies,
	// or the arena's default), the random plies that open a tournament's
	// games.
	SkipPlies int
	// Max is the most positions kept: a uniform sample of the eligible
	// ones, drawn from Seed. 0 means DefaultPositions.
	Max int
	// HeldOut is the share of games (0 to 0.5) whose positions are kept
	// apart, to measure the fit on positions it did not see; the games are
	// drawn from Seed. Negative means none; 0 means DefaultHeldOut.
	HeldOut float64
	Seed    uint64
}

// Positions are the samples drawn from a set of recorded games.
type Positions struct {
	Weights []games.Weight // the game's weights, in UseWeights' order
	Train   []Sample       // positions of the games that the fit sees
	Test    []Sample       // positions of the held-out games
	// Games and HeldOutGames count the games sampled; Skipped the games
	// left out because they did not end by the game's rules (forfeits and
	// adjudications say nothing about the position).
	Games, HeldOutGames, Skipped int
	// Eligible is the number of positions that could have been sampled
	// (past SkipPlies, not terminal, quiet where the game says).
	Eligible int
	// Quiet reports whether the game's positions know whether they are
	// quiet (Quieter), so that only quiet ones were kept.
	Quiet bool
	// SkipPlies is the number of opening plies skipped in every game.
	SkipPlies int
}

// SamplePositions replays the recorded games of variant v with the game's
// rules, checking every move, and samples their positions: those after the
// first SkipPlies plies that are not terminal (and quiet, in a game that
// knows), each labelled with the game's result for the side to move. Games
// of other variants are an error; games that ended by forfeit or
// adjudication are skipped. The sample depends on the order of recs (give
// them in a fixed order, e.g. by Index). It fails when v is not a sequential game whose
// evaluation has weights.
func SamplePositions(v games.Variant, recs []results.GameRecord, o SampleOptions) (*Positions, error) {
	start, ok := v.New().(games.State)
	if !ok {
		return nil, fmt.Errorf("%s is a simultaneous-move game: texel tuning replays sequential games (%s)", v, strings.Join(WeightedGames(), ", "))
	}
	wd, ok := start.(games.Weighted)
	if _, ev := start.(games.Evaluator); !ok || !ev {
		return nil, fmt.Errorf("%s's evaluation has no named weights to tune (games with weights: %s)", v, strings.Join(WeightedGames(), ", "))
	}
	switch {
	case o.Max == 0:
		o.Max = DefaultPositions
	case o.Max < 0 || o.Max > MaxPositions:
		return nil, option.New("Max", o.Max, "use 1 to %d (each position is a game state in memory)", MaxPositions)
	}
	switch {
	case o.HeldOut == 0:
		o.HeldOut = DefaultHeldOut
	case o.HeldOut < 0:
		o.HeldOut = 0
	case o.HeldOut > 0.5 || math.IsNaN(o.HeldOut):
		return nil, fmt.Errorf("held-out share %g: use 0 to 0.5", o.HeldOut)
	}
	if o.SkipPlies < 0 {
		o.SkipPlies = openingPlies(v.Game)
	}
	_, quiet := start.(Quieter)
	p := &Positions{Weights: wd.Weights(), Quiet: quiet, SkipPlies: o.SkipPlies}

	// Games: which are used, and which of those are held out.
	spec := v.String()
	var used []int
	for i := range recs {
		g := &recs[i]
		if g.GameSpec() != spec {
			return nil, fmt.Errorf("record %d (index %d) is a game of %s, not %s: give records of one game", i+1, g.Index, g.GameSpec(), spec)
		}
		if g.Termination != results.Normal {
			p.Skipped++
			continue
		}
		used = append(used, i)
	}
	if len(used) == 0 {
		return nil, fmt.Errorf("no game in the records ended by the rules (%d skipped: forfeits or adjudications)", p.Skipped)
	}
	heldOut := make(map[int]bool)
	if n := int(math.Round(o.HeldOut * float64(len(used)))); n > 0 && len(used) >= 2 {
		r := rng.New(rng.Derive(o.Seed, 0x7e8e1))
		perm := append([]int(nil), used...)
		for i := len(perm) - 1; i > 0; i-- { // Fisher–Yates, from the seed
			j := r.IntN(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		for _, i := range perm[:n] {
			heldOut[i] = true
		}
	}
	p.Games, p.HeldOutGames = len(used)-len(heldOut), len(heldOut)

	// Reservoir sampling (Algorithm R) over every eligible position, in
	// record order: each ends up kept with the same probability.
	type kept struct {
		s    Sample
		test bool
	}
	res := make([]kept, 0, min(o.Max, 1<<16))
	r := rng.New(rng.Derive(o.Seed, 0x5a3b1e))
	for _, i := range used {
		g := &recs[i]
		err := replay(v, start, g, func(s games.State) {
			if o.SkipPlies > 0 && s.Ply() < o.SkipPlies || s.Terminal() {
				return
			}
			if q, ok := s.(Quieter); ok && !q.Quiet() {
				return
			}
			p.Eligible++
			slot := len(res)
			if slot >= o.Max {
				if slot = r.IntN(p.Eligible); slot >= o.Max {
					return
				}
			}
			c := s.Clone()
			k := kept{Sample{c.(Position), pointsFor(g, s.ToMove())}, heldOut[i]}
			if slot == len(res) {
				res = append(res, k)
			} else {
				res[slot] = k
			}
		})
		if err != nil {
			return nil, fmt.Errorf("record %d (game index %d): %w", i+1, g.Index, err)
		}
	}
	for _, k := range res {
		if k.test {
			p.Test = append(p.Test, k.s)
		} else {
			p.Train = append(p.Train, k.s)
		}
	}
	if len(p.Train) == 0 {
		return nil, fmt.Errorf("no position to fit: the %d games have no non-terminal position after their first %d plies (lower %w)", len(used), o.SkipPlies, named("SkipPlies"))
	}
	return p, nil
}

// pointsFor is what game g was worth to player p (1, ½, 0); g.Winner is a
// player of the game, as ToMove is.
func pointsFor(g *results.GameRecord, p int) float64 {
	switch g.Winner {
	case games.Draw:
		return 0.5
	case p:
		return 1
	}
	return 0
}

// replay plays g's moves from the variant's start, or from its "fen" start,
// calling visit before every move and at the end. Ply counts from the
// start position, whichever it is.
func replay(v games.Variant, start games.State, g *results.GameRecord, visit func(games.State)) error {
	moves := g.Moves
	var s games.State
	if len(moves) > 0 && strings.HasPrefix(moves[0], results.PositionPrefix) {
		var err error
		if s, err = games.ParsePosition(v, strings.TrimPrefix(moves[0], results.PositionPrefix)); err != nil {
			return fmt.Errorf("start position: %v", err)
		}
		moves = moves[1:]
	} else {
		s = start.Clone()
		for s.Ply() > 0 {
			s.Undo()
		}
	}
	for i, text := range moves {
		visit(s)
		m, err := games.ParseLegal(s, text)
		if err != nil {
			return fmt.Errorf("ply %d: %v", i+1, err)
		}
		s.Play(m)
	}
	visit(s)
	return nil
}

// openingPlies is the number of random plies that open a tournament's
// games of g (as the arena plays them when no openings are given).
func openingPlies(g *games.Entry) int {
	switch {
	case g.OpeningPlies == games.NoOpening:
		return 0
	case g.OpeningPlies > 0:
		return g.OpeningPlies
	}
	return arena.DefaultOpeningPlies
}

// WeightedGames lists the registered sequential games whose evaluation has
// named weights.
func WeightedGames() []string {
	var names []string
	for _, g := range games.All() {
		v, err := games.Lookup(g.Name)
		if err != nil {
			continue
		}
		s, ok := v.New().(games.State)
		if _, w := s.(games.Weighted); ok && w {
			names = append(names, g.Name)
		}
	}
	return names
}

// Sigmoid is the expected score σ(e) = 1/(1+10^(−K·e/400)) of an
// evaluation e with scale K.
func Sigmoid(k, e float64) float64 {
	return 1 / (1 + math.Exp(-k*e*(math.Ln10/400)))
}

// chunk is the number of samples one goroutine scores at a time. The
// error is summed chunk by chunk in a fixed order, so it is the same
// number whatever the number of CPUs.
const chunk = 2048

// Errors scores sample sets with given weights, in parallel over the
// CPUs. One Errors must not be used by two goroutines at once: it sets
// the samples' weights.
type Errors struct {
	Samples []Sample
	evals   []float64 // the evaluations of the last Evaluate
	partial []float64
}

// NewErrors returns an Errors for the samples.
func NewErrors(samples []Sample) *Errors {
	n := (len(samples) + chunk - 1) / chunk
	return &Errors{Samples: samples, evals: make([]float64, len(samples)), partial: make([]float64, n)}
}

// parallel runs f on every chunk of the samples, on up to GOMAXPROCS
// goroutines.
func (e *Errors) parallel(f func(c, lo, hi int)) {
	n := len(e.partial)
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for c := range n {
			f(c, c*chunk, min((c+1)*chunk, len(e.Samples)))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				c := int(next.Add(1) - 1)
				if c >= n {
					return
				}
				f(c, c*chunk, min((c+1)*chunk, len(e.Samples)))
			}
		})
	}
	wg.Wait()
}

// Evaluate evaluates every sample with weights w (the samples keep w: do
// not change it while they are in use), from the side to move's view,
// and returns the evaluations (valid until the next call).
func (e *Errors) Evaluate(w []int) []float64 {
	e.parallel(func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			p := e.Samples[i].Pos
			p.UseWeights(w)
			e.evals[i] = float64(p.Evaluate(p.ToMove()))
		}
	})
	return e.evals
}

// MSE returns the mean squared error of the samples with weights w and
// scale k (NaN for no samples).
func (e *Errors) MSE(w []int, k float64) float64 {
	if len(e.Samples) == 0 {
		return math.NaN()
	}
	e.parallel(func(c, lo, hi int) {
		sum := 0.0
		for i := lo; i < hi; i++ {
			s := &e.Samples[i]
			s.Pos.UseWeights(w)
			d := s.Result - Sigmoid(k, float64(s.Pos.Evaluate(s.Pos.ToMove())))
			sum += d * d
		}
		e.partial[c] = sum
	})
	return e.total()
}

func (e *Errors) total() float64 {
	sum := 0.0
	for _, v := range e.partial {
		sum += v
	}
	return sum / float64(len(e.Samples))
}

// mseOfEvals is the error of the last Evaluate's evaluations at scale k.
func (e *Errors) mseOfEvals(k float64) float64 {
	e.parallel(func(c, lo, hi int) {
		sum := 0.0
		for i := lo; i < hi; i++ {
			d := e.Samples[i].Result - Sigmoid(k, e.evals[i])
			sum += d * d
		}
		e.partial[c] = sum
	})
	return e.total()
}

// Scale bounds for FitK: K is searched between them.
const (
	MinK = 1e-4
	MaxK = 1e4
)

// FitK returns the scale K that minimises the samples' error with weights
// w, and that error. It minimises over log K with gonum's Nelder–Mead
// from K = 1 (the evaluations are computed once: the error is then cheap).
func FitK(e *Errors, w []int) (k, mse float64, err error) {
	if len(e.Samples) == 0 {
		return 0, 0, errors.New("no positions to fit K on")
	}
	e.Evaluate(w)
	f := func(x []float64) float64 {
		k := math.Exp(x[0])
		if k < MinK || k > MaxK {
			return math.Inf(1)
		}
		return e.mseOfEvals(k)
	}
	res, err := optimize.Minimize(optimize.Problem{Func: f}, []float64{0}, &optimize.Settings{
		Converger: &optimize.FunctionConverge{Absolute: 1e-13, Relative: 1e-13, Iterations: 50},
	}, &optimize.NelderMead{SimplexSize: 1})
	if err != nil {
		return 0, 0, fmt.Errorf("fitting K: %v", err)
	}
	k = math.Exp(res.X[0])
	return k, e.mseOfEvals(k), nil
}

// FitOptions configures the weight fit.
type FitOptions struct {
	// K is the scale; 0 means fit it first with the start weights (FitK).
	K float64
	// Evaluations is the most error evaluations of the Nelder–Mead stage;
	// 0 means DefaultEvaluations.
	Evaluations int
	// Polish is the most passes of the ±1 integer search after it; 0
	// means 20, negative none.
	Polish int
	// Progress, if not nil, is called after every error evaluation with
	// the number done and the best error so far.
	Progress func(evaluations int, best float64)
	// Stop, when closed, ends the fit early with the best weights found so
	// far (Fit.Stopped).
	Stop <-chan struct{}
}

// statusStopped is the Nelder–Mead status of a fit ended through Stop.
var statusStopped = optimize.NewStatus("Stopped", true, nil)

// stopConverger is conv that also ends the minimisation once stop is
// closed.
type stopConverger struct {
	conv    optimize.Converger
	stopped func() bool
}

func (c stopConverger) Init(dim int) { c.conv.Init(dim) }
func (c stopConverger) Converged(loc *optimize.Location) optimize.Status {
	if c.stopped() {
		return statusStopped
	}
	return c.conv.Converged(loc)
}

// Fit is the result of a Texel fit.
type Fit struct {
	K            float64
	Start, Tuned []int
	// MSEStart and MSE are the error of the training positions with the
	// start and the tuned weights; HeldOutStart and HeldOut the same on
	// the held-out positions (NaN when there are none).
	MSEStart, MSE          float64
	HeldOutStart, HeldOut  float64
	Evaluations            int // error evaluations spent
	NelderMeadStatus       string
	Stopped                bool // ended early through FitOptions.Stop
	TrainSize, HeldOutSize int
}

// Texel fits the weights of positions p from start (nil: the defaults):
// K first unless given, then the weights within their ranges.
func Texel(p *Positions, start []int, o FitOptions) (*Fit, error) {
	defs := p.Weights
	if start == nil {
		start = make([]int, len(defs))
		for i, d := range defs {
			start[i] = d.Default
		}
	}
	if len(start) != len(defs) {
		return nil, fmt.Errorf("%d start weights for %d weights", len(start), len(defs))
	}
	for i, d := range defs {
		if start[i] < d.Min || start[i] > d.Max {
			return nil, fmt.Errorf("eval.%s=%d is outside its range %d to %d", d.Name, start[i], d.Min, d.Max)
		}
	}
	switch {
	case o.Evaluations == 0:
		o.Evaluations = DefaultEvaluations
	case o.Evaluations < 0 || o.Evaluations > MaxEvaluations:
		return nil, option.New("Evaluations", o.Evaluations, "use 1 to %d", MaxEvaluations)
	}
	if o.Polish == 0 {
		o.Polish = 20
	}
	if o.K < 0 || math.IsNaN(o.K) || math.IsInf(o.K, 0) {
		return nil, fmt.Errorf("K %g: want a positive scale, or 0 to fit it", o.K)
	}
	train, test := NewErrors(p.Train), NewErrors(p.Test)
	fit := &Fit{K: o.K, Start: append([]int(nil), start...), TrainSize: len(p.Train), HeldOutSize: len(p.Test)}
	if fit.K == 0 {
		k, _, err := FitK(train, start)
		if err != nil {
			return nil, err
		}
		fit.K = k
	}
	fit.MSEStart = train.MSE(start, fit.K)
	fit.HeldOutStart = test.MSE(start, fit.K)

	// Nelder–Mead on x_i = (w_i − start_i)/scale_i, the weights rounded
	// and clamped to their ranges: every weight's first step is a
	// twentieth of its range.
	n := len(defs)
	scale := make([]float64, n)
	for i, d := range defs {
		scale[i] = max(1, float64(d.Max-d.Min)/20)
	}
	w := make([]int, n)
	toInts := func(x []float64) []int {
		for i, d := range defs {
			v := math.Round(float64(start[i]) + x[i]*scale[i])
			w[i] = int(max(float64(d.Min), min(float64(d.Max), v)))
		}
		return w
	}
	stopped := func() bool {
		select {
		case <-o.Stop:
			fit.Stopped = true
			return true
		default:
			return false
		}
	}
	best, bestW := fit.MSEStart, append([]int(nil), start...)
	eval := func(wi []int) float64 {
		if stopped() {
			return math.Inf(1) // no more work: the converger ends the run
		}
		v := train.MSE(wi, fit.K)
		fit.Evaluations++
		if v < best {
			best = v
			copy(bestW, wi)
		}
		if o.Progress != nil {
			o.Progress(fit.Evaluations, best)
		}
		return v
	}
	res, err := optimize.Minimize(optimize.Problem{Func: func(x []float64) float64 { return eval(toInts(x)) }},
		make([]float64, n), &optimize.Settings{
			FuncEvaluations: o.Evaluations,
			Converger:       stopConverger{&optimize.FunctionConverge{Absolute: 1e-12, Relative: 1e-12, Iterations: 20 * n}, stopped},
		}, &optimize.NelderMead{SimplexSize: 1})
	if err != nil && res == nil {
		return nil, fmt.Errorf("fitting the weights: %v", err)
	}
	if res != nil {
		fit.NelderMeadStatus = res.Status.String()
	}

	// ±1 steps on the integers from the best weights seen (the classic
	// Texel local search): it ends on a point no single step improves.
	copy(w, bestW)
	for pass := 0; pass < o.Polish && !stopped(); pass++ {
		improved := false
		for i, d := range defs {
			for _, step := range [2]int{1, -1} {
				v := w[i] + step
				if v < d.Min || v > d.Max {
					continue
				}
				old, before := w[i], best
				w[i] = v
				if eval(w); best < before { // eval kept w as the best
					improved = true
					break
				}
				w[i] = old
			}
		}
		if !improved {
			break
		}
	}
	fit.Tuned = append([]int(nil), bestW...)
	fit.MSE = train.MSE(fit.Tuned, fit.K)
	fit.HeldOut = test.MSE(fit.Tuned, fit.K)
	return fit, nil
}
