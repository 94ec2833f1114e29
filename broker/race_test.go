package broker

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// raceTour is a race that greedy wins against random at stage 17, the
// two random candidates eliminated at stages 8 and 9. Every game depends only on
// the seed (greedy and random draw from it), so a race through the
// broker must reach the local race's decision.
func raceTour(t *testing.T) *arena.Tournament { return raceTourOf(t, 200) }

// raceTourOf is raceTour with games per candidate.
func raceTourOf(t *testing.T, games int) *arena.Tournament {
	t.Helper()
	s := results.SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05, Model: results.Logistic}
	tour, err := arena.New(arena.Options{Kind: results.Gauntlet, Game: "othello6", Agents: []string{"random", "greedy", "random", "random"}, GamesPerPair: games, Seed: 4, SPRT: &s})
	if err != nil {
		t.Fatal(err)
	}
	return tour
}

// localRace is tour's race on local workers.
func localRace(t *testing.T, tour *arena.Tournament) *results.Race {
	t.Helper()
	race, _, err := tour.RunRace(context.Background(), arena.RunOptions{Concurrency: 2}, nil)
	if err != nil || tour.Config.GamesPerPair == 200 && race.Winner() != 0 {
		t.Fatalf("local race: %v, %s", err, race.Status(nil))
	}
	return race
}

// TestRaceThroughBroker: a race through the embedded broker with local
// workers reaches the local race's decision, at the same stage, each game
// recorded once.
func TestRaceThroughBroker(t *testing.T) {
	want := localRace(t, raceTour(t))
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	seen := map[int]bool{}
	got, st, err := raceTour(t).RunRace(ctx, arena.RunOptions{Concurrency: 2, Runner: Runner(Options{Broker: "embedded", Server: ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()}, Log: &log}),
		Sink: func(b []*results.GameRecord) error {
			for _, g := range b {
				if seen[g.Index] {
					t.Errorf("game %d recorded twice", g.Index)
				}
				seen[g.Index] = true
			}
			return nil
		}}, nil)
	if err != nil {
		t.Fatalf("race through the broker: %v\n%s", err, log.String())
	}
	if got.Status(nil) != want.Status(nil) {
		t.Fatalf("through the broker %s, want %s\n%s", got.Status(nil), want.Status(nil), log.String())
	}
	if st.Complete || st.Played != len(seen) {
		t.Errorf("stats %+v for %d games (a race decided early is not complete)", st, len(seen))
	}
}

// raceRig runs raceTour's race through a broker whose only worker is the
// test: it takes one batch at a time and publishes the games a local run
// played, then waits until the coordinator has counted them and taken
// their results off the stream, so that a candidate that leaves has left
// before the next batch is taken. A coordinator that honours the race's
// Skip then records exactly the counted pairs of a candidate that left.
type raceRig struct {
	t       *testing.T
	tour    *arena.Tournament
	genuine map[int]*results.GameRecord
	url     string
	log     syncBuffer

	// beforeWork, if not nil, is called once the run's work consumer
	// exists, before the worker takes a batch.
	beforeWork func(js jetstream.JetStream, cons jetstream.Consumer)

	mu       sync.Mutex
	recorded map[int]int // index → times
	recs     []results.GameRecord
}

func newRaceRig(t *testing.T, tour func() *arena.Tournament) *raceRig {
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	r := &raceRig{t: t, tour: tour(), genuine: map[int]*results.GameRecord{}, url: ClientURL(srv), recorded: map[int]int{}}
	for _, g := range playLocal(t, tour()) {
		r.genuine[g.Index] = g
	}
	return r
}

// run runs a coordinator of the race, from the games recorded so far,
// with the test as its worker; after is called with the number of games
// recorded after each batch the sink takes (and may cancel ctx).
func (r *raceRig) run(ctx context.Context, after func(n int)) (*results.Race, arena.RunStats, error) {
	r.mu.Lock()
	done := append([]results.GameRecord(nil), r.recs...)
	r.mu.Unlock()
	finished := make(chan struct{})
	var race *results.Race
	var st arena.RunStats
	var err error
	go func() {
		defer close(finished)
		race, st, err = r.tour.RunRace(ctx, arena.RunOptions{Done: arena.NewRecorded(r.tour, done), Runner: Runner(Options{Broker: r.url, Log: &r.log}),
			Sink: func(b []*results.GameRecord) error {
				r.mu.Lock()
				for _, g := range b {
					r.recorded[g.Index]++
					r.recs = append(r.recs, *g)
				}
				n := len(r.recs)
				r.mu.Unlock()
				if after != nil {
					after(n)
				}
				return nil
			}}, nil)
	}()
	r.work(ctx, finished)
	<-finished
	return race, st, err
}

