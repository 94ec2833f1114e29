package broker

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/linelog"
	"github.com/boardgame-arena/arena/results"
)

// Options configure a coordinator.
type Options struct {
	// Broker is "embedded" (start a NATS server in this process) or the
	// URL of an existing NATS server with JetStream, nats://host:port.
	Broker string
	Server ServerOptions // the embedded server
	Credentials
	// AckWait is the lease of a batch: a worker that neither finishes nor
	// heartbeats within it loses the batch to another. 0: DefaultAckWait.
	AckWait time.Duration
	// BatchGames is the games of one batch (0: 2, a colour-swapped pair).
	BatchGames int
	// Log receives the broker's address and notes on workers and rejected
	// results.
	Log io.Writer
	// Ready, if not nil, is called with the address workers join, once the
	// broker is open (before a run's streams exist: workers wait for them).
	Ready func(url string)
	// ScaleTC is the reference speed of the run's time control, in nodes
	// per second of MeasureSpeed: each worker measures its speed when it
	// joins a run and plays with the run's clocks and limit per move
	// multiplied by ScaleTC / its speed (OpenBench's scale_nps), so that a
	// fleet of mixed machines plays one time control; the coordinator's
	// own workers play at scale 1. ScaleMeasure (0, the default) measures
	// this machine's speed for it; ScaleOff plays every game at the run's
	// limits. A run without a clock or limit per move is never scaled.
	ScaleTC float64
	// JoinCommand, if not nil, turns the address workers join into what
	// Log says they join with: the command line that starts a worker; nil
	// says the address.
	JoinCommand func(url string) string
}

// Values of Options.ScaleTC besides a reference speed.
const (
	ScaleMeasure = 0
	ScaleOff     = -1
)

// Runner returns an arena.RunOptions.Runner that plays the run through the
// broker: opts.Concurrency local workers play alongside the remote ones,
// opts.Sink receives the checked results in arrival order, and opts.Stop
// empties the queue (running games finish and are recorded). Each call
// opens the broker (an embedded server starts) and closes it at the end;
// a Hub keeps it open across runs.
func Runner(o Options) func(ctx context.Context, t *arena.Tournament, opts arena.RunOptions) (arena.RunStats, error) {
	return func(ctx context.Context, t *arena.Tournament, opts arena.RunOptions) (arena.RunStats, error) {
		h, err := OpenContext(ctx, o)
		if err != nil {
			return arena.RunStats{Planned: t.Schedule.Len()}, err
		}
		defer h.Close()
		h.oneRun = true
		return coordinate(ctx, t, opts, h)
	}
}

// Hub is a coordinator's broker kept open across runs (the iterations of
// tune spsa): the embedded server, or the address of an existing one.
// Workers that serve run after run (WorkerOptions.Wait) follow it.
type Hub struct {
	o   Options
	srv *server.Server // nil for an existing server
	url string
	// connect opens a connection of the coordinator, or with worker one
	// of its local workers.
	connect func(ctx context.Context, name string, worker bool) (*nats.Conn, error)
	guard   *guard // the embedded server's; nil for an existing server
	// oneRun: the hub serves a single run (Runner), whose summary always
	// lists the workers; a hub's many runs (tune spsa's iterations) list
	// them only when a forfeit happened.
	oneRun bool
}

// FirstConnect bounds a coordinator's wait for an existing server
// (Options.Broker nats://…): it should be running already, so a wrong address
// or a server that is down is reported soon rather than waited for.
var FirstConnect = 5 * time.Second

// Open starts the embedded server (o.Broker "embedded") or checks the
// address of an existing one, and says on o.Log how workers join.
func Open(o Options) (*Hub, error) { return OpenContext(context.Background(), o) }

