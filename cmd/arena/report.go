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
	fs.group("Output", "out png title viewer-games")
	fs.group("Ratings", "seed")
	rf := addRatingFlags(fs, seed)
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
	// Only the viewer's games need their moves (0: all of them, -1: none).
	whole := *viewerGames
	switch whole {
	case 0:
		whole = -1
	case -1:
		whole = 0
	}
	d, err := readAndMergeLean("report", files, fs, seed, stderr, whole)
	if err != nil {
		return err
	}
	opts, err := rf.options()
	if err != nil {
		return err
	}
	if err := checkAnchor(opts.Anchor, d.Players); err != nil {
		return err
	}
	if *png != "" {
		if err := os.MkdirAll(*png, 0o755); err != nil {
			return fmt.Errorf("--png: %w", err)
		}
	}
	viewer := report.ViewerOptions{MaxGames: *viewerGames}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "viewer-games" {
			viewer.MaxBytes = -1 // a number given is held to, whatever the games weigh
		}
	})
	ro := report.Options{Rating: opts, PNGDir: *png, Title: *title, Viewer: viewer, NoViewer: *viewerGames < 0}
	wr, size, err := writeReportFile(*out, d, ro)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%s, %s, %s)\n", *out, byteSize(size), plural(len(d.Games), "game", "games"), plural(len(wr.Plots), "plot", "plots"))
	if len(wr.PNGs) > 0 {
		fmt.Fprintf(stdout, "wrote %s in %s\n", plural(len(wr.PNGs), "PNG file", "PNG files"), *png)
	}
	return nil
}

// writeReportFile writes the page at path (report.WriteFile: atomically),
// with the arena command line that plays each record's games again.
func writeReportFile(path string, d *results.Dataset, o report.Options) (report.Written, int64, error) {
	if o.Command == nil {
		o.Command, o.CommandNote = rerunCommand, "add <code>--out FILE</code> to keep them"
	}
	return report.WriteFile(path, d, o)
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
// it (the page reloads itself while the run goes on) follows the run.
type livePage struct {
	path        string
	s           *arena.Session
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
// the first recorded, the only ones whose moves the run keeps in memory.
// A variable for the tests.
var liveViewerGames = report.DefaultViewerGames

// liveRefresh is how often, in seconds, a live page reloads itself.
const liveRefresh = 15

// newLivePage returns nil without a path. every is --rating-interval:
// 0 (or -1) for every 5 % of the games. s keeps the games' moves for the
// viewer (open asks it to, for --report).
func newLivePage(path string, s *arena.Session, o results.AnalysisOptions, every int, stderr io.Writer) *livePage {
	if path == "" {
		return nil
	}
	t := s.Tournament()
	total := t.Schedule.Len()
	if every <= 0 {
		every = max(total/20, 1)
	}
	// The record's header (its creation time, its first run's workers).
	return &livePage{path: path, s: s, opts: o, every: every, next: len(s.Done()) + every, header: s.Header(), stderr: stderr}
}

// update rewrites the page when another interval of games has finished.
// It runs in the arena's Sink, so no two calls overlap.
func (l *livePage) update() {
	if l == nil {
		return
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
	return "tournament"
}

func (l *livePage) count() (n, total int) {
	return l.s.Recorded(), l.s.Tournament().Schedule.Len()
}

// write writes the page of the games recorded so far; status gives the
// page's status line from their number and the run's planned games.
func (l *livePage) write(o results.AnalysisOptions, status func(n, total int) string, refresh int) error {
	t := l.s.Tournament()
	f := &results.File{Path: l.s.Path(), Header: l.header}
	f.Header.Config = t.Config
	if f.Path == "" {
		f.Path = "(records not saved)"
	}
	games := l.s.Games()
	f.Games = make([]results.GameRecord, len(games))
	for i, g := range games {
		f.Games[i] = *g
	}
	d, err := results.Merge(f)
	if err != nil {
		return err
	}
	_, _, err = writeReportFile(l.path, d, report.Options{Rating: o, Status: status(len(f.Games), t.Schedule.Len()), Refresh: refresh,
		Viewer: report.ViewerOptions{MaxGames: liveViewerGames}})
	return err
}
