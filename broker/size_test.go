package broker

import (
	"context"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/ugi/ugitest"
)

// TestMain lets this test binary serve as a UGI engine (ugitest.Engine).
func TestMain(m *testing.M) {
	ugitest.ServeIfAsked()
	os.Exit(m.Run())
}

// TestOversizedResult: an engine that prints a 0.9 MB info string before
// each move makes records of 13-14 MB, over the broker's message limit.
// The run still ends by itself: the games are recorded with the info
// texts cut (Trimmed, TrimMark) to results.MaxGameBytes, exactly as a
// local run records them. Before, the worker published the result again
// every 250 ms for ever ("maximum payload exceeded") while its heartbeats
// kept the batch leased, and the run never ended.
func TestOversizedResult(t *testing.T) {
	engine := "ugi:cmd=" + ugitest.Engine(t, "random", "verbose", "") + ",name=verbose"
	tour, err := arena.New(arena.Options{Game: "othello6", Agents: []string{engine, "random"}, GamesPerPair: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]*results.GameRecord{}
	for _, g := range playLocal(t, tour) {
		want[g.Index] = g
	}
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	var log, wlog syncBuffer
	url, result := startRemoteRun(ctx, t, tour, Options{Log: &log})
	wait := startWorkers(ctx, t, url, []io.Writer{&wlog})
	got, st, runErr := result()
	wait()
	if runErr != nil || !st.Complete || len(got) != 2 {
		t.Fatalf("run: %v, stats %+v, %d games (the run must end by itself)\ncoordinator:\n%s\nworker:\n%s", runErr, st, len(got), log.String(), wlog.String())
	}
	for _, g := range got {
		line := results.AppendGame(nil, g)
		cut := 0
		for _, m := range g.MoveStats {
			if strings.HasSuffix(m.Info, results.TrimMark) {
				cut++
			}
		}
		if len(line) > results.MaxGameBytes || g.Trimmed < 8<<20 || cut < 8 {
			t.Errorf("game %d: a line of %d bytes, %d bytes trimmed from %d info texts; want at most %d bytes, the info lines of 13 MB cut", g.Index, len(line), g.Trimmed, cut, results.MaxGameBytes)
		}
		w := want[g.Index]
		if w == nil || !slices.Equal(g.Moves, w.Moves) || g.Result != w.Result || g.Trimmed != w.Trimmed || len(g.MoveStats) != len(w.MoveStats) {
			t.Fatalf("game %d is not recorded as the local run records it", g.Index)
		}
		for i, m := range g.MoveStats {
			if m.Info != w.MoveStats[i].Info {
				t.Errorf("game %d, move %d: info of %d bytes, %d in the local run", g.Index, i, len(m.Info), len(w.MoveStats[i].Info))
			}
		}
	}
}

// TestOversizedResultSmallServer: on an existing NATS server whose
// messages are smaller than a record may be (max_payload's default is
// 1 MiB), workers cut the info texts further, to what the server takes,
// and the run ends by itself.
func TestOversizedResultSmallServer(t *testing.T) {
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true, StoreDir: t.TempDir(), MaxPayload: 1 << 20, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go srv.Start()
	defer srv.Shutdown()
	if !srv.ReadyForConnections(10 * time.Second) {
		t.Fatal("the server did not start")
	}
	engine := "ugi:cmd=" + ugitest.Engine(t, "random", "verbose", "") + ",name=verbose"
	tour, err := arena.New(arena.Options{Game: "othello6", Agents: []string{engine, "random"}, GamesPerPair: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	var log syncBuffer
	var got []*results.GameRecord
	st, err := tour.Run(ctx, arena.RunOptions{Concurrency: 1, Runner: Runner(Options{Broker: ClientURL(srv), Log: &log}),
		Sink: func(b []*results.GameRecord) error { got = append(got, b...); return nil }})
	if err != nil || !st.Complete || len(got) != 2 {
		t.Fatalf("run: %v, %+v, %d games (the run must end by itself)\n%s", err, st, len(got), log.String())
	}
	for _, g := range got {
		if n := len(results.AppendGame(nil, g)); n > 1<<20 || g.Trimmed < 10<<20 {
			t.Errorf("game %d: a line of %d bytes, %d bytes trimmed; want the info texts cut to 1 MiB", g.Index, n, g.Trimmed)
		}
	}
}

// TestJunkResults: a client with a worker's credentials fills the results
// subject of the next run with junk near the message limits (12 messages
// of 7.9 MiB, 24 of 3.9 MiB: 189 MB). The results stream keeps at most
// resultStreamBytes of it (disk), the coordinator reads it a bounded
// batch at a time (memory), and the run records every game. Before, the
// stream kept all of it and the coordinator fetched it all at once.
func TestJunkResults(t *testing.T) {
	if testing.Short() {
		t.Skip("publishes 189 MB of junk")
	}
	const token = "tok"
	h, err := Open(Options{Broker: "embedded", Server: ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Token: token}, Credentials: Credentials{Token: token}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	run := func(seed uint64) (arena.RunStats, int, error) {
		tour, err := arena.New(arena.Options{Game: "othello6", Agents: []string{"random", "greedy"}, GamesPerPair: 20, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		st, err := tour.Run(ctx, arena.RunOptions{Concurrency: 2, Runner: h.Runner(), Sink: func(b []*results.GameRecord) error { n += len(b); return nil }})
		return st, n, err
	}
	// The first run sets up the streams.
	if st, n, err := run(1); err != nil || !st.Complete || n != 20 {
		t.Fatalf("first run: %v, %+v, %d games", err, st, n)
	}
	next, err := arena.New(arena.Options{Game: "othello6", Agents: []string{"random", "greedy"}, GamesPerPair: 20, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	js := connectJS(t, h.url, Credentials{Token: token})
	subject := resultSubject(RunID(next.Config))
	stored := 0
	for _, junk := range []struct{ n, size int }{{12, 8<<20 - 128<<10}, {24, 4<<20 - 128<<10}} {
		data := []byte(strings.Repeat("x", junk.size))
		for range junk.n {
			if _, err := js.Publish(ctx, subject, data); err == nil {
				stored++
			}
		}
	}
	// A worker may not read the stream's state: the coordinator's rights.
	cnc, err := h.connect(ctx, "inspector", false)
	if err != nil {
		t.Fatal(err)
	}
	defer cnc.Close()
	cjs, err := jetstream.New(cnc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := cjs.Stream(ctx, ResultStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the results stream kept %d junk messages, %d bytes", stored, info.State.Bytes)
	if info.State.Bytes > 80<<20 {
		t.Errorf("the results stream holds %d bytes of junk; want at most 80 MiB", info.State.Bytes)
	}
	// The second run reads the junk (and rejects it) before its games.
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	st, n, err := run(2)
	close(stop)
	wg.Wait()
	if err != nil || !st.Complete || n != 20 {
		t.Fatalf("second run: %v, %+v, %d games", err, st, n)
	}
	grew := int64(peak.Load()) - int64(base)
	t.Logf("heap: %d MB before the run, at most %d MB more during it", base>>20, grew>>20)
	// About 120 MB now (the embedded server's copies and the garbage
	// they leave until the next collection); 520 MB before.
	if grew > 256<<20 {
		t.Errorf("the heap grew by %d MB while the coordinator read the junk; want at most 256 MB", grew>>20)
	}
}

// TestConfirmRefusedForGood: a result the stream refuses for its size is
// not published again and again (every 250 ms, for ever, as before):
// confirm returns the refusal at once, whether the asynchronous
// publication failed or not.
func TestConfirmRefusedForGood(t *testing.T) {
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	js := connectJS(t, ClientURL(srv), Credentials{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "SMALL", Subjects: []string{"small.*"}, MaxMsgSize: 1024}); err != nil {
		t.Fatal(err)
	}
	data := []byte(strings.Repeat("x", 2048))
	f, err := js.PublishAsync("small.a", data, jetstream.WithMsgID("a"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []pub{{f: f, data: data, id: "a"}, {data: data, id: "b"}} {
		if err := confirm(ctx, js, "small.a", p); err == nil || !tooLong(err) || ctx.Err() != nil {
			t.Errorf("confirm of a message over the stream's limit: %v (ctx: %v)", err, ctx.Err())
		}
	}
}

// connectJS connects a client to url with creds, closed at the end of
// the test.
func connectJS(t *testing.T, url string, creds Credentials) jetstream.JetStream {
	t.Helper()
	nc, err := Connect(url, "test client", creds, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}
