package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// Tests of "nothing lost, nothing hung": each event below left a run of
// the old coordinator hanging for ever (here: until the test's deadline)
// or ended it with an error.

// checkAllOnce fails t unless the run is complete with every game of
// tour recorded once.
func checkAllOnce(t *testing.T, tour *arena.Tournament, got []*results.GameRecord, st arena.RunStats, err error, log string) {
	t.Helper()
	seen := map[int]int{}
	for _, g := range got {
		seen[g.Index]++
	}
	if err != nil || !st.Complete || len(got) != tour.Schedule.Len() || len(seen) != tour.Schedule.Len() {
		t.Fatalf("run: %v, stats %+v, %d records of %d games, want %d once each\n%s", err, st, len(got), len(seen), tour.Schedule.Len(), log)
	}
}

// waitLog waits until log holds want, for up to a minute.
func waitLog(t *testing.T, log *syncBuffer, want string) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !strings.Contains(log.String(), want); {
		if time.Now().After(end) {
			t.Fatalf("the log never said %q:\n%s", want, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// joinRun connects a client named name to the broker at url (closed at
// the end of the test) once tour's run is running; it returns its
// JetStream and the run's id.
func joinRun(t *testing.T, url, name string, tour *arena.Tournament) (jetstream.JetStream, string) {
	t.Helper()
	nc, err := Connect(url, name, Credentials{}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	id := RunID(tour.Config)
	waitRunning(t, nc, id)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js, id
}

// startOpenRun is startRun on an existing server that gives every
// client every right, as an operator's server without permissions does
// (on the embedded server a worker can neither purge the queue nor write
// the run state: TestWorkerPermissions). There a misbehaving client can,
// and the coordinator must still end the run with every game.
func startOpenRun(ctx context.Context, t *testing.T, tour *arena.Tournament, o Options, concurrency int) (url string, result func() ([]*results.GameRecord, arena.RunStats, error)) {
	t.Helper()
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	o.Broker = ClientURL(srv)
	return startRun(ctx, t, tour, o, concurrency)
}

// waitQueued waits until the run's queue holds n batches not yet taken.
func waitQueued(ctx context.Context, t *testing.T, js jetstream.JetStream, id string, n uint64) {
	t.Helper()
	cons, err := js.Consumer(ctx, WorkStream, workConsumer(id))
	if err != nil {
		t.Fatal(err)
	}
	for {
		ci, err := cons.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ci.NumPending == n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRejectedResultThenGenuine: a forged result published under the id
// a worker would give the genuine one (run.game, the old ids) is rejected,
// logged with its worker and game, and the game queued again; the
// genuine result that follows is recorded. The old coordinator dropped it
// as a duplicate and waited for ever.
func TestRejectedResultThenGenuine(t *testing.T) {
	tour := newTour(t, 4)
	genuine := playLocal(t, tour)
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startRemoteRun(ctx, t, tour, Options{Log: &log})
	js, id := joinRun(t, url, "forger", tour)
	forged := *genuine[1]
	forged.Moves = slices.Clone(forged.Moves)
	open := len(forged.Opening)
	forged.Moves[open] = forged.Moves[open+1]
	b, _ := json.Marshal(Result{Run: id, Worker: "forger", Game: &forged})
	for _, msgID := range []string{id + ".1", id + ".1.0"} {
		if _, err := js.Publish(ctx, resultSubject(id), b, jetstream.WithMsgID(msgID)); err != nil {
			t.Fatal(err)
		}
	}
	wait := startWorkers(ctx, t, url, []io.Writer{nil})
	got, st, runErr := result()
	wait()
	checkAllOnce(t, tour, got, st, runErr, log.String())
	for _, want := range []string{`rejected a result from worker "forger" (not recorded): game 1:`, "game 1 is queued again"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, log.String())
		}
	}
}

// TestAckWithoutPlaying: a worker that acknowledges a batch without
// playing it loses no game: the watchdog finds its games neither
// recorded, queued nor leased, names them and queues them again.
func TestAckWithoutPlaying(t *testing.T) {
	tour := newTour(t, 6)
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startRemoteRun(ctx, t, tour, Options{Log: &log, AckWait: time.Second})
	js, id := joinRun(t, url, "rogue", tour)
	cons, err := js.Consumer(ctx, WorkStream, workConsumer(id))
	if err != nil {
		t.Fatal(err)
	}
	m, err := cons.Next(jetstream.FetchMaxWait(30 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var batch Batch
	json.Unmarshal(m.Data(), &batch)
	if err := m.DoubleAck(ctx); err != nil {
		t.Fatal(err)
	}
	wait := startWorkers(ctx, t, url, []io.Writer{nil})
	got, st, runErr := result()
	wait()
	checkAllOnce(t, tour, got, st, runErr, log.String())
	// Each game of the batch is named (a busy coordinator may name others
	// with them: results it had not read for two looks).
	named := map[string]bool{}
	for _, l := range strings.Split(log.String(), "\n") {
		if games, ok := strings.CutSuffix(l, " were neither recorded, queued nor leased (a batch acknowledged without its results, or the queue purged): queued again"); ok {
			for _, g := range strings.Fields(strings.TrimPrefix(games, "games ")) {
				named[g] = true
			}
		}
	}
	for _, g := range batch.Games {
		if !named[strconv.Itoa(g)] {
			t.Errorf("game %d of the batch acknowledged unplayed is not named:\n%s", g, log.String())
		}
	}
}

// TestPurgedQueue: a client that purges the work queue (on a server that
// lets it) loses no game; a run with games queued and no worker says so.
func TestPurgedQueue(t *testing.T) {
	tour := newTour(t, 6)
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startOpenRun(ctx, t, tour, Options{Log: &log, AckWait: time.Second}, 0)
	js, id := joinRun(t, url, "rogue", tour)
	waitQueued(ctx, t, js, id, 3)
	ws, err := js.Stream(ctx, WorkStream)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.Purge(ctx, jetstream.WithPurgeSubject(workSubject(id))); err != nil {
		t.Fatal(err)
	}
	waitLog(t, &log, "games 0 1 2 3 4 5 were neither recorded, queued nor leased")
	waitLog(t, &log, "6 games left and no worker is playing")
	wait := startWorkers(ctx, t, url, []io.Writer{nil})
	got, st, runErr := result()
	wait()
	checkAllOnce(t, tour, got, st, runErr, log.String())
}

// TestStateSetDoneByClient: a client that sets the run's state to done (on
// a server that lets it) does not end the run: the coordinator says so and sets it back, and its
// local workers, which left, join again.
func TestStateSetDoneByClient(t *testing.T) {
	tour := newTour(t, 6)
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startOpenRun(ctx, t, tour, Options{Log: &log}, 1)
	js, id := joinRun(t, url, "rogue", tour)
	kv, err := js.KeyValue(ctx, Bucket)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(RunInfo{ID: id, State: Done, Config: tour.Config})
	if _, err := kv.Put(ctx, RunKey, b); err != nil {
		t.Fatal(err)
	}
	got, st, runErr := result()
	checkAllOnce(t, tour, got, st, runErr, log.String())
	if !strings.Contains(log.String(), `the run's state was set to "done" by a client, not this coordinator: set back to "running" (1 time so far)`) {
		t.Errorf("the log does not say that the state was set back:\n%s", log.String())
	}
}

// pausingProxy forwards TCP connections to target; the first time a
// client publishes on a work queue ("PUB arena.work."), it holds what
// that client sends until the client has been quiet for quiet (a server
// that froze), then forwards it all.
type pausingProxy struct {
	ln     net.Listener
	target string
	quiet  time.Duration
	once   sync.Once
	paused chan struct{}
}

func newPausingProxy(t *testing.T, target string, quiet time.Duration) *pausingProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &pausingProxy{ln: ln, target: target, quiet: quiet, paused: make(chan struct{})}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			go func() { io.Copy(c, s); c.Close() }()
			go p.forward(c, s)
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return p
}

func (p *pausingProxy) forward(c, s net.Conn) {
	defer s.Close()
	chunks := make(chan []byte, 1<<16)
	go func() {
		defer close(chunks)
		for {
			b := make([]byte, 32<<10)
			n, err := c.Read(b)
			if n > 0 {
				chunks <- b[:n]
			}
			if err != nil {
				return
			}
		}
	}()
	var tail []byte
	for b := range chunks {
		pause := false
		if bytes.Contains(append(tail, b...), []byte("PUB arena.work.")) {
			p.once.Do(func() { pause = true; close(p.paused) })
		}
		tail = append([]byte(nil), b[max(0, len(b)-32):]...)
		if !pause {
			if _, err := s.Write(b); err != nil {
				return
			}
			continue
		}
		held := [][]byte{b}
	hold:
		for {
			select {
			case more, ok := <-chunks:
				if !ok {
					return
				}
				held = append(held, more)
			case <-time.After(p.quiet):
				break hold
			}
		}
		for _, h := range held {
			if _, err := s.Write(h); err != nil {
				return
			}
		}
	}
}

// TestQueueUnderPausedServer: a server that freezes while 4100 batches
// are queued (more than the client's 4000 outstanding asynchronous
// publications) slows the queueing down; the old coordinator died with
// "stalled with too many outstanding async published messages" 200 ms
// into the freeze (the proxy holds for 1 s of quiet: a 5x margin).
func TestQueueUnderPausedServer(t *testing.T) {
	const games = 4100
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	proxy := newPausingProxy(t, srv.Addr().String(), time.Second)
	tour := newTour(t, games)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var log syncBuffer
	done := make(chan error, 1)
	go func() {
		_, err := tour.Run(ctx, arena.RunOptions{Runner: Runner(Options{Broker: "nats://" + proxy.ln.Addr().String(), BatchGames: 1, Log: &log})})
		done <- err
	}()
	nc, err := Connect(ClientURL(srv), "observer", Credentials{}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	id := RunID(tour.Config)
	waitRunning(t, nc, id)
	js, _ := jetstream.New(nc)
	cons, err := js.Consumer(ctx, WorkStream, workConsumer(id))
	if err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case err := <-done:
			t.Fatalf("the run ended while queueing: %v\n%s", err, log.String())
		case <-time.After(50 * time.Millisecond):
		}
		ci, err := cons.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ci.NumPending == games {
			break
		}
	}
	select {
	case <-proxy.paused:
	default:
		t.Fatal("the proxy never paused the queueing")
	}
	cancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("run: %v\n%s", err, log.String())
	}
}

// TestResumeTakesInFlightResults: a coordinator that stopped after it
// fetched results and before it wrote them (here: its sink failed) leaves
// them to the next, which takes them at once, with no worker at all; the
// old one waited for its results consumer's ack wait of a minute first
// (the test allows 12 s, a fifth of it).
func TestResumeTakesInFlightResults(t *testing.T) {
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	url := ClientURL(srv)
	tour := newTour(t, 4)
	genuine := playLocal(t, tour)
	var log syncBuffer
	o := Options{Broker: url, Log: &log}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	first := make(chan error, 1)
	failed := errors.New("the disk is full")
	go func() {
		_, err := tour.Run(ctx, arena.RunOptions{Runner: Runner(o), Sink: func([]*results.GameRecord) error { return failed }})
		first <- err
	}()
	js, id := joinRun(t, url, "worker", tour)
	publish := func(games []*results.GameRecord) {
		for _, g := range games {
			b, _ := json.Marshal(Result{Run: id, Worker: "w", Game: g})
			if _, err := js.Publish(ctx, resultSubject(id), b); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Two games reach the first coordinator (in flight when it stops),
	// two the next.
	publish(genuine[:2])
	if err := <-first; !errors.Is(err, failed) {
		t.Fatalf("first coordinator: %v, want its sink's error", err)
	}
	publish(genuine[2:])
	rctx, rcancel := context.WithTimeout(ctx, 12*time.Second)
	defer rcancel()
	var got []*results.GameRecord
	start := time.Now()
	st, err := tour.Run(rctx, arena.RunOptions{Runner: Runner(o), Sink: func(b []*results.GameRecord) error {
		got = append(got, b...)
		return nil
	}})
	t.Logf("the resumed coordinator took %v", time.Since(start))
	checkAllOnce(t, tour, got, st, err, log.String())
}

// TestDuplicateThatDiffers: a duplicate result that is another game than
// the recorded one (here a forfeit at the first move) is said, naming the
// game and the worker; an identical one is not.
func TestDuplicateThatDiffers(t *testing.T) {
	tour := newTour(t, 2)
	genuine := playLocal(t, tour)
	other := *genuine[0]
	other.Moves = slices.Clone(other.Moves[:len(other.Opening)])
	other.Plies = results.Plies(other.Moves)
	other.Termination, other.Forfeit, other.Winner, other.Result, other.Score = results.Timeout, 0, 1, "0-1", 0
	other.Clocks, other.MoveStats = nil, nil
	for p := range other.Players {
		other.Players[p].Moves = 0
	}
	if err := tour.CheckGame(&other); err != nil {
		t.Fatalf("the other game of index 0 is refused: %v", err)
	}
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startRemoteRun(ctx, t, tour, Options{Log: &log})
	js, id := joinRun(t, url, "forger", tour)
	for _, g := range []*results.GameRecord{genuine[0], genuine[0], &other, genuine[1]} {
		b, _ := json.Marshal(Result{Run: id, Worker: "forger", Game: g})
		if _, err := js.Publish(ctx, resultSubject(id), b); err != nil {
			t.Fatal(err)
		}
	}
	got, st, runErr := result()
	checkAllOnce(t, tour, got, st, runErr, log.String())
	if n := strings.Count(log.String(), "a duplicate result of game 0 from worker \"forger\" differs from the recorded one"); n != 1 {
		t.Errorf("%d lines on a differing duplicate, want 1:\n%s", n, log.String())
	}
	if !slices.Equal(got[0].Moves, genuine[0].Moves) {
		t.Errorf("the recorded game 0 is not the first result")
	}
}

// TestQueueSmallWindow: with one batch awaiting its acknowledgement at a
// time, every batch is queued once and the run ends (the windows of
// queue follow one another).
func TestQueueSmallWindow(t *testing.T) {
	defer func(n int) { publishWindow = n }(publishWindow)
	publishWindow = 1
	tour := newTour(t, 10)
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startRemoteRun(ctx, t, tour, Options{Log: &log, BatchGames: 1})
	js, id := joinRun(t, url, "observer", tour)
	waitQueued(ctx, t, js, id, 10)
	wait := startWorkers(ctx, t, url, []io.Writer{nil, nil})
	got, st, runErr := result()
	wait()
	checkAllOnce(t, tour, got, st, runErr, log.String())
}

// TestMisbehavingClients: a forged result under the genuine one's old id,
// a batch acknowledged unplayed, a purged queue and the run's state set
// to done, all in one run: it ends by itself with every game recorded
// once, by the coordinator's own worker and a remote one that serves run
// after run (which joins the run again when its state is set back).
func TestMisbehavingClients(t *testing.T) {
	tour := newTour(t, 12)
	genuine := playLocal(t, tour)
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startOpenRun(ctx, t, tour, Options{Log: &log, AckWait: time.Second}, 1)
	js, id := joinRun(t, url, "rogue", tour)
	forged := *genuine[5]
	forged.Moves = slices.Clone(forged.Moves)
	open := len(forged.Opening)
	forged.Moves[open] = forged.Moves[open+1]
	b, _ := json.Marshal(Result{Run: id, Worker: "rogue", Game: &forged})
	if _, err := js.Publish(ctx, resultSubject(id), b, jetstream.WithMsgID(id+".5")); err != nil {
		t.Fatal(err)
	}
	cons, err := js.Consumer(ctx, WorkStream, workConsumer(id))
	if err != nil {
		t.Fatal(err)
	}
	if m, err := cons.Next(jetstream.FetchMaxWait(30 * time.Second)); err != nil {
		t.Fatal(err)
	} else if err := m.DoubleAck(ctx); err != nil {
		t.Fatal(err)
	}
	ws, err := js.Stream(ctx, WorkStream)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.Purge(ctx, jetstream.WithPurgeSubject(workSubject(id))); err != nil {
		t.Fatal(err)
	}
	nc, err := Connect(url, "remote", Credentials{}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	wctx, stopWorker := context.WithCancel(ctx)
	defer stopWorker()
	workerDone := make(chan error, 1)
	go func() { workerDone <- Work(wctx, nc, WorkerOptions{Name: "remote", Concurrency: 1, Wait: true}) }()
	kv, err := js.KeyValue(ctx, Bucket)
	if err != nil {
		t.Fatal(err)
	}
	done, _ := json.Marshal(RunInfo{ID: id, State: Done, Config: tour.Config})
	if _, err := kv.Put(ctx, RunKey, done); err != nil {
		t.Fatal(err)
	}
	got, st, runErr := result()
	stopWorker()
	if err := <-workerDone; err != nil {
		t.Errorf("remote worker: %v", err)
	}
	checkAllOnce(t, tour, got, st, runErr, log.String())
	for i, g := range got {
		if !slices.Equal(g.Moves, genuine[g.Index].Moves) {
			t.Errorf("record %d: game %d is not the genuine game", i, g.Index)
		}
	}
}

// TestQueueWindow: the coordinator queues a window of the schedule, not
// all of it, and tops it up as results come: the work queue never holds
// more than queueAhead games, and every game is recorded once. (The old
// coordinator queued the whole schedule at once, and kept each batch's
// games until the batch was gone: memory in the run's games.)
func TestQueueWindow(t *testing.T) {
	defer func(n int) { queueAhead = n }(queueAhead)
	queueAhead = 4
	tour := newTour(t, 40)
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startRemoteRun(ctx, t, tour, Options{Log: &log, BatchGames: 1})
	js, id := joinRun(t, url, "observer", tour)
	cons, err := js.Consumer(ctx, WorkStream, workConsumer(id))
	if err != nil {
		t.Fatal(err)
	}
	// Look at the queue before any worker takes from it, then while two
	// play.
	most := uint64(0)
	look := func() {
		if ci, err := cons.Info(ctx); err == nil {
			most = max(most, ci.NumPending+uint64(ci.NumAckPending))
		}
	}
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		look()
	}
	wait := startWorkers(ctx, t, url, []io.Writer{nil, nil})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			look()
			time.Sleep(5 * time.Millisecond)
		}
	}()
	got, st, runErr := result()
	wait()
	cancel()
	<-done
	checkAllOnce(t, tour, got, st, runErr, log.String())
	if most == 0 || most > uint64(queueAhead) {
		t.Errorf("the work queue held up to %d games; the window is %d", most, queueAhead)
	}
}
