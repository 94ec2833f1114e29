package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
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
	fs := newFlagSet("tune texel", "--game G (--records FILE… | --self-play N [--out F | --resume F]) [--agent SPEC] [--skip-plies K] [--positions MAX] [--evaluations N] [--k K] [--seed S] [--verify=false] [--verify-sprt elo0=0,elo1=5] [--format text|json] [--broker embedded|nats://HOST:PORT …]", stderr)
	f := &texelFlags{}
	o := &f.TexelOptions
	var records listFlag
	fs.StringVar(&o.Game, "game", "othello6", "game spec; its evaluation must have weights ("+strings.Join(tune.WeightedGames(), ", ")+")")
	fs.Var(&records, "records", "record files (JSON Lines, as tournament and match write them), one per argument: their positions are the training data")
	fs.IntVar(&o.SelfPlay, "self-play", 0, fmt.Sprintf("play this many games (even, 2 to %d) of --agent against itself for the training data, instead of --records", maxGames))
	fs.StringVar(&o.Agent, "agent", "alphabeta:depth=4", "agent spec: plays the self-play games, its eval.NAME keys are the start weights (else the game's defaults), the tuned spec is it with the tuned eval.NAME keys, and the verification match plays the two")
	fs.alias("agents", "agent")
	fs.IntVar(&o.SkipPlies, "skip-plies", -1, fmt.Sprintf("plies of every game not sampled, from its start, 0 to %d (-1: the game's opening plies, 2 for most games)", tune.MaxSkipPlies))
	fs.IntVar(&o.Positions, "positions", tune.DefaultPositions, fmt.Sprintf("most positions kept, a uniform sample of the eligible ones, 1 to %d (each is a game state in memory: about 2.5 KB for othello6)", tune.MaxPositions))
	fs.IntVar(&o.Evaluations, "evaluations", tune.DefaultEvaluations, fmt.Sprintf("most error evaluations of the Nelder–Mead fit, 1 to %d (each evaluates every position once)", tune.MaxEvaluations))
	fs.Float64Var(&o.K, "k", 0, fmt.Sprintf("the logistic scale K, %g to %g (0: fit it with the start weights)", tune.MinK, tune.MaxK))
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of every random choice: self-play games, the positions sampled, the held-out games, the verification match")
	fs.StringVar(&o.Openings, "openings", tune.DefaultTexelOpenings, "openings of the self-play games and the verification match: random:K, none, or a FILE (as for tournament)")
	fs.IntVar(&o.Run.Concurrency, "concurrency", min(runtime.NumCPU(), maxConcurrency), "games played at once, 1 to 256 (with --broker: by the coordinator's own workers; 0: none, the remote workers play every game)")
	fs.StringVar(&o.Out, "out", "", "with --self-play: write the self-play games to this record file (it must not exist yet); an interrupted run continues with --resume")
	fs.StringVar(&o.Resume, "resume", "", "with --self-play: continue this self-play record file, then fit")
	fs.BoolVar(&o.Verify, "verify", true, "play an SPRT match of the tuned spec against --agent (--verify=false: none)")
	sprtText := fs.String("verify-sprt", "elo0=0,elo1=5", "the verification match's test elo0=E0,elo1=E1[,alpha=A][,beta=B]")
	fs.IntVar(&o.VerifyGames, "verify-games", tune.DefaultVerifyGames, fmt.Sprintf("most games of the verification match (even, 2 to %d)", maxGames))
	fs.StringVar(&o.VerifyOut, "verify-out", "", "write the verification match's games to this record file (it must not exist yet)")
	fs.StringVar(&f.format, "format", "text", "output format: text or json")
	fs.BoolVar(&f.noProgress, "no-progress", false, "no progress on stderr")
	f.broker = addBrokerFlags(fs)
	fs.Lookup("broker").Usage += "; the self-play games and the verification match go through it (workers that should serve both run with --wait)"
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
	ctx, stop, release := interrupts(stderr)
	defer release()
	o.Run.Stop, o.Run.Log = stop, stderr
	if f.broker.remote() {
		// The self-play games and the verification match are runs of one
		// broker kept open for the whole tune (as tune spsa's iterations).
		o.Connect = func(ctx context.Context, path string) (arena.Runner, func(), error) {
			return f.broker.hub(ctx, true, path, stderr)
		}
	}
	o.Log = stderr
	var bar *progress
	if !f.noProgress {
		o.Progress = stderr
	}
	o.OnGames = func(played, total int) {
		if bar == nil {
			bar = newProgress(stderr, total, f.noProgress)
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
