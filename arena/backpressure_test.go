package arena

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/results"
)

// TestDeliverBackPressure: while the sink writes a batch, the games that
// finish meanwhile wait in memory only up to maxPending; then the workers
// that deliver more wait for the writer, so that games ending faster than
// they are written do not pile up (a 10⁶-game random tournament held
// hundreds of MB of them). No verdict depends on speed: the test waits
// for either the pile to pass the bound (the defect) or both workers to
// wait (the fix).
func TestDeliverBackPressure(t *testing.T) {
	defer func(n int) { maxPending = n }(maxPending)
	maxPending = 4
	release := make(chan struct{})
	var mu sync.Mutex
	largest, calls := 0, 0
	rs := &runState{sink: func(b []*results.GameRecord) error {
		mu.Lock()
		calls++
		first := calls == 1
		largest = max(largest, len(b))
		mu.Unlock()
		if first {
			<-release // the writer is slow
		}
		return nil
	}}
	rs.drained.L = &rs.qmu
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // becomes the writer, blocked in the sink
		defer wg.Done()
		rs.deliver(&results.GameRecord{Index: 0})
	}()
	for { // then two workers deliver while it writes
		rs.qmu.Lock()
		writing := rs.writing
		rs.qmu.Unlock()
		if writing {
			break
		}
		time.Sleep(time.Millisecond)
	}
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				rs.deliver(&results.GameRecord{Index: 1 + 20*w + i})
			}
		}()
	}
	deadline := time.Now().Add(time.Minute)
	for {
		rs.qmu.Lock()
		pending, waiting, writing := len(rs.pending), rs.waiting, rs.writing
		rs.qmu.Unlock()
		if pending > maxPending {
			t.Errorf("%d games wait for the sink, more than maxPending %d", pending, maxPending)
			break
		}
		if writing && waiting == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a minute: %d games pending, %d workers waiting", pending, waiting)
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if rs.played.Load() != 41 || largest > maxPending {
		t.Errorf("the sink took %d games, batches of up to %d (want 41, at most %d)", rs.played.Load(), largest, maxPending)
	}
}

// TestOpeningsOnDemand: a tournament gives each round the book's opening,
// whatever the order and concurrency of the calls, and keeps a bounded
// number of them rather than one per round of the schedule (which grew
// with the run: some 100 bytes a round).
func TestOpeningsOnDemand(t *testing.T) {
	const rounds = 3 * maxCachedOpenings
	tour, err := New(Options{Kind: results.RoundRobin, Game: "t-sum", Agents: []string{"random", "greedy"}, GamesPerPair: 2 * rounds, Seed: 4, Openings: "random:2"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range rounds {
				r := k
				if w == 1 {
					r = rounds - 1 - k
				}
				if got, want := tour.Opening(r), tour.Book.Opening(r); !slices.Equal(got.Texts, want.Texts) {
					t.Errorf("round %d: opening %v, the book's %v", r, got.Texts, want.Texts)
					return
				}
			}
		}()
	}
	wg.Wait()
	tour.openings.mu.Lock()
	kept := len(tour.openings.byRound)
	tour.openings.mu.Unlock()
	if kept > maxCachedOpenings {
		t.Errorf("%d openings kept for %d rounds, more than %d", kept, rounds, maxCachedOpenings)
	}
}
