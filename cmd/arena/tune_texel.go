package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
	"github.com/boardgame-arena/arena/tune"
)

func init() {
	registerTune(command{"texel", "fit a game's evaluation weights to the results of recorded or self-play games (Texel), then verify", runTuneTexel})
}

// Bounds of tune texel's flags.
const (
	maxSkipPlies = 1000
	// texelOpenings is the self-play and verification openings when
	// --openings is not given: a deterministic agent playing itself
	// repeats the game of each opening, and othello6's two random plies
	// give only 12 openings.
	texelOpenings = "random:8"
	// verifySeedTag derives the verification match's seed from --seed.
	verifySeedTag = 0x7e41f1
)

// texelFlags are tune texel's parsed flags.
type texelFlags struct {
	game        string
	records     listFlag
	selfPlay    int
	agent       string
	skipPlies   int
	positions   int
	evaluations int
	k           float64
	seed        uint64
	openings    string
	concurrency int
	out, resume string
	verify      bool
	verifySPRT  results.SPRT
	verifyGames int
	verifyOut   string
	format      string
	noProgress  bool
	broker      *brokerFlags
	// given holds the flags on the command line with their values, for a
	// resume: the self-play file keeps some, the hint repeats the others.
	given map[string]string
}

// texelFileFlags are the flags a self-play record file keeps: a resumed
// run takes them from its header, and refuses them when they differ.
var texelFileFlags = []string{"game", "agent", "seed", "self-play", "openings"}

// texelFitFlags are the flags of the fit and the verification, which the
// file does not keep: the hint to resume repeats them.
var texelFitFlags = []string{"skip-plies", "positions", "evaluations", "k", "verify", "verify-sprt", "verify-games", "verify-out", "format"}

