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
	onQueue(t, 10, func(ctx context.Context, js jetstream.JetStream, info *jetstream.StreamInfo, m *jetstream.RawStreamMsg) {
		if w := info.Config.Duplicates; w > time.Second {
			t.Fatalf("the work stream's de-duplication window is %v: the server keeps every id of it", w)
		}
		if mid := m.Header.Get(jetstream.MsgIDHeader); mid != "" {
			t.Errorf("batch %d has the message id %q, which the server keeps for the window", m.Sequence, mid)
		}
	})
}

// TestBatchStoredTwice: a batch on the queue twice (its acknowledgement
// lost and the batch published again, which no id de-duplicates now) is
// played twice and each of its games recorded once.
func TestBatchStoredTwice(t *testing.T) {
	onQueue(t, 6, func(ctx context.Context, js jetstream.JetStream, info *jetstream.StreamInfo, m *jetstream.RawStreamMsg) {
		if _, err := js.Publish(ctx, m.Subject, m.Data); err != nil {
			t.Fatal(err)
		}
	})
}

// onQueue starts a run of games in batches of 2 without workers, calls
// each for every batch on its queue, then plays the run with one worker
// and checks that every game is recorded once.
func onQueue(t *testing.T, games int, each func(context.Context, jetstream.JetStream, *jetstream.StreamInfo, *jetstream.RawStreamMsg)) {
	t.Helper()
	tour := newTour(t, games)
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startOpenRun(ctx, t, tour, Options{Log: &log}, 0)
	js, id := joinRun(t, url, "observer", tour)
	waitQueued(ctx, t, js, id, uint64(games/2))
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
		each(ctx, js, info, m)
	}
	wait := startWorkers(ctx, t, url, []io.Writer{nil})
	got, st, runErr := result()
	wait()
	checkAllOnce(t, tour, got, st, runErr, log.String())
}

// TestGoneBatches: the watchdog's look finds the batches no longer on the
// work stream both ways, from the stream's deleted sequences (few) and by
// looking each batch up (when the deleted ones outnumber the batches: a
// batch held long keeps the first sequence while thousands after it are
// acknowledged, and their list would grow with the run).
func TestGoneBatches(t *testing.T) {
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	nc, err := Connect(ClientURL(srv), "test", Credentials{}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ws, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: WorkStream, Subjects: []string{workPrefix + "*"}, Retention: jetstream.WorkQueuePolicy})
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if _, err := js.Publish(ctx, workSubject("run"), []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	for seq := uint64(2); seq < 20; seq++ {
		if seq != 5 {
			if err := ws.DeleteMsg(ctx, seq); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Left: 1, 5 and 20, 17 deleted between them.
	for _, queued := range [][]uint64{{1, 3, 5, 20}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}} {
		c := &coordinator{queued: map[uint64][]int{}}
		for _, seq := range queued {
			c.queued[seq] = nil
		}
		gone, ok := c.goneBatches(ctx, ws)
		if !ok {
			t.Fatal("no answer from the server")
		}
		for _, seq := range queued {
			if want := seq != 1 && seq != 5 && seq != 20; gone(seq) != want {
				t.Errorf("%d batches queued: batch %d gone %v, want %v", len(queued), seq, gone(seq), want)
			}
		}
		if !gone(21) {
			t.Errorf("%d batches queued: batch 21, after the last, not gone", len(queued))
		}
	}
}
