package broker

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// TestWorkerPermissions: a client with a worker's credentials (the token,
// a listed NKey, or none on loopback) is refused when it purges the work
// queue, deletes the work consumer or the stream, writes the run's state,
// queues a batch, pulls the coordinator's results or reads every inbox;
// each refusal is counted under its name, the run is untouched, and a
// worker then plays it to the end, the summary naming the refusals. Before workers had a
// role of their own, every one of these succeeded (the purge left the
// queue empty, and the run hung).
func TestWorkerPermissions(t *testing.T) {
	dir := t.TempDir()
	seed, pub := newKey(t, dir, "w.nk")
	for _, tc := range []struct {
		name   string
		server ServerOptions
		creds  Credentials
	}{
		{"token", ServerOptions{Token: "tok"}, Credentials{Token: "tok"}},
		{"nkey", ServerOptions{NKeys: []string{pub}}, Credentials{NKey: seed}},
		{"loopback", ServerOptions{}, Credentials{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const games = 6
			tour := newTour(t, games)
			id := RunID(tour.Config)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var log syncBuffer
			tc.server.StoreDir = t.TempDir()
			url, result := startRun(ctx, t, tour, Options{Server: tc.server, Credentials: tc.creds, Log: &log}, 0)
			nc, err := Connect(url, "arena worker mallory", tc.creds, 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			waitRunning(t, nc, id)
			js, err := jetstream.New(nc)
			if err != nil {
				t.Fatal(err)
			}
			kv, err := js.KeyValue(ctx, Bucket)
			if err != nil {
				t.Fatalf("a worker cannot read the run's bucket: %v", err)
			}
			work, err := js.Consumer(ctx, WorkStream, workConsumer(id))
			if err != nil {
				t.Fatalf("a worker cannot find the work consumer: %v", err)
			}
			pending := func() uint64 {
				t.Helper()
				if err := nc.Flush(); err != nil { // the server has seen what came before
					t.Fatal(err)
				}
				cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				defer cancel()
				info, err := work.Info(cctx)
				if err != nil {
					t.Fatalf("the work consumer: %v", err)
				}
				return info.NumPending
			}
			// The run is running before its games are queued.
			batches := pending()
			for start := time.Now(); batches != games/2 && time.Since(start) < 30*time.Second; batches = pending() {
				time.Sleep(10 * time.Millisecond)
			}
			if batches != games/2 {
				t.Fatalf("%d batches queued, want %d", batches, games/2)
			}
			// A refused request gets no reply: each attempt gives up after
			// a moment, and its refusal shows in the server's count, which
			// holds once the server has answered a ping sent after it.
			try := func(f func(ctx context.Context) error) error {
				cctx, cancel := context.WithTimeout(ctx, time.Second)
				defer cancel()
				return f(cctx)
			}
			request := func(subject string, data []byte) func(context.Context) error {
				return func(ctx context.Context) error {
					_, err := nc.RequestWithContext(ctx, subject, data)
					return err
				}
			}
			done, _ := json.Marshal(RunInfo{ID: id, State: Done})
			batch, _ := json.Marshal(Batch{Run: id, Games: []int{0, 1}})
			attempts := []struct {
				what, subject string
				try           func(context.Context) error
			}{
				{"purge the work queue", "$JS.API.STREAM.PURGE." + WorkStream,
					request("$JS.API.STREAM.PURGE."+WorkStream, []byte(`{"filter":"`+workSubject(id)+`"}`))},
				{"delete the work consumer", "$JS.API.CONSUMER.DELETE." + WorkStream + "." + workConsumer(id),
					func(ctx context.Context) error { return js.DeleteConsumer(ctx, WorkStream, workConsumer(id)) }},
				{"delete the work stream", "$JS.API.STREAM.DELETE." + WorkStream,
					func(ctx context.Context) error { return js.DeleteStream(ctx, WorkStream) }},
				{"write the run's state", "$KV." + Bucket + "." + RunKey,
					func(ctx context.Context) error { _, err := kv.Put(ctx, RunKey, done); return err }},
				{"queue a batch", workSubject(id),
					func(ctx context.Context) error { _, err := js.Publish(ctx, workSubject(id), batch); return err }},
				{"pull the coordinator's results", "$JS.API.CONSUMER.MSG.NEXT." + ResultStream + "." + resultConsumer(id),
					request("$JS.API.CONSUMER.MSG.NEXT."+ResultStream+"."+resultConsumer(id), []byte(`{"batch":1,"no_wait":true}`))},
				// Every reply, the coordinator's and other workers' batches.
				{"read every inbox", "_INBOX.>", func(context.Context) error {
					sub, err := nc.SubscribeSync("_INBOX.>")
					if err == nil {
						err = nc.Flush()
						sub.Unsubscribe()
					}
					if err == nil && !sub.IsValid() {
						err = errors.New("the subscription was closed")
					}
					return err
				}},
			}
			for _, a := range attempts {
				if err := try(a.try); err == nil {
					t.Errorf("a worker could %s", a.what)
				}
				if n := pending(); n != batches {
					t.Fatalf("after a worker's attempt to %s, %d batches are queued, want %d", a.what, n, batches)
				}
				kind := "Publish"
				if a.subject == "_INBOX.>" {
					kind = "Subscription"
				}
				if want := `refused a message of worker "mallory": ` + kind + ` Violation - Subject "` + a.subject + `"`; !strings.Contains(log.String(), want) {
					t.Errorf("the attempt to %s is not logged as %s", a.what, want)
				}
			}
			if info, _, err := readRun(ctx, kv); err != nil || info.State != Running {
				t.Fatalf("the run's state after the attempts: %+v, %v", info, err)
			}
			if err := Work(ctx, nc, WorkerOptions{Name: "mallory", Concurrency: 1}); err != nil {
				t.Fatalf("the worker could not play: %v", err)
			}
			got, st, err := result()
			if err != nil || !st.Complete || len(got) != games {
				t.Fatalf("run: %v %+v, %d games\n%s", err, st, len(got), log.String())
			}
			if !regexp.MustCompile(`mallory +\d+ games, ` + strconv.Itoa(len(attempts)) + ` messages refused by permissions`).MatchString(log.String()) {
				t.Errorf("the summary does not count the refused messages:\n%s", log.String())
			}
		})
	}
}

// TestRefusedLoginCounted: a login with wrong credentials is logged and
// counted in the run's summary under the name the client gave.
func TestRefusedLoginCounted(t *testing.T) {
	tour := newTour(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var log syncBuffer
	url, result := startRun(ctx, t, tour, Options{Server: ServerOptions{Token: "right", StoreDir: t.TempDir()}, Credentials: Credentials{Token: "right"}, Log: &log}, 0)
	nc, err := Connect(url, "arena worker w", Credentials{Token: "right"}, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	waitRunning(t, nc, RunID(tour.Config))
	for range 2 {
		if _, err := Connect(url, "arena worker eve", Credentials{Token: "wrong"}, time.Second); err == nil {
			t.Fatal("a wrong token was let in")
		}
	}
	// A client of another program cannot pass for the coordinator, whose
	// user is let in on in-process connections only.
	if c, err := nats.Connect(url, nats.UserInfo(CoordinatorUser, "x"), nats.Name("arena worker eve")); err == nil {
		c.Close()
		t.Fatal("a network client passed for the coordinator")
	}
	if err := Work(ctx, nc, WorkerOptions{Name: "w", Concurrency: 1}); err != nil {
		t.Fatal(err)
	}
	if _, st, err := result(); err != nil || !st.Complete {
		t.Fatalf("run: %v %+v\n%s", err, st, log.String())
	}
	out := log.String()
	if strings.Count(out, `refused a login from 127.0.0.1:`) != 3 || !strings.Contains(out, `(connection name "eve")`) {
		t.Errorf("the refused logins are not logged:\n%s", out)
	}
	if !strings.Contains(out, "eve") || !strings.Contains(out, "0 games, 3 refused logins") {
		t.Errorf("the summary does not count the refused logins:\n%s", out)
	}
}

// TestDocsPermissions: the nats-server configuration that
// docs/distributed.md gives for an existing server grants a worker's key
// WorkerPermissions, and a run plays through a server started from it
// (the documented keys replaced by fresh ones), its worker on that key.
func TestDocsPermissions(t *testing.T) {
	doc, err := os.ReadFile("../docs/distributed.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "<!-- permissions:")
	_, rest, ok2 := strings.Cut(rest, "```text\n")
	conf, _, ok3 := strings.Cut(rest, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("no permissions block in docs/distributed.md")
	}
	keys := regexp.MustCompile(`\bU[A-Z2-7]{55}\b`).FindAllString(conf, -1)
	if len(keys) < 2 {
		t.Fatalf("the block names %d keys, want the coordinator's and a worker's", len(keys))
	}
	dir := t.TempDir()
	coordSeed, coordPub := newKey(t, dir, "coordinator.nk")
	workerSeed, workerPub := newKey(t, dir, "w1.nk")
	conf = strings.ReplaceAll(strings.ReplaceAll(conf, keys[0], coordPub), keys[len(keys)-1], workerPub)
	path := filepath.Join(dir, "nats.conf")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	opts, err := server.ProcessConfigFile(path)
	if err != nil {
		t.Fatalf("the documented configuration: %v", err)
	}
	for _, u := range opts.Nkeys {
		switch u.Nkey {
		case coordPub:
			if u.Permissions != nil {
				t.Errorf("the coordinator's key has permissions %+v, want every right", u.Permissions)
			}
		case workerPub:
			want := WorkerPermissions(WorkerInbox(workerPub))
			if p := u.Permissions; p == nil || p.Publish == nil || p.Subscribe == nil ||
				!slices.Equal(p.Publish.Allow, want.Publish.Allow) || !slices.Equal(p.Subscribe.Allow, want.Subscribe.Allow) || p.Publish.Deny != nil || p.Subscribe.Deny != nil {
				t.Errorf("the worker's permissions %+v, want %+v", p, want)
			}
		}
	}
	playOnServer(t, opts, coordSeed, workerSeed, io.Discard)
}

// playOnServer starts a NATS server of opts on loopback, as an operator's
// own, and plays a 4-game run through it: the coordinator with the NKey
// coordSeed, the games by a worker with the NKey workerSeed, logging to log.
func playOnServer(t *testing.T, opts *server.Options, coordSeed, workerSeed string, log io.Writer) {
	t.Helper()
	opts.Host, opts.Port, opts.StoreDir, opts.NoLog, opts.NoSigs = "127.0.0.1", server.RANDOM_PORT, t.TempDir(), true, true
	opts.JetStream = true
	srv, err := server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Start()
	defer srv.Shutdown()
	if !srv.ReadyForConnections(10 * time.Second) {
		t.Fatal("the server did not start")
	}
	url := ClientURL(srv)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	nc, err := Connect(url, "arena worker w1", Credentials{NKey: workerSeed}, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	workerDone := make(chan error, 1)
	go func() { workerDone <- Work(ctx, nc, WorkerOptions{Name: "w1", Concurrency: 1, Log: log}) }()
	tour := newTour(t, 4)
	n := 0
	st, err := tour.Run(ctx, arena.RunOptions{
		Sink:   func(b []*results.GameRecord) error { n += len(b); return nil },
		Runner: Runner(Options{Broker: url, Credentials: Credentials{NKey: coordSeed}}),
	})
	if err != nil || !st.Complete || n != 4 {
		t.Fatalf("run: %v %+v, %d games", err, st, n)
	}
	if err := <-workerDone; err != nil {
		t.Fatalf("worker: %v", err)
	}
}

// TestWorkerLogsRefusal: a worker whose message the server refuses (an
// existing server whose worker permissions lack acknowledgements) says so
// in its log (the first few), instead of only waiting; the run still
// ends, as its results are allowed. Without the worker's error handler
// the log says nothing of it.
func TestWorkerLogsRefusal(t *testing.T) {
	dir := t.TempDir()
	coordSeed, coordPub := newKey(t, dir, "coordinator.nk")
	workerSeed, workerPub := newKey(t, dir, "w1.nk")
	perms := WorkerPermissions(WorkerInbox(workerPub))
	perms.Publish.Allow = slices.DeleteFunc(perms.Publish.Allow, func(s string) bool { return strings.HasPrefix(s, "$JS.ACK.") })
	var log syncBuffer
	playOnServer(t, &server.Options{Nkeys: []*server.NkeyUser{{Nkey: coordPub}, {Nkey: workerPub, Permissions: perms}}}, coordSeed, workerSeed, &log)
	if n := strings.Count(log.String(), `the broker refused a message of this worker (nats: permissions violation: Permissions Violation for Publish to "$JS.ACK.ARENA_WORK.`); n < 1 {
		t.Errorf("the worker did not log its refused acknowledgements:\n%s", log.String())
	}
}

// TestGuardBounded: refusals under ever new names are counted under at
// most maxIncidentNames names, the rest under "?", and logged up to
// maxNotes lines, then a line at each power of 10.
func TestGuardBounded(t *testing.T) {
	g := newGuard(ServerOptions{Token: "t"})
	var lines []string
	g.setNotify(func(l string) { lines = append(lines, l) })
	for i := range maxIncidentNames + 5 {
		g.refuse(strconv.Itoa(i), nil)
	}
	// maxNotes lines, then one at 100 and 1000 refusals.
	if len(lines) != maxNotes+2 || !strings.Contains(lines[maxNotes-1], "further refusals are counted, not logged") || lines[maxNotes+1] != "1000 logins and messages refused so far (the summary counts them by worker)" {
		t.Errorf("%d log lines: %q", len(lines), lines[maxNotes-1:])
	}
	got := g.snapshot()
	if len(got) != maxIncidentNames+1 || got["?"].logins != 5 {
		t.Errorf("%d names, %d under ?", len(got), got["?"].logins)
	}
}
