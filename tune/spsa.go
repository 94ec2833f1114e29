package tune

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

// SPSA defaults (fishtest, OpenBench).
const (
	DefaultAlpha = 0.602
	DefaultGamma = 0.101
)

// The rules for an int parameter's two values (SPSAConfig.IntRule).
const (
	// IntRuleOpenBench is OpenBench's: c_k is at least MinIntCK, and
	// both sides are rounded with one draw u, floor(θ±c_k+u), so that
	// θ+ and θ− are at least 1 apart (2·c_k ≥ 1) unless a bound clips
	// them. The rule of every new run.
	IntRuleOpenBench = "openbench"
	// IntRuleIndependent is the rule of files written before int_rule
	// was recorded, kept so that they resume as they began: c_k has no
	// floor and each side has its own draw, so late iterations (c_k
	// below ½) often played θ+ and θ− with the same value.
	IntRuleIndependent = "independent"
	// MinIntCK is the floor of an int parameter's c_k (OpenBench's 0.5,
	// in its spsa_utils.py): below it, θ±c_k can round to one value.
	MinIntCK = 0.5
)

// Limits of an SPSA run.
const (
	// MaxIterations is the most iterations of one run.
	MaxIterations = 1_000_000
	// MaxPairsPer is the most game pairs of one iteration.
	MaxPairsPer = 10_000
)

// Streams of the run's seed: everything random in iteration k is drawn
// from (seed, stream, k), never from the order in which games finish.
const (
	streamFlips = 1 // the flips and the stochastic roundings
	streamGames = 2 // the seed of the iteration's match (openings, agents)
)

// SPSAConfig is everything that determines a run; it is the first line
// of the run's file, so that a resumed run continues exactly.
type SPSAConfig struct {
	Record     string  `json:"record"` // RecordSPSA
	Game       string  `json:"game"`
	Agent      string  `json:"agent"` // the base spec; the parameters' keys are set on it
	Params     []Param `json:"params"`
	Iterations int     `json:"iterations"` // N
	PairsPer   int     `json:"pairs_per"`  // colour-swapped game pairs per iteration
	// Alpha and Gamma are the exponents of a_k and c_k (0: the defaults);
	// A is the stability constant of a_k (negative: 10 % of Iterations).
	Alpha float64 `json:"alpha"`
	Gamma float64 `json:"gamma"`
	A     float64 `json:"A"`
	Seed  uint64  `json:"seed"`
	// Openings is the arena's openings option (random:K, none, a file);
	// a file is shuffled afresh for every iteration.
	Openings    string `json:"openings,omitempty"`
	MoveTime    string `json:"move_time,omitempty"` // a Go duration; empty: automatic limits
	MaxPlies    int    `json:"max_plies,omitempty"` // as arena.Options.MaxPlies
	TimeControl string `json:"tc,omitempty"`        // BASE[+INC] for both sides
	// IntRule is how int parameters are perturbed and rounded:
	// IntRuleOpenBench ("" means it), or IntRuleIndependent for a file
	// that predates the field (ParseLog sets it). Always written, so
	// that a file says which rule planned its iterations.
	IntRule string `json:"int_rule"`
	// Verify is the verification match the run ends with, so that a
	// resumed run plays the one it was started with (nil in files written
	// before it was recorded: the caller's choice).
	Verify *VerifySettings `json:"verify,omitempty"`
}

// VerifySettings say whether and how an SPSA run's result is verified.
type VerifySettings struct {
	Off   bool         `json:"off,omitempty"` // no verification match
	SPRT  results.SPRT `json:"sprt"`
	Games int          `json:"games"` // the most games
}

// Record kinds of an SPSA file's lines.
const (
	RecordSPSA      = "spsa"
	RecordIteration = "iteration"
)

