package broker

import (
	"context"
	"io"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// startWorkers runs a worker (w0, w1, …: one game at once) for each log
// on its own connection to url until its run is over (nil logs: no log);
// wait waits for them.
func startWorkers(ctx context.Context, t *testing.T, url string, logs []io.Writer) (wait func()) {
	t.Helper()
	var wg sync.WaitGroup
	for i, log := range logs {
		nc, err := Connect(url, "test", Credentials{}, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer nc.Close()
			if err := Work(ctx, nc, WorkerOptions{Name: "w" + strconv.Itoa(i), Concurrency: 1, Log: log}); err != nil {
				t.Errorf("worker w%d: %v", i, err)
			}
		}()
	}
	return wg.Wait
}

// startRemoteRun runs tour with an embedded broker on loopback and no
// local worker (the test's workers play every game), o's other options
// kept; it returns the address workers join and a function that waits for
// the run and returns its games, stats and error.
func startRemoteRun(ctx context.Context, t *testing.T, tour *arena.Tournament, o Options) (url string, result func() ([]*results.GameRecord, arena.RunStats, error)) {
	t.Helper()
	o.Server = ServerOptions{}
	return startRun(ctx, t, tour, o, 0)
}

// startRun is startRemoteRun with o.Server kept (on loopback in a
// temporary store where it names neither) and concurrency local workers.
func startRun(ctx context.Context, t *testing.T, tour *arena.Tournament, o Options, concurrency int) (url string, result func() ([]*results.GameRecord, arena.RunStats, error)) {
	t.Helper()
	urlc := make(chan string, 1)
	if o.Broker == "" {
		o.Broker = "embedded"
	}
	if o.Server.Listen == "" {
		o.Server.Listen = "127.0.0.1:0"
	}
	if o.Server.StoreDir == "" {
		o.Server.StoreDir = t.TempDir()
	}
	o.Ready = func(u string) { urlc <- u }
	var got []*results.GameRecord
	var st arena.RunStats
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		st, err = tour.Run(ctx, arena.RunOptions{
			Concurrency: concurrency,
			Sink:        func(b []*results.GameRecord) error { got = append(got, b...); return nil },
			Runner:      Runner(o),
		})
	}()
	select {
	case url = <-urlc:
	case <-done:
		t.Fatalf("the run ended before its broker was ready: %v", err)
	}
	return url, func() ([]*results.GameRecord, arena.RunStats, error) { <-done; return got, st, err }
}

// TestHeartbeatsKeepBatchLeased: a batch that takes several leases to play
// (8 games of sleepy agents, about 5 s, against a 1 s lease) stays
// with the worker playing it, whose heartbeats renew the lease every
// third of it (a stall of the process up to 2/3 s is borne): the idle
// second worker never gets it, so no game is played twice. Without the
// heartbeats the batch goes to the second worker after one lease and the
// two play 15-16 games in all.
func TestHeartbeatsKeepBatchLeased(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 8 games of sleepy agents (about 5 s)")
	}
	const games = 8
	tour, err := arena.New(arena.Options{Game: "othello6", Agents: []string{"sleepy", "sleepy"}, GamesPerPair: games, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var coordLog syncBuffer
	url, result := startRemoteRun(ctx, t, tour, Options{AckWait: time.Second, BatchGames: games, Log: &coordLog})
	var logs [2]syncBuffer
	wait := startWorkers(ctx, t, url, []io.Writer{&logs[0], &logs[1]})
	got, st, runErr := result()
	wait()
	if runErr != nil || !st.Complete || len(got) != games {
		t.Fatalf("run: %v, stats %+v, %d games\n%s", runErr, st, len(got), coordLog.String())
	}
	playedRe := regexp.MustCompile(`played (\d+) games`)
	total := 0
	for i := range logs {
		m := playedRe.FindStringSubmatch(logs[i].String())
		if m == nil {
			t.Fatalf("worker w%d did not say how many games it played:\n%s", i, logs[i].String())
		}
		n, _ := strconv.Atoi(m[1])
		total += n
	}
	if total != games {
		t.Errorf("the workers played %d games in all, want %d (a batch whose lease ran out was played again):\nw0: %sw1: %s",
			total, games, logs[0].String(), logs[1].String())
	}
}