// OpenContext is Open that gives up when ctx ends (a Ctrl-C while an
// existing server is waited for).
func OpenContext(ctx context.Context, o Options) (*Hub, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.AckWait <= 0 {
		o.AckWait = DefaultAckWait
	}
	if o.BatchGames == 0 {
		o.BatchGames = 2
	}
	if o.BatchGames < 1 || o.BatchGames > MaxBatchGames {
		return nil, fmt.Errorf("batch of %d games: use 1 to %d", o.BatchGames, MaxBatchGames)
	}
	h := &Hub{o: o, url: o.Broker}
	join := o.Broker
	if o.Broker == "embedded" {
		// The coordinator's own connections are in-process, as a user of
		// its own with a password made for this broker; its workers' are
		// limited to a worker's rights (ServerOptions.Coordinator).
		pass := rand.Text()
		o.Server.Coordinator = pass
		srv, g, err := startServer(o.Server)
		if err != nil {
			return nil, err
		}
		h.srv, h.guard, h.url, join = srv, g, ClientURL(srv), JoinURL(srv)
		g.setNotify(func(line string) { fmt.Fprintln(o.Log, line) })
		creds := Credentials{CA: o.Credentials.CA, user: CoordinatorUser, pass: pass}
		copts, err := creds.options()
		if err != nil {
			h.Close()
			return nil, err
		}
		creds.user = localWorkersUser
		wopts, err := creds.options()
		if err != nil {
			h.Close()
			return nil, err
		}
		h.connect = func(_ context.Context, name string, worker bool) (*nats.Conn, error) {
			opts := copts
			if worker {
				opts = wopts
			}
			nc, err := nats.Connect("", append(slices.Clip(opts), nats.Name(name), nats.InProcessServer(srv))...)
			if err != nil {
				return nil, explain("embedded", err)
			}
			return nc, nil
		}
	} else {
		// Check now that the server answers and takes the credentials,
		// so that a wrong address is a setup error, not a run that hangs.
		fmt.Fprintf(o.Log, "waiting for the broker at %s (up to %s)\n", h.url, FirstConnect)
		nc, err := ConnectContext(ctx, h.url, "arena coordinator", o.Credentials, FirstConnect, 0)
		if err != nil {
			return nil, err
		}
		nc.Close()
		h.connect = func(ctx context.Context, name string, _ bool) (*nats.Conn, error) {
			return ConnectContext(ctx, h.url, name, o.Credentials, FirstConnect, 0)
		}
	}
	if o.Ready != nil {
		o.Ready(h.url)
	}
	how := join
	if o.JoinCommand != nil {
		how = o.JoinCommand(join)
	}
	if join != h.url {
		// Every interface: the host name, which another machine may or
		// may not resolve.
		fmt.Fprintf(o.Log, "broker %s on every interface; workers join with: %s (or this machine's address)\n", h.url, how)
	} else {
		fmt.Fprintf(o.Log, "broker %s; workers join with: %s\n", h.url, how)
	}
	return h, nil
}

// RunOnce is the Runner of a hub that serves a single run: its summary
// lists the workers, as the function Runner's does.
func (h *Hub) RunOnce() func(ctx context.Context, t *arena.Tournament, opts arena.RunOptions) (arena.RunStats, error) {
	h.oneRun = true
	return h.Runner()
}

// Runner is the hub's arena.RunOptions.Runner (see the function Runner).
func (h *Hub) Runner() func(ctx context.Context, t *arena.Tournament, opts arena.RunOptions) (arena.RunStats, error) {
	return func(ctx context.Context, t *arena.Tournament, opts arena.RunOptions) (arena.RunStats, error) {
		return coordinate(ctx, t, opts, h)
	}
}

// Close gives remote workers a moment to see that the last run is over
// and leave, then stops the embedded server.
func (h *Hub) Close() {
	if h.srv == nil {
		return
	}
	for end := time.Now().Add(2 * time.Second); h.srv.NumClients() > 0 && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	h.srv.Shutdown()
	h.srv.WaitForShutdown()
}

