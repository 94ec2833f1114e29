package broker

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

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
	urlc := make(chan string, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var got []*results.Game
	var st arena.RunStats
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		st, err = tour.Run(ctx, arena.RunOptions{
			Concurrency: 0,
			Sink:        func(b []*results.Game) error { got = append(got, b...); return nil },
			Runner: Runner(Options{Broker: "embedded", Server: ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()}, Log: &log,
				Ready: func(u string) { urlc <- u }}),
		})
	}()
	url := <-urlc
	nc, cerr := Connect(url, "test", Credentials{}, 10*time.Second)
	if cerr != nil {
		t.Fatal(cerr)
	}
	defer nc.Close()
	werr := Work(ctx, nc, WorkerOptions{Name: "w", Concurrency: 1, Log: &log})
	<-done
	if err != nil || werr != nil || !st.Complete || len(got) != 10 {
		t.Fatalf("run: %v, worker: %v, stats %+v, %d games\n%s", err, werr, st, len(got), log.String())
	}
}

