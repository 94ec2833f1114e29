package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

// MaxSkipPlies bounds TexelOptions.SkipPlies.
const MaxSkipPlies = 1000

// verifySeedTag derives a Texel run's verification match seed from its
// seed: the self-play games' openings would otherwise come back, and the
// match would replay the training games.
const verifySeedTag = 0x7e41f1

// TexelOptions are a whole Texel tuning run, what arena tune texel does:
// the training games (record files, or self-play games of the agent), the
// fit of the game's evaluation weights to their results, and a
// verification match of the tuned agent against the one it started from.
type TexelOptions struct {
	// Game is a sequential game whose evaluation has weights
	// (WeightedGames).
	Game string
	// Agent plays the self-play games and the verification match; its
	// eval.NAME keys are the start weights (the game's defaults for the
	// others), and the tuned agent is Agent with the tuned keys. Its kind
	// must take eval.NAME keys.
	Agent string
	// Seed is the seed of every random choice: the self-play games, the
	// positions sampled, the held-out games, the verification match.
	Seed uint64
	// Openings are those of the self-play games and the verification
	// match; "" means DefaultTexelOpenings.
	Openings string

	// The training games: those of the record files Records, or SelfPlay
	// games (even, 2 to arena.MaxGames) of Agent against itself, kept in
	// the new record file Out if given. Resume continues such a file:
	// Game, Agent, Seed, SelfPlay and Openings must then be the file's
	// (ReadSelfPlay).
	Records     []string
	SelfPlay    int
	Out, Resume string

	// SkipPlies are the plies of every game not sampled, 0 to
	// MaxSkipPlies; -1 means the game's opening plies.
	SkipPlies int
	// Positions is the most positions sampled, 1 to MaxPositions
	// (DefaultPositions is the command line's).
	Positions int
	// Evaluations is the most error evaluations of the fit, 1 to
	// MaxEvaluations (DefaultEvaluations is the command line's).
	Evaluations int
	// K is the logistic scale, MinK to MaxK; 0 fits it with the start
	// weights.
	K float64

	// Verify plays the verification match after a fit that was not
	// stopped: an SPRT (VerifySPRT; the zero value is DefaultVerifySPRT)
	// of at most VerifyGames games (even, 2 to arena.MaxGames), recorded
	// in the new file VerifyOut if given.
	Verify      bool
	VerifySPRT  results.SPRT
	VerifyGames int
	VerifyOut   string

	// Run carries the workers (Concurrency), Runner, Stop and Log of the
	// self-play games and the verification match; Stop also ends the fit
	// early, with the best weights found so far.
	Run arena.RunOptions
	// Connect, if not nil, opens what plays the self-play games and the
	// verification match instead of Run.Runner: a coordinator of remote
	// workers (as arena.Session.Connect takes it), which may keep its
	// state next to the self-play record (path, "" for none). It is
	// called once that record is open, so that a refused record or resume
	// starts nothing, with a context that Run.Stop also ends; if it
	// fails, a record the run made is removed. close is called when the
	// run is over.
	Connect func(ctx context.Context, path string) (runner arena.Runner, close func(), err error)
	// Log, if not nil, hears notes: a fit that cannot say much, a
	// verification match not played or not decided. Progress, if not nil,
	// hears the positions sampled and the progress of the fit and the
	// verification match.
	Log, Progress io.Writer
	// OnGames, if not nil, hears of the self-play games (SelfPlayOptions).
	OnGames func(played, total int)
	// OnFit, if not nil, sees the report after the fit, before the
	// verification match.
	OnFit func(*TexelReport)
}

// TexelWeight is one weight of a Texel run's report.
type TexelWeight struct {
	Name    string `json:"name"`
	Default int    `json:"default"`
	Start   int    `json:"start"`
	Tuned   int    `json:"tuned"`
	Min     int    `json:"min"`
	Max     int    `json:"max"`
}