type coordinator struct {
	t        *arena.Tournament
	o        Options
	id       string
	log      io.Writer
	nc       *nats.Conn
	js       jetstream.JetStream
	kv       jetstream.KeyValue
	recorded *arena.GameSet // by position in t.Schedule: one bit a game
	left     int            // games of the schedule not yet recorded
	// cursor: the schedule positions below it have been queued (unless
	// recorded then); open counts those not yet recorded. The queue is
	// fed a window at a time (topUp), so that what the coordinator holds
	// of the queued games is bounded by the window, not the run.
	cursor, open int
	// floor: every position below it is recorded or dropped (the
	// watchdog starts there).
	floor int
	// skip is the run's arena.RunOptions.Skip (a race's: the games of a
	// candidate that left it), nil for none. The games it skips are
	// dropped: never queued, their batches already queued taken back
	// (takeBack), and no longer counted in left or open. A dropped game
	// that a worker had leased is still recorded when its result comes.
	skip     func(arena.Fixture) bool
	dropped  *arena.GameSet // by position; nil without skip
	drops    int
	longest  time.Duration
	rejected int
	// outcome fingerprints each recorded game by position in a byte
	// (outcomeOf's low byte), so that a duplicate that differs from it is
	// said (all but one in 256 of them) at a byte a game of the run.
	outcome []uint8
	// queued maps the work stream's sequence of each batch this
	// coordinator queued and has not yet seen gone to its games; the
	// watchdog finds the games that are in none of them.
	queued map[uint64][]int
	// missing are the positions the watchdog found neither recorded,
	// queued nor leased at its last look: queued again if they still are
	// at the next (a result may have been on its way).
	missing map[int]bool
	// requeued are the positions queued again for a rejected result since
	// the watchdog's last look (once per look: a flood of forgeries must
	// not flood the queue).
	requeued map[int]bool
	ref      float64 // reference speed of a scaled run (RunInfo.RefNPS), else 0
	// byWorker counts the games recorded from each worker, and their
	// forfeits by termination, for the summary (forfeits are the worker's
	// word: see checkGame).
	byWorker map[string]*workerTally
	// refused counts, by client name, the logins and messages the
	// embedded server refused during the run (nil for an existing server,
	// whose refusals only its own logs show).
	refused func() map[string]incidents
	// refusedTotal is the count of refusals during the run, which
	// collect reports (arena.RunOptions.Status) when it changes; nil as
	// refused.
	refusedTotal func() incidents
	reported     incidents
	// state is the run state this coordinator published last; guardState
	// puts it back when a client writes another.
	stateMu    sync.Mutex
	state      string
	stateValue []byte      // as published
	over       atomic.Bool // collect returned: local workers are not restarted
	// idle: the watchdog said that no worker plays (said once until a
	// result comes).
	idle bool
	// tooLong checks the games workers say cannot be recorded.
	tooLong *tooLongCheck
}

// LocalWorker is the name of a coordinator's own workers;
// CheckWorkerName refuses it as a worker's Name. Their games carry no worker name in the record,
// as in a run without a broker.
const LocalWorker = "local"

// workerTally is one worker's share of a run.
type workerTally struct {
	games    int
	forfeits map[string]int // by termination
}