// Iteration is one finished SPSA iteration: its plan (flips, the values
// each side played) and its outcome, as a line of the run's file.
type Iteration struct {
	Record string    `json:"record"` // RecordIteration
	K      int       `json:"k"`      // 1 … N
	Before []float64 `json:"theta_before"`
	After  []float64 `json:"theta_after"`
	Flips  []int     `json:"flips"` // ±1 per parameter
	CK     []float64 `json:"c_k"`
	AK     []float64 `json:"a_k"`
	Plus   []float64 `json:"plus"` // values θ+ played (int parameters rounded)
	Minus  []float64 `json:"minus"`
	// PlusSpec and MinusSpec are the two agents of the batch.
	PlusSpec  string `json:"plus_spec"`
	MinusSpec string `json:"minus_spec"`
	// Wins, Draws and Losses count θ+'s games.
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// SPSA is a configured run.
type SPSA struct {
	Config SPSAConfig // with the defaults filled in
	c, a   []float64  // per parameter: c = c_end·N^γ, a = r_end·c_end²·(A+N)^α
	match  arena.Options
}

// NewSPSA checks the configuration, fills in the defaults and computes
// the gains.
func NewSPSA(cfg SPSAConfig) (*SPSA, error) {
	cfg.Record = RecordSPSA
	if cfg.Alpha == 0 {
		cfg.Alpha = DefaultAlpha
	}
	if cfg.Gamma == 0 {
		cfg.Gamma = DefaultGamma
	}
	if cfg.A < 0 {
		cfg.A = float64(cfg.Iterations) / 10
	}
	if cfg.IntRule == "" {
		cfg.IntRule = IntRuleOpenBench
	}
	if cfg.IntRule != IntRuleOpenBench && cfg.IntRule != IntRuleIndependent {
		return nil, fmt.Errorf("int_rule %q: want %q or %q", cfg.IntRule, IntRuleOpenBench, IntRuleIndependent)
	}
	switch {
	case cfg.Iterations < 1 || cfg.Iterations > MaxIterations:
		return nil, option.New("Iterations", cfg.Iterations, "use 1 to %d (the number of SPSA iterations)", MaxIterations)
	case cfg.PairsPer < 1 || cfg.PairsPer > MaxPairsPer:
		return nil, option.New("PairsPer", cfg.PairsPer, "use 1 to %d game pairs per iteration", MaxPairsPer)
	case !(cfg.Alpha > 0 && cfg.Alpha <= 10) || !(cfg.Gamma > 0 && cfg.Gamma <= 10):
		return nil, fmt.Errorf("%w and %w: use exponents in (0, 10] (defaults %g and %g)", option.New("Alpha", cfg.Alpha, ""), option.New("Gamma", cfg.Gamma, ""), DefaultAlpha, DefaultGamma)
	case !(cfg.A <= float64(MaxIterations)): // also refuses NaN
		return nil, option.New("A", cfg.A, "use 0 to %d (default: 10 %% of the iterations)", MaxIterations)
	case len(cfg.Params) == 0:
		return nil, option.New("Params", nil, "no parameters to tune: give a parameter file")
	case len(cfg.Params) > MaxParams:
		return nil, fmt.Errorf("%d parameters: tune at most %d at once", len(cfg.Params), MaxParams)
	}
	seen := map[string]bool{}
	for _, p := range cfg.Params {
		if err := p.Check(); err != nil {
			return nil, err
		}
		if seen[p.Name] {
			return nil, fmt.Errorf("parameter %s is given twice", p.Name)
		}
		seen[p.Name] = true
	}
	s := &SPSA{Config: cfg}
	m := arena.Options{
		Kind: results.Match, Game: cfg.Game, GamesPerPair: 2 * cfg.PairsPer,
		Openings: cfg.Openings, MaxPlies: cfg.MaxPlies,
	}
	// A file's openings are shuffled by each iteration's seed: used in
	// order, every iteration would replay the file's first PairsPer lines.
	o := strings.TrimSuffix(cfg.Openings, "+seed")
	m.ShuffleOpenings = !(o == "" || o == "random" || o == "none" || strings.HasPrefix(o, "random:"))
	if cfg.MoveTime != "" {
		d, err := time.ParseDuration(cfg.MoveTime)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("move time %q: want a positive duration such as 100ms", cfg.MoveTime)
		}
		m.MoveTime = d
	}
	if cfg.TimeControl != "" {
		tc, err := agents.ParseTimeControl(cfg.TimeControl)
		if err != nil {
			return nil, err
		}
		m.TimeControl = tc
	}
	s.match = m
	// The start spec, checked once here: a bad key or value is reported
	// before any game.
	start, err := s.StartSpec()
	if err != nil {
		return nil, err
	}
	if err := agents.Validate(start); err != nil {
		return nil, fmt.Errorf("the agent with the start values (%s): %v", start, err)
	}
	// The run clips every value to [min, max]: the agent must take each
	// parameter at both ends (the others at their start), or the run
	// would fail at the first iteration that reaches one.
	for i, p := range cfg.Params {
		for _, end := range []struct {
			name string
			v    float64
		}{{"min", p.Min}, {"max", p.Max}} {
			theta := s.Start()
			theta[i] = end.v
			sp, err := s.Spec(theta)
			if err != nil {
				return nil, err
			}
			if err := agents.Validate(sp); err != nil {
				return nil, fmt.Errorf("%s: its %s %g is not a value the agent takes (%s): %v; narrow [min, max] to the values the agent accepts", p.where(), end.name, end.v, sp, err)
			}
		}
	}
	n := float64(cfg.Iterations)
	for _, p := range cfg.Params {
		s.c = append(s.c, p.CEnd*math.Pow(n, cfg.Gamma))
		s.a = append(s.a, p.REnd*p.CEnd*p.CEnd*math.Pow(cfg.A+n, cfg.Alpha))
	}
	return s, nil
}

