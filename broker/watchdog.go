package broker

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// Nothing lost, nothing hung: the coordinator queues with back-pressure,
// re-queues the game of a rejected result, finds the games that are
// neither recorded, queued nor leased (a worker that acknowledged a batch
// without playing it, a purged queue), and keeps the run's state its own.

// publishWindow bounds the batches whose acknowledgement the coordinator
// awaits at once (far below the client's limit of outstanding
// asynchronous publications, which is fatal when reached).
var publishWindow = 256

// publishRetry is the pause before a batch whose publication failed is
// published again.
const publishRetry = 250 * time.Millisecond

// nonce is a random name part that no other client can guess: result
// message ids carry one, so that a forger cannot take the id of a genuine
// result before it is published. (Not a choice of the games: they keep
// their seeds.)
func nonce() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// queue publishes batches on the run's work queue, at most publishWindow
// awaiting their acknowledgement, each published again until the server
// stores it (a server paused or busy slows the queueing down, it does not
// end the run). A batch has no message id: one whose acknowledgement was
// lost and that was stored twice is played twice and recorded once, which
// costs less than the server's de-duplication store (an id for every batch
// of the window, tens of MB at thousands of games a second; see
// workDuplicates). Only ctx ending or the connection closing stop it.
func (c *coordinator) queue(ctx context.Context, batches [][]int) error {
	subject := workSubject(c.id)
	for len(batches) > 0 {
		n := min(len(batches), publishWindow)
		type sent struct {
			f     jetstream.PubAckFuture
			data  []byte
			games []int
		}
		window := make([]sent, n)
		for i, games := range batches[:n] {
			data, _ := json.Marshal(Batch{Run: c.id, Games: games})
			f, err := c.js.PublishAsync(subject, data)
			if err != nil {
				f = nil // published again below
			}
			window[i] = sent{f, data, games}
		}
		said := false
		for _, s := range window {
			var seq uint64
			if s.f != nil {
				select {
				case ack := <-s.f.Ok():
					if ack != nil {
						seq = ack.Sequence
					}
				case <-s.f.Err():
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			for seq == 0 {
				actx, cancel := context.WithTimeout(ctx, apiAttempt)
				ack, err := c.js.Publish(actx, subject, s.data)
				cancel()
				if err == nil {
					seq = ack.Sequence
					break
				}
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if c.js.Conn().IsClosed() {
					return fmt.Errorf("broker: queueing the games: %v", err)
				}
				if !said {
					said = true
					fmt.Fprintf(c.log, "queueing the games: %v; trying again\n", err)
				}
				time.Sleep(publishRetry)
			}
			c.queued[seq] = s.games
		}
		batches = batches[n:]
	}
	return nil
}

// lookEvery is the period of the watchdog: a lease, so that a batch
// acknowledged without its results is found within about two leases.
func (c *coordinator) lookEvery() time.Duration {
	return max(c.o.AckWait, 200*time.Millisecond)
}

// watch is the watchdog's look: every game neither recorded nor in a batch
// still on the work stream (queued, or leased to a worker) at this look
// and at the one before is queued again, and the log names it. (Two looks:
// a batch is acknowledged once its results are stored, which this
// coordinator may not have read yet.) A run with games left whose queue
// no worker takes from is said, once until a result comes.
func (c *coordinator) watch(ctx context.Context) {
	clear(c.requeued)
	ws, err := c.js.Stream(ctx, WorkStream)
	if err != nil {
		return // the server is away: look again later
	}
	gone, ok := c.goneBatches(ctx, ws)
	if !ok {
		return
	}
	inQueue := arena.NewGameSet(c.t.Config.TotalGames)
	for seq, games := range c.queued {
		if gone(seq) {
			delete(c.queued, seq) // acknowledged, purged or removed
			continue
		}
		for _, g := range games {
			inQueue.Add(g)
		}
	}
	var again []int
	missing := map[int]bool{}
	for c.floor < c.cursor && (c.recorded.Has(c.floor) || c.isDropped(c.floor)) {
		c.floor++
	}
	// Only the games queued so far (below the cursor) can be lost; a
	// dropped game is not to be played.
	for pos := c.floor; pos < c.cursor; pos++ {
		if c.recorded.Has(pos) || c.isDropped(pos) {
			continue
		}
		g := c.t.Schedule.At(pos).Index
		if inQueue.Has(g) {
			continue
		}
		if c.missing[pos] {
			again = append(again, g)
		} else {
			missing[pos] = true
		}
	}
	c.missing = missing
	if len(again) > 0 {
		fmt.Fprintf(c.log, "games %s were neither recorded, queued nor leased (a batch acknowledged without its results, or the queue purged): queued again\n", gameList(again))
		c.requeue(ctx, again)
	}
	if c.left > 0 && len(again) == 0 && !c.idle {
		if ci, err := c.js.Consumer(ctx, WorkStream, workConsumer(c.id)); err == nil {
			if cinfo, err := ci.Info(ctx); err == nil && cinfo.NumAckPending == 0 && cinfo.NumPending > 0 {
				c.idle = true
				fmt.Fprintf(c.log, "%d games left and no worker is playing: start a worker (workers leave when the run's state says it is over)\n", c.left)
			}
		}
	}
}

// goneBatches returns whether a batch this coordinator queued (by its
// sequence) is no longer on the work stream, or false if the server does
// not answer. The stream's deleted sequences between its first and last
// are listed only when they are fewer than the batches to look up: they
// can be any number (a batch leased for long keeps the first sequence
// while the run goes on, and every batch acknowledged after it is a
// deleted one), whereas the batches queued are within the window.
func (c *coordinator) goneBatches(ctx context.Context, ws jetstream.Stream) (func(seq uint64) bool, bool) {
	info, err := ws.Info(ctx)
	if err != nil {
		return nil, false
	}
	first, last := info.State.FirstSeq, info.State.LastSeq
	inside := 0
	for seq := range c.queued {
		if seq >= first && seq <= last {
			inside++
		}
	}
	if info.State.NumDeleted <= inside {
		if info, err = ws.Info(ctx, jetstream.WithDeletedDetails(true)); err != nil {
			return nil, false
		}
		deleted := make(map[uint64]bool, len(info.State.Deleted))
		for _, s := range info.State.Deleted {
			deleted[s] = true
		}
		first, last := info.State.FirstSeq, info.State.LastSeq
		return func(seq uint64) bool { return seq < first || seq > last || deleted[seq] }, true
	}
	gone := map[uint64]bool{}
	for seq := range c.queued {
		if seq < first || seq > last {
			continue
		}
		if _, err := ws.GetMsg(ctx, seq); errors.Is(err, jetstream.ErrMsgNotFound) {
			gone[seq] = true
		} else if err != nil {
			return nil, false
		}
	}
	return func(seq uint64) bool { return seq < first || seq > last || gone[seq] }, true
}

// requeue queues games again in batches of Options.BatchGames; an error
// (ctx ending, the connection closed) is left to the next look.
func (c *coordinator) requeue(ctx context.Context, games []int) {
	var batches [][]int
	for len(games) > 0 {
		n := min(len(games), c.o.BatchGames)
		batches, games = append(batches, games[:n:n]), games[n:]
	}
	if err := c.queue(ctx, batches); err != nil && ctx.Err() == nil {
		fmt.Fprintf(c.log, "queueing games again: %v\n", err)
	}
}

// requeueRejected queues again at once the game of a rejected result (a
// forgery, or an honest worker's result whose check failed), if it is in
// the schedule, not recorded and not queued again since the last look.
func (c *coordinator) requeueRejected(ctx context.Context, index int) {
	pos, ok := c.t.FixturePos(index)
	if !ok || c.recorded.Has(pos) || c.isDropped(pos) || c.requeued[pos] {
		return
	}
	c.requeued[pos] = true
	fmt.Fprintf(c.log, "game %d is queued again\n", index)
	c.requeue(ctx, []int{index})
}

// gameList is "3 4 7" for the log, cut after 50 games.
func gameList(games []int) string {
	var b strings.Builder
	for i, g := range games {
		if i == 50 {
			fmt.Fprintf(&b, " … (%d in all)", len(games))
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, g)
	}
	return b.String()
}

// outcomeOf fingerprints what a replay of a game must repeat: its moves
// and how it ended.
func outcomeOf(g *results.GameRecord) uint64 {
	h := fnv.New64a()
	for _, m := range g.Moves {
		h.Write([]byte(m))
		h.Write([]byte{0})
	}
	fmt.Fprintf(h, "%s|%d|%d|%s|%d", g.Result, g.Winner, g.Score, g.Termination, g.Forfeit)
	return h.Sum64()
}

// guardState watches the run's state: one that a client (not this
// coordinator) wrote is said and set back, so that a worker cannot end
// the run for the others. It returns once the watch is set up.
func (c *coordinator) guardState(ctx context.Context) error {
	// The last value first: a client's write just before the watch began
	// is seen too.
	w, err := c.kv.Watch(ctx, RunKey)
	if err != nil {
		return fmt.Errorf("broker: watching the run's state: %v", err)
	}
	go func() {
		defer w.Stop()
		var times int
		var said time.Time
		for {
			var e jetstream.KeyValueEntry
			select {
			case <-ctx.Done():
				return
			case e = <-w.Updates():
			}
			if e == nil {
				continue // the end of the initial values
			}
			c.stateMu.Lock()
			want, value := c.state, c.stateValue
			c.stateMu.Unlock()
			if e.Operation() == jetstream.KeyValuePut && bytes.Equal(e.Value(), value) {
				continue // this coordinator's own
			}
			var info RunInfo
			readable := e.Operation() == jetstream.KeyValuePut && json.Unmarshal(e.Value(), &info) == nil
			got := "another value"
			if readable {
				got = fmt.Sprintf("%q", printable(info.State))
				if info.ID != c.id {
					got += fmt.Sprintf(" of run %q", printable(info.ID))
				}
			}
			// Said the first time, then at most every guardSay (a client
			// that writes again and again, or a second coordinator on the
			// server, must not flood the log), and set back at most every
			// pollEvery.
			times++
			if times == 1 || time.Since(said) >= guardSay {
				fmt.Fprintf(c.log, "the run's state was set to %s by a client, not this coordinator: set back to %q (%s so far)\n", got, want, strings.Replace(gameCount(times), "game", "time", 1))
				said = time.Now()
			}
			if err := c.setState(ctx, want); err != nil && ctx.Err() == nil {
				fmt.Fprintf(c.log, "%v\n", err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(pollEvery):
			}
		}
	}()
	return nil
}

// localDone reports whether the local workers have left for good: ctx
// ended, the run is over or this coordinator stopped it.
func (c *coordinator) localDone(ctx context.Context) bool {
	c.stateMu.Lock()
	state := c.state
	c.stateMu.Unlock()
	return ctx.Err() != nil || c.over.Load() || state != Running
}

// guardSay is how often guardState says again that the state was changed.
const guardSay = 10 * time.Second

// waitRunning waits until the run's state is Running again (guardState
// sets it back) or ctx ends.
func (c *coordinator) waitRunning(ctx context.Context) {
	for ctx.Err() == nil && !c.over.Load() {
		if info, _, err := readRun(ctx, c.kv); err == nil && info.ID == c.id && info.State == Running {
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(pollEvery):
		}
	}
}