func coordinate(ctx context.Context, t *arena.Tournament, opts arena.RunOptions, h *Hub) (st arena.RunStats, err error) {
	st = arena.RunStats{Planned: t.Schedule.Len()}
	o := h.o
	c := &coordinator{t: t, o: o, id: RunID(t.Config), log: o.Log, recorded: arena.NewGameSet(t.Schedule.Len()), byWorker: map[string]*workerTally{},
		outcome: make([]uint8, t.Schedule.Len()), queued: map[uint64][]int{}, missing: map[int]bool{}, requeued: map[int]bool{}}
	if g := h.guard; g != nil {
		// A hub of one run counts from its opening (a worker refused
		// while the run's streams were made belongs to it), a hub of
		// many from each run's start.
		var before map[string]incidents
		var base incidents
		if !h.oneRun {
			before, base = g.snapshot(), g.totals()
		}
		c.refused = func() map[string]incidents { return since(g.snapshot(), before) }
		c.refusedTotal = func() incidents {
			t := g.totals()
			return incidents{logins: t.logins - base.logins, messages: t.messages - base.messages}
		}
	}
	if opts.Skip != nil {
		c.skip, c.dropped = opts.Skip, arena.NewGameSet(t.Schedule.Len())
	}
	defer c.summary(h.oneRun)
	c.tooLong = newTooLongCheck(ctx)
	defer c.tooLong.close()
	c.left = t.Schedule.Len()
	// The games recorded before (a resume), read again one at a time for
	// their fingerprints rather than held.
	err = opts.Done.Each(func(g *results.GameRecord) error {
		if pos, ok := t.FixturePos(g.Index); ok && c.recorded.Add(pos) {
			c.outcome[pos] = uint8(outcomeOf(g))
			c.left--
			st.Skipped++
		}
		return nil
	})
	if err != nil {
		return st, err
	}
	// Connections: the coordinator's own, and its local workers'.
	connect := h.connect
	nc, err := connect(ctx, "arena coordinator", false)
	if err != nil {
		return st, err
	}
	defer nc.Close()
	c.nc = nc
	// An acknowledgement lost (a server restarting) fails its future after
	// apiAttempt, and the batch is published again (queue), rather than
	// waited for for ever.
	if c.js, err = jetstream.New(nc, jetstream.WithPublishAsyncTimeout(apiAttempt)); err != nil {
		return st, err
	}
	if err := c.setup(ctx); err != nil {
		return st, err
	}
	// Notes from workers (an agent they cannot build).
	evs, err := nc.Subscribe(eventSubject(c.id), func(m *nats.Msg) {
		var e Event
		if json.Unmarshal(m.Data, &e) == nil && len(e.Text) < 4096 {
			fmt.Fprintf(c.log, "worker %q cannot play this run: %s\n", e.Worker, printable(e.Text))
			if e.TooLong != nil {
				c.tooLong.claim(e.Worker, *e.TooLong)
			}
		}
	})
	if err != nil {
		return st, err
	}
	defer evs.Unsubscribe()
	if c.ref, err = c.reference(ctx); err != nil {
		return st, err
	}
	if err := c.setState(ctx, Running); err != nil {
		return st, err
	}
	guardCtx, stopGuard := context.WithCancel(ctx)
	defer stopGuard()
	if err := c.guardState(guardCtx); err != nil {
		return st, err
	}
	if err := c.enqueue(ctx); err != nil {
		return st, err
	}
	// Local workers: ordinary workers on an in-process connection.
	localCtx, stopLocal := context.WithCancel(ctx)
	var localConn *nats.Conn
	var local sync.WaitGroup
	if opts.Concurrency > 0 && c.left > 0 {
		lc, err := connect(ctx, "arena coordinator's workers", true)
		if err != nil {
			stopLocal()
			return st, err
		}
		defer lc.Close()
		localConn = lc
		local.Add(1)
		go func() {
			defer local.Done()
			// At scale 1: the reference is this machine.
			speed := func(context.Context, games.Variant) (float64, error) { return c.ref, nil }
			for {
				if err := Work(localCtx, lc, WorkerOptions{Name: LocalWorker, Concurrency: opts.Concurrency, Log: linelog.New(opts.Log, "local worker: "), Speed: speed}); err != nil && localCtx.Err() == nil {
					fmt.Fprintf(c.log, "local workers: %v\n", err)
				}
				if c.localDone(localCtx) {
					return
				}
				// They left a run that is not over: its state was changed
				// by a client (set back by guardState). Join it again.
				fmt.Fprintf(c.log, "local workers left the run before its end; they join it again\n")
				c.waitRunning(localCtx)
				if c.localDone(localCtx) {
					return
				}
			}
		}()
	}
	defer func() {
		stopLocal()
		local.Wait()
	}()
	played, err := c.collect(ctx, opts)
	c.over.Store(true)
	st.Played = played
	// A sink that failed did not write the games accepted last: they are
	// not complete, and their results stay for the next coordinator. A
	// run that dropped games (a race's left candidates') is not complete
	// either, as arena.Run's with a Skip.
	st.Complete = c.left == 0 && c.drops == 0 && err == nil
	state := Done
	if !st.Complete {
		state = Stopped
	}
	if ctx.Err() != nil {
		// A hard stop: tell the workers, briefly, and go.
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		c.setState(sctx, state)
		cancel()
	} else {
		c.setState(context.Background(), state)
		stopLocal()
		local.Wait()
		if localConn != nil {
			localConn.Close() // not a worker to wait for below
		}
		if st.Complete {
			c.cleanup(context.Background())
		}
	}
	return st, err
}

