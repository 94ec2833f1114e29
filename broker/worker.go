package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

// WorkerOptions configure Work.
type WorkerOptions struct {
	Name        string // shown in the coordinator's log
	Concurrency int    // games at once, ≥ 1
	// Wait keeps the worker serving run after run; otherwise it returns
	// once the first run it joined is over.
	Wait bool
	// Verbose logs every batch the worker takes ("took games 4 5"), for an
	// operator who wants to see what a worker plays.
	Verbose bool
	Log     io.Writer
	// Speed, if not nil, replaces MeasureSpeed as the worker's speed for a
	// scaled run (RunInfo.RefNPS): the coordinator's own workers give the
	// reference (scale 1), a test a speed of its choosing.
	Speed func(context.Context, games.Variant) (float64, error)
}

// JoinOptions configure Join: the broker a worker joins, its credentials,
// how long it waits for the broker, and how it plays.
type JoinOptions struct {
	// Broker is the address the coordinator printed, nats://HOST:PORT (or
	// tls://HOST:PORT).
	Broker string
	Credentials
	// Patience is how long the worker waits for the broker, before it
	// first answers and whenever it is lost (a coordinator resumed within
	// it is joined again), MinPatience to MaxPatience.
	Patience time.Duration
	WorkerOptions
}

// Bounds of JoinOptions.Patience.
const (
	MinPatience = time.Second
	MaxPatience = 24 * time.Hour
)

// Check reports the first option of o that Join refuses; it opens nothing.
func (o JoinOptions) Check() error {
	switch {
	case !strings.HasPrefix(o.Broker, "nats://") && !strings.HasPrefix(o.Broker, "tls://"):
		return option.New("Broker", strconv.Quote(o.Broker), "give the address the coordinator printed, nats://HOST:PORT (or tls://HOST:PORT)")
	case o.Concurrency < 1:
		return option.New("Concurrency", o.Concurrency, "use at least 1")
	case o.Patience < MinPatience || o.Patience > MaxPatience:
		return option.New("Patience", o.Patience, "use 1s to 24h")
	}
	return CheckWorkerName(o.Name)
}

// CheckWorkerName refuses a worker name that the record cannot keep
// (results.MaxWorkerName bytes of printable characters) or that would pass for the
// coordinator's own workers (LocalWorker).
func CheckWorkerName(name string) error {
	switch {
	case name == LocalWorker:
		return fmt.Errorf("%w %s is the coordinator's own workers' name: choose another (the record names the worker of each game)", named("Name"), name)
	case name == "":
		return option.New("Name", nil, "give the worker a name (the record names the worker of each game)")
	case len(name) > results.MaxWorkerName || !utf8.ValidString(name) || strings.ContainsFunc(name, unicode.IsControl):
		return option.New("Name", nil, "use up to %d bytes of printable characters", results.MaxWorkerName)
	}
	return nil
}