// TexelReport is the outcome of a Texel run (arena tune texel's JSON
// document).
type TexelReport struct {
	Game             string        `json:"game"`
	Sigmoid          string        `json:"sigmoid"`
	Games            int           `json:"games"`
	HeldOutGames     int           `json:"held_out_games"`
	SkippedGames     int           `json:"skipped_games"`
	SkipPlies        int           `json:"skip_plies"`
	Quiet            bool          `json:"quiet"`
	Eligible         int           `json:"eligible_positions"`
	Positions        int           `json:"positions"`
	HeldOutPositions int           `json:"held_out_positions"`
	BytesPerPosition int64         `json:"bytes_per_position"`
	K                float64       `json:"k"`
	MSEStart         float64       `json:"mse_start"`
	MSE              float64       `json:"mse"`
	HeldOutMSEStart  *float64      `json:"held_out_mse_start"`
	HeldOutMSE       *float64      `json:"held_out_mse"`
	Evaluations      int           `json:"evaluations"`
	Stopped          bool          `json:"stopped"` // the fit was stopped: the best weights so far
	Seconds          float64       `json:"seconds"`
	Weights          []TexelWeight `json:"weights"`
	StartSpec        string        `json:"start_spec"`
	TunedSpec        string        `json:"tuned_spec"`
	// Verify is the verification match; nil when none was played, and
	// not Complete when it was stopped before its test decided.
	Verify *VerifyResult `json:"verify"`
}

// texelSetup is what a Texel run's options resolve to.
type texelSetup struct {
	v     games.Variant
	defs  []games.Weight
	base  spec.Spec // the agent
	start []int     // its start weights
}

// Check reports whether the options make a run: their values, the game
// (sequential, with weights) and the agent (its eval.NAME keys, and a kind
// that takes them). It reads no file.
func (o TexelOptions) Check() error {
	_, err := o.setup()
	return err
}

func (o TexelOptions) setup() (texelSetup, error) {
	var s texelSetup
	switch {
	case len(o.Records) == 0 && o.SelfPlay == 0 && o.Resume == "":
		return s, fmt.Errorf("no training games: give %w FILE… (record files of the game), or %w N to play N games of %w first", named("Records"), named("SelfPlay"), named("Agent"))
	case len(o.Records) > 0 && (o.SelfPlay != 0 || o.Resume != "" || o.Out != ""):
		return s, fmt.Errorf("%w and %w (with %w, %w) are two sources of games: give one", named("Records"), named("SelfPlay"), named("Out"), named("Resume"))
	case o.SelfPlay != 0 && (o.SelfPlay < 2 || o.SelfPlay > arena.MaxGames || o.SelfPlay%2 != 0):
		return s, option.New("SelfPlay", o.SelfPlay, "use an even number of games from 2 to %d (they come in colour-swapped pairs)", arena.MaxGames)
	case o.Resume != "" && o.Out != "":
		return s, fmt.Errorf("%w continues its own file; leave out %w", named("Resume"), named("Out"))
	case o.SkipPlies < -1 || o.SkipPlies > MaxSkipPlies:
		return s, option.New("SkipPlies", o.SkipPlies, "use 0 to %d, or -1 for the game's opening plies", MaxSkipPlies)
	case o.Positions < 1 || o.Positions > MaxPositions:
		return s, option.New("Positions", o.Positions, "use 1 to %d (each position is a game state in memory)", MaxPositions)
	case o.Evaluations < 1 || o.Evaluations > MaxEvaluations:
		return s, option.New("Evaluations", o.Evaluations, "use 1 to %d", MaxEvaluations)
	case o.K != 0 && !(o.K >= MinK && o.K <= MaxK):
		return s, option.New("K", o.K, "use %g to %g, or 0 to fit K", MinK, MaxK)
	case o.VerifyGames < 2 || o.VerifyGames > arena.MaxGames || o.VerifyGames%2 != 0:
		return s, option.New("VerifyGames", o.VerifyGames, "use an even number from 2 to %d", arena.MaxGames)
	case o.VerifyOut != "" && !o.Verify:
		return s, fmt.Errorf("%w records the verification match: leave it out with %w=false", named("VerifyOut"), named("Verify"))
	}
	v, err := games.Lookup(o.Game)
	if err != nil {
		return s, err
	}
	st, ok := v.New().(games.State)
	if !ok {
		return s, fmt.Errorf("%s is a simultaneous-move game: texel tuning replays sequential games (games with weights: %s)", v, strings.Join(WeightedGames(), ", "))
	}
	w, ok := st.(games.Weighted)
	if !ok {
		return s, fmt.Errorf("%s's evaluation has no named weights to tune (games with weights: %s)", v, strings.Join(WeightedGames(), ", "))
	}
	s.v, s.defs = v, w.Weights()
	if s.base, s.start, err = texelStart(o.Agent, s.defs); err != nil {
		return s, err
	}
	if !slices.Contains(evalKinds(), s.base.Name) {
		// Before any game: the tuned spec could not be built or verified.
		return s, fmt.Errorf("%w: %s takes no eval.NAME keys, so its weights cannot be tuned (agents that take them: %s)", option.New("Agent", o.Agent, ""), s.base.Name, strings.Join(evalKinds(), ", "))
	}
	return s, nil
}