// setup creates the streams, the bucket and the consumers of the run.
// Each is an idempotent request, sent again if its reply does not come
// (retryAPI).
func (c *coordinator) setup(ctx context.Context) error {
	steps := []struct {
		what string
		do   func(context.Context) error
	}{
		{"work stream", func(ctx context.Context) error {
			_, err := c.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
				Name: WorkStream, Subjects: []string{workPrefix + "*"}, Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
				Duplicates: workDuplicates,
			})
			return err
		}},
		{"result stream", func(ctx context.Context) error {
			_, err := c.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
				Name: ResultStream, Subjects: []string{resultPrefix + "*"}, Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
				Duplicates: resultDuplicates, MaxMsgSize: resultMaxBytes,
				MaxBytes: resultStreamBytes, MaxMsgs: resultStreamMsgs, Discard: jetstream.DiscardNew,
			})
			return err
		}},
		{"bucket", func(ctx context.Context) (err error) {
			c.kv, err = c.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: Bucket, Storage: jetstream.FileStorage})
			return err
		}},
		{"work consumer", func(ctx context.Context) error {
			_, err := c.js.CreateOrUpdateConsumer(ctx, WorkStream, jetstream.ConsumerConfig{
				Durable: workConsumer(c.id), FilterSubject: workSubject(c.id), AckPolicy: jetstream.AckExplicitPolicy,
				AckWait: c.o.AckWait, MaxDeliver: -1, MaxAckPending: -1, MaxWaiting: 4096,
			})
			return err
		}},
		{"result consumer", func(ctx context.Context) error {
			// A fresh consumer: the results a killed coordinator fetched
			// and did not write are delivered at once, not after the ack
			// wait of its consumer (the stream keeps every unacknowledged
			// result; the record drops what it has).
			if err := c.js.DeleteConsumer(ctx, ResultStream, resultConsumer(c.id)); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
				return err
			}
			_, err := c.js.CreateOrUpdateConsumer(ctx, ResultStream, jetstream.ConsumerConfig{
				Durable: resultConsumer(c.id), FilterSubject: resultSubject(c.id), AckPolicy: jetstream.AckExplicitPolicy,
				AckWait: time.Minute, MaxDeliver: -1, MaxAckPending: -1,
			})
			return err
		}},
	}
	for _, st := range steps {
		if err := retryAPI(ctx, st.do); err != nil {
			return fmt.Errorf("broker: %s: %v", st.what, err)
		}
	}
	return nil
}

// The streams' de-duplication windows. The server keeps every message
// id of its window in memory (about 135 bytes each), so a window of
// seconds holds an entry for every batch or game of those seconds (a fast
// run plays thousands of games a second): a memory that grows with the
// run's speed and, in a run shorter than the window, with its games.
// Neither stream needs one: both are the least JetStream takes (0 would be
// its default of 2 minutes), which also bounds what ids a client could
// make the server keep.
const (
	// workDuplicates: batches carry no message id (queue). One stored
	// twice (its acknowledgement lost, a server paused or restarting) is
	// played twice; the coordinator records each game once.
	workDuplicates = 100 * time.Millisecond
	// resultDuplicates: results need none, since their ids are per
	// attempt and the coordinator drops from its record a game recorded
	// already (a result stored twice costs a message to read).
	resultDuplicates = 100 * time.Millisecond
)

// apiAttempt bounds one JetStream API request of retryAPI, which makes at
// most apiAttempts. Once, in CI under the race detector, the first
// stream's creation got no reply and waited out the test's whole minute;
// sent again, such a request costs one attempt.
var apiAttempt = 10 * time.Second

const apiAttempts = 3

// retryAPI calls f, an idempotent JetStream request, with a context
// bounded by apiAttempt, again after an attempt that ran out of time,
// until it succeeds, fails otherwise, ctx ends or apiAttempts were made.
func retryAPI(ctx context.Context, f func(context.Context) error) error {
	for n := 1; ; n++ {
		actx, cancel := context.WithTimeout(ctx, apiAttempt)
		err := f(actx)
		cancel()
		timedOut := errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout)
		if err == nil || !timedOut || ctx.Err() != nil || n == apiAttempts {
			return err
		}
	}
}

func (c *coordinator) setState(ctx context.Context, state string) error {
	b, err := json.Marshal(RunInfo{ID: c.id, State: state, AckWaitMS: c.o.AckWait.Milliseconds(), Config: c.t.Config, RefNPS: c.ref})
	if err != nil {
		return err
	}
	c.stateMu.Lock()
	c.state, c.stateValue = state, b
	c.stateMu.Unlock()
	if err := retryAPI(ctx, func(ctx context.Context) error {
		_, err := c.kv.Put(ctx, RunKey, b)
		return err
	}); err != nil {
		return fmt.Errorf("broker: publishing the run: %v", err)
	}
	return nil
}

// enqueue replaces the run's queue with the first window of the games
// not yet recorded, in schedule order (topUp queues the others as these
// are recorded). A queue left by an earlier coordinator of the same run
// (killed) is purged first: its batches may include recorded games.
func (c *coordinator) enqueue(ctx context.Context) error {
	ws, err := c.js.Stream(ctx, WorkStream)
	if err != nil {
		return err
	}
	if err := ws.Purge(ctx, jetstream.WithPurgeSubject(workSubject(c.id))); err != nil {
		return fmt.Errorf("broker: purging the old queue: %v", err)
	}
	return c.topUp(ctx)
}