// Join connects to the broker of o, waiting up to o.Patience for it, says
// on o.Log that it did, and serves its runs (Work) until the run it joined
// is over, or with o.Wait until ctx ends; a ctx that ends is no error. The
// options are checked first (Check).
func Join(ctx context.Context, o JoinOptions) error {
	if err := o.Check(); err != nil {
		return err
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	nc, err := ConnectContext(ctx, o.Broker, "arena worker "+o.Name, o.Credentials, o.Patience, o.Patience)
	if err != nil {
		return err
	}
	defer nc.Close()
	games := "games"
	if o.Concurrency == 1 {
		games = "game"
	}
	fmt.Fprintf(o.Log, "worker %s connected to %s, %d %s at once; waiting for a run\n", o.Name, o.Broker, o.Concurrency, games)
	err = Work(ctx, nc, o.WorkerOptions)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// Connect opens a connection to a broker for a worker or a coordinator:
// it keeps reconnecting (a coordinator resumed after a crash comes back on
// the same address) and explains refused credentials.
//
// A connection gives up after patience without a server (0: never); the
// worker then ends with an error. See ConnectContext.
func Connect(url, name string, c Credentials, patience time.Duration) (*nats.Conn, error) {
	return ConnectContext(context.Background(), url, name, c, patience, patience)
}

// ConnectContext is Connect that stops waiting when ctx ends. The first
// connection waits up to first for a server (workers may start before
// their coordinator; 0: no limit, only ctx); a lost server is waited for
// up to reconnect (0: for ever). Refused credentials and an untrusted
// certificate are final at once, whatever the patience.
func ConnectContext(ctx context.Context, url, name string, c Credentials, first, reconnect time.Duration) (*nats.Conn, error) {
	const wait = 100 * time.Millisecond
	tries := -1
	if reconnect > 0 {
		tries = max(int(reconnect/wait), 1)
	}
	copts, err := c.options()
	if err != nil {
		return nil, err
	}
	opts := append(copts, nats.Name(name), nats.MaxReconnects(tries), nats.ReconnectWait(wait),
		// Heartbeat warnings of watchers while the server is away: the
		// reconnection is what matters, and it is automatic.
		nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}))
	for start := time.Now(); ; {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("broker %s: stopped waiting for it (%v)", url, context.Cause(ctx))
		}
		nc, err := nats.Connect(url, opts...)
		if err == nil {
			return nc, nil
		}
		// Anything but a refusal (no server yet, a connection cut while
		// the server starts) is tried again.
		if final(err) {
			return nil, explain(url, err)
		}
		if first > 0 && time.Since(start) >= first {
			return nil, fmt.Errorf("broker %s: nothing answered for %s: is the coordinator (or NATS server) running (one whose run is over has closed its broker), is the address the one it printed, and can this machine reach it? (%v)", url, first, err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
	}
}

// Work serves runs of the coordinator behind nc: it waits for a run,
// checks that it can build every agent, and plays batches until the run is
// over (or, with Wait, until ctx ends).
func Work(ctx context.Context, nc *nats.Conn, o WorkerOptions) error {
	if o.Concurrency < 1 {
		return fmt.Errorf("worker: concurrency %d: want at least 1", o.Concurrency)
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	// A result whose acknowledgement is lost (a server restarting) is
	// published again after apiAttempt (confirm), not waited for for ever.
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncTimeout(apiAttempt))
	if err != nil {
		return err
	}
	nc.SetErrorHandler(refusals(o.Log))
	kv, err := waitBucket(ctx, js)
	if err != nil {
		return err
	}
	finished := map[string]bool{}
	refused := map[string]bool{}
	poll := time.NewTicker(pollEvery)
	defer poll.Stop()
	var last uint64 // revision of the run description seen last
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-poll.C:
		}
		if nc.IsClosed() {
			return errBrokerGone
		}
		info, rev, err := readRun(ctx, kv)
		if err != nil || rev == last {
			continue // not yet published, or the server is away for a moment
		}
		last = rev
		if info.State != Running {
			// Without Wait, a worker serves one run: the one it played, or
			// the one it found over (it may have joined late).
			if !o.Wait && (finished[info.ID] || info.State == Done || info.State == Stopped) {
				if !finished[info.ID] {
					fmt.Fprintf(o.Log, "run %s is over; played 0 games\n", info.ID)
				}
				return nil
			}
			continue
		}
		// A run running again that this worker left (its state set back
		// after a client changed it, or a stopped run resumed) is joined
		// again: without Wait the worker has returned already.
		if refused[info.ID] {
			continue
		}
		fmt.Fprintf(o.Log, "joining run %s: %s %s, %s\n", info.ID, info.Config.Game, info.Config.Kind, gameCount(info.Config.TotalGames))
		played, err := playRun(ctx, js, nc, kv, info, o)
		switch {
		case errors.Is(err, errCannotPlay):
			refused[info.ID] = true
			fmt.Fprintf(o.Log, "%v\n", err)
			if !o.Wait {
				return err
			}
			continue
		case err != nil:
			return err
		}
		finished[info.ID] = true
		fmt.Fprintf(o.Log, "run %s is over; played %s\n", info.ID, gameCount(played))
		if !o.Wait {
			return nil
		}
	}
}

// refusals is a connection's error handler that logs the first messages
// the server refuses by permissions (a refused request gets no reply, so
// without the line the worker would just wait): with an existing NATS
// server, its worker permissions lack a subject. Other asynchronous
// errors (heartbeat warnings of watchers while the server is away) are
// not worth a line: the reconnection is what matters.
func refusals(log io.Writer) nats.ErrHandler {
	var logged atomic.Int32
	return func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if !errors.Is(err, nats.ErrPermissionViolation) {
			return
		}
		switch n := logged.Add(1); {
		case n <= 3:
			fmt.Fprintf(log, "the broker refused a message of this worker (%s): its permissions on the NATS server lack a subject (docs/distributed.md lists a worker's)\n", printable(err.Error()))
		case n == 4:
			fmt.Fprintf(log, "the broker refuses more messages of this worker (not logged)\n")
		}
	}
}

var errCannotPlay = errors.New("cannot play this run")

