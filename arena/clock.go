package arena

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/results"
)

// epoch anchors the arena's monotonic clock; now() reads it in nanoseconds
// with a single runtime clock call (cheaper than time.Now, which also reads
// the wall clock).
var epoch = time.Now()

func now() int64 { return int64(time.Since(epoch)) }

// coarseTick is the resolution of the coarse clock.
const coarseTick = time.Millisecond

// fastMove is the move time under which a seat's next move is timed with
// the coarse clock: reading the precise clock (about 20 ns on a VM) would
// otherwise cost more than the arena's whole per-move bookkeeping.
const fastMove = 50 * time.Microsecond

// coarse is a clock read with one atomic load. A goroutine refreshes it
// every coarseTick while some referee uses it, and every referee refreshes
// it when a game ends, so it stays fresh even when busy workers delay the
// ticker. It never runs ahead of now(); it may lag by about a tick.
var coarse coarseClock

type coarseClock struct {
	now   atomic.Int64
	mu    sync.Mutex
	users int
	stop  chan struct{}
}

func (c *coarseClock) read() int64 { return c.now.Load() }

// advance moves the clock to t unless it already is later.
func (c *coarseClock) advance(t int64) {
	for cur := c.now.Load(); t > cur; cur = c.now.Load() {
		if c.now.CompareAndSwap(cur, t) {
			return
		}
	}
}

// refresh advances the clock to t, the precise time, when the ticker is
// late. Workers call it at every game's end; writing only when the clock
// lags keeps fast games from bouncing its cache line between cores.
func (c *coarseClock) refresh(t int64) {
	if t > c.now.Load()+int64(coarseTick) {
		c.advance(t)
	}
}

// acquire starts the ticker for a new user; release stops it after the last.
func (c *coarseClock) acquire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.advance(now())
	if c.users++; c.users > 1 {
		return
	}
	stop := make(chan struct{})
	c.stop = stop
	go func() {
		t := time.NewTicker(coarseTick)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				c.advance(now())
			}
		}
	}()
}

func (c *coarseClock) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.users--; c.users == 0 {
		close(c.stop)
	}
}

func at(ns int64) time.Time { return epoch.Add(time.Duration(ns)) }

// moveCtx is the context an agent receives for one move: a deadline, and
// cancellation when the tournament is stopped hard. It is built lazily:
// Deadline costs nothing, and the channel and timers behind Done exist only
// once an agent asks for them, because context.WithDeadline would cost more
// than a whole move of a fast agent. The referee reuses it for the next
// move unless an agent took its Done channel; the context is valid only
// during the Move call it was given to.
type moveCtx struct {
	parent   context.Context
	deadline int64         // arena clock
	clock    *agents.Clock // the mover's clock, when it is on one

	touched atomic.Bool // Done or Err was called: release must lock
	mu      sync.Mutex
	done    chan struct{}
	err     error
	stops   []func() bool
}

var _ context.Context = (*moveCtx)(nil)

func (c *moveCtx) Deadline() (time.Time, bool) { return at(c.deadline), true }

// Value answers agents.ClockKey itself (a context.WithValue per move
// would allocate); the clock is the referee's, valid during the move.
func (c *moveCtx) Value(key any) any {
	if c.clock != nil && key == agents.ClockKey {
		return c.clock
	}
	return c.parent.Value(key)
}

