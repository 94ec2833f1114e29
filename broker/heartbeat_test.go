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
	urlc := make(chan string, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var coordLog syncBuffer
	var got []*results.Game
	var st arena.RunStats
	var runErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		st, runErr = tour.Run(ctx, arena.RunOptions{
			Concurrency: 0, // only the two workers below play
			Sink:        func(b []*results.Game) error { got = append(got, b...); return nil },
			Runner: Runner(Options{Broker: "embedded", AckWait: time.Second, BatchGames: games, Log: &coordLog,
				Server: ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()}, Ready: func(u string) { urlc <- u }}),
		})
	}()
	var logs [2]syncBuffer
	wait := startWorkers(ctx, t, <-urlc, []io.Writer{&logs[0], &logs[1]})
	<-done
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