// errBrokerGone ends a worker whose connection gave up (no server for
// JoinOptions.Patience).
var errBrokerGone = fmt.Errorf("the broker went away (no server for too long): the run is over or its coordinator stopped; %w waits longer for a coordinator that is resumed", named("Patience"))

// pollEvery is how often a worker reads the run description. (Polling a
// key is simpler to keep right across reconnections than a watcher.)
const pollEvery = 100 * time.Millisecond

// readRun reads the run description and its revision.
func readRun(ctx context.Context, kv jetstream.KeyValue) (RunInfo, uint64, error) {
	var info RunInfo
	// A short deadline: a request lost while the server is busy is simply
	// made again at the next poll.
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	e, err := kv.Get(ctx, RunKey)
	if err != nil {
		return info, 0, err
	}
	if err := json.Unmarshal(e.Value(), &info); err != nil {
		return info, 0, fmt.Errorf("unreadable run description: %v", err)
	}
	return info, e.Revision(), nil
}

// waitBucket waits for the coordinator to create the run bucket.
func waitBucket(ctx context.Context, js jetstream.JetStream) (jetstream.KeyValue, error) {
	for {
		kv, err := js.KeyValue(ctx, Bucket)
		if err == nil {
			return kv, nil
		}
		if !errors.Is(err, jetstream.ErrBucketNotFound) && !errors.Is(err, jetstream.ErrJetStreamNotEnabled) && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrTimeout) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pollEvery):
		}
	}
}

// sameRun reports how a worker's rebuilt configuration differs from the
// coordinator's in what decides the games.
func sameRun(got, want results.Config) error {
	switch {
	case got.Game != want.Game || got.GameDigest != want.GameDigest:
		return fmt.Errorf("this worker's game %s (digest %s) is not the coordinator's %s (digest %s): use the same arena version", got.Game, got.GameDigest, want.Game, want.GameDigest)
	case got.OpeningsDigest != want.OpeningsDigest:
		return fmt.Errorf("this worker's openings (digest %s) are not the coordinator's (%s): an openings file must have the same content on every machine", got.OpeningsDigest, want.OpeningsDigest)
	case got.TotalGames != want.TotalGames || !slices.Equal(got.Agents, want.Agents):
		return errors.New("this worker plans a different schedule: use the same arena version")
	}
	return nil
}

// agentStart bounds the start of one agent when a worker joins a run.
const agentStart = 30 * time.Second

// startAgents builds every agent of the run and starts a game with those
// that have a start (agents.GameStarter: an engine process is started
// then), so that a worker without an engine says so when it joins instead
// of losing its games by forfeit.
func startAgents(t *arena.Tournament) error {
	for _, info := range t.Config.Agents {
		a, err := agents.New(info.Spec, 0)
		if err != nil {
			return fmt.Errorf("agent %q: %v", info.Spec, err)
		}
		done := make(chan error, 1)
		go func() {
			var err error
			if g, ok := a.(agents.GameStarter); ok {
				err = g.NewGame(t.Variant, 0)
			}
			if c, ok := a.(io.Closer); ok {
				c.Close()
			}
			done <- err
		}()
		select {
		case err = <-done:
		case <-time.After(agentStart):
			err = fmt.Errorf("it did not start within %s", agentStart)
		}
		if err != nil {
			return fmt.Errorf("agent %q: %v", info.Spec, err)
		}
	}
	return nil
}

// inflight is a batch being played: its message and the games not yet
// published.
type inflight struct {
	msg  jetstream.Msg
	left int
}

