package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgame-arena/arena/arena"
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

// livePage keeps the --report page of a running tournament: rewritten
// (atomically) every few games and at the end, so that a browser watching
// it (the page reloads itself while the run goes on) follows the run. It
// holds no game: the ratings are the session's counts, and the plots and
// viewer a report.Collector fed each batch as it is recorded.
type livePage struct {
	path        string
	s           *arena.Session
	c           *report.Collector
	opts        results.AnalysisOptions
	every, next int
	header      results.Header
	stderr      io.Writer
	failed      bool // a rewrite failed: said once, not repeated every batch
	// Interim pages are written in the background, one at a time, so that
	// the run's sink never waits for a page: a match's workers would play
	// on past the SPRT's decision meanwhile.
	writing atomic.Bool
	wg      sync.WaitGroup
}

// liveViewerGames is the number of games the live report's viewer holds:
// the first recorded. A variable for the tests.
var liveViewerGames = report.DefaultViewerGames

// liveRefresh is how often, in seconds, a live page reloads itself.
const liveRefresh = 15

// newLivePage returns nil without a path. every is --rating-interval:
// 0 (or -1) for every 5 % of the games. done, if not nil, has counted the
// games s recorded before (a resumed run) as the record was read, the
// viewer's with their moves (open: liveCounter).
func newLivePage(path string, s *arena.Session, done *report.Collector, o results.AnalysisOptions, every int, stderr io.Writer) *livePage {
	if path == "" {
		return nil
	}
	t := s.Tournament()
	total := t.Schedule.Len()
	if every <= 0 {
		every = max(total/20, 1)
	}
	c := done
	if c == nil {
		c = liveCollector(t)
	}
	// The record's header (its creation time, its first run's workers).
	l := &livePage{path: path, s: s, c: c, opts: o, every: every, next: s.Done().Len() + every, header: s.Header(), stderr: stderr}
	l.header.Config = t.Config
	return l
}

// liveCollector is the live page's empty Collector for a run of t, its
// viewer taking the first liveViewerGames games.
func liveCollector(t *arena.Tournament) *report.Collector {
	c, err := report.NewCollector(report.ViewerOptions{MaxGames: liveViewerGames}, false)
	if err != nil {
		panic(err) // liveViewerGames is positive
	}
	// What the collector reads of a header: the configuration.
	c.StartFile(0, &results.Header{Config: t.Config})
	return c
}

// liveCounter is an arena.SessionOptions.OnDone that counts a resumed
// record's games, as the session reads them, into *c (made on the first),
// for the live page (newLivePage): the record is read once and its games
// are not kept.
func liveCounter(c **report.Collector) func(*arena.Tournament, *results.GameRecord) {
	return func(t *arena.Tournament, g *results.GameRecord) {
		if *c == nil {
			*c = liveCollector(t)
		}
		(*c).Add(0, g)
	}
}

// update counts a batch of recorded games and rewrites the page when
// another interval of games has finished. It runs in the arena's Sink, so
// no two calls overlap.
func (l *livePage) update(batch []*results.GameRecord) {
	if l == nil {
		return
	}
	for _, g := range batch {
		l.c.Add(0, g)
	}
	n, total := l.count()
	if n < l.next || n >= total {
		return // the end is final's
	}
	for l.next <= n {
		l.next += l.every
	}
	if !l.writing.CompareAndSwap(false, true) {
		return // the page being written now is nearly as recent
	}
	o := l.opts
	o.Bootstrap = min(o.Bootstrap, 200) // as the interim standings: quick
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer l.writing.Store(false)
		err := l.write(o, func(n, total int) string {
			return fmt.Sprintf("Live: %d of %d games (written %s); this page reloads every %d s.", n, total, time.Now().UTC().Format("15:04:05 UTC"), liveRefresh)
		}, liveRefresh)
		if err != nil && !l.failed {
			l.failed = true
			fmt.Fprintf(l.stderr, "\narena %s: warning: --report: %v (the run goes on)\n", l.command(), err)
		}
	}()
}

// final writes the page of everything recorded, once the run has ended.
func (l *livePage) final(complete bool) error {
	if l == nil {
		return nil
	}
	l.wg.Wait() // an interim page must not replace the final one
	if n, _ := l.count(); n == 0 {
		return nil
	}
	status := func(n, total int) string {
		if complete {
			return ""
		}
		return fmt.Sprintf("Interrupted after %d of %d games.", n, total)
	}
	if err := l.write(l.opts, status, 0); err != nil {
		return fmt.Errorf("--report: %w", err)
	}
	fmt.Fprintf(l.stderr, "arena %s: report in %s\n", l.command(), l.path)
	return nil
}

// command is the arena command whose run the page follows, which its
// notes on stderr name as every line of that command does.
func (l *livePage) command() string {
	if l.s.Tournament().Config.Kind == results.Match {
		return "match"
	}
	if l.s.Tournament().IsRace() {
		return "race"
	}
	return "tournament"
}

func (l *livePage) count() (n, total int) {
	return l.s.Recorded(), l.s.Tournament().Schedule.Len()
}

// write writes the page of the games recorded so far; status gives the
// page's status line from their number and the run's planned games.
func (l *livePage) write(o results.AnalysisOptions, status func(n, total int) string, refresh int) error {
	t := l.s.Tournament()
	path := l.s.Path()
	if path == "" {
		path = "(records not saved)"
	}
	rep, err := l.s.Analyse(o)
	if err != nil {
		return err
	}
	src := report.Source{Game: t.Config.Game, Files: []report.FileHead{{Path: path, Header: l.header}}, Analysis: rep, Games: l.c}
	_, _, err = writeReportSource(l.path, src, report.Options{Rating: o, Status: status(rep.Games, t.Schedule.Len()), Refresh: refresh})
	return err
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
