package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/internal/linelog"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/spec"
	"github.com/boardgame-arena/arena/tune"
)

func init() {
	registerTune(command{"spsa", groupTune, "SPSA on colour-swapped game pairs, then a verification SPRT", runTuneSPSA})
}

// spsaConfigFlags are the flags that make up a run's configuration: a
// resumed run reads them from its file and refuses them on the command
// line.
var spsaConfigFlags = []string{"game", "agent", "params", "iterations", "pairs-per", "alpha", "gamma", "A", "seed", "openings", "move-time", "tc", "max-plies"}

// spsaFlags are tune spsa's parsed flags.
type spsaFlags struct {
	cfg         tune.SPSAConfig
	paramsFile  string
	concurrency int
	out, resume string
	history     string
	plot        string
	format      string
	noProgress  bool
	verify      bool
	verifySPRT  results.SPRT
	verifyGames int
	verifyGiven []string // the verification flags given (a resumed run may have its own in the file)
	broker      *brokerFlags
}

// parseTuneSPSA parses and checks the flags; it opens only the parameter
// file (and checks that --history and --plot can be written, leaving no
// file behind), and runs nothing.
func parseTuneSPSA(args []string, stderr io.Writer) (*spsaFlags, error) {
	fs := newFlagSet("tune spsa", "--agent SPEC --params FILE --iterations N [--out FILE | --resume FILE] [--broker URL] [flags]", stderr)
	f := &spsaFlags{}
	c := &f.cfg
	fs.StringVar(&c.Agent, "agent", "", "agent `SPEC` to tune; the parameters are keys of it (required)")
	fs.alias("agents", "agent")
	fs.StringVar(&f.paramsFile, "params", "", "parameter `FILE`, a line each: name, int|float, start, min, max, c_end, r_end")
	fs.IntVar(&c.Iterations, "iterations", 0, fmt.Sprintf("SPSA iterations, 1 to %d (required)", tune.MaxIterations))
	fs.IntVar(&c.PairsPer, "pairs-per", 8, fmt.Sprintf("colour-swapped game pairs per iteration, 1 to %d", tune.MaxPairsPer))
	fs.StringVar(&c.Game, "game", "othello6", "`GAME` to play (see arena games)")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed of every random choice, the verification match's too")
	fs.IntVar(&f.concurrency, "concurrency", min(runtime.NumCPU(), maxConcurrency), "games played at once, 1 to 256 (with --broker, 0: remote workers only)")
	fs.Float64Var(&c.Alpha, "alpha", tune.DefaultAlpha, "exponent α of a_k = a/(A+k)^α, in (0, 10]")
	fs.Float64Var(&c.Gamma, "gamma", tune.DefaultGamma, "exponent γ of c_k = c/k^γ, in (0, 10]")
	fs.Float64Var(&c.A, "A", -1, fmt.Sprintf("stability constant A of a_k, 0 to %d (-1: 10 %% of --iterations)", tune.MaxIterations))
	fs.StringVar(&c.Openings, "openings", "", "opening `BOOK`: random:K, none or a file, shuffled each iteration")
	moveTime := fs.Duration("move-time", 0, "wall-clock limit per move, 1ms to 24h (0: the agents' or the game's)")
	fs.StringVar(&c.TimeControl, "tc", "", "game clock `BASE[+INC]` for both sides, e.g. 1s+10ms; not with --move-time")
	fs.IntVar(&c.MaxPlies, "max-plies", arena.DefaultMaxPlies, fmt.Sprintf("a game is a draw after this many plies, 0 to %d (0: no cap)", maxMaxPlies))
	fs.BoolVar(&f.verify, "verify", true, "end with an SPRT match of the tuned agent vs the start (--verify=false: none)")
	sprtText := fs.String("verify-sprt", "elo0=0,elo1=5", "the verification's `TEST`: elo0=E0,elo1=E1[,alpha=A][,beta=B]")
	fs.IntVar(&f.verifyGames, "verify-games", tune.DefaultVerifyGames, fmt.Sprintf("most games of the verification match, even, 2 to %d", maxGames))
	fs.StringVar(&f.out, "out", "", "run `FILE` to write (JSON Lines); it must not exist yet")
	fs.StringVar(&f.resume, "resume", "", "continue the run `FILE` exactly (its configuration is read from it)")
	fs.StringVar(&f.history, "history", "", "write every iteration to `FILE`, .csv or .json")
	fs.StringVar(&f.plot, "plot", "", "draw the parameters' paths θ/c against the iteration in `FILE` (SVG)")
	fs.StringVar(&f.format, "format", "text", "output `FORMAT`: text or json")
	fs.BoolVar(&f.noProgress, "no-progress", false, "no progress bar on stderr")
	fs.group("Core", "agent params iterations pairs-per game seed concurrency")
	fs.group("SPSA", "alpha gamma A")
	fs.group("Openings", "openings")
	fs.group("Limits", "move-time tc max-plies")
	fs.group("Verification", "verify verify-sprt verify-games")
	fs.group("Output", "out resume history plot format no-progress")
	f.broker = addBrokerFlags(fs)
	if err := parseNoArgs(fs, args); err != nil {
		return nil, err
	}
	if err := f.broker.check(); err != nil {
		return nil, err
	}
	if err := checkFormat(f.format, "text", "json"); err != nil {
		return nil, err
	}
	var given []string
	fs.Visit(func(fl *flag.Flag) {
		if slices.Contains(spsaConfigFlags, fl.Name) {
			given = append(given, "--"+fl.Name)
		}
		if strings.HasPrefix(fl.Name, "verify") {
			f.verifyGiven = append(f.verifyGiven, "--"+fl.Name)
		}
	})
	switch {
	case f.resume != "" && len(given) > 0:
		return nil, fmt.Errorf("%s: a resumed run keeps the configuration in %s; leave out %s", strings.Join(given, ", "), f.resume, strings.Join(given, ", "))
	case f.resume == "" && c.Agent == "":
		return nil, errors.New("--agent is missing: the agent spec to tune, e.g. --agent mcts:iters=400")
	case f.resume == "" && f.paramsFile == "":
		return nil, errors.New("--params is missing: a file with one parameter a line, 'name, int|float, start, min, max, c_end, r_end', e.g. 'c, float, 1.4, 0.2, 3, 0.15, 0.002'")
	case f.resume == "" && f.cfg.Iterations == 0 && !slices.Contains(given, "--iterations"):
		return nil, fmt.Errorf("--iterations is missing: the number of SPSA iterations N, 1 to %d (each plays --pairs-per game pairs)", tune.MaxIterations)
	// The configuration reads 0 as "the default" and a negative A as 10 %
	// of the iterations: typed on the command line, they are mistakes.
	case !(c.Alpha > 0 && c.Alpha <= 10) || !(c.Gamma > 0 && c.Gamma <= 10):
		return nil, fmt.Errorf("--alpha %g and --gamma %g: use exponents in (0, 10] (defaults %g and %g)", c.Alpha, c.Gamma, tune.DefaultAlpha, tune.DefaultGamma)
	case c.A != -1 && !(c.A >= 0 && c.A <= tune.MaxIterations):
		return nil, fmt.Errorf("--A %g: use 0 to %d, or -1 (the default) for 10 %% of --iterations", c.A, tune.MaxIterations)
	case checkConcurrency(f.concurrency, f.broker) != nil:
		return nil, checkConcurrency(f.concurrency, f.broker)
	case f.verifyGames < 2 || f.verifyGames > maxGames || f.verifyGames%2 != 0:
		return nil, fmt.Errorf("--verify-games %d: use an even number from 2 to %d", f.verifyGames, maxGames)
	case f.history != "" && !strings.HasSuffix(f.history, ".csv") && !strings.HasSuffix(f.history, ".json"):
		return nil, fmt.Errorf("--history %s: name a .csv or a .json file (the extension picks the format)", f.history)
	case c.MaxPlies < 0 || c.MaxPlies > maxMaxPlies:
		return nil, fmt.Errorf("--max-plies %d: use 0 to %d (0: no cap)", c.MaxPlies, maxMaxPlies)
	}
	if c.MaxPlies == 0 {
		c.MaxPlies = -1 // no cap, as arena.Options spells it
	}
	if err := durationIn("move-time", *moveTime, time.Millisecond, maxMoveTime, true, " (0: automatic)"); err != nil {
		return nil, err
	}
	if *moveTime != 0 {
		c.MoveTime = moveTime.String()
	}
	if c.TimeControl != "" {
		if _, err := agents.ParseTimeControl(c.TimeControl); err != nil {
			return nil, fmt.Errorf("--tc: %v", err)
		}
		if *moveTime != 0 {
			return nil, fmt.Errorf("--tc %s and --move-time %s cannot be used together: the clock limits every move", c.TimeControl, spec.FormatDuration(*moveTime))
		}
	}
	if err := checkOpenings(c.Openings); err != nil {
		return nil, err
	}
	// Written after the last iteration: checked before the first.
	for _, o := range []struct{ flag, path string }{{"--history", f.history}, {"--plot", f.plot}} {
		if err := checkOutputPath(o.flag, o.path, f.out, f.resume); err != nil {
			return nil, err
		}
	}
	s, err := results.ParseSPRT(*sprtText, results.Logistic)
	if err != nil {
		return nil, fmt.Errorf("--verify-sprt: %v", err)
	}
	f.verifySPRT = s
	c.Verify = &tune.VerifySettings{Off: !f.verify, SPRT: s, Games: f.verifyGames}
	if f.paramsFile != "" {
		pf, err := os.Open(f.paramsFile)
		if err != nil {
			return nil, fmt.Errorf("--params: %v", err)
		}
		defer pf.Close()
		if c.Params, err = tune.ParseParams(pf); err != nil {
			return nil, fmt.Errorf("--params %s: %v", f.paramsFile, err)
		}
	}
	return f, nil
}