func parseTuneTexel(args []string, stderr io.Writer) (*texelFlags, error) {
	fs := newFlagSet("tune texel", "--game G (--records FILE… | --self-play N [--out F | --resume F]) [--agent SPEC] [--skip-plies K] [--positions MAX] [--evaluations N] [--k K] [--seed S] [--verify=false] [--verify-sprt elo0=0,elo1=5] [--format text|json] [--broker embedded|nats://HOST:PORT …]", stderr)
	f := &texelFlags{}
	fs.StringVar(&f.game, "game", "othello6", "game spec; its evaluation must have weights ("+strings.Join(tune.WeightedGames(), ", ")+")")
	fs.Var(&f.records, "records", "record files (JSON Lines, as tournament and match write them), one per argument: their positions are the training data")
	fs.IntVar(&f.selfPlay, "self-play", 0, fmt.Sprintf("play this many games (even, 2 to %d) of --agent against itself for the training data, instead of --records", maxGames))
	fs.StringVar(&f.agent, "agent", "alphabeta:depth=4", "agent spec: plays the self-play games, its eval.NAME keys are the start weights (else the game's defaults), the tuned spec is it with the tuned eval.NAME keys, and the verification match plays the two")
	fs.IntVar(&f.skipPlies, "skip-plies", -1, fmt.Sprintf("plies of every game not sampled, from its start, 0 to %d (-1: the game's opening plies, 2 for most games)", maxSkipPlies))
	fs.IntVar(&f.positions, "positions", tune.DefaultPositions, fmt.Sprintf("most positions kept, a uniform sample of the eligible ones, 1 to %d (each is a game state in memory: about 2.5 KB for othello6)", tune.MaxPositions))
	fs.IntVar(&f.evaluations, "evaluations", tune.DefaultEvaluations, fmt.Sprintf("most error evaluations of the Nelder–Mead fit, 1 to %d (each evaluates every position once)", tune.MaxEvaluations))
	fs.Float64Var(&f.k, "k", 0, fmt.Sprintf("the logistic scale K, %g to %g (0: fit it with the start weights)", tune.MinK, tune.MaxK))
	fs.Uint64Var(&f.seed, "seed", 1, "seed of every random choice: self-play games, the positions sampled, the held-out games, the verification match")
	fs.StringVar(&f.openings, "openings", texelOpenings, "openings of the self-play games and the verification match: random:K, none, or a FILE (as for tournament)")
	fs.IntVar(&f.concurrency, "concurrency", min(runtime.NumCPU(), maxConcurrency), "games played at once, 1 to 256 (with --broker: by the coordinator's own workers; 0: none, the remote workers play every game)")
	fs.StringVar(&f.out, "out", "", "with --self-play: write the self-play games to this record file (it must not exist yet); an interrupted run continues with --resume")
	fs.StringVar(&f.resume, "resume", "", "with --self-play: continue this self-play record file, then fit")
	fs.BoolVar(&f.verify, "verify", true, "play an SPRT match of the tuned spec against --agent (--verify=false: none)")
	sprtText := fs.String("verify-sprt", "elo0=0,elo1=5", "the verification match's test elo0=E0,elo1=E1[,alpha=A][,beta=B]")
	fs.IntVar(&f.verifyGames, "verify-games", tune.DefaultVerifyGames, fmt.Sprintf("most games of the verification match (even, 2 to %d)", maxGames))
	fs.StringVar(&f.verifyOut, "verify-out", "", "write the verification match's games to this record file (it must not exist yet)")
	fs.StringVar(&f.format, "format", "text", "output format: text or json")
	fs.BoolVar(&f.noProgress, "no-progress", false, "no progress on stderr")
	f.broker = addBrokerFlags(fs)
	fs.Lookup("broker").Usage += "; the self-play games and the verification match go through it (workers that should serve both run with --wait)"
	if err := parseNoArgs(fs, args, "records"); err != nil {
		return nil, err
	}
	if err := checkFormat(f.format, "text", "json"); err != nil {
		return nil, err
	}
	if err := f.broker.check(); err != nil {
		return nil, err
	}
	switch {
	case len(f.records) == 0 && f.selfPlay == 0 && f.resume == "":
		return nil, errors.New("no training games: give --records FILE… (record files of the game), or --self-play N to play N games of --agent first")
	case len(f.records) > 0 && (f.selfPlay != 0 || f.resume != "" || f.out != ""):
		return nil, errors.New("--records and --self-play (with --out, --resume) are two sources of games: give one")
	case f.selfPlay != 0 && (f.selfPlay < 2 || f.selfPlay > maxGames || f.selfPlay%2 != 0):
		return nil, fmt.Errorf("--self-play %d: use an even number of games from 2 to %d (they come in colour-swapped pairs)", f.selfPlay, maxGames)
	case f.resume != "" && f.out != "":
		return nil, errors.New("--resume continues its own file; leave out --out")
	case f.skipPlies < -1 || f.skipPlies > maxSkipPlies:
		return nil, fmt.Errorf("--skip-plies %d: use 0 to %d, or -1 for the game's opening plies", f.skipPlies, maxSkipPlies)
	case f.positions < 1 || f.positions > tune.MaxPositions:
		return nil, fmt.Errorf("--positions %d: use 1 to %d (each position is a game state in memory)", f.positions, tune.MaxPositions)
	case f.evaluations < 1 || f.evaluations > tune.MaxEvaluations:
		return nil, fmt.Errorf("--evaluations %d: use 1 to %d", f.evaluations, tune.MaxEvaluations)
	case f.k != 0 && !(f.k >= tune.MinK && f.k <= tune.MaxK):
		return nil, fmt.Errorf("--k %g: use %g to %g, or 0 to fit K", f.k, tune.MinK, tune.MaxK)
	case checkConcurrency(f.concurrency, f.broker) != nil:
		return nil, checkConcurrency(f.concurrency, f.broker)
	case f.verifyGames < 2 || f.verifyGames > maxGames || f.verifyGames%2 != 0:
		return nil, fmt.Errorf("--verify-games %d: use an even number from 2 to %d", f.verifyGames, maxGames)
	case f.verifyOut != "" && !f.verify:
		return nil, errors.New("--verify-out records the verification match: leave it out with --verify=false")
	}
	s, err := results.ParseSPRT(*sprtText, results.Logistic)
	if err != nil {
		return nil, fmt.Errorf("--verify-sprt: %v", err)
	}
	f.verifySPRT = s
	f.given = map[string]string{}
	fs.Visit(func(fl *flag.Flag) { f.given[fl.Name] = fl.Value.String() })
	if f.resume != "" {
		if err := f.fromResumed(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// fromResumed takes the game, agent, seed, games and openings of the
// --resume file's header: a flag given must agree with it.
func (f *texelFlags) fromResumed() error {
	file, err := results.ReadFile(f.resume)
	if err != nil {
		return fmt.Errorf("--resume %v", err)
	}
	c := file.Header.Config
	if c.Kind != results.RoundRobin || len(c.Agents) != 2 || c.Agents[0].Spec != c.Agents[1].Spec {
		return fmt.Errorf("--resume %s: not a self-play record of tune texel (a %s)", f.resume, c.Kind)
	}
	inFile := map[string]string{"game": c.Game, "agent": c.Agents[0].Spec, "seed": strconv.FormatUint(c.Seed, 10), "self-play": strconv.Itoa(c.GamesPerPair), "openings": c.Openings}
	var diff []string
	for _, name := range texelFileFlags {
		now, ok := f.given[name]
		switch {
		case !ok:
		case name == "game":
			now = mustCanonical(now)
		case name == "openings":
			// As the header spells it: random:K, file:PATH.
			if v, err := games.Lookup(c.Game); err == nil {
				if b, err := arena.NewBook(v, now, 0, false); err == nil {
					now = b.Spec
				}
			}
		}
		if ok && now != inFile[name] {
			diff = append(diff, fmt.Sprintf("%s: %s (file) ≠ %s (now)", name, inFile[name], now))
		}
	}
	if len(diff) > 0 {
		return fmt.Errorf("--resume %s: the self-play file was started with other flags:\n  %s\n(leave them out: a resume takes them from the file)", f.resume, strings.Join(diff, "\n  "))
	}
	f.game, f.agent, f.seed, f.selfPlay, f.openings = c.Game, c.Agents[0].Spec, c.Seed, c.GamesPerPair, c.Openings
	return nil
}

// resumeHint is the command that continues an interrupted self-play run:
// --resume and the fit's flags, which the file does not keep.
func (f *texelFlags) resumeHint(path string) string {
	parts := []string{"arena tune texel --resume", shellQuote(path)}
	for _, name := range texelFitFlags {
		if v, ok := f.given[name]; ok {
			parts = append(parts, "--"+name+"="+shellQuote(v))
		}
	}
	return strings.Join(parts, " ")
}

// texelWeight is one weight of the output.
type texelWeight struct {
	Name    string `json:"name"`
	Default int    `json:"default"`
	Start   int    `json:"start"`
	Tuned   int    `json:"tuned"`
	Min     int    `json:"min"`
	Max     int    `json:"max"`
}

// texelReport is tune texel's --format json output.
type texelReport struct {
	Game             string             `json:"game"`
	Sigmoid          string             `json:"sigmoid"`
	Games            int                `json:"games"`
	HeldOutGames     int                `json:"held_out_games"`
	SkippedGames     int                `json:"skipped_games"`
	SkipPlies        int                `json:"skip_plies"`
	Quiet            bool               `json:"quiet"`
	Eligible         int                `json:"eligible_positions"`
	Positions        int                `json:"positions"`
	HeldOutPositions int                `json:"held_out_positions"`
	BytesPerPosition int64              `json:"bytes_per_position"`
	K                float64            `json:"k"`
	MSEStart         float64            `json:"mse_start"`
	MSE              float64            `json:"mse"`
	HeldOutMSEStart  *float64           `json:"held_out_mse_start"`
	HeldOutMSE       *float64           `json:"held_out_mse"`
	Evaluations      int                `json:"evaluations"`
	Stopped          bool               `json:"stopped"` // the fit was interrupted: the best weights so far
	Seconds          float64            `json:"seconds"`
	Weights          []texelWeight      `json:"weights"`
	StartSpec        string             `json:"start_spec"`
	TunedSpec        string             `json:"tuned_spec"`
	Verify           *tune.VerifyResult `json:"verify"`
}

func runTuneTexel(args []string, stdout, stderr io.Writer) error {
	f, err := parseTuneTexel(args, stderr)
	if err != nil {
		return err
	}
	v, err := games.Lookup(f.game)
	if err != nil {
		return err
	}
	if _, ok := v.New().(games.State); !ok {
		return fmt.Errorf("%s is a simultaneous-move game: texel tuning replays sequential games (games with weights: %s)", v, strings.Join(tune.WeightedGames(), ", "))
	}
	start, ok := v.New().(games.Weighted)
	if !ok {
		return fmt.Errorf("%s's evaluation has no named weights to tune (games with weights: %s)", v, strings.Join(tune.WeightedGames(), ", "))
	}
	defs := start.Weights()
	base, startW, err := texelStart(f.agent, defs)
	if err != nil {
		return err
	}
	if !takesEvalKeys(base.Name) {
		// Before any game: the tuned spec could not be built or verified.
		return fmt.Errorf("--agent %s: %s takes no eval.NAME keys, so its weights cannot be tuned (agents that take them: %s)", f.agent, base.Name, strings.Join(evalKinds(), ", "))
	}
	// With --broker, the self-play games and the verification match are
	// runs of one broker kept open for the whole tune (as tune spsa's
	// iterations).
	ctx, stop, release := interrupts(stderr)
	defer release()
	runner, closeHub := runFunc(nil), func() {}
	if len(f.records) == 0 || f.verify {
		path := f.out
		if f.resume != "" {
			path = f.resume
		}
		openCtx, cancel := untilStop(ctx, stop)
		runner, closeHub, err = f.broker.hub(openCtx, true, path, stderr)
		cancel()
		if err != nil {
			return err
		}
	}
	defer closeHub()

	// The training games.
	var recs []results.GameRecord
	if len(f.records) > 0 {
		for _, path := range f.records {
			file, err := results.ReadFile(path)
			if err != nil {
				return err
			}
			// Each file in schedule order, as self-play gives its games:
			// the positions sampled depend on the order.
			slices.SortStableFunc(file.Games, func(a, b results.GameRecord) int { return a.Index - b.Index })
			recs = append(recs, file.Games...)
		}
	} else if recs, err = texelSelfPlay(ctx, stop, f, runner, stderr); err != nil {
		return err
	}

	// The positions, and what they cost.
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	pos, err := tune.SamplePositions(v, recs, tune.SampleOptions{SkipPlies: f.skipPlies, Max: f.positions, Seed: f.seed})
	if err != nil {
		return err
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	n := len(pos.Train) + len(pos.Test)
	rep := texelReport{
		Game: v.String(), Sigmoid: "1/(1+10^(-K*e/400))",
		Games: pos.Games, HeldOutGames: pos.HeldOutGames, SkippedGames: pos.Skipped, SkipPlies: pos.SkipPlies,
		Quiet: pos.Quiet, Eligible: pos.Eligible, Positions: len(pos.Train), HeldOutPositions: len(pos.Test),
		BytesPerPosition: max(0, int64(after.HeapAlloc)-int64(before.HeapAlloc)) / int64(n),
		StartSpec:        base.String(),
	}
	if !f.noProgress {
		quiet := "every position counts (" + v.Game.Name + " has no notion of a quiet position)"
		if pos.Quiet {
			quiet = "quiet positions only"
		}
		fmt.Fprintf(stderr, "texel: %d positions (%d held out) of %d eligible in %d games (%d held out, %d skipped: not ended by the rules), past the first %d plies; %s; about %.1f KB a position\n",
			n, len(pos.Test), pos.Eligible, pos.Games+pos.HeldOutGames, pos.HeldOutGames, pos.Skipped, pos.SkipPlies, quiet, float64(rep.BytesPerPosition)/1024)
	}

	// The fit.
	t0 := time.Now()
	next := max(f.evaluations/10, 1)
	fit, err := tune.Texel(pos, startW, tune.FitOptions{K: f.k, Evaluations: f.evaluations, Stop: stop, Progress: func(done int, best float64) {
		if !f.noProgress && done >= next {
			fmt.Fprintf(stderr, "texel: %d evaluations, best MSE %.6f (%s)\n", done, best, time.Since(t0).Round(time.Second))
			next += max(f.evaluations/10, 1)
		}
	}})
	if err != nil {
		return err
	}
	rep.Seconds = time.Since(t0).Seconds()
	if f.k == 0 && (fit.K <= tune.MinK*1.01 || fit.K >= tune.MaxK/1.01) {
		fmt.Fprintf(stderr, "texel: warning: K = %g is at the end of its range (%g to %g): with the start weights the evaluation does not predict the results (near K = 0: no better than a coin, or worse), so the fit has little to work from; try other start weights (eval.NAME keys in --agent) or other games\n", fit.K, tune.MinK, tune.MaxK)
	}
	rep.Stopped = fit.Stopped
	rep.K, rep.MSEStart, rep.MSE, rep.Evaluations = fit.K, fit.MSEStart, fit.MSE, fit.Evaluations
	rep.HeldOutMSEStart, rep.HeldOutMSE = finite(fit.HeldOutStart), finite(fit.HeldOut)
	for i, d := range defs {
		rep.Weights = append(rep.Weights, texelWeight{d.Name, d.Default, fit.Start[i], fit.Tuned[i], d.Min, d.Max})
	}
	rep.TunedSpec = texelSpec(base, defs, fit.Tuned)
	if f.format == "text" {
		writeTexelText(stdout, &rep)
	}

	// The verification match.
	if f.verify && fit.Stopped {
		fmt.Fprintln(stderr, "texel: the fit was stopped: the weights above are the best found so far; no verification match (play one with arena match)")
	}
	if f.verify && !fit.Stopped {
		vr, err := texelVerify(ctx, stop, f, runner, rep.TunedSpec, rep.StartSpec, stderr)
		if err != nil {
			return err
		}
		rep.Verify = &vr
		if f.format == "text" {
			fmt.Fprintf(stdout, "verification (%s against %s, %s): %s\n", vr.Tuned, vr.Start, vr.SPRT, vr)
		}
	}
	if f.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	}
	// As every other command: an interrupted run prints what it has, and
	// fails (exit 1), so that a script does not take it for a finished one.
	switch {
	case rep.Stopped:
		return fmt.Errorf("interrupted after %d evaluations of the fit: the weights above are the best found so far", rep.Evaluations)
	case rep.Verify != nil && !rep.Verify.Complete:
		return fmt.Errorf("interrupted after %d games of the verification match, before its test decided", rep.Verify.Games())
	}
	return nil
}

// texelStart parses the agent spec and returns it with its start weights:
// its eval.NAME keys, the game's defaults for the others.
func texelStart(agent string, defs []games.Weight) (spec.Spec, []int, error) {
	sp, err := spec.Parse(agent)
	if err != nil {
		return sp, nil, fmt.Errorf("--agent: %v", err)
	}
	w := make([]int, len(defs))
	for i, d := range defs {
		w[i] = d.Default
	}
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
	}
	for _, k := range sp.Keys {
		name, ok := strings.CutPrefix(k, "eval.")
		if !ok {
			continue
		}
		i := indexOf(names, name)
		if i < 0 {
			return sp, nil, fmt.Errorf("--agent %s: the game has no weight %q (its weights: %s)", agent, name, strings.Join(names, ", "))
		}
		x, err := sp.IntIn(k, 0, defs[i].Min, defs[i].Max)
		if err != nil {
			return sp, nil, fmt.Errorf("--agent: %v", err)
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

func takesEvalKeys(kind string) bool { return slices.Contains(evalKinds(), kind) }

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
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

func writeTexelText(w io.Writer, r *texelReport) {
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

// texelSelfPlay plays --self-play games of --agent against itself (or
// continues --resume), writing them to --out if given, and returns them;
// runner, if not nil, plays them (through the broker).
func texelSelfPlay(ctx context.Context, stop <-chan struct{}, f *texelFlags, runner runFunc, stderr io.Writer) ([]results.GameRecord, error) {
	var (
		t    *arena.Tournament
		w    *results.Writer
		done []results.GameRecord
		path = f.out
		err  error
	)
	if f.resume != "" {
		var file *results.File
		if t, file, w, err = arena.ResumeRecord(f.resume, nil, f.concurrency); err != nil {
			return nil, err
		}
		path, done = f.resume, file.Games
		if c := t.Config; c.Game != f.game && c.Game != mustCanonical(f.game) {
			w.Close()
			return nil, fmt.Errorf("--resume %s holds games of %s, not --game %s", f.resume, c.Game, f.game)
		}
	} else {
		t, err = arena.New(arena.Options{Game: f.game, Agents: []string{f.agent, f.agent}, GamesPerPair: f.selfPlay, Seed: f.seed, Openings: f.openings})
		if err != nil {
			return nil, fmt.Errorf("self-play: %w", err)
		}
		if f.out != "" {
			if w, err = arena.CreateRecord(f.out, t, f.concurrency); err != nil {
				return nil, err
			}
		}
	}
	if w != nil {
		defer w.Close()
	}
	var mu sync.Mutex
	recs := append([]results.GameRecord(nil), done...)
	bar := newProgress(stderr, len(t.Fixtures)-len(done), f.noProgress)
	st, err := t.Run(ctx, arena.RunOptions{Concurrency: f.concurrency, Stop: stop, Done: done, Runner: runner, Sink: func(b []*results.GameRecord) error {
		if w != nil {
			if err := w.WriteGames(b...); err != nil {
				return fmt.Errorf("writing %s: %w", path, err)
			}
		}
		mu.Lock()
		for _, g := range b {
			recs = append(recs, *g)
		}
		mu.Unlock()
		bar.add(len(b))
		return nil
	}})
	bar.finish()
	if err == nil && !st.Complete {
		err = errors.New("stopped")
	}
	if err != nil {
		if path != "" {
			return nil, fmt.Errorf("self-play %v with %d of %d games recorded in %s: continue with %s", err, len(recs), len(t.Fixtures), path, f.resumeHint(path))
		}
		return nil, fmt.Errorf("self-play %v after %d of %d games (with --out FILE they would be kept for --resume)", err, len(recs), len(t.Fixtures))
	}
	// In schedule order: the games arrive in the order they finish, and
	// the sample of positions depends on the order of the games.
	slices.SortFunc(recs, func(a, b results.GameRecord) int { return a.Index - b.Index })
	return recs, nil
}

// mustCanonical is the canonical spec of a game spec, or the spec itself.
func mustCanonical(game string) string {
	v, err := games.Lookup(game)
	if err != nil {
		return game
	}
	return v.String()
}

// texelVerify plays the verification match of tuned against start (with
// runner, if not nil: through the broker).
func texelVerify(ctx context.Context, stop <-chan struct{}, f *texelFlags, runner runFunc, tuned, start string, stderr io.Writer) (tune.VerifyResult, error) {
	if tuned == start {
		fmt.Fprintln(stderr, "texel: the tuned weights are the start weights: the verification match would play one agent against itself")
	}
	o := tune.VerifyOptions{
		// Its own seed: the self-play games' openings would otherwise
		// come back, and the match would replay the training games.
		Match: arena.Options{Game: f.game, Seed: rng.Derive(f.seed, verifySeedTag), Openings: f.openings},
		Tuned: tuned, Start: start, SPRT: f.verifySPRT, Games: f.verifyGames,
		Run: arena.RunOptions{Concurrency: f.concurrency, Stop: stop, Runner: runner},
	}
	var w *results.Writer
	if f.verifyOut != "" {
		m := o.Match
		m.Kind, m.Agents, m.GamesPerPair, m.SPRT = results.Match, []string{tuned, start}, f.verifyGames, &f.verifySPRT
		t, err := arena.New(m)
		if err != nil {
			return tune.VerifyResult{}, fmt.Errorf("verification match: %w", err)
		}
		if w, err = arena.CreateRecord(f.verifyOut, t, f.concurrency); err != nil {
			return tune.VerifyResult{}, err
		}
		defer w.Close()
	}
	var last int
	o.Run.Sink = func(b []*results.GameRecord) error {
		if w != nil {
			return w.WriteGames(b...)
		}
		return nil
	}
	if !f.noProgress {
		o.OnPairs = func(tr *results.PairTracker) {
			if p := tr.Penta.Pairs(); p >= last+50 {
				last = p
				fmt.Fprintf(stderr, "verify: %d pairs, LLR %.2f\n", p, tr.LLR)
			}
		}
	}
	vr, err := tune.Verify(ctx, o)
	if err != nil {
		return vr, err
	}
	if !vr.Complete {
		fmt.Fprintln(stderr, "texel: the verification match was stopped before its test decided")
	}
	return vr, nil
}

// shellQuote quotes s for a POSIX shell, for the commands printed to
// continue a run.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
