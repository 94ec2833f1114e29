package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/boardgame-arena/arena/arena"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/results"
)

// syncBuffer is a log written by several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newTour(t *testing.T, games int) *arena.Tournament {
	t.Helper()
	tour, err := arena.New(arena.Options{Game: "othello6", Agents: []string{"random", "greedy"}, GamesPerPair: games, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	return tour
}

// TestRemoteOnly: a coordinator without local workers and one worker on
// a TCP connection record every game once.
func TestRemoteOnly(t *testing.T) {
	tour := newTour(t, 10)
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startRemoteRun(ctx, t, tour, Options{Log: &log})
	nc, cerr := Connect(url, "test", Credentials{}, 10*time.Second)
	if cerr != nil {
		t.Fatal(cerr)
	}
	defer nc.Close()
	werr := Work(ctx, nc, WorkerOptions{Name: "w", Concurrency: 1, Log: &log})
	got, st, err := result()
	if err != nil || werr != nil || !st.Complete || len(got) != 10 {
		t.Fatalf("run: %v, worker: %v, stats %+v, %d games\n%s", err, werr, st, len(got), log.String())
	} // Every record names its worker, and the summary counts its games.
	for _, g := range got {
		if g.Worker != "w" {
			t.Errorf("game %d: worker %q, want w", g.Index, g.Worker)
		}
	}
	if !regexp.MustCompile(`(?m)^  w +10 games$`).MatchString(log.String()) {
		t.Errorf("no summary line for worker w:\n%s", log.String())
	}
}

// playLocal plays the whole tournament in this process: the games a
// worker would publish.
func playLocal(t *testing.T, tour *arena.Tournament) []*results.GameRecord {
	t.Helper()
	var out []*results.GameRecord
	if _, err := tour.Run(context.Background(), arena.RunOptions{Concurrency: 1, Sink: func(b []*results.GameRecord) error {
		out = append(out, b...)
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestForgedResults: results published straight to the results subject
// are recorded only if they are the schedule's games played by the rules;
// each forgery is rejected and logged, a duplicate dropped silently.
func TestForgedResults(t *testing.T) {
	tour := newTour(t, 4)
	genuine := playLocal(t, tour)
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startRemoteRun(ctx, t, tour, Options{Log: &log})
	nc, cerr := Connect(url, "forger", Credentials{}, 10*time.Second)
	if cerr != nil {
		t.Fatal(cerr)
	}
	defer nc.Close()
	id := RunID(tour.Config)
	waitRunning(t, nc, id)
	publish := func(g *results.GameRecord, run string) {
		t.Helper()
		b, _ := json.Marshal(Result{Run: run, Worker: "forger", Game: g})
		if err := nc.Publish(resultSubject(id), b); err != nil {
			t.Fatal(err)
		}
	}
	forge := func(edit func(g *results.GameRecord)) *results.GameRecord {
		c := *genuine[0]
		c.Moves = slices.Clone(c.Moves)
		edit(&c)
		return &c
	}
	open := len(genuine[0].Opening)
	forgeries := []struct {
		name string
		g    *results.GameRecord
		run  string
		want string
	}{
		{"illegal move", forge(func(g *results.GameRecord) { g.Moves[open] = g.Moves[open+1] }), id, "move"},
		{"unknown index", forge(func(g *results.GameRecord) { g.Index = 99 }), id, "not in the schedule"},
		{"wrong players", forge(func(g *results.GameRecord) { g.Players[0], g.Players[1] = g.Players[1], g.Players[0] }), id, "the schedule says"},
		{"wrong result", forge(func(g *results.GameRecord) {
			if g.Winner == -1 {
				g.Winner, g.Result = 0, "1-0"
			} else {
				g.Winner, g.Result, g.Score = -1, "1/2-1/2", 0
			}
		}), id, "final position gives"},
		{"cut short", forge(func(g *results.GameRecord) { g.Moves = g.Moves[:len(g.Moves)-1]; g.Plies-- }), id, "not a finished game"},
		{"other run", genuine[0], "0000000000000000", "not " + id},
	}
	for _, f := range forgeries {
		publish(f.g, f.run)
	}
	for _, g := range genuine {
		publish(g, id)
		publish(g, id) // a duplicate
	}
	nc.Flush()
	got, st, err := result()
	if err != nil || !st.Complete {
		t.Fatalf("run: %v, %+v\n%s", err, st, log.String())
	}
	if len(got) != len(genuine) {
		t.Fatalf("recorded %d games, want the %d genuine ones\n%s", len(got), len(genuine), log.String())
	}
	for i, g := range got {
		if !slices.Equal(g.Moves, genuine[i].Moves) || g.Index != genuine[i].Index {
			t.Errorf("recorded game %d is not the genuine game %d", g.Index, genuine[i].Index)
		}
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	var rejected []string
	for _, l := range lines {
		if strings.Contains(l, "rejected a result") {
			rejected = append(rejected, l)
		}
	}
	if len(rejected) != len(forgeries) {
		t.Fatalf("%d rejections logged, want %d:\n%s", len(rejected), len(forgeries), log.String())
	}
	for i, f := range forgeries {
		if !strings.Contains(rejected[i], f.want) {
			t.Errorf("%s: logged %q, want it to say %q", f.name, rejected[i], f.want)
		}
	}
}

// TestWrongToken: a connection with the wrong token is refused with advice.
func TestWrongToken(t *testing.T) {
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Token: "right"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	_, err = Connect(ClientURL(srv), "w", Credentials{Token: "wrong"}, time.Second)
	if err == nil || !strings.Contains(err.Error(), "authorization violation: check Token") {
		t.Fatalf("wrong token: %v", err)
	}
	nc, err := Connect(ClientURL(srv), "w", Credentials{Token: "right"}, time.Second)
	if err != nil {
		t.Fatalf("right token: %v", err)
	}
	nc.Close()
	if _, err := StartServer(ServerOptions{Listen: "0.0.0.0:0", StoreDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "give Token") {
		t.Fatalf("beyond loopback without a token: %v", err)
	}
}

// TestExternalServer: coordinators on an existing server (--broker
// nats://…) play run after run, with a worker that waits for the next one
// (--wait) beside their local workers.
func TestExternalServer(t *testing.T) {
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Token: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	url := ClientURL(srv)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	nc, err := Connect(url, "waiting worker", Credentials{Token: "tok"}, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	wctx, stopWorker := context.WithCancel(ctx)
	workerDone := make(chan error, 1)
	go func() { workerDone <- Work(wctx, nc, WorkerOptions{Name: "waiting", Concurrency: 1, Wait: true}) }()
	for seed := uint64(1); seed <= 2; seed++ {
		tour, err := arena.New(arena.Options{Game: "othello6", Agents: []string{"random", "greedy"}, GamesPerPair: 6, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		want := playLocal(t, tour)
		got := map[int]*results.GameRecord{}
		st, err := tour.Run(ctx, arena.RunOptions{
			Concurrency: 1,
			Sink: func(b []*results.GameRecord) error {
				for _, g := range b {
					got[g.Index] = g
				}
				return nil
			},
			Runner: Runner(Options{Broker: url, Credentials: Credentials{Token: "tok"}}),
		})
		if err != nil || !st.Complete || len(got) != len(want) {
			t.Fatalf("run %d: %v %+v, %d games", seed, err, st, len(got))
		}
		for _, g := range want {
			if !slices.Equal(got[g.Index].Moves, g.Moves) {
				t.Fatalf("run %d, game %d: not the local run's game", seed, g.Index)
			}
		}
	}
	stopWorker()
	if err := <-workerDone; err != nil {
		t.Fatalf("waiting worker: %v", err)
	}
}

// waitRunning waits until the coordinator has set up run id (its streams
// exist from then on).
func waitRunning(t *testing.T, nc *nats.Conn, id string) {
	t.Helper()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	kv, err := waitBucket(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	for ctx.Err() == nil {
		if info, _, err := readRun(ctx, kv); err == nil && info.ID == id && info.State == Running {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the run did not start")
}

// TestRetryAPI: a request whose reply does not come within apiAttempt is
// sent again; other errors, the caller's end and the last attempt are
// final.
func TestRetryAPI(t *testing.T) {
	defer func(d time.Duration) { apiAttempt = d }(apiAttempt)
	apiAttempt = 20 * time.Millisecond
	lost := func(n int) func(context.Context) error {
		calls := 0
		return func(ctx context.Context) error {
			calls++
			if calls <= n {
				<-ctx.Done() // the reply never comes
				return ctx.Err()
			}
			return nil
		}
	}
	refused := errors.New("refused")
	for _, c := range []struct {
		name  string
		f     func(context.Context) error
		ctx   time.Duration // the caller's deadline from now, 0 for none
		calls int
		err   error
	}{
		{"one reply lost", lost(1), 0, 2, nil},
		{"every reply lost", lost(99), 0, apiAttempts, context.DeadlineExceeded},
		{"the caller's time is up", lost(99), -time.Second, 1, context.DeadlineExceeded},
		{"refused", func(context.Context) error { return refused }, 0, 1, refused},
	} {
		ctx := context.Background()
		if c.ctx != 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, c.ctx)
			defer cancel()
		}
		calls := 0
		err := retryAPI(ctx, func(ctx context.Context) error { calls++; return c.f(ctx) })
		if calls != c.calls || !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("%s: %d calls, error %v; want %d, %v", c.name, calls, err, c.calls, c.err)
		}
	}
}