// playRun plays batches of one run until its state leaves Running.
func playRun(ctx context.Context, js jetstream.JetStream, nc *nats.Conn, kv jetstream.KeyValue, info RunInfo, o WorkerOptions) (int, error) {
	report := func(text string, tooLong *int) {
		b, _ := json.Marshal(Event{Worker: o.Name, Text: text, TooLong: tooLong})
		nc.Publish(eventSubject(info.ID), b)
		nc.Flush()
	}
	if info.Config.Kind == "" || info.Config.TotalGames == 0 {
		return 0, fmt.Errorf("%w: the run description has no configuration", errCannotPlay)
	}
	t, err := arena.New(arena.OptionsFrom(info.Config))
	if err == nil {
		err = sameRun(t.Config, info.Config)
	}
	if err == nil {
		err = startAgents(t)
	}
	var sc scaling
	if err == nil {
		sc, err = scaleRun(ctx, t, info, o)
	}
	if err != nil {
		report(err.Error(), nil)
		return 0, fmt.Errorf("%w %s: %v", errCannotPlay, info.ID, err)
	}
	// The coordinator may be restarting: keep asking while the connection
	// lives.
	var cons jetstream.Consumer
	for {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		cons, err = js.Consumer(cctx, WorkStream, workConsumer(info.ID))
		cancel()
		if err == nil {
			break
		}
		if nc.IsClosed() {
			return 0, errBrokerGone
		}
		if ctx.Err() != nil {
			return 0, fmt.Errorf("the run's work queue: %v", err)
		}
		if errors.Is(err, jetstream.ErrConsumerNotFound) {
			return 0, nil // the run is over: its queue is gone
		}
		time.Sleep(pollEvery)
	}
	ackWait := time.Duration(info.AckWaitMS) * time.Millisecond
	if ackWait <= 0 {
		ackWait = DefaultAckWait
	}
	stop := make(chan struct{})
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }) }
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var gone atomic.Bool // the connection gave up: end the run here
	// The run's state: stop taking batches when it leaves Running.
	go func() {
		tick := time.NewTicker(pollEvery)
		defer tick.Stop()
		for {
			select {
			case <-runCtx.Done():
				return
			case <-tick.C:
			}
			if nc.IsClosed() {
				// Without this, fetching and publishing would retry on a
				// closed connection for ever.
				gone.Store(true)
				halt()
				cancel()
				return
			}
			now, _, err := readRun(runCtx, kv)
			if err == nil && (now.ID != info.ID || now.State != Running) {
				halt()
				return
			}
		}
	}()

	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		pending = map[int]*inflight{} // game index → its batch
		busy    int                   // games taken and not yet published
	)
	queue := make(chan int)
	// Fetch a batch whenever a slot is free.
	go func() {
		defer close(queue)
		for {
			mu.Lock()
			for busy >= o.Concurrency && !stopped(stop) {
				cond.Wait()
			}
			mu.Unlock()
			if stopped(stop) || runCtx.Err() != nil {
				return
			}
			msg, err := cons.Next(jetstream.FetchMaxWait(time.Second))
			if err != nil {
				if runCtx.Err() != nil {
					return
				}
				if !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
					time.Sleep(100 * time.Millisecond) // reconnecting, or a consumer being set up
				}
				continue
			}
			{
				var b Batch
				if err := json.Unmarshal(msg.Data(), &b); err != nil || b.Run != info.ID || len(b.Games) == 0 || len(b.Games) > MaxBatchGames {
					msg.Term() // not ours to play; never redelivered
					continue
				}
				in := &inflight{msg: msg}
				var games []int
				mu.Lock()
				for _, g := range b.Games {
					if _, ok := t.FixturePos(g); ok && pending[g] == nil {
						pending[g] = in
						games = append(games, g)
					}
				}
				in.left = len(games)
				busy += len(games)
				mu.Unlock()
				if len(games) == 0 {
					msg.Ack()
					continue
				}
				if o.Verbose {
					fmt.Fprintf(o.Log, "took games %s\n", strings.Trim(fmt.Sprint(games), "[]"))
				}
				for _, g := range games {
					select {
					case queue <- g:
					case <-stop:
						return
					case <-runCtx.Done():
						return
					}
				}
			}
		}
	}()
	// Heartbeats: batches being played stay leased.
	go func() {
		tick := time.NewTicker(max(ackWait/3, 50*time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-runCtx.Done():
				return
			case <-tick.C:
			}
			mu.Lock()
			seen := map[*inflight]bool{}
			for _, in := range pending {
				if !seen[in] {
					seen[in] = true
					in.msg.InProgress()
				}
			}
			mu.Unlock()
		}
	}()
	subject := resultSubject(info.ID)
	played := 0
	// Result ids are per attempt: a rejected result (a forgery under a
	// guessed id, or this worker's own whose check failed) never makes a
	// later genuine one a duplicate; the coordinator drops duplicates
	// from its record.
	idNonce, attempts := nonce(), 0
	// The confirmer: a batch is acknowledged once all its results are
	// stored.
	confirms := make(chan pub, 1024)
	confirmed := make(chan struct{})
	// refused is a result the broker refuses for good (read once
	// confirmed is closed): the run ends for this worker, saying why,
	// rather than publish it again for ever.
	var refused error
	go func() {
		defer close(confirmed)
		for p := range confirms {
			if err := confirm(runCtx, js, subject, p); err != nil {
				if runCtx.Err() == nil && refused == nil {
					refused = fmt.Errorf("game %d: the broker refuses its result of %d bytes (%v)", p.index, len(p.data), err)
					cancel()
				}
				continue // the run is over; the batch goes to another worker
			}
			played++
			mu.Lock()
			in := pending[p.index]
			delete(pending, p.index)
			if in != nil {
				if in.left--; in.left == 0 {
					in.msg.Ack()
				}
			}
			mu.Unlock()
		}
	}()
	_, runErr := t.Run(runCtx, arena.RunOptions{
		Concurrency: o.Concurrency, Queue: queue, Stop: stop, Log: o.Log, ReuseGames: true,
		Sink: func(batch []*results.GameRecord) error {
			// Publish without waiting: the confirmer waits for the
			// acknowledgements (and publishes again what failed), so that a
			// worker is free for its next game after one local step.
			for _, g := range batch {
				g.TCScale, g.WorkerNPS = sc.factor, sc.nps
				// The arena fits a record to results.MaxGameBytes; a
				// server with a smaller limit (an external one's default
				// is 1 MiB) needs its info texts cut further.
				if err := g.Fit(resultLimit(nc)); err != nil {
					return arena.Unrecordable(g.Index, t.Config.MaxPlies, fmt.Errorf("%v (the broker takes messages of at most %d bytes)", err, nc.MaxPayload()))
				}
				data, err := json.Marshal(Result{Run: info.ID, Worker: o.Name, Game: g})
				if err != nil {
					return err
				}
				attempts++
				id := resultID(info.ID, g.Index, idNonce, attempts)
				f, err := js.PublishAsync(subject, data, jetstream.WithMsgID(id))
				if err != nil {
					f = nil // published again by the confirmer
				}
				select {
				case confirms <- pub{f: f, data: data, id: id, index: g.Index}:
				case <-runCtx.Done():
					return runCtx.Err()
				}
				mu.Lock()
				busy--
				cond.Signal()
				mu.Unlock()
			}
			return nil
		},
	})
	close(confirms)
	<-confirmed
	halt()
	mu.Lock()
	cond.Broadcast()
	mu.Unlock()
	if gone.Load() {
		return played, errBrokerGone
	}
	if refused != nil {
		runErr = refused
	}
	if runErr != nil && ctx.Err() == nil && !errors.Is(runErr, context.Canceled) {
		// A game that cannot be recorded is named: the coordinator
		// checks it and ends the run, rather than queue it again for
		// ever.
		var tooLong *int
		if u := (*arena.UnrecordableError)(nil); errors.As(runErr, &u) {
			tooLong = &u.Game
		}
		report(runErr.Error(), tooLong)
		return played, runErr
	}
	return played, nil
}