// queueAhead is how many unrecorded games the coordinator keeps queued
// (or leased): topUp queues more once fewer than half are left. Enough
// for a large fleet's workers to find work; a variable for the tests.
var queueAhead = 8192

// topUp queues the next games of the schedule, in batches of
// Options.BatchGames, while fewer than queueAhead games queued are
// unrecorded, so that the queue (and the coordinator's account of it)
// holds a window of the run, not all of it.
func (c *coordinator) topUp(ctx context.Context) error {
	if c.open > queueAhead/2 || c.cursor == c.t.Schedule.Len() {
		return nil
	}
	// Forget the batches whose games are all recorded (the watchdog
	// would, at its next look): the account stays within the window
	// however fast results come.
	for seq, games := range c.queued {
		if c.allRecorded(games) {
			delete(c.queued, seq)
		}
	}
	var batches [][]int
	var batch []int
	for c.cursor < c.t.Schedule.Len() && c.open < queueAhead {
		pos := c.cursor
		c.cursor++
		if c.recorded.Has(pos) {
			continue
		}
		if c.skip != nil && c.skip(c.t.Schedule.At(pos)) {
			c.drop(pos)
			continue
		}
		c.open++
		batch = append(batch, c.t.Schedule.At(pos).Index)
		if len(batch) == c.o.BatchGames {
			batches, batch = append(batches, batch), nil
		}
	}
	if len(batch) > 0 {
		batches = append(batches, batch)
	}
	return c.queue(ctx, batches)
}

// drop takes a game the run's Skip skips out of the games left (and of
// those open, if it was queued); a recorded or dropped game stays as it is.
func (c *coordinator) drop(pos int) {
	if c.recorded.Has(pos) || !c.dropped.Add(pos) {
		return
	}
	c.drops++
	c.left--
	if pos < c.cursor {
		c.open--
	}
}

// isDropped reports whether the game at pos was dropped (Skip).
func (c *coordinator) isDropped(pos int) bool { return c.dropped != nil && c.dropped.Has(pos) }

// takeBack removes from the work stream the queued batches whose games
// not yet recorded are all skipped now (a race's candidate left it), and
// drops those games, so that workers do not play them. A batch a worker
// has leased is removed too; the worker plays it anyway and its results
// are recorded, as the games a local run had started. Called after the
// sink took a batch of results, which is when Skip's answers change.
func (c *coordinator) takeBack(ctx context.Context) {
	if c.skip == nil || len(c.queued) == 0 {
		return
	}
	var ws jetstream.Stream
	for seq, games := range c.queued {
		var drop []int
		keep := false
		for _, g := range games {
			pos, ok := c.t.FixturePos(g)
			switch {
			case !ok || c.recorded.Has(pos) || c.isDropped(pos):
			case c.skip(c.t.Schedule.At(pos)):
				drop = append(drop, pos)
			default:
				keep = true
			}
		}
		if keep || len(drop) == 0 {
			continue
		}
		if ws == nil {
			var err error
			if ws, err = c.js.Stream(ctx, WorkStream); err != nil {
				return // the server is away: the next batch of results tries again
			}
		}
		// Gone already (acknowledged) is as good as removed.
		if err := ws.DeleteMsg(ctx, seq); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		delete(c.queued, seq)
		for _, pos := range drop {
			c.drop(pos)
		}
	}
}

// allRecorded reports whether every game of a batch is recorded.
func (c *coordinator) allRecorded(games []int) bool {
	for _, g := range games {
		if pos, ok := c.t.FixturePos(g); ok && !c.recorded.Has(pos) {
			return false
		}
	}
	return true
}

