package broker

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// TestBatchesKeepNoIDs: the server keeps nothing in memory for a queued
// batch. Batches carry no message id and the work stream's
// de-duplication window is the least, so a run's memory does not hold an
// id for every batch of the last 30 s (the old window: 20–40 MB of the
// coordinator's peak at thousands of games a second, and in a run shorter
// than the window an id for each of its batches).
func TestBatchesKeepNoIDs(t *testing.T) {
	tour := newTour(t, 10)
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startOpenRun(ctx, t, tour, Options{Log: &log}, 0)
	js, id := joinRun(t, url, "observer", tour)
	waitQueued(ctx, t, js, id, 5)
	ws, err := js.Stream(ctx, WorkStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := ws.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if w := info.Config.Duplicates; w > time.Second {
		t.Errorf("the work stream's de-duplication window is %v: the server keeps every id of it", w)
	}
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq; seq++ {
		m, err := ws.GetMsg(ctx, seq)
		if err != nil {
			t.Fatal(err)
		}
		if mid := m.Header.Get(jetstream.MsgIDHeader); mid != "" {
			t.Errorf("batch %d has the message id %q, which the server keeps for the window", seq, mid)
		}
	}
	wait := startWorkers(ctx, t, url, []io.Writer{nil})
	got, st, runErr := result()
	wait()
	checkAllOnce(t, tour, got, st, runErr, log.String())
}

// TestBatchStoredTwice: a batch on the queue twice (its acknowledgement
// lost and the batch published again, which no id de-duplicates now) is
// played twice and each of its games recorded once.
func TestBatchStoredTwice(t *testing.T) {
	tour := newTour(t, 6)
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startOpenRun(ctx, t, tour, Options{Log: &log}, 0)
	js, id := joinRun(t, url, "observer", tour)
	waitQueued(ctx, t, js, id, 3)
	ws, err := js.Stream(ctx, WorkStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := ws.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq; seq++ {
		m, err := ws.GetMsg(ctx, seq)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := js.Publish(ctx, m.Subject, m.Data); err != nil {
			t.Fatal(err)
		}
	}
	waitQueued(ctx, t, js, id, 6)
	wait := startWorkers(ctx, t, url, []io.Writer{nil})
	got, st, runErr := result()
	wait()
	checkAllOnce(t, tour, got, st, runErr, log.String())
}
