package broker

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// A game whose record cannot be recorded (arena.UnrecordableError: its
// moves alone too long, a MaxPlies far beyond the game) makes each worker
// that takes it leave the run, saying so (Event.TooLong); the watchdog
// would queue it again for ever. The coordinator plays such a game itself
// and, if its record cannot be recorded here either, ends the run with
// that error, as a run without a broker does. The replay is the check: a
// worker's word alone must not end a run.

// tooLongClaim is a worker's report of an unrecordable game.
type tooLongClaim struct {
	worker string
	game   int
}

// tooLongCheck replays, one at a time, the games workers report, each at
// most once.
type tooLongCheck struct {
	claims  chan tooLongClaim // from the events' handler
	verdict chan error        // the replay's: nil if the record fits
	asked   map[int]bool      // games replayed, being replayed or waiting
	waiting []tooLongClaim
	current *tooLongClaim // being replayed
	ctx     context.Context
	stop    context.CancelFunc
	wg      sync.WaitGroup
}

func newTooLongCheck(ctx context.Context) *tooLongCheck {
	k := &tooLongCheck{claims: make(chan tooLongClaim, 64), verdict: make(chan error, 1), asked: map[int]bool{}}
	k.ctx, k.stop = context.WithCancel(ctx)
	return k
}

// claim passes a worker's report on; a flood beyond the channel is
// dropped (the next worker that takes the game reports it again).
func (k *tooLongCheck) claim(worker string, game int) {
	select {
	case k.claims <- tooLongClaim{worker, game}:
	default:
	}
}

// close stops a replay and waits for it.
func (k *tooLongCheck) close() {
	k.stop()
	k.wg.Wait()
}

// checkTooLong, called by collect, takes the reports, starts a replay
// and reads its verdict: the error that ends the run if a game cannot be
// recorded here either.
func (c *coordinator) checkTooLong() error {
	k := c.tooLong
	for more := true; more; {
		select {
		case cl := <-k.claims:
			pos, ok := c.t.FixturePos(cl.game)
			if ok && !c.recorded.Has(pos) && !k.asked[cl.game] {
				k.asked[cl.game] = true
				k.waiting = append(k.waiting, cl)
			}
		default:
			more = false
		}
	}
	if k.current != nil {
		select {
		case err := <-k.verdict:
			cl := *k.current
			k.current = nil
			var u *arena.UnrecordableError
			switch {
			case errors.As(err, &u):
				return fmt.Errorf("broker: worker %q left the run on game %d, and this coordinator's replay agrees: %w", workerName(cl.worker), cl.game, err)
			case err != nil:
				fmt.Fprintf(c.log, "worker %q said that game %d cannot be recorded; replaying it here failed: %v\n", workerName(cl.worker), cl.game, err)
			default:
				fmt.Fprintf(c.log, "worker %q said that game %d cannot be recorded, but its replay here can be (a worker's error, or a game that differs when played again): it stays in the run\n", workerName(cl.worker), cl.game)
			}
		default:
			return nil
		}
	}
	if len(k.waiting) > 0 {
		cl := k.waiting[0]
		k.waiting = k.waiting[1:]
		k.current = &cl
		fmt.Fprintf(c.log, "worker %q says that game %d cannot be recorded: playing it here to check\n", workerName(cl.worker), cl.game)
		cfg, limit := c.t.Config, resultLimit(c.nc)
		k.wg.Add(1)
		go func() {
			defer k.wg.Done()
			k.verdict <- replayFits(k.ctx, cfg, cl.game, limit)
		}()
	}
	return nil
}

// replayFits plays game index of the run cfg on a tournament of its own
// and returns its arena.UnrecordableError if its record does not fit
// limit bytes, nil if it does.
func replayFits(ctx context.Context, cfg results.Config, index, limit int) error {
	t, err := arena.New(arena.OptionsFrom(cfg))
	if err != nil {
		return err
	}
	q := make(chan int, 1)
	q <- index
	close(q)
	_, err = t.Run(ctx, arena.RunOptions{Concurrency: 1, Queue: q, Sink: func(b []*results.GameRecord) error {
		for _, g := range b {
			if err := g.Fit(limit); err != nil {
				return arena.Unrecordable(g.Index, cfg.MaxPlies, err)
			}
		}
		return nil
	}})
	return err
}