// streamVerify is the seed stream of a run's verification match.
const streamVerify = 3

// VerifyOptions returns the options of the run's verification match: the
// tuned agent (theta) against the start, on the run's game, openings and
// limits, from a seed of its own.
func (s *SPSA) VerifyOptions(theta []float64) (VerifyOptions, error) {
	tuned, err := s.Spec(theta)
	if err != nil {
		return VerifyOptions{}, err
	}
	start, err := s.StartSpec()
	if err != nil {
		return VerifyOptions{}, err
	}
	m := s.match
	m.Seed = rng.Derive(s.Config.Seed, streamVerify)
	return VerifyOptions{Match: m, Tuned: tuned, Start: start}, nil
}

// Start returns the parameters' start values.
func (s *SPSA) Start() []float64 {
	th := make([]float64, len(s.Config.Params))
	for i, p := range s.Config.Params {
		th[i] = p.Start
	}
	return th
}

// StartSpec is the agent spec with the start values.
func (s *SPSA) StartSpec() (string, error) { return s.Spec(s.Start()) }

// Spec is the agent spec with the parameters set to theta (int
// parameters rounded to the nearest integer).
func (s *SPSA) Spec(theta []float64) (string, error) {
	vals := make([]float64, len(theta))
	for i, p := range s.Config.Params {
		vals[i] = theta[i]
		if p.Int {
			vals[i] = math.Round(theta[i])
		}
	}
	return WithValues(s.Config.Agent, s.Config.Params, vals)
}

// C returns parameter i's c (= c_end·N^γ), the scale of its plotted path.
func (s *SPSA) C(i int) float64 { return s.c[i] }

// Gains returns parameter i's perturbation c_k = c/k^γ (at least
// MinIntCK for an int parameter under IntRuleOpenBench) and step
// a_k = a/(A+k)^α at iteration k.
func (s *SPSA) Gains(i, k int) (ck, ak float64) {
	fk := float64(k)
	ck, ak = s.c[i]/math.Pow(fk, s.Config.Gamma), s.a[i]/math.Pow(s.Config.A+fk, s.Config.Alpha)
	if s.Config.Params[i].Int && s.Config.IntRule != IntRuleIndependent {
		ck = max(ck, MinIntCK)
	}
	return ck, ak
}

