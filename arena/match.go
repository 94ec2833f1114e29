package arena

import (
	"context"
	"errors"
	"sync"

	"github.com/boardgame-arena/arena/results"
)

// RunMatch runs a match (a Tournament of kind results.Match) until its SPRT,
// if it has one, accepts a hypothesis, or the planned games run out. Pairs
// are counted in round order (see results.PairTracker); once the test has
// decided no new game starts, and games already running are finished and
// recorded but not counted. onPairs, if not nil, is called from the
// collector goroutine whenever complete pairs were added. Games in
// opts.Done (resume) are counted first; if they already decide the test,
// nothing is played.
func (t *Tournament) RunMatch(ctx context.Context, opts RunOptions, onPairs func(*results.PairTracker)) (*results.PairTracker, RunStats, error) {
	if t.Config.Kind != results.Match {
		return nil, RunStats{}, errors.New("arena: RunMatch needs a match")
	}
	tr := results.NewPairTracker(t.Config.SPRT, 0)
	if d := opts.Done; d != nil && d.pairs != nil {
		tr = d.pairs // counted as the record was read
	}
	if tr.Decision != results.Continue {
		n := opts.Done.Len()
		return tr, RunStats{Planned: t.Schedule.Len(), Skipped: n, Complete: n == t.Schedule.Len()}, nil
	}
	halt, release := stopEarly(&opts)
	defer release()
	sink := opts.Sink
	opts.Sink = func(batch []*results.GameRecord) error {
		if sink != nil {
			if err := sink(batch); err != nil {
				return err
			}
		}
		added := 0
		for _, g := range batch {
			added += tr.Add(keepable(g, opts.ReuseGames))
		}
		if added > 0 && onPairs != nil {
			onPairs(tr)
		}
		if tr.Decision != results.Continue {
			halt()
		}
		return nil
	}
	st, err := t.Run(ctx, opts)
	return tr, st, err
}

// stopEarly makes opts.Stop a channel that the returned halt closes, and
// that the caller's own Stop, if any, closes too; release ends the
// watch of the caller's Stop.
func stopEarly(opts *RunOptions) (halt, release func()) {
	stop := make(chan struct{})
	var once sync.Once
	halt = func() { once.Do(func() { close(stop) }) }
	release = func() {}
	if opts.Stop != nil {
		user := opts.Stop
		quit := make(chan struct{})
		release = func() { close(quit) }
		go func() {
			select {
			case <-user:
				halt()
			case <-quit:
			}
		}()
	}
	opts.Stop = stop
	return halt, release
}

// keepable is g, or with reuse (RunOptions.ReuseGames) a copy without
// its moves, for a tracker that keeps a game until its pair is complete.
func keepable(g *results.GameRecord, reuse bool) *results.GameRecord {
	if !reuse {
		return g
	}
	c := *g
	c.Moves, c.Opening = nil, nil
	return &c
}
