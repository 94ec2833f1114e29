package broker

import (
	"context"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// TestStatusRefusals: a failed login and a message refused by a worker's
// permissions reach the run's Status (the command's progress line) while
// the run goes on. Before RunOptions.Status, only the log and the final
// summary showed them.
func TestStatusRefusals(t *testing.T) {
	tour := newTour(t, 4)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var log syncBuffer
	urlc := make(chan string, 1)
	statuses := make(chan arena.RunStatus, 100)
	o := Options{Broker: "embedded", Server: ServerOptions{Listen: "127.0.0.1:0", Token: "right", StoreDir: t.TempDir()},
		Log: &log, Ready: func(u string) { urlc <- u }}
	done := make(chan error, 1)
	go func() {
		// No local workers: the run waits for a worker, the test's.
		_, err := tour.Run(ctx, arena.RunOptions{
			Sink:   func([]*results.GameRecord) error { return nil },
			Runner: Runner(o),
			Status: func(s arena.RunStatus) { statuses <- s },
		})
		done <- err
	}()
	url := <-urlc
	if _, err := Connect(url, "arena worker eve", Credentials{Token: "wrong"}, time.Second); err == nil {
		t.Fatal("a wrong token was let in")
	}
	want := arena.RunStatus{RefusedLogins: 1}
	wait := func() {
		t.Helper()
		for {
			select {
			case s := <-statuses:
				if s == want {
					return
				}
			case <-ctx.Done():
				t.Fatalf("no status %+v came:\n%s", want, log.String())
			}
		}
	}
	wait()
	nc, err := Connect(url, "arena worker mallory", Credentials{Token: "right"}, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	waitRunning(t, nc, RunID(tour.Config))
	// A worker may not queue games: the server refuses the message.
	if err := nc.Publish(workSubject(RunID(tour.Config)), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	nc.Flush()
	want = arena.RunStatus{RefusedLogins: 1, RefusedMessages: 1}
	wait()
	if got := want.String(); got != "2 refused (1 login, 1 message)" {
		t.Errorf("status line %q", got)
	}
	cancel()
	<-done
}
