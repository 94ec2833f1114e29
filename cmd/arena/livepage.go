package main

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/report"
	"github.com/boardgame-arena/arena/results"
)

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