func (c *moveCtx) Done() <-chan struct{} {
	c.touched.Store(true)
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
	d := time.Duration(c.deadline - now())
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
	c.touched.Store(true)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		if err := c.parent.Err(); err != nil {
			c.cancelLocked(err)
		} else if now() >= c.deadline {
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
	if !c.touched.Load() {
		return true // the agent never looked: nothing to stop or reset
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, stop := range c.stops {
		stop()
	}
	c.stops = nil
	c.touched.Store(false)
	return c.done == nil
}

// Slot states, in the low two bits of slot.token. Bit 2 names the snapshot
// buffer of the move (slot.snap), and the rest of the token is the move's
// forfeit deadline on the arena clock, which makes every move's token
// unique (and if two moves ever shared one, abandoning either would be
// right, since the token says when the move is overdue).
const (
	slotIdle      = 0
	slotMoving    = 1
	slotAbandoned = 2
)

// slot is a worker's line to the watchdog. Before each move the worker
// describes it in a snapshot and swaps its token to "moving until deadline"
// with one compare-and-swap; the token stays so, through the referee's
// checks after the answer, until the next move's swap or the game's end
// (idle). If the watchdog finds the deadline passed, it swaps the token to
// "abandoned" instead: from then on the game belongs to the watchdog, which
// records the forfeit from the snapshot and starts a replacement worker,
// while the stuck goroutine is left to return whenever it does and quietly
// exit (its next swap fails). One atomic operation per move, where
// beginning and ending each move separately took two: they cost a worker
// ~10 ns a move and the scaling of two workers.
//
// The worker writes only the snapshot buffer the current token does not
// name, and the watchdog reads only the one named by the token it swapped,
// so the two never touch the same buffer; and the worker writes the game's
// record only once it has settled the game (idle), so the watchdog may copy
// the record's fixed fields meanwhile.
type slot struct {
	// The padding keeps two workers' slots, written at every move, off
	// each other's cache lines.
	_     [64]byte
	token atomic.Uint64
	cur   uint64 // owner only: the token it last stored
	snap  [2]moveSnap

	owner *worker // whose held-back games and claimed fixtures go on
	// abandon is called by the watchdog with the slot it took over and the
	// snapshot of the move it gave up on.
	abandon func(*slot, *moveSnap)
	_       [64]byte
}

// moveSnap describes a running move to the watchdog.
type moveSnap struct {
	rec       *results.GameRecord // the game's record, written only after the game
	gameStart int64
	player    int
	started   int64
	limit     time.Duration
	margin    time.Duration
	moves     []string // the game's moves before this one
	stats     [2]playerStats
	starting  bool // the agent is told the game starts (NewGame), not asked for a move
	// When the game keeps times per move (timed, per game): the moves'
	// statistics and clocks before this one, whether this move is on the
	// mover's clock, and the clocks' time left before it.
	timed     bool
	moveStats []results.MoveStat
	clocks    [][2]float64
	clocked   bool
	remaining [2]time.Duration
}

// startGame records the game in both snapshot buffers; the token is idle.
func (s *slot) startGame(rec *results.GameRecord, start int64, timed bool) {
	for i := range s.snap {
		sn := &s.snap[i]
		sn.rec, sn.gameStart, sn.timed = rec, start, timed
		sn.moveStats, sn.clocks, sn.clocked = nil, nil, false
	}
}

// nextSnap returns the snapshot buffer for the next move.
func (s *slot) nextSnap() *moveSnap { return &s.snap[1-s.cur>>2&1] }

// begin publishes the move described in nextSnap, which forfeits at
// deadline (arena clock). false means the watchdog took the game over
// during the previous move.
func (s *slot) begin(deadline int64) bool {
	next := uint64(max(deadline, 0))<<3 | (1-s.cur>>2&1)<<2 | slotMoving
	if !s.token.CompareAndSwap(s.cur, next) {
		return false
	}
	s.cur = next
	return true
}

// idle marks that no move runs; false means the watchdog took the game.
func (s *slot) idle() bool {
	if s.cur&3 == slotIdle {
		return true
	}
	next := s.cur&^3 | slotIdle
	if !s.token.CompareAndSwap(s.cur, next) {
		return false
	}
	s.cur = next
	return true
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
		if tok&3 != slotMoving || t < int64(tok>>3) {
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
			s.abandon(s, &s.snap[tok>>2&1])
		}
	}
}

func (w *watchdog) close() {
	close(w.quit)
	w.wg.Wait()
}
