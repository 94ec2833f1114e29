package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/boardgame-arena/arena/report"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/search/accuracy"
)

func init() {
	register(command{"report", groupRate, "one HTML page of standings, plots, matches and a game viewer", runReport})
}

// maxViewerGames bounds --viewer-games: each game costs a few kilobytes.
const maxViewerGames = 1_000_000

func runReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report", "FILE… --out PAGE [--png DIR] [--viewer-games N] [flags]", stderr)
	out := fs.String("out", "", "the HTML `PAGE` to write (required)")
	png := fs.String("png", "", "also write every plot as `DIR`/NAME.png (DIR is made if missing)")
	title := fs.String("title", "", "the page's `TITLE` (default: the game and the number of games)")
	viewerGames := fs.Int("viewer-games", report.DefaultViewerGames, fmt.Sprintf("the first `N` games in the viewer, 0 (all) to %d, -1: none; if unset, ≤ %d MB", maxViewerGames, report.DefaultViewerBytes/1_000_000))
	seed := fs.Uint64("seed", 0, "bootstrap `SEED` (default: the first file's tournament seed, as arena rate)")
	acc := fs.String("accuracy", "", "score the moves against perfect play, values cached in `FILE` (see accuracy)")
	accBudget := fs.Duration("accuracy-budget", 0, "`D` per position not in the --accuracy cache (0: 1s, with nodes 10m)")
	accNodes := fs.Int64("accuracy-nodes", 0, "`N` nodes per position not in the --accuracy cache (0: no limit)")
	fs.group("Output", "out png title viewer-games")
	fs.group("Ratings", "seed")
	rf := addRatingFlags(fs, seed)
	meta := addMetaGameFlags(fs, fmt.Sprintf("Nash averaging, α-Rank and cycles (default: on for 3 to %d players)", autoMetaGamePlayers))
	fs.group("Against perfect play", "accuracy accuracy-budget accuracy-nodes")
	files, err := parseFilesAndFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return errors.New("give one or more record files, e.g. arena report run.jsonl --out report.html")
	}
	if *out == "" {
		return errors.New("give the page to write with --out, e.g. --out report.html")
	}
	if err := checkOutputPath("--out", *out, files...); err != nil {
		return err
	}
	if *viewerGames < -1 || *viewerGames > maxViewerGames {
		return fmt.Errorf("--viewer-games %d: want -1 (no viewer), 0 (all games) or up to %d games", *viewerGames, maxViewerGames)
	}
	if _, err := rf.options(); err != nil {
		return err
	}
	if err := meta.check(); err != nil {
		return err // bad flags: say so before reading any file
	}
	viewer := report.ViewerOptions{MaxGames: max(*viewerGames, 0)}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "viewer-games" {
			viewer.MaxBytes = -1 // a number given is held to, whatever the games weigh
		}
	})
	// One pass over the files: the ratings' counts (results.Tally) and the
	// page's (report.Collector); no game is held but the viewer's.
	c, err := report.NewCollector(viewer, *viewerGames < 0)
	if err != nil {
		return err
	}
	if *acc != "" {
		cache, accSeed, err := openReportCache(*acc, files[0], fs, *seed)
		if err != nil {
			return err
		}
		defer cache.Close()
		c.ScoreAccuracy(accuracy.Options{Budget: *accBudget, Nodes: *accNodes, Cache: cache, Bootstrap: accuracy.DefaultBootstrap, Seed: accSeed})
	}
	t := results.NewTally()
	c.Follow(t)
	if _, err := tallyInto(t, "report", files, fs, seed, stderr); err != nil {
		return err
	}
	opts, err := rf.options()
	if err != nil {
		return err
	}
	names := make([]string, len(t.Summary.Players))
	for i, p := range t.Summary.Players {
		names[i] = p.Name
	}
	if err := checkAnchor(opts.Anchor, names); err != nil {
		return err
	}
	if *png != "" {
		if err := os.MkdirAll(*png, 0o755); err != nil {
			return fmt.Errorf("--png: %w", err)
		}
	}
	opts.MetaGame = meta.options(len(names), autoMetaGamePlayers) // checked above
	var rep *results.Analysis
	if c.Games() > 0 {
		rep, err = analyseTally(t, opts)
		if err != nil && opts.MetaGame != nil && !meta.given() {
			// The meta-game was not asked for: the page goes on without it.
			fmt.Fprintf(stderr, "arena report: warning: no meta-game: %v\n", err)
			opts.MetaGame = nil
			rep, err = analyseTally(t, opts)
		}
		if err != nil {
			return err
		}
	}
	src := report.TallySource(t, rep, c)
	ro := report.Options{Rating: opts, PNGDir: *png, Title: *title, NoViewer: *viewerGames < 0}
	wr, size, err := writeReportSource(*out, src, ro)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%s, %s, %s)\n", *out, byteSize(size), plural(c.Games(), "game", "games"), plural(len(wr.Plots), "plot", "plots"))
	if len(wr.PNGs) > 0 {
		fmt.Fprintf(stdout, "wrote %s in %s\n", plural(len(wr.PNGs), "PNG file", "PNG files"), *png)
	}
	return nil
}

// analyseTally is report's rating of its counts; a variable so that a
// test can make the meta-game fail.
var analyseTally = (*results.Tally).Analyse

// writeReportSource writes the page of src at path
// (report.WriteSourceFile: atomically), with the arena command line that
// plays each record's games again.
func writeReportSource(path string, src report.Source, o report.Options) (report.Written, int64, error) {
	if o.Command == nil {
		o.Command, o.CommandNote = rerunCommand, "add <code>--out FILE</code> to keep them"
	}
	return report.WriteSourceFile(path, src, o)
}

// byteSize formats a file size.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/(1<<10))
	}
	return strings.TrimSpace(fmt.Sprintf("%d bytes", n))
}

// openReportCache opens the --accuracy cache file for the game of the
// first record file (made if it does not exist yet), and returns the
// seed of the bootstrap: seed if --seed was given, else that file's, as
// arena accuracy takes it.
func openReportCache(path, firstRecord string, fs *flagSet, seed uint64) (*accuracy.Cache, uint64, error) {
	f, err := results.ReadFileLean(firstRecord, 0)
	if err != nil {
		return nil, 0, err
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet {
		seed = f.Header.Config.Seed
	}
	c, err := accuracy.OpenCache(path, f.Header.Config.Game)
	if err != nil {
		return nil, 0, fmt.Errorf("--accuracy: %w", err)
	}
	return c, seed, nil
}
