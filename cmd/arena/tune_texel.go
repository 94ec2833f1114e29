package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/linelog"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/tune"
)

func init() {
	registerTune(command{"texel", groupTune, "fit evaluation weights to game results, then verify", runTuneTexel})
}

// texelFlags are tune texel's parsed flags.
type texelFlags struct {
	tune.TexelOptions
	format     string
	noProgress bool
	broker     *brokerFlags
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

// parseTuneTexel parses the flags and checks them with the options they
// make (tune.TexelOptions.Check); with --resume it reads the file's
// header, and plays nothing.
func parseTuneTexel(args []string, stderr io.Writer) (*texelFlags, error) {
	fs := newFlagSet("tune texel", "(--records FILE… | --self-play N [--out FILE | --resume FILE]) [--agent SPEC] [--broker URL] [flags]", stderr)
	f := &texelFlags{}
	o := &f.TexelOptions
	var records listFlag
	fs.Var(&records, "records", "record `FILE`s, one per argument, whose positions are the training data")
	fs.IntVar(&o.SelfPlay, "self-play", 0, fmt.Sprintf("instead of --records, play `N` self-play games of --agent, even, 2 to %d", maxGames))
	fs.StringVar(&o.Game, "game", "othello6", "`GAME` whose evaluation weights are fitted (arena games lists them)")
	fs.StringVar(&o.Agent, "agent", "alphabeta:depth=4", "agent `SPEC` whose eval.NAME keys are tuned; it plays the games")
	fs.alias("agents", "agent")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of every random choice, the verification match's too")
	fs.IntVar(&o.Run.Concurrency, "concurrency", min(runtime.NumCPU(), maxConcurrency), "games played at once, 1 to 256 (with --broker, 0: remote workers only)")
	fs.IntVar(&o.SkipPlies, "skip-plies", -1, fmt.Sprintf("plies not sampled at the start of a game, 0 to %d (-1: the opening's)", tune.MaxSkipPlies))
	fs.IntVar(&o.Positions, "positions", tune.DefaultPositions, fmt.Sprintf("most positions kept (a uniform sample), 1 to %d", tune.MaxPositions))
	fs.IntVar(&o.Evaluations, "evaluations", tune.DefaultEvaluations, fmt.Sprintf("most error evaluations of the Nelder–Mead fit, 1 to %d", tune.MaxEvaluations))
	fs.Float64Var(&o.K, "k", 0, fmt.Sprintf("the logistic scale K, %g to %g (0: fitted with the start weights)", tune.MinK, tune.MaxK))
	fs.StringVar(&o.Openings, "openings", tune.DefaultTexelOpenings, "opening `BOOK` of the games played: random:K, none or a file")
	fs.BoolVar(&o.Verify, "verify", true, "end with an SPRT match of the tuned spec vs --agent (--verify=false: none)")
	sprtText := fs.String("verify-sprt", "elo0=0,elo1=5", "the verification's `TEST`: elo0=E0,elo1=E1[,alpha=A][,beta=B]")
	fs.IntVar(&o.VerifyGames, "verify-games", tune.DefaultVerifyGames, fmt.Sprintf("most games of the verification match, even, 2 to %d", maxGames))
	fs.StringVar(&o.VerifyOut, "verify-out", "", "record the verification match in `FILE` (it must not exist yet)")
	fs.StringVar(&o.Out, "out", "", "with --self-play: record the games in `FILE` (it must not exist yet)")
	fs.StringVar(&o.Resume, "resume", "", "with --self-play: continue the record `FILE` of an interrupted run")
	fs.StringVar(&f.format, "format", "text", "output `FORMAT`: text or json")
	fs.BoolVar(&f.noProgress, "no-progress", false, "no progress on stderr")
	fs.group("Core", "records self-play game agent seed concurrency")
	fs.group("Fit", "skip-plies positions evaluations k")
	fs.group("Openings", "openings")
	fs.group("Verification", "verify verify-sprt verify-games verify-out")
	fs.group("Output", "out resume format no-progress")
	f.broker = addBrokerFlags(fs) // after the command's own groups: Distributed comes last
	if err := parseNoArgs(fs, args, "records"); err != nil {
		return nil, err
	}
	o.Records = records
	if err := checkFormat(f.format, "text", "json"); err != nil {
		return nil, err
	}
	if err := f.broker.check(); err != nil {
		return nil, err
	}
	if err := checkConcurrency(o.Run.Concurrency, f.broker); err != nil {
		return nil, err
	}
	s, err := results.ParseSPRT(*sprtText, results.Logistic)
	if err != nil {
		return nil, fmt.Errorf("--verify-sprt: %v", err)
	}
	o.VerifySPRT = s
	if err := o.Check(); err != nil {
		return nil, err
	}
	f.given = map[string]string{}
	fs.Visit(func(fl *flag.Flag) { f.given[fl.Name] = fl.Value.String() })
	if o.Resume != "" {
		if err := f.fromResumed(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// fromResumed takes the game, agent, seed, games and openings of the
// --resume file's header: a flag given must agree with it.
func (f *texelFlags) fromResumed() error {
	file, err := tune.ReadSelfPlay(f.Resume)
	if err != nil {
		return err
	}
	inFile := map[string]string{"game": file.Game, "agent": file.Agent, "seed": strconv.FormatUint(file.Seed, 10), "self-play": strconv.Itoa(file.Games), "openings": file.Openings}
	var diff []string
	for _, name := range texelFileFlags {
		now, ok := f.given[name]
		switch {
		case !ok:
			continue
		case name == "game":
			if v, err := games.Lookup(now); err == nil {
				now = v.String()
			}
		case name == "openings":
			// As the header spells it: random:K, file:PATH.
			if v, err := games.Lookup(file.Game); err == nil {
				if b, err := arena.NewBook(v, now, 0, false); err == nil {
					now = b.Spec
				}
			}
		}
		if now != inFile[name] {
			diff = append(diff, fmt.Sprintf("%s: %s (file) ≠ %s (now)", name, inFile[name], now))
		}
	}
	if len(diff) > 0 {
		return fmt.Errorf("--resume %s: the self-play file was started with other flags:\n  %s\n(leave them out: a resume takes them from the file)", f.Resume, strings.Join(diff, "\n  "))
	}
	f.Game, f.Agent, f.Seed, f.SelfPlay, f.Openings = file.Game, file.Agent, file.Seed, file.Games, file.Openings
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

func runTuneTexel(args []string, stdout, stderr io.Writer) error {
	f, err := parseTuneTexel(args, stderr)
	if err != nil {
		return err
	}
	o := f.TexelOptions
	log := linelog.New(stderr, "arena tune texel: ") // the library's lines
	ctx, stop, release := interrupts(stderr, "tune texel")
	defer release()
	o.Run.Stop, o.Run.Log = stop, log
	if f.broker.remote() {
		// The self-play games and the verification match are runs of one
		// broker kept open for the whole tune (as tune spsa's iterations).
		o.Connect = func(ctx context.Context, path string) (arena.Runner, func(), error) {
			return f.broker.hub(ctx, true, path, log)
		}
	}
	o.Log = log
	var bar *progress
	if !f.noProgress {
		o.Progress = log
	}
	o.OnGames = func(played, total int) {
		if bar == nil {
			bar = newProgress(stderr, "tune texel", total, f.noProgress)
		}
		bar.add(played - bar.done)
	}
	if f.format == "text" {
		o.OnFit = func(r *tune.TexelReport) { r.WriteText(stdout) }
	}
	rep, err := tune.RunTexel(ctx, o)
	if bar != nil {
		bar.finish()
	}
	var sp *tune.SelfPlayError
	switch {
	case errors.As(err, &sp) && sp.Path != "":
		return fmt.Errorf("self-play %w with %d of %d games recorded in %s: continue with %s", sp.Err, sp.Played, sp.Total, sp.Path, f.resumeHint(sp.Path))
	case errors.As(err, &sp):
		return fmt.Errorf("self-play %w after %d of %d games (with --out FILE they would be kept for --resume)", sp.Err, sp.Played, sp.Total)
	case err != nil:
		return err
	}
	if rep.Verify != nil && f.format == "text" {
		vr := rep.Verify
		fmt.Fprintf(stdout, "verification (%s against %s, %s): %s\n", vr.Tuned, vr.Start, vr.SPRT, vr)
	}
	if f.format == "json" {
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	}
	return texelInterrupted(rep)
}

// texelInterrupted is the error of a run stopped before its end, nil for
// one that ended: as every other command, an interrupted run prints what
// it has, and fails (exit 1), so that a script does not take it for a
// finished one.
func texelInterrupted(rep *tune.TexelReport) error {
	switch {
	case rep.Stopped:
		return fmt.Errorf("interrupted after %s of the fit: the weights above are the best found so far", plural(rep.Evaluations, "evaluation", "evaluations"))
	case rep.Verify != nil && !rep.Verify.Complete:
		return fmt.Errorf("interrupted after %s of the verification match, before its test decided", plural(rep.Verify.Games(), "game", "games"))
	}
	return nil
}