// RunTexel makes the run: it checks the options (Check), gets the
// training games, samples their positions, fits the weights and, with
// Verify, plays the verification match. A fit stopped early (Run.Stop)
// reports the best weights found so far (Stopped) and plays no match; a
// stopped match is reported as far as it got (Verify.Complete false).
func RunTexel(ctx context.Context, o TexelOptions) (*TexelReport, error) {
	su, err := o.setup()
	if err != nil {
		return nil, err
	}
	if o.Openings == "" {
		o.Openings = DefaultTexelOpenings
	}
	// The self-play record first, then what plays the games.
	sp := SelfPlayOptions{
		Game: o.Game, Agent: o.Agent, Games: o.SelfPlay, Seed: o.Seed, Openings: o.Openings,
		Out: o.Out, Resume: o.Resume, Run: o.Run, OnGames: o.OnGames,
	}
	var self *arena.Session
	if len(o.Records) == 0 {
		if self, err = sp.open(o.Run.Runner != nil || o.Connect != nil); err != nil {
			return nil, err
		}
		defer self.Close()
	}
	closeRunner, err := o.connect(ctx, self)
	if err != nil {
		return nil, err
	}
	defer closeRunner()
	sp.Run = o.Run
	recs, err := o.trainingGames(ctx, &sp, self)
	if err != nil {
		return nil, err
	}
	if self != nil {
		self.Close() // all its games are written
	}

	// The positions, and what they cost.
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	pos, err := SamplePositions(su.v, recs, SampleOptions{SkipPlies: o.SkipPlies, Max: o.Positions, Seed: o.Seed})
	if err != nil {
		return nil, err
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	n := len(pos.Train) + len(pos.Test)
	rep := &TexelReport{
		Game: su.v.String(), Sigmoid: "1/(1+10^(-K*e/400))",
		Games: pos.Games, HeldOutGames: pos.HeldOutGames, SkippedGames: pos.Skipped, SkipPlies: pos.SkipPlies,
		Quiet: pos.Quiet, Eligible: pos.Eligible, Positions: len(pos.Train), HeldOutPositions: len(pos.Test),
		BytesPerPosition: max(0, int64(after.HeapAlloc)-int64(before.HeapAlloc)) / int64(n),
		StartSpec:        su.base.String(),
	}
	if o.Progress != nil {
		quiet := "every position counts (" + su.v.Game.Name + " has no notion of a quiet position)"
		if pos.Quiet {
			quiet = "quiet positions only"
		}
		fmt.Fprintf(o.Progress, "%d positions (%d held out) of %d eligible in %d games (%d held out, %d skipped: not ended by the rules), past the first %d plies; %s; about %.1f KB a position\n",
			n, len(pos.Test), pos.Eligible, pos.Games+pos.HeldOutGames, pos.HeldOutGames, pos.Skipped, pos.SkipPlies, quiet, float64(rep.BytesPerPosition)/1024)
	}

	// The fit.
	t0 := time.Now()
	step := max(o.Evaluations/10, 1)
	next := step
	fit, err := Texel(pos, su.start, FitOptions{K: o.K, Evaluations: o.Evaluations, Stop: o.Run.Stop, Progress: func(done int, best float64) {
		if o.Progress != nil && done >= next {
			fmt.Fprintf(o.Progress, "%d evaluations, best MSE %.6f (%s)\n", done, best, time.Since(t0).Round(time.Second))
			next += step
		}
	}})
	if err != nil {
		return nil, err
	}
	rep.Seconds = time.Since(t0).Seconds()
	if o.K == 0 && (fit.K <= MinK*1.01 || fit.K >= MaxK/1.01) {
		o.note("warning: K = %g is at the end of its range (%g to %g): with the start weights the evaluation does not predict the results (near K = 0: no better than a coin, or worse), so the fit has little to work from; try other start weights (eval.NAME keys of the agent) or other games\n", fit.K, MinK, MaxK)
	}
	rep.Stopped = fit.Stopped
	rep.K, rep.MSEStart, rep.MSE, rep.Evaluations = fit.K, fit.MSEStart, fit.MSE, fit.Evaluations
	rep.HeldOutMSEStart, rep.HeldOutMSE = finite(fit.HeldOutStart), finite(fit.HeldOut)
	for i, d := range su.defs {
		rep.Weights = append(rep.Weights, TexelWeight{d.Name, d.Default, fit.Start[i], fit.Tuned[i], d.Min, d.Max})
	}
	rep.TunedSpec = texelSpec(su.base, su.defs, fit.Tuned)
	if o.OnFit != nil {
		o.OnFit(rep)
	}

	// The verification match.
	switch {
	case !o.Verify:
	case fit.Stopped:
		o.note("the fit was stopped: the weights above are the best found so far; no verification match (play one with arena match)\n")
	default:
		vr, err := o.verify(ctx, rep.TunedSpec, rep.StartSpec)
		if err != nil {
			return nil, err
		}
		rep.Verify = &vr
	}
	return rep, nil
}

// note writes a note to the log.
func (o *TexelOptions) note(format string, args ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, format, args...)
	}
}

