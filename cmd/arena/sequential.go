package main

import (
	"context"
	"io"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/internal/linelog"
	"github.com/boardgame-arena/arena/results"
)

// sequentialRun is what match and race share around their run: the live
// --report page, the library's log lines under the command's prefix,
// Ctrl-C as an orderly stop, the broker, and run options whose sink feeds
// the page and whose status (a broker's refusals) ends each status line.
type sequentialRun struct {
	ctx   context.Context
	log   io.Writer
	live  *livePage
	note  *runNote
	opts  arena.RunOptions
	close func()
}

// startSequential prepares a match's or a race's run of s (command
// "match" or "race"); the page is rewritten every `every` games (0: the
// default, -1: only at the end). Its close must be called when the run is
// over.
func startSequential(s *arena.Session, rf *runFlags, command string, every int, stderr io.Writer) (*sequentialRun, error) {
	t := s.Tournament()
	// The page's ratings: the defaults of arena report, from the run's seed.
	live := newLivePage(*rf.report, s, rf.liveDone, results.AnalysisOptions{Bootstrap: 1000, Seed: t.Config.Seed}, every, stderr)
	log := linelog.New(stderr, "arena "+command+": ") // the library's lines
	ctx, stop, release := interrupts(stderr, command)
	runner, closeHub, err := s.Connect(ctx, stop, log, rf.broker.open(log))
	if err != nil {
		release()
		return nil, err
	}
	r := &sequentialRun{ctx: ctx, log: log, live: live, note: &runNote{}, close: func() { closeHub(); release() }}
	r.opts = arena.RunOptions{
		Stop: stop, Log: log, Runner: runner, Status: r.note.set,
		ReuseGames: true, // the session copies what it keeps
		Sink: func(batch []*results.GameRecord) error {
			live.update(batch)
			return nil
		},
	}
	return r, nil
}

// stopped reports whether the run was stopped (Ctrl-C).
func (r *sequentialRun) stopped() bool {
	select {
	case <-r.opts.Stop:
		return true
	default:
		return false
	}
}