func clip(v, lo, hi float64) float64 { return math.Min(math.Max(v, lo), hi) }

// Plan draws iteration k's flips and the values the two sides play, from
// theta and (seed, k) alone. The values are θ ± c_k·flip clipped to the
// bounds; an int parameter's are then rounded stochastically, floor(x+u)
// with u uniform in [0, 1): one u for both sides (IntRuleOpenBench), or
// one for each (IntRuleIndependent).
func (s *SPSA) Plan(k int, theta []float64) (Iteration, error) {
	n := len(s.Config.Params)
	if len(theta) != n {
		return Iteration{}, fmt.Errorf("theta has %d values for %d parameters", len(theta), n)
	}
	it := Iteration{
		Record: RecordIteration, K: k, Before: append([]float64(nil), theta...),
		Flips: make([]int, n), CK: make([]float64, n), AK: make([]float64, n),
		Plus: make([]float64, n), Minus: make([]float64, n),
	}
	r := rng.New(rng.Derive(s.Config.Seed, streamFlips, uint64(k)))
	for i, p := range s.Config.Params {
		it.Flips[i] = 1
		if r.Uint64()>>63 == 1 {
			it.Flips[i] = -1
		}
		it.CK[i], it.AK[i] = s.Gains(i, k)
		d := it.CK[i] * float64(it.Flips[i])
		it.Plus[i] = clip(theta[i]+d, p.Min, p.Max)
		it.Minus[i] = clip(theta[i]-d, p.Min, p.Max)
		if p.Int {
			u := r.Float64()
			v := u
			if s.Config.IntRule == IntRuleIndependent {
				v = r.Float64()
			}
			it.Plus[i] = clip(math.Floor(it.Plus[i]+u), p.Min, p.Max)
			it.Minus[i] = clip(math.Floor(it.Minus[i]+v), p.Min, p.Max)
		}
	}
	var err error
	if it.PlusSpec, err = WithValues(s.Config.Agent, s.Config.Params, it.Plus); err != nil {
		return Iteration{}, err
	}
	it.MinusSpec, err = WithValues(s.Config.Agent, s.Config.Params, it.Minus)
	return it, err
}

// Update sets it.After from it.Before and the batch's result:
// θ_i + (a_k/c_k)·(wins−losses)·flip_i, clipped to [min_i, max_i].
func (s *SPSA) Update(it *Iteration) {
	diff := float64(it.Wins - it.Losses)
	it.After = make([]float64, len(it.Before))
	for i, p := range s.Config.Params {
		it.After[i] = clip(it.Before[i]+it.AK[i]/it.CK[i]*diff*float64(it.Flips[i]), p.Min, p.Max)
	}
}

// Play plays iteration k's batch, θ+ against θ− in PairsPer
// colour-swapped pairs on the arena's workers, and fills in the result
// from θ+'s side. The batch is the arena match of seed (seed, k): its
// openings and agent seeds do not depend on the workers. run.Stop is
// ignored (a batch is played whole); cancelling ctx abandons it.
func (s *SPSA) Play(ctx context.Context, it *Iteration, run arena.RunOptions, onGames func(n int)) error {
	m := s.match
	m.Agents = []string{it.PlusSpec, it.MinusSpec}
	m.Seed = rng.Derive(s.Config.Seed, streamGames, uint64(it.K))
	t, err := arena.New(m)
	if err != nil {
		return fmt.Errorf("iteration %d: %w", it.K, err)
	}
	var mu sync.Mutex
	var w results.WDL
	run.Stop, run.Done = nil, nil
	run.Sink = func(batch []*results.GameRecord) error {
		mu.Lock()
		defer mu.Unlock()
		for _, g := range batch {
			seat := 0
			if g.Players[0].Agent != 0 {
				seat = 1
			}
			switch g.Points(seat) {
			case 1:
				w.Wins++
			case 0:
				w.Losses++
			default:
				w.Draws++
			}
		}
		if onGames != nil {
			onGames(len(batch))
		}
		return nil
	}
	st, err := t.Run(ctx, run)
	if err != nil {
		return fmt.Errorf("iteration %d: %w", it.K, err)
	}
	if !st.Complete || w.Games() != t.Schedule.Len() {
		return fmt.Errorf("iteration %d: stopped with %d of %d games played", it.K, w.Games(), t.Schedule.Len())
	}
	it.Wins, it.Draws, it.Losses = w.Wins, w.Draws, w.Losses
	return nil
}