// connect opens what plays the games (Connect), if the run plays any:
// once the self-play session (self, nil for games of record files) is
// open, for its games and the verification match. It sets Run.Runner.
func (o *TexelOptions) connect(ctx context.Context, self *arena.Session) (closeRunner func(), err error) {
	if o.Connect == nil || (self == nil && !o.Verify) {
		return func() {}, nil
	}
	var runner arena.Runner
	if self != nil {
		runner, closeRunner, err = self.Connect(ctx, o.Run.Stop, o.Run.Log, o.Connect)
	} else {
		octx, cancel := arena.UntilStop(ctx, o.Run.Stop)
		runner, closeRunner, err = o.Connect(octx, "")
		cancel()
	}
	if err != nil {
		return nil, err
	}
	if closeRunner == nil {
		closeRunner = func() {}
	}
	o.Run.Runner = runner
	return closeRunner, nil
}

// trainingGames are the games of the record files, each file in schedule
// order (as self-play gives its games: the positions sampled depend on the
// order), or the self-play games of sp in its session self.
func (o *TexelOptions) trainingGames(ctx context.Context, sp *SelfPlayOptions, self *arena.Session) ([]results.GameRecord, error) {
	if self != nil {
		return sp.play(ctx, self)
	}
	var recs []results.GameRecord
	for _, path := range o.Records {
		file, err := results.ReadFile(path)
		if err != nil {
			return nil, err
		}
		slices.SortStableFunc(file.Games, func(a, b results.GameRecord) int { return a.Index - b.Index })
		recs = append(recs, file.Games...)
	}
	return recs, nil
}

// verify plays the verification match of tuned against start.
func (o *TexelOptions) verify(ctx context.Context, tuned, start string) (VerifyResult, error) {
	if tuned == start {
		o.note("the tuned weights are the start weights: the verification match would play one agent against itself\n")
	}
	run := o.Run
	run.Sink, run.Done = nil, nil
	vo := VerifyOptions{
		Match: arena.Options{Game: o.Game, Seed: rng.Derive(o.Seed, verifySeedTag), Openings: o.Openings},
		Tuned: tuned, Start: start, SPRT: o.VerifySPRT, Games: o.VerifyGames, Out: o.VerifyOut, Run: run,
	}
	if o.Progress != nil {
		last := 0
		vo.OnPairs = func(tr *results.PairTracker) {
			if p := tr.Penta.Pairs(); p >= last+50 {
				last = p
				fmt.Fprintf(o.Progress, "verification: %d pairs, LLR %.2f\n", p, tr.LLR)
			}
		}
	}
	vr, err := Verify(ctx, vo)
	if errors.Is(err, fs.ErrExist) {
		// A verification match is not continued: another file it is.
		return vr, fmt.Errorf("%w already exists: choose another file", option.New("VerifyOut", o.VerifyOut, ""))
	}
	if err == nil && !vr.Complete {
		o.note("the verification match was stopped before its test decided\n")
	}
	return vr, err
}