// collect records results until the schedule is complete, the run stops
// (opts.Stop: the queue is purged, then results of running games are
// taken until none came for a while) or ctx ends.
func (c *coordinator) collect(ctx context.Context, opts arena.RunOptions) (int, error) {
	cons, err := c.js.Consumer(ctx, ResultStream, resultConsumer(c.id))
	if err != nil {
		return 0, err
	}
	played := 0
	var lastResult time.Time
	lastLook := time.Now()
	stopping := false
	for c.left > 0 {
		if ctx.Err() != nil {
			return played, nil // a hard stop, as arena.Run: what was recorded stays
		}
		if !stopping && opts.Stop != nil && stopped(opts.Stop) {
			stopping = true
			lastResult = time.Now()
			if ws, err := c.js.Stream(ctx, WorkStream); err == nil {
				ws.Purge(ctx, jetstream.WithPurgeSubject(workSubject(c.id)))
			}
			c.setState(ctx, Stopped)
		}
		if stopping && time.Since(lastResult) > c.drain() {
			return played, nil
		}
		if err := c.checkTooLong(); err != nil {
			return played, err
		}
		if !stopping && time.Since(lastLook) >= c.lookEvery() {
			c.watch(ctx)
			lastLook = time.Now()
		}
		// Bounded in bytes too: a batch of junk messages near the size
		// limit would otherwise all be held at once. Any message the
		// server takes fits one batch. (Not FetchBytes: it makes
		// channels for a million messages every time.)
		mb, err := cons.Fetch(256, jetstream.FetchMaxBytes(fetchBytes(c.nc)), jetstream.FetchMaxWait(200*time.Millisecond))
		if err != nil {
			if ctx.Err() != nil {
				return played, nil
			}
			time.Sleep(50 * time.Millisecond)
			continue
		}
		var games []*results.GameRecord
		var msgs []jetstream.Msg
		for m := range mb.Messages() {
			msgs = append(msgs, m)
			if g := c.accept(ctx, m.Data()); g != nil {
				games = append(games, g)
			}
		}
		// After the fetch: a refusal before a result was published is
		// reported before that result reaches the sink.
		c.reportStatus(opts.Status)
		if len(games) > 0 {
			lastResult = time.Now()
			if opts.Sink != nil {
				if err := opts.Sink(games); err != nil {
					return played, err // unacknowledged: offered again on resume
				}
			}
			played += len(games)
		}
		if len(games) > 0 && !stopping {
			c.takeBack(ctx) // before the acks: a worker that waits for them sees it done
		}
		for _, m := range msgs {
			m.Ack()
		}
		if !stopping {
			if err := c.topUp(ctx); err != nil {
				if ctx.Err() != nil {
					return played, nil
				}
				return played, err
			}
		}
	}
	return played, nil
}

// reportStatus hands status the refusals so far, if they changed since
// the last report.
func (c *coordinator) reportStatus(status func(arena.RunStatus)) {
	if status == nil || c.refusedTotal == nil {
		return
	}
	if now := c.refusedTotal(); now != c.reported {
		c.reported = now
		status(arena.RunStatus{RefusedLogins: now.logins, RefusedMessages: now.messages})
	}
}

// fetchBytes bounds one batch of results the coordinator fetches (and
// holds until it has recorded them): the largest message the server
// takes, and room for the message's subject and headers.
func fetchBytes(nc *nats.Conn) int {
	return int(max(nc.MaxPayload(), resultMaxBytes)) + 64<<10
}

// drain is how long a stopping run waits for one more result.
func (c *coordinator) drain() time.Duration {
	return min(max(time.Second, c.longest*3/2), time.Minute)
}

