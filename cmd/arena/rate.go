package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/boardgame-arena/arena/results"
)

func init() {
	register(command{"rate", groupRate, "ratings, crosstable and exports from record files", runRate})
}

// ratingFlags are the rating options shared by tournament, match and rate.
type ratingFlags struct {
	bootstrap int
	seed      *uint64
	draws     string
	firstMove bool
	anchor    string
	prior     float64
}

// addRatingFlags defines the rating flags on fs, in the group Ratings.
func addRatingFlags(fs *flagSet, seed *uint64) *ratingFlags {
	r := &ratingFlags{seed: seed}
	fs.IntVar(&r.bootstrap, "bootstrap", 1000, fmt.Sprintf("`N` resamples for the 95 %% intervals and LOS, 0 (none) to %d", results.MaxBootstrap))
	fs.StringVar(&r.draws, "draws", "half", "draw `MODEL`: half (a draw is half a win) or davidson")
	fs.BoolVar(&r.firstMove, "first-move", false, "fit a first-move advantage")
	fs.StringVar(&r.anchor, "anchor", "", "`NAME=R` fixes player NAME at rating R (default: each group averages 0)")
	fs.Float64Var(&r.prior, "prior", 0, fmt.Sprintf("`X` virtual draws between every two players who met, 0 to %d", results.MaxPrior))
	fs.group("Ratings", "bootstrap draws first-move anchor prior")
	return r
}

// checkAnchor reports an --anchor NAME that is not one of the players.
func checkAnchor(anchor string, names []string) error { return results.CheckAnchor(anchor, names) }

// options are the results.AnalysisOptions of the flags, checked.
func (r *ratingFlags) options() (results.AnalysisOptions, error) {
	o := results.AnalysisOptions{Bootstrap: r.bootstrap, Seed: *r.seed, FirstMove: r.firstMove, Prior: r.prior}
	var err error
	if o.Draws, err = results.ParseDraws(r.draws); err != nil {
		return o, err
	}
	if err := o.Check(); err != nil {
		return o, err
	}
	if r.anchor != "" {
		o.Anchor, o.AnchorElo, err = results.ParseAnchor(r.anchor) // in Check's bounds
	}
	return o, err
}

func runRate(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rate", "FILE… [--format FORMAT] [--export pgn|csv [--out FILE]] [flags]", stderr)
	format := fs.String("format", "text", "output `FORMAT`: text, json, csv or markdown")
	export := fs.String("export", "", "write the games as `FORMAT`, not the tables: pgn (for Ordo, BayesElo) or csv")
	out := fs.String("out", "", "write the --export to `FILE` (the tables then go to stdout)")
	seed := fs.Uint64("seed", 0, "seed of the bootstrap (default: the first file's, to reprint its table)")
	rf := addRatingFlags(fs, seed)
	fs.group("Ratings", "seed")
	meta := addMetaGameFlags(fs, "add Nash averaging, α-Rank and cycles (at most 200 players)")
	fs.group("Output", "format export out")
	files, err := parseFilesAndFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return errors.New("give one or more record files, e.g. arena rate run.jsonl")
	}
	if err := checkFormat(*format, results.Formats...); err != nil {
		return err
	}
	if *export != "" && *export != "pgn" && *export != "csv" {
		return fmt.Errorf("unknown --export %q (valid: pgn, csv)", *export)
	}
	if *out != "" && *export == "" {
		return errors.New("--out goes with --export")
	}
	if err := checkOutputPath("--out", *out, files...); err != nil {
		return err
	}
	options := func() (results.AnalysisOptions, error) {
		o, err := rf.options()
		if err != nil {
			return o, err
		}
		if o.MetaGame = meta.options(0, 0); o.MetaGame == nil {
			return o, nil
		}
		return o, o.Check()
	}
	if _, err := options(); err != nil {
		return err // bad flags: say so before reading any file
	}
	if *export == "" {
		// The tables need counts only: read streaming, in memory that
		// does not grow with the games.
		t, err := tallyFiles("rate", files, fs, seed, stderr)
		if err != nil {
			return err
		}
		opts, err := options()
		if err != nil {
			return err
		}
		rep, err := t.Analyse(opts)
		if err != nil {
			return err
		}
		return rep.Write(stdout, *format)
	}
	d, err := readAndMerge("rate", files, fs, seed, stderr)
	if err != nil {
		return err
	}
	opts, err := options()
	if err != nil {
		return err
	}
	// --export: the games themselves, read whole.
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if *export == "pgn" {
		err = results.ExportPGN(w, d)
	} else {
		err = results.ExportCSV(w, d)
	}
	if err != nil || *out == "" {
		return err
	}
	rep, err := results.Analyse(d, opts)
	if err != nil {
		return err
	}
	return rep.Write(stdout, *format)
}

// readAndMerge reads and merges the record files of rate and report
// (saying so on stderr when a file's last line is torn), and sets *seed,
// the bootstrap's, to the first file's tournament seed unless --seed was
// given: then rate and report print the intervals the tournament printed.
func readAndMerge(cmd string, files []string, fs *flagSet, seed *uint64, stderr io.Writer) (*results.Dataset, error) {
	return readAndMergeLean(cmd, files, fs, seed, stderr, -1)
}

// readAndMergeLean is readAndMerge keeping the moves of only the first
// whole games of each file (results.ReadFileLean; negative: all).
func readAndMergeLean(cmd string, files []string, fs *flagSet, seed *uint64, stderr io.Writer, whole int) (*results.Dataset, error) {
	var read []*results.File
	for _, name := range files {
		f, err := results.ReadFileLean(name, whole)
		if err != nil {
			return nil, err
		}
		if f.Torn {
			fmt.Fprintf(stderr, "arena %s: %s: ignoring a torn last line (the run was killed while writing it)\n", cmd, name)
		}
		read = append(read, f)
	}
	d, err := results.Merge(read...)
	if err != nil {
		return nil, err
	}
	for _, note := range d.MergeNotes() {
		fmt.Fprintf(stderr, "arena %s: note: %s\n", cmd, note)
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet {
		*seed = read[0].Header.Config.Seed
	}
	return d, nil
}

// tallyFiles is readAndMerge for the tables alone: the files are counted
// as they are read (results.Tally), with the same checks, messages and
// seed.
func tallyFiles(cmd string, files []string, fs *flagSet, seed *uint64, stderr io.Writer) (*results.Tally, error) {
	return tallyInto(results.NewTally(), cmd, files, fs, seed, stderr)
}

// tallyInto is tallyFiles into t (with its OnGame, say).
func tallyInto(t *results.Tally, cmd string, files []string, fs *flagSet, seed *uint64, stderr io.Writer) (*results.Tally, error) {
	for _, name := range files {
		f, err := t.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if f.Torn {
			fmt.Fprintf(stderr, "arena %s: %s: ignoring a torn last line (the run was killed while writing it)\n", cmd, name)
		}
	}
	if err := t.Err(); err != nil {
		return nil, err
	}
	for _, note := range t.MergeNotes() {
		fmt.Fprintf(stderr, "arena %s: note: %s\n", cmd, note)
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet {
		*seed = t.Files[0].Header.Config.Seed
	}
	return t, nil
}
