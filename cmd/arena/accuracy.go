package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/boardgame-arena/arena/search/accuracy"
)

func init() {
	register(command{"accuracy", groupRate, "every move of record files scored against perfect play", runAccuracy})
}

func runAccuracy(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("accuracy", "FILE… [--budget D] [--cache FILE] [flags]", stderr)
	budget := fs.Duration("budget", 0, "`D` of wall time per position at most (0: 1s, with --nodes 10m)")
	nodes := fs.Int64("nodes", 0, "`N` nodes solving one position at most (0: no limit; speed-independent)")
	cache := fs.String("cache", "", "keep the positions' values in `FILE` (read, then appended; resumes)")
	conc := fs.Int("concurrency", runtime.NumCPU(), "`N` positions solved at once, one thread each")
	width := fs.Int("phase-width", accuracy.DefaultPhaseWidth, "`N` empty cells (or plies) per phase of the table")
	boot := fs.Int("bootstrap", accuracy.DefaultBootstrap, fmt.Sprintf("`N` resamples of the games for the 95 %% intervals, 0 to %d", accuracy.MaxBootstrap))
	seed := fs.Uint64("seed", 0, "seed of the bootstrap (default: the first file's)")
	all := fs.Bool("all-moves", false, "value every legal move too (for arena report --accuracy's viewer)")
	tt := fs.Int("tt", 0, "`MB` of transposition table per solve (0: the solver's choice)")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	quiet := fs.Bool("no-progress", false, "no progress bar on stderr")
	fs.group("Core", "budget nodes cache all-moves concurrency tt")
	fs.group("Output", "phase-width bootstrap seed format no-progress")
	files, err := parseFilesAndFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return errors.New("give one or more record files of one game, e.g. arena accuracy run.jsonl")
	}
	if err := checkFormat(*format, "text", "json"); err != nil {
		return err
	}
	if err := durationIn("budget", *budget, time.Millisecond, time.Hour, true, " (0: the default)"); err != nil {
		return err
	}
	bootstrap := *boot
	if bootstrap == 0 {
		bootstrap = -1 // none; the library's 0 is its default
	}
	o := accuracy.Options{Budget: *budget, Nodes: *nodes, Concurrency: *conc, PhaseWidth: *width,
		Bootstrap: bootstrap, TableMB: *tt, AllMoves: *all}
	if *width == 0 {
		return errors.New("--phase-width must be at least 1")
	}
	d, err := readAndMerge("accuracy", files, fs, seed, stderr)
	if err != nil {
		return err
	}
	o.Seed = *seed
	if *cache != "" {
		c, err := accuracy.OpenCache(*cache, d.Game)
		if err != nil {
			return err
		}
		if c.Torn {
			fmt.Fprintf(stderr, "arena accuracy: %s: dropped a torn last record (an interrupted run)\n", *cache)
		}
		defer c.Close()
		o.Cache = c
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p := newProgress(stderr, "accuracy", len(d.Games), *quiet)
	last := 0
	o.Progress = func(done, total int) {
		p.add(done - last)
		last = done
	}
	start := time.Now()
	rep, err := accuracy.Analyse(ctx, d, o)
	p.finish()
	if err != nil {
		if ctx.Err() != nil && o.Cache != nil {
			cerr := o.Cache.Close()
			return fmt.Errorf("interrupted after %d of %d games; %s keeps %d positions: run again with it to resume (%v)",
				last, len(d.Games), *cache, o.Cache.Len(), firstNonNil(cerr, ctx.Err()))
		}
		return err
	}
	if o.Cache != nil {
		if err := o.Cache.Close(); err != nil {
			return err
		}
	}
	if !*quiet {
		fmt.Fprintf(stderr, "arena accuracy: %d games in %.1f s\n", len(d.Games), time.Since(start).Seconds())
	}
	if *format == "json" {
		return json.NewEncoder(stdout).Encode(rep)
	}
	return rep.WriteText(stdout)
}

func firstNonNil(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