func stopped(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// pub is a result published asynchronously, and its message.
type pub struct {
	f     jetstream.PubAckFuture // nil if the publication failed at once
	data  []byte
	id    string
	index int
}

// resultID is the message id of one attempt at a game: the run, the game,
// the worker's nonce (unguessable) and its count of results.
func resultID(run string, index int, nonce string, attempt int) string {
	return run + "." + strconv.Itoa(index) + "." + nonce + "." + strconv.Itoa(attempt)
}

// resultLimit is the size a record must fit (results.GameRecord.Fit) for
// its Result to be a message the server takes.
func resultLimit(nc *nats.Conn) int {
	return int(min(int64(maxRecord), nc.MaxPayload()-resultEnvelope))
}

// maxRecord is results.MaxGameBytes; a variable for the tests, which make
// a game too long to record with a small one.
var maxRecord = results.MaxGameBytes

// confirm waits until the result is stored: the asynchronous publication
// acknowledged, else the message published again (the broker may be
// restarting, or its results stream full; the message id makes a repeat
// harmless) until it is. A message too long for the server or the stream
// is refused at once: publishing it again cannot help.
func confirm(ctx context.Context, js jetstream.JetStream, subject string, p pub) error {
	if p.f != nil {
		select {
		case <-p.f.Ok():
			return nil
		case err := <-p.f.Err():
			if tooLong(err) {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for {
		_, err := js.Publish(ctx, subject, p.data, jetstream.WithMsgID(p.id))
		if err == nil || ctx.Err() != nil || tooLong(err) {
			return err
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// tooLong reports whether err refuses a message for its size.
func tooLong(err error) bool {
	return errors.Is(err, nats.ErrMaxPayload) || errors.Is(err, jetstream.ErrStreamMessageExceedsMaximum)
}

// gameCount is "1 game" or "n games", for the log.
func gameCount(n int) string {
	if n == 1 {
		return "1 game"
	}
	return fmt.Sprintf("%d games", n)
}
