package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/option"
)

// TestUnrecordableGameEndsRun: a game whose record cannot be recorded
// (here every game: records may have at most 1000 bytes) makes the worker
// that takes it leave the run, and the coordinator, once its own replay
// agrees, ends the run with the error a local run gives: the game, its
// size and MaxPlies. Before, the watchdog queued the game again for ever,
// each worker that took it left, and the run never ended (here: until
// the test's deadline, with no error).
func TestUnrecordableGameEndsRun(t *testing.T) {
	defer func(n int) { maxRecord = n }(maxRecord)
	maxRecord = 1000
	tour := newTour(t, 4)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var log, wlog syncBuffer
	url, result := startRemoteRun(ctx, t, tour, Options{Log: &log})
	nc, err := Connect(url, "arena worker w", Credentials{}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	werr := make(chan error, 1)
	go func() { werr <- Work(ctx, nc, WorkerOptions{Name: "w", Concurrency: 1, Log: &wlog}) }()
	got, st, runErr := result()
	w := <-werr
	var u *arena.UnrecordableError
	var o *option.Error
	if !errors.As(runErr, &u) || !errors.As(runErr, &o) || o.Name != "MaxPlies" || st.Complete || len(got) != 0 || ctx.Err() != nil {
		t.Fatalf("run: %v, stats %+v, %d games (want the run to end by itself on an unrecordable game, naming MaxPlies)\ncoordinator:\n%s\nworker (%v):\n%s",
			runErr, st, len(got), log.String(), w, wlog.String())
	}
	msg := runErr.Error()
	for _, want := range []string{`worker "w" left the run on game ` + fmt.Sprint(u.Game), fmt.Sprintf("game %d: its record takes up to ", u.Game), "more than the 1000 bytes a record may have"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the run's error %q does not say %q", msg, want)
		}
	}
	if !strings.Contains(log.String(), fmt.Sprintf(`worker "w" says that game %d cannot be recorded: playing it here to check`, u.Game)) {
		t.Errorf("the log does not say the check:\n%s", log.String())
	}
}

// TestUnrecordableClaimChecked: a worker's word that a game cannot be
// recorded does not end the run: the coordinator's replay records it
// within the limit, says so, and the run goes on to its end.
func TestUnrecordableClaimChecked(t *testing.T) {
	tour := newTour(t, 4)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var log syncBuffer
	url, result := startRemoteRun(ctx, t, tour, Options{Log: &log})
	nc, err := Connect(url, "arena worker mallory", Credentials{}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	id := RunID(tour.Config)
	waitRunning(t, nc, id)
	game := tour.Schedule.At(0).Index
	b, _ := json.Marshal(Event{Worker: "mallory", Text: "game too long", TooLong: &game})
	if err := nc.Publish(eventSubject(id), b); err != nil {
		t.Fatal(err)
	}
	nc.Flush()
	for !strings.Contains(log.String(), fmt.Sprintf(`worker "mallory" said that game %d cannot be recorded, but its replay here can be`, game)) {
		if ctx.Err() != nil {
			t.Fatalf("the claim was not checked:\n%s", log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	wait := startWorkers(ctx, t, url, []io.Writer{io.Discard})
	got, st, runErr := result()
	wait()
	if runErr != nil || !st.Complete || len(got) != 4 {
		t.Fatalf("run: %v, stats %+v, %d games\n%s", runErr, st, len(got), log.String())
	}
}