func runTuneSPSA(args []string, stdout, stderr io.Writer) error {
	f, err := parseTuneSPSA(args, stderr)
	if err != nil {
		return err
	}
	sess, err := tune.OpenSPSA(f.cfg, f.out, f.resume)
	if err != nil {
		return err
	}
	defer sess.Close()
	s, done := sess.SPSA, sess.Done
	if v := s.Config.Verify; f.resume != "" && v != nil {
		// The verification the run was started with; a file from before
		// it was recorded takes the flags.
		if len(f.verifyGiven) > 0 {
			return fmt.Errorf("%s: a resumed run keeps its verification settings in %s; leave out %s", strings.Join(f.verifyGiven, ", "), f.resume, strings.Join(f.verifyGiven, ", "))
		}
		f.verify, f.verifySPRT, f.verifyGames = !v.Off, v.SPRT, v.Games
	}
	c := s.Config
	fmt.Fprintf(stderr, "arena tune spsa: SPSA on %s: %s, %s, %s of %s, α=%g γ=%g A=%g, %s\n",
		c.Game, c.Agent, plural(len(c.Params), "parameter", "parameters"), plural(c.Iterations, "iteration", "iterations"),
		plural(c.PairsPer, "game pair", "game pairs"), c.Alpha, c.Gamma, c.A, plural(f.concurrency, "worker", "workers"))
	if len(done) > 0 {
		fmt.Fprintf(stderr, "arena tune spsa: resuming after iteration %d of %d\n", len(done), c.Iterations)
	}
	if sess.Path == "" {
		fmt.Fprintln(stderr, "arena tune spsa: iterations are not saved (use --out FILE to keep them and be able to resume)")
	}
	log := linelog.New(stderr, "arena tune spsa: ") // the library's lines
	ctx, stop, release := interrupts(stderr, "tune spsa")
	defer release()
	// The arena's message says no new game starts; an SPSA run finishes
	// the running iteration's batch first (its update needs all of it).
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		select {
		case <-stop:
			fmt.Fprintln(stderr, "arena tune spsa: the running iteration (or verification pair) finishes first, then the run stops")
		case <-quit:
		}
	}()
	// With --broker, every iteration is a run of the work queue (workers
	// serve them all with arena worker --wait); they are applied in order.
	openCtx, cancel := arena.UntilStop(ctx, stop)
	runner, closeHub, err := f.broker.hub(openCtx, true, sess.Path, log)
	cancel()
	if err != nil {
		sess.Abandon() // the run never started: no file made here is left
		return err
	}
	defer closeHub()
	if sess.Torn {
		fmt.Fprintf(stderr, "arena tune spsa: %s: cut off a torn last line (the run was killed while writing it)\n", f.resume)
	}
	prog := newProgress(stderr, "tune spsa", (c.Iterations-min(len(done), c.Iterations))*2*c.PairsPer, f.noProgress)
	every := max(c.Iterations/20, 1) // a θ line every 5 % of the run
	var theta strings.Builder
	start := time.Now()
	res, runErr := sess.Run(ctx, tune.RunOptions{
		Run: arena.RunOptions{Concurrency: f.concurrency, Log: log, Runner: runner}, Stop: stop, OnGames: prog.add,
		Record: func(it tune.Iteration) error {
			if !f.noProgress && (it.K%every == 0 || it.K == c.Iterations) {
				prog.pause()
				theta.Reset()
				s.Summary(&theta, it.After)
				fmt.Fprintf(stderr, "arena tune spsa: iteration %d/%d: %d-%d-%d, θ %s\n", it.K, c.Iterations, it.Wins, it.Draws, it.Losses, theta.String())
			}
			return nil
		},
	})
	prog.finish()
	if played := len(res.Iterations) - len(done); played > 0 {
		fmt.Fprintf(stderr, "arena tune spsa: %s (%d games) in %.1f s\n", plural(played, "iteration", "iterations"), played*2*c.PairsPer, time.Since(start).Seconds())
	}
	// The history and the plot are written whatever happened: an
	// interrupted run's are as far as it got.
	if f.history != "" {
		if err := s.WriteHistory(f.history, res.Iterations); err != nil {
			return err
		}
	}
	if f.plot != "" {
		if err := s.WritePlot(f.plot, res.Iterations); err != nil {
			return err
		}
	}
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		return runErr
	}
	rep := sess.Report(res)
	if res.Complete && f.verify {
		vo, err := s.VerifyOptions(res.Theta)
		if err != nil {
			return err
		}
		vo.SPRT, vo.Games = f.verifySPRT, f.verifyGames
		fmt.Fprintf(stderr, "arena tune spsa: verification match %s vs %s, SPRT %s, at most %d games\n", vo.Tuned, vo.Start, vo.SPRT, vo.Games)
		vp := newProgress(stderr, "tune spsa", vo.Games, f.noProgress)
		vo.Run = arena.RunOptions{Concurrency: f.concurrency, Stop: stop, Log: log, Runner: runner}
		vo.OnPairs = func(tr *results.PairTracker) { vp.add(2*tr.Penta.Pairs() - vp.done) }
		v, err := tune.Verify(ctx, vo)
		vp.finish()
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		if err == nil {
			rep.Verify = &v
		}
	}
	if f.format == "json" {
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		rep.WriteText(stdout)
	}
	if !res.Complete {
		if sess.Path == "" {
			return fmt.Errorf("interrupted after iteration %d of %d", len(res.Iterations), c.Iterations)
		}
		return fmt.Errorf("interrupted after iteration %d of %d; continue with: arena tune spsa --resume %s", len(res.Iterations), c.Iterations, sess.Path)
	}
	return nil
}