// work is the test's worker, until finished is closed.
func (r *raceRig) work(ctx context.Context, finished <-chan struct{}) {
	t := r.t
	nc, err := Connect(r.url, "stepper", Credentials{}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	id := RunID(r.tour.Config)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	var cons jetstream.Consumer
	for cons == nil {
		select {
		case <-finished:
			return
		case <-time.After(5 * time.Millisecond):
		}
		cons, _ = js.Consumer(ctx, WorkStream, workConsumer(id))
	}
	if r.beforeWork != nil {
		r.beforeWork(js, cons)
	}
	for {
		select {
		case <-finished:
			return
		default:
		}
		msg, err := cons.Next(jetstream.FetchMaxWait(100 * time.Millisecond))
		if err != nil {
			continue // none queued, or the run is over
		}
		var b Batch
		if err := json.Unmarshal(msg.Data(), &b); err != nil {
			t.Fatal(err)
		}
		for _, idx := range b.Games {
			data, _ := json.Marshal(Result{Run: id, Worker: "stepper", Game: r.genuine[idx]})
			if _, err := js.Publish(ctx, resultSubject(id), data); err != nil {
				if ctx.Err() != nil {
					return
				}
				t.Fatal(err)
			}
		}
		msg.Ack()
		// Until the coordinator has counted the batch and acknowledged
		// its results (after it dropped what the batch settled).
		for !r.settled(ctx, js, b.Games) {
			select {
			case <-finished:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}
}

func (r *raceRig) settled(ctx context.Context, js jetstream.JetStream, games []int) bool {
	r.mu.Lock()
	for _, g := range games {
		if r.recorded[g] == 0 {
			r.mu.Unlock()
			return false
		}
	}
	r.mu.Unlock()
	s, err := js.Stream(ctx, ResultStream)
	if err != nil {
		return false
	}
	info, err := s.Info(ctx)
	return err == nil && info.State.Msgs == 0
}

// check: the decision is want's, each game recorded once, and a
// candidate that left has exactly its counted pairs recorded: the
// coordinator queued none of its later games and took back those it had
// queued (the whole run fits its first window).
func (r *raceRig) check(race, want *results.Race) {
	t := r.t
	if race.Status(nil) != want.Status(nil) {
		t.Fatalf("through the broker %s, want %s\n%s", race.Status(nil), want.Status(nil), r.log.String())
	}
	per := make([]int, len(race.Candidates))
	for idx, n := range r.recorded {
		if n != 1 {
			t.Errorf("game %d recorded %d times", idx, n)
		}
		g := r.genuine[idx]
		c := g.Players[0].Agent + g.Players[1].Agent // the base is agent 0
		per[c-1]++
	}
	left := 0
	for i, c := range race.Candidates {
		if c.State == results.Eliminated || c.State == results.Out {
			left++
			if per[i] != 2*c.LeftAt {
				t.Errorf("candidate %d left at stage %d (the race ended at %d): %d games recorded, want %d", i+1, c.LeftAt, race.Stage, per[i], 2*c.LeftAt)
			}
		}
	}
	if left == 0 {
		t.Fatalf("no candidate left before the end: the test proves nothing (%s)", race.Status(nil))
	}
}

// TestRaceBrokerSkipsLeftCandidates: through the broker, a candidate
// that leaves the race gets no game after it left, whether its games
// were queued already (the run fits the queue's window: taken back) or
// not yet (a window of 8 games: never queued).
func TestRaceBrokerSkipsLeftCandidates(t *testing.T) {
	want := localRace(t, raceTour(t))
	for _, window := range []int{queueAhead, 8} {
		t.Run(fmt.Sprintf("window %d", window), func(t *testing.T) {
			defer func(old int) { queueAhead = old }(queueAhead)
			queueAhead = window
			r := newRaceRig(t, func() *arena.Tournament { return raceTour(t) })
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			race, st, err := r.run(ctx, nil)
			if err != nil {
				t.Fatalf("race: %v\n%s", err, r.log.String())
			}
			r.check(race, want)
			if st.Complete {
				t.Errorf("stats %+v: a race decided early is not complete", st)
			}
		})
	}
}

// TestRaceBrokerGamesRunOut: a race whose games run out undecided after
// candidates left ends through the broker (the dropped games are not
// waited for), undecided as the local race, and not complete.
func TestRaceBrokerGamesRunOut(t *testing.T) {
	want := localRace(t, raceTourOf(t, 30))
	if want.Decided() {
		t.Fatalf("the local race of 15 pairs a candidate was decided: %s", want.Status(nil))
	}
	r := newRaceRig(t, func() *arena.Tournament { return raceTourOf(t, 30) })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	race, st, err := r.run(ctx, nil)
	if err != nil || ctx.Err() != nil {
		t.Fatalf("race: %v (%v)\n%s", err, ctx.Err(), r.log.String())
	}
	r.check(race, want)
	if st.Complete {
		t.Errorf("stats %+v: a race that skipped games is not complete", st)
	}
}

// TestRaceBrokerResume: a race whose coordinator is stopped hard in the
// middle (its context cancelled, as a kill does) and resumed from its
// record reaches the local race's decision, each game once, the left
// candidates' games skipped in both runs.
func TestRaceBrokerResume(t *testing.T) {
	want := localRace(t, raceTour(t))
	r := newRaceRig(t, func() *arena.Tournament { return raceTour(t) })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	first, kill := context.WithCancel(ctx)
	// After the eliminations, before the decision.
	cut := 2 * len(want.Candidates) * (max(want.Candidates[1].LeftAt, want.Candidates[2].LeftAt) + 1)
	before, _, err := r.run(first, func(n int) {
		if n >= cut {
			kill()
		}
	})
	kill()
	if err != nil {
		t.Fatalf("first coordinator: %v\n%s", err, r.log.String())
	}
	if before.Decided() || len(before.Live()) == len(before.Candidates) {
		t.Fatalf("killed at %s: the kill was to come after a candidate left and before the decision", before.Status(nil))
	}
	// The resumed coordinator queues no game of the candidates that left
	// (the first one's queue purged here, so that what the stream holds
	// is the new queue): its first window holds the batches of the games
	// left to the candidates in the race, and nothing else.
	var batches, pending int
	for pos := range r.tour.Schedule.Len() {
		f := r.tour.Schedule.At(pos)
		if r.recorded[f.Index] == 0 && before.InRace(f.Seats[0]+f.Seats[1]-1) {
			pending++
		}
	}
	batches = (pending + 1) / 2
	r.beforeWork = func(js jetstream.JetStream, cons jetstream.Consumer) {
		for {
			info, err := cons.Info(ctx)
			if err == nil && info.NumPending >= uint64(batches) {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("the resumed coordinator queued no %d batches", batches)
			}
			time.Sleep(5 * time.Millisecond)
		}
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
				continue // taken or removed
			}
			var b Batch
			json.Unmarshal(m.Data, &b)
			for _, g := range b.Games {
				pos, _ := r.tour.FixturePos(g)
				if f := r.tour.Schedule.At(pos); !before.InRace(f.Seats[0] + f.Seats[1] - 1) {
					t.Errorf("the resumed coordinator queued game %d of candidate %d, which had left the race", g, f.Seats[0]+f.Seats[1])
				}
			}
		}
	}
	if ws, err := jsOf(t, r.url).Stream(ctx, WorkStream); err != nil {
		t.Fatal(err)
	} else if err := ws.Purge(ctx); err != nil {
		t.Fatal(err)
	}
	race, _, err := r.run(ctx, nil)
	if err != nil {
		t.Fatalf("resumed coordinator: %v\n%s", err, r.log.String())
	}
	r.check(race, want)
}

// jsOf is a JetStream client of the server at url.
func jsOf(t *testing.T, url string) jetstream.JetStream {
	t.Helper()
	nc, err := Connect(url, "test", Credentials{}, 10*time.Second)
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