// accept checks a result message and marks its game recorded; it returns
// nil for a duplicate or a result it rejects (logged).
func (c *coordinator) accept(ctx context.Context, data []byte) *results.GameRecord {
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		c.reject("?", fmt.Sprintf("unreadable result: %v", err))
		return nil
	}
	if r.Run != c.id {
		c.reject(r.Worker, fmt.Sprintf("result of run %q, not %s", r.Run, c.id))
		return nil
	}
	if err := c.t.CheckGame(r.Game); err != nil {
		c.reject(r.Worker, err.Error())
		if r.Game != nil {
			c.requeueRejected(ctx, r.Game.Index)
		}
		return nil
	}
	if err := checkScale(c.t, c.ref, r.Game, workerName(r.Worker) == LocalWorker); err != nil {
		c.reject(r.Worker, err.Error())
		return nil
	}
	pos, _ := c.t.FixturePos(r.Game.Index) // CheckGame found it
	if c.recorded.Has(pos) {
		// A duplicate: the game is in the record already. An honest
		// replay is the same game; one that is not is worth a look.
		if uint8(outcomeOf(r.Game)) != c.outcome[pos] {
			fmt.Fprintf(c.log, "a duplicate result of game %d from worker %q differs from the recorded one (%s %s): kept the recorded one\n",
				r.Game.Index, workerName(r.Worker), r.Game.Result, printable(r.Game.Termination))
		}
		return nil
	}
	c.recorded.Add(pos)
	c.outcome[pos] = uint8(outcomeOf(r.Game))
	c.idle = false
	if !c.isDropped(pos) { // a dropped game left both counts when it was dropped
		if pos < c.cursor {
			c.open--
		}
		c.left--
	}
	c.longest = max(c.longest, time.Duration(r.Game.DurationMS*float64(time.Millisecond)))
	// The record names the worker (its own word), so that a forfeit can
	// be traced to a machine.
	name := workerName(r.Worker)
	r.Game.Worker = ""
	if name != LocalWorker {
		r.Game.Worker = name
	}
	w := c.byWorker[name]
	if w == nil {
		w = &workerTally{forfeits: map[string]int{}}
		c.byWorker[name] = w
	}
	w.games++
	if g := r.Game; g.Forfeit != -1 {
		w.forfeits[g.Termination]++
	}
	return r.Game
}

// printable is text a worker sent, as the coordinator shows it on its
// terminal: invalid UTF-8 and control characters (escape sequences that
// could rewrite the screen, line breaks that could fake log lines) become
// "?", tabs spaces.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ':
			return '?'
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
}

// workerName is a worker's name as the record keeps it and the summary
// shows it: printable, cut to results.MaxWorkerName bytes on a character
// boundary, "?" for none.
func workerName(name string) string {
	name = printable(name)
	if len(name) > results.MaxWorkerName {
		cut := results.MaxWorkerName
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = name[:cut]
	}
	if name == "" {
		return "?"
	}
	return name
}

// summary says how many games each worker played and how many of them
// ended by a forfeit of which kind, once remote workers took part: a
// worker that reports far more forfeits than the others is a machine to
// look at (overloaded, a missing engine, or a dishonest worker).
func (c *coordinator) summary(always bool) {
	var refused map[string]incidents
	if c.refused != nil {
		refused = c.refused()
	}
	if len(refused) == 0 && (len(c.byWorker) == 0 || (len(c.byWorker) == 1 && c.byWorker[LocalWorker] != nil)) {
		return
	}
	forfeits := len(refused) > 0
	for _, w := range c.byWorker {
		forfeits = forfeits || len(w.forfeits) > 0
	}
	if !always && !forfeits {
		return
	}
	names := slices.Sorted(maps.Keys(c.byWorker))
	for n := range refused {
		if c.byWorker[n] == nil {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	fmt.Fprintf(c.log, "games by worker (forfeits are the worker's report; the record names the worker of each game):\n")
	for _, n := range names {
		w := c.byWorker[n]
		if w == nil {
			w = &workerTally{}
		}
		label := n
		if n == LocalWorker {
			label = "this coordinator"
		}
		fmt.Fprintf(c.log, "  %-30s %6d games", label, w.games)
		if len(w.forfeits) > 0 {
			var parts []string
			total := 0
			for _, term := range results.Terminations {
				if k := w.forfeits[term]; k > 0 {
					parts = append(parts, fmt.Sprintf("%d %s", k, term))
					total += k
				}
			}
			fmt.Fprintf(c.log, ", %d forfeits (%s)", total, strings.Join(parts, ", "))
		}
		// Refusals are by the name the client gave (anyone can claim one).
		if r := refused[n]; r.logins > 0 {
			fmt.Fprintf(c.log, ", %s", plural(r.logins, "refused login"))
		}
		if r := refused[n]; r.messages > 0 {
			fmt.Fprintf(c.log, ", %s refused by permissions", plural(r.messages, "message"))
		}
		fmt.Fprintln(c.log)
	}
}

func (c *coordinator) reject(worker, why string) {
	c.rejected++
	worker = workerName(worker)
	fmt.Fprintf(c.log, "rejected a result from worker %q (not recorded): %s\n", worker, why)
}

// cleanup removes a finished run's consumers.
func (c *coordinator) cleanup(ctx context.Context) {
	c.js.DeleteConsumer(ctx, WorkStream, workConsumer(c.id))
	c.js.DeleteConsumer(ctx, ResultStream, resultConsumer(c.id))
}
