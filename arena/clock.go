package arena

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgame-arena/arena/results"
)

// epoch anchors the arena's monotonic clock; now() reads it in nanoseconds
// with a single runtime clock call (cheaper than time.Now, which also reads
// the wall clock).
var epoch = time.Now()

func now() int64 { return int64(time.Since(epoch)) }

func at(ns int64) time.Time { return epoch.Add(time.Duration(ns)) }

// moveCtx is the context an agent receives for one move: a deadline, and
// cancellation when the tournament is stopped hard. It is built lazily:
// Deadline costs nothing, and the channel and timers behind Done exist only
// once an agent asks for them, because context.WithDeadline would cost more
// than a whole move of a fast agent. The context is valid only during the
// Move call it was given to.
type moveCtx struct {
	parent   context.Context
	deadline time.Time

	mu    sync.Mutex
	done  chan struct{}
	err   error
	stops []func() bool
}

var _ context.Context = (*moveCtx)(nil)

func (c *moveCtx) Deadline() (time.Time, bool) { return c.deadline, true }
func (c *moveCtx) Value(key any) any           { return c.parent.Value(key) }

func (c *moveCtx) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done != nil {
		return c.done
	}
	c.done = make(chan struct{})
	if c.err != nil {
		close(c.done)
		return c.done
	}
	if err := c.parent.Err(); err != nil {
		c.cancelLocked(err)
		return c.done
	}
	d := time.Until(c.deadline)
	if d <= 0 {
		c.cancelLocked(context.DeadlineExceeded)
		return c.done
	}
	t := time.AfterFunc(d, func() { c.cancel(context.DeadlineExceeded) })
	stopParent := context.AfterFunc(c.parent, func() { c.cancel(c.parent.Err()) })
	c.stops = append(c.stops, t.Stop, stopParent)
	return c.done
}

func (c *moveCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		if err := c.parent.Err(); err != nil {
			c.cancelLocked(err)
		} else if !time.Now().Before(c.deadline) {
			c.cancelLocked(context.DeadlineExceeded)
		}
	}
	return c.err
}

func (c *moveCtx) cancel(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cancelLocked(err)
}

func (c *moveCtx) cancelLocked(err error) {
	if c.err != nil {
		return
	}
	c.err = err
	if c.done != nil {
		close(c.done)
	}
}

// release stops the timers once the move is over and reports whether the
// context may be reused for the next move (nobody took its Done channel).
func (c *moveCtx) release() (reusable bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, stop := range c.stops {
		stop()
	}
	c.stops = nil
	return c.done == nil
}

// Slot states, in the low two bits of slot.token; the rest is a generation
// counter that makes every move's token unique.
const (
	slotIdle      = 0
	slotMoving    = 1
	slotAbandoned = 2
)

// slot is a worker's line to the watchdog. While an agent thinks, the
// worker's token says "moving" and deadline holds the forfeit time. If the
// watchdog finds the deadline passed, it swaps the token to "abandoned":
// from then on the game belongs to the watchdog, which records the forfeit
// and starts a replacement worker, while the stuck goroutine is left to
// return whenever it does and then quietly exit.
type slot struct {
	token    atomic.Uint64
	deadline atomic.Int64
	gen      uint64 // owner only

	// Written by the owner before begin; read by the watchdog only after it
	// has seen the token begin stored (so the atomics order the accesses).
	rec       *results.Game
	player    int
	gameStart int64
	started   int64
	limit     time.Duration
	margin    time.Duration
	// abandon is called by the watchdog with the slot it took over.
	abandon func(*slot)
}

// begin marks the start of a move that forfeits at deadline (arena clock).
func (s *slot) begin(deadline int64) {
	s.deadline.Store(deadline)
	s.gen++
	s.token.Store(s.gen<<2 | slotMoving)
}

// end marks the move as over; false means the watchdog took the game.
func (s *slot) end() bool {
	return s.token.CompareAndSwap(s.gen<<2|slotMoving, s.gen<<2|slotIdle)
}

// watchdog scans the slots of a run for moves that overran their deadline.
type watchdog struct {
	mu    sync.Mutex
	slots []*slot
	tick  time.Duration
	quit  chan struct{}
	wg    sync.WaitGroup
}

func newWatchdog(tick time.Duration) *watchdog {
	w := &watchdog{tick: max(tick, time.Millisecond), quit: make(chan struct{})}
	w.wg.Add(1)
	go w.loop()
	return w
}

func (w *watchdog) add(s *slot) {
	w.mu.Lock()
	w.slots = append(w.slots, s)
	w.mu.Unlock()
}

func (w *watchdog) loop() {
	defer w.wg.Done()
	t := time.NewTicker(w.tick)
	defer t.Stop()
	for {
		select {
		case <-w.quit:
			return
		case <-t.C:
			w.scan()
		}
	}
}

func (w *watchdog) scan() {
	w.mu.Lock()
	slots := append([]*slot(nil), w.slots...)
	w.mu.Unlock()
	t := now()
	for _, s := range slots {
		tok := s.token.Load()
		if tok&3 != slotMoving || t < s.deadline.Load() {
			continue
		}
		if s.token.CompareAndSwap(tok, tok&^3|slotAbandoned) {
			w.mu.Lock()
			for i, x := range w.slots {
				if x == s {
					w.slots = append(w.slots[:i], w.slots[i+1:]...)
					break
				}
			}
			w.mu.Unlock()
			s.abandon(s)
		}
	}
}

func (w *watchdog) close() {
	close(w.quit)
	w.wg.Wait()
}