// WriteText writes the report as a table of the weights under the fit's
// figures, ending with the tuned agent spec (not the verification match).
func (r *TexelReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "texel: %s, %d positions from %d games (held out: %d positions from %d games)\n", r.Game, r.Positions, r.Games, r.HeldOutPositions, r.HeldOutGames)
	fmt.Fprintf(w, "K = %.4f in σ(e) = 1/(1+10^(−K·e/400))\n", r.K)
	fmt.Fprintf(w, "MSE %.6f → %.6f", r.MSEStart, r.MSE)
	if r.HeldOutMSE != nil {
		fmt.Fprintf(w, " (held out: %.6f → %.6f)", *r.HeldOutMSEStart, *r.HeldOutMSE)
	}
	fmt.Fprintf(w, ", %d evaluations, %.1fs", r.Evaluations, r.Seconds)
	if r.Stopped {
		fmt.Fprint(w, " (stopped early: the best so far)")
	}
	fmt.Fprint(w, "\n\n")
	fmt.Fprintf(w, "%-16s %8s %8s %8s %8s\n", "weight", "default", "start", "tuned", "range")
	for _, x := range r.Weights {
		fmt.Fprintf(w, "%-16s %8d %8d %8d %8s\n", x.Name, x.Default, x.Start, x.Tuned, fmt.Sprintf("%d..%d", x.Min, x.Max))
	}
	fmt.Fprintf(w, "\ntuned: %s\n", r.TunedSpec)
}

// texelStart parses the agent spec and returns it with its start weights:
// its eval.NAME keys, the game's defaults for the others.
func texelStart(agent string, defs []games.Weight) (spec.Spec, []int, error) {
	sp, err := spec.Parse(agent)
	if err != nil {
		return sp, nil, fmt.Errorf("%w: %w", named("Agent"), err)
	}
	w := make([]int, len(defs))
	names := make([]string, len(defs))
	for i, d := range defs {
		w[i], names[i] = d.Default, d.Name
	}
	for _, k := range sp.Keys {
		name, ok := strings.CutPrefix(k, "eval.")
		if !ok {
			continue
		}
		i := slices.Index(names, name)
		if i < 0 {
			return sp, nil, fmt.Errorf("%w: the game has no weight %q (its weights: %s)", option.New("Agent", agent, ""), name, strings.Join(names, ", "))
		}
		x, err := sp.IntIn(k, 0, defs[i].Min, defs[i].Max)
		if err != nil {
			return sp, nil, fmt.Errorf("%w: %w", named("Agent"), err)
		}
		w[i] = x
	}
	return sp, w, nil
}

// evalKinds lists the agent kinds that take eval.NAME keys.
func evalKinds() []string {
	var names []string
	for _, k := range agents.Kinds() {
		for _, key := range k.Keys {
			if key.Name == "eval." {
				names = append(names, k.Name)
			}
		}
	}
	return names
}

// texelSpec returns base with its eval.NAME keys set to the tuned
// weights: a key the base has is rewritten in place, a weight that differs
// from the game's default is appended, others are left out.
func texelSpec(base spec.Spec, defs []games.Weight, tuned []int) string {
	out := spec.Spec{Name: base.Name, Vals: map[string]string{}}
	for _, k := range base.Keys {
		out.Keys = append(out.Keys, k)
		out.Vals[k] = base.Vals[k]
	}
	for i, d := range defs {
		k := "eval." + d.Name
		if _, has := out.Vals[k]; !has {
			if tuned[i] == d.Default {
				continue
			}
			out.Keys = append(out.Keys, k)
		}
		out.Vals[k] = strconv.Itoa(tuned[i])
	}
	if _, has := out.Vals["name"]; has {
		out.Vals["name"] += "-texel" // the match needs two names
	}
	return out.String()
}