// RunOptions are how Run plays and records.
type RunOptions struct {
	// Run carries the workers (Concurrency) and Log of every batch.
	Run arena.RunOptions
	// Stop, when closed, ends the run after the running iteration.
	Stop <-chan struct{}
	// Done are the iterations already finished (resume), 1 … m in order.
	Done []Iteration
	// Record, if not nil, is given each finished iteration before the
	// next starts (to append it to the run's file); an error ends the run.
	Record func(Iteration) error
	// OnGames, if not nil, hears of finished games (progress).
	OnGames func(n int)
}

// Result is the outcome of a run.
type Result struct {
	Theta      []float64   // the parameters after the last iteration
	Iterations []Iteration // every finished iteration, resumed ones first
	Complete   bool        // all Config.Iterations are done
}

// Run continues from o.Done and plays iterations until all are done, Stop
// is closed (after the running iteration) or ctx is cancelled (the running
// iteration is dropped; finished ones stay recorded).
func (s *SPSA) Run(ctx context.Context, o RunOptions) (Result, error) {
	res := Result{Theta: s.Start()}
	if err := s.checkDone(o.Done); err != nil {
		return res, err
	}
	res.Iterations = append(res.Iterations, o.Done...)
	if len(o.Done) > 0 {
		res.Theta = append([]float64(nil), o.Done[len(o.Done)-1].After...)
	}
	for k := len(o.Done) + 1; k <= s.Config.Iterations; k++ {
		select {
		case <-o.Stop:
			return res, nil
		default:
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
		it, err := s.Plan(k, res.Theta)
		if err != nil {
			return res, err
		}
		if err := s.Play(ctx, &it, o.Run, o.OnGames); err != nil {
			return res, err
		}
		s.Update(&it)
		if o.Record != nil {
			if err := o.Record(it); err != nil {
				return res, err
			}
		}
		res.Iterations = append(res.Iterations, it)
		res.Theta = it.After
	}
	res.Complete = true
	return res, nil
}

// checkDone checks that resumed iterations are this run's: numbered 1 … m,
// each starting where the previous ended, planned as Plan would plan them.
func (s *SPSA) checkDone(done []Iteration) error {
	theta := s.Start()
	if len(done) > s.Config.Iterations {
		return fmt.Errorf("the file has %d iterations; the run has only %d", len(done), s.Config.Iterations)
	}
	for i, it := range done {
		want, err := s.Plan(i+1, theta)
		if err != nil {
			return err
		}
		want.Wins, want.Draws, want.Losses = it.Wins, it.Draws, it.Losses
		s.Update(&want)
		if it.K != i+1 || !equal(it.Before, want.Before) || it.PlusSpec != want.PlusSpec || it.MinusSpec != want.MinusSpec || !equal(it.After, want.After) {
			return fmt.Errorf("iteration %d of the file does not follow from its configuration and the iterations before it (edited, or from another run)", i+1)
		}
		theta = it.After
	}
	return nil
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Summary writes θ as "name=value" pairs, for the progress line.
func (s *SPSA) Summary(w io.Writer, theta []float64) {
	for i, p := range s.Config.Params {
		if i > 0 {
			fmt.Fprint(w, " ")
		}
		fmt.Fprintf(w, "%s=%.4g", p.Name, theta[i])
	}
}
