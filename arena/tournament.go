package arena

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
)

// Tournament is a planned run: what the record header says, and the
// schedule.
type Tournament struct {
	Config   results.Config
	Variant  games.Variant
	Book     *Book
	Limits   []Limits  // per agent
	Schedule *Schedule // the games, computed on demand
	// format plans a Swiss tournament's or a knockout's games from the
	// results (RunFormat), whose Schedule is then empty; nil for the
	// kinds with a fixed Schedule.
	format   Format
	openings *openingCache
	setup    Setup // copied for every game
	// specs are the agents' specs, each under its name in the run
	// (agents.Spec.Named), from which the workers build the agents.
	specs []agents.Spec
	// programs are the checks of the agents that run an external program
	// (agents.ProgramChecker), from the agents New built: CheckPrograms.
	programs []func() error
}

// New checks the options (Options.Check), builds each agent once to check
// its spec and that it can play the game, and plans the games.
func New(o Options) (*Tournament, error) {
	v, err := games.Lookup(o.Game)
	if err != nil {
		return nil, err
	}
	if o.Kind == "" {
		o.Kind = results.RoundRobin
	}
	if err := o.check(true); err != nil {
		return nil, err
	}
	if o.MoveMargin == 0 {
		o.MoveMargin = DefaultMargin
	}
	switch {
	case o.MaxPlies == 0:
		o.MaxPlies = DefaultMaxPlies
	case o.MaxPlies < 0:
		o.MaxPlies = 0
	}
	adjudicate, _ := ParseAdjudicate(o.Adjudicate) // check read it
	t := &Tournament{Variant: v}
	t.Config = results.Config{
		Kind: o.Kind, Game: v.String(), GameDigest: v.Digest(), GamesPerPair: o.GamesPerPair, Seed: o.Seed,
		MoveTimeMS: ms(o.MoveTime), MoveMarginMS: ms(o.MoveMargin), MaxPlies: o.MaxPlies, SPRT: o.SPRT,
		TimeControl: o.TimeControl.String(), Swept: o.Swept,
	}
	for _, text := range o.Agents {
		sp, err := agents.Parse(text)
		if err != nil {
			return nil, fmt.Errorf("agent %q: %v", text, err)
		}
		t.specs = append(t.specs, sp)
	}
	names := o.Names
	if names == nil {
		names = agents.Names(t.specs)
	} else if err := checkNames(names, len(o.Agents)); err != nil {
		return nil, err
	}
	for i, text := range o.Agents {
		sp := t.specs[i]
		budget, program, err := checkAgent(sp, v)
		if err != nil {
			return nil, fmt.Errorf("agent %q: %v", text, err)
		}
		if program != nil {
			t.programs = append(t.programs, func() error {
				if err := program(); err != nil {
					return fmt.Errorf("agent %q: %v", text, err)
				}
				return nil
			})
		}
		t.specs[i] = sp.Named(names[i])
		t.Config.Agents = append(t.Config.Agents, results.AgentInfo{Name: names[i], Spec: text})
		lim := Limits{Move: o.MoveTime, Margin: o.MoveMargin}
		if o.MoveTime == 0 {
			lim = autoLimits(v.Game, budget, o.MoveMargin)
		}
		// On a clock, the limits above bound only NewGame (not charged).
		if lim.Clock = o.TimeControl; sp.HasClock {
			lim.Clock = sp.Clock
		}
		lim.clockText = lim.Clock.String()
		t.Limits = append(t.Limits, lim)
	}
	if IsFormat(o.Kind) {
		if err := t.planFormat(o); err != nil {
			return nil, err
		}
	} else if t.Schedule, err = newSchedule(o.Kind, len(o.Agents), o.Swept, o.GamesPerPair, o.Seed); err != nil {
		return nil, err
	}
	t.Config.TotalGames = t.Schedule.Total()
	t.applyShard(o.Shard) // check refused a shard out of range
	if t.Book, err = NewBook(v, o.Openings, o.Seed, o.ShuffleOpenings); err != nil {
		return nil, err
	}
	t.Config.Openings, t.Config.OpeningsDigest, t.Config.ShuffleOpenings = t.Book.Spec, t.Book.Digest, o.ShuffleOpenings
	t.setup = Setup{Variant: v, MaxPlies: o.MaxPlies, Solve: adjudicate}
	t.Config.Adjudicate = adjudicate.String()
	t.setup.names()
	t.openings = &openingCache{byRound: map[int]Opening{}}
	return t, nil
}

// pairCount is the number of pairings of a run of the given kind with n ≥ 2
// agents (swept of them the values of a sweep, else 0), counted without
// building them.
func pairCount(kind string, n, swept int) (uint64, error) {
	if kind != results.Sweep && swept != 0 {
		return 0, fmt.Errorf("%d swept values in a %s: only a sweep has them", swept, kind)
	}
	switch kind {
	case results.Sweep:
		if swept < 1 || swept >= n {
			return 0, fmt.Errorf("a sweep of %d agents needs 1 to %d swept values (the first agents) and at least one opponent, got %d values", n, n-1, swept)
		}
		return uint64(swept) * uint64(n-swept), nil
	case results.RoundRobin:
		return uint64(n) * uint64(n-1) / 2, nil
	case results.Gauntlet:
		return uint64(n - 1), nil
	case results.Match:
		if n != 2 {
			return 0, fmt.Errorf("a match is between two agents, got %d", n)
		}
		return 1, nil
	}
	return 0, fmt.Errorf("unknown tournament kind %q (want %s, %s, %s or %s)", kind, results.RoundRobin, results.Gauntlet, results.Match, results.Sweep)
}

// checkAgent builds the agent of spec sp once: the spec must be valid
// and the agent able to play v (agents.GameChecker), so that a mismatch
// stops the run before the first game rather than losing every game. It
// returns the agent's own time budget (agents.Budgeter) for autoLimits,
// and for an agent that runs an external program its check
// (agents.ProgramChecker), which only looks at how the agent was built
// (the program's command), so that CheckPrograms need not build it again.
func checkAgent(sp agents.Spec, v games.Variant) (budget Limits, program func() error, err error) {
	a, err := sp.New(0)
	if err != nil {
		return Limits{}, nil, err
	}
	defer closeAgent(a)
	if pc, ok := a.(agents.ProgramChecker); ok {
		program = pc.CheckProgram
	}
	budget = Limits{Move: agents.MoveTime(a, false), First: agents.MoveTime(a, true)}
	return budget, program, agents.CheckGame(a, v)
}

// CheckPrograms reports an agent whose external program cannot start on
// this machine (agents.ProgramChecker): a missing engine would otherwise
// lose every game as a crash. A process that plays none of the games
// itself (a coordinator whose remote workers play them all) need not
// call it.
func (t *Tournament) CheckPrograms() error {
	for _, check := range t.programs {
		if err := check(); err != nil {
			return fmt.Errorf("%v (the run plays no game with it)", err)
		}
	}
	return nil
}

// autoLimits: the agent's own time budget, else the game's limits, else
// the cap for agents without a time budget.
func autoLimits(g *games.Entry, budget Limits, margin time.Duration) Limits {
	budget.Margin = margin
	switch {
	case budget.Move > 0:
		return budget
	case budget.First > 0: // a budget for the first move only
		return Limits{First: budget.First, Move: DefaultMoveCap, Margin: margin}
	case g.MoveTime > 0:
		return Limits{Move: g.MoveTime, First: g.FirstMoveTime, Margin: margin}
	}
	return Limits{Move: DefaultMoveCap, Margin: margin}
}

// Names returns the agents' display names, unique within the tournament.
func (t *Tournament) Names() []string {
	var out []string
	for _, a := range t.Config.Agents {
		out = append(out, a.Name)
	}
	return out
}

// Opening returns the opening of round r.
func (t *Tournament) Opening(r int) Opening { return t.openings.get(t.Book, r) }

// openingCache keeps the openings of the rounds played lately: the book
// gives each round's when it is first needed (Book.Opening is a function
// of the round), rather than all rounds' for the whole run, which would
// grow with the schedule (some 100 bytes a round).
type openingCache struct {
	mu      sync.Mutex
	byRound map[int]Opening
}

// maxCachedOpenings bounds openingCache: the schedule plays its rounds in
// order, all pairings' games of a round near each other.
const maxCachedOpenings = 1024

func (c *openingCache) get(b *Book, r int) Opening {
	c.mu.Lock()
	o, ok := c.byRound[r]
	c.mu.Unlock()
	if ok {
		return o
	}
	o = b.Opening(r)
	c.mu.Lock()
	if len(c.byRound) >= maxCachedOpenings {
		clear(c.byRound)
	}
	c.byRound[r] = o
	c.mu.Unlock()
	return o
}

// RunOptions control one run of a tournament.
type RunOptions struct {
	// Concurrency is the number of games played at once, each worker with
	// its own agent instances; 0 means the number of CPUs.
	Concurrency int
	// Stop, when closed, lets running games finish and starts no new one.
	Stop <-chan struct{}
	// Done are the games already recorded (a resume; nil: none): they are
	// not played. A Session sets it from its record (Session.Done), read
	// once and not kept; NewRecorded makes it of games in memory.
	Done *Recorded
	// Sink receives finished games in batches, in the order they finish,
	// never concurrently; an error stops the run at once. It is called by
	// the worker that finished a game (no hand-off to another goroutine):
	// games that finish while a batch is being written wait and form the
	// next batch, which the writing worker takes too (group commit). The
	// sink must not keep the batch slice (the games it may keep, unless
	// ReuseGames is set).
	Sink func(batch []*results.GameRecord) error
	// ReuseGames lets the arena reuse a batch's games, records and move
	// lists alike, once the sink has returned: the sink must copy whatever
	// it keeps. A run then allocates nothing per game, which matters for
	// agents that answer in microseconds (the garbage collector otherwise
	// takes a share of the cores). The arena command sets it: its sinks
	// write the records and keep copies without the move lists.
	ReuseGames bool
	// Log receives notes such as abandoned agents (may be nil).
	Log io.Writer
	// Skip, when not nil, is asked before each fixture is played, from
	// the workers at once: a fixture it skips is neither played nor
	// recorded (a race skips the games of its eliminated candidates).
	Skip func(Fixture) bool
	// Queue, when not nil, replaces the schedule's order: the workers play
	// the fixtures whose indices (Fixture.Index) arrive on it (Done is ignored), and Run
	// returns once it is closed and drained, or on a stop. A remote worker
	// (package broker) feeds it from a shared work queue.
	Queue <-chan int
	// Runner, when not nil, plays the run instead of the local workers (a
	// coordinator of remote workers, package broker): Run hands it ctx and
	// these options without Runner and returns what it returns. The Sink
	// contract is the same.
	Runner Runner
	// Status, when not nil, receives a Runner's live state beyond the
	// games (a broker's refused logins and messages), for the command's
	// progress line: once each time it changes, never concurrently with
	// itself or Sink. Local workers never call it.
	Status func(RunStatus)
}

// RunStats summarises a run.
type RunStats struct {
	Planned   int // games in the schedule
	Skipped   int // already recorded before the run
	Played    int // games finished and handed to the sink in this run
	Abandoned int // agents that were still thinking when their game was forfeited
	// Complete is true when every planned game has been recorded.
	Complete bool
}

// runState is shared by the workers, the watchdog and Run of one run.
type runState struct {
	t     *Tournament
	reuse bool // recycle delivered games (RunOptions.ReuseGames)
	// done are the games recorded before (RunOptions.Done): the workers
	// take the schedule's fixtures one by one (t.Schedule.At) and skip
	// these, so that no list of the games to play is built.
	done   *GameSet
	skip   func(Fixture) bool // RunOptions.Skip
	queue  <-chan int         // RunOptions.Queue: game indices (Fixture.Index)
	next   atomic.Int64
	hard   context.Context
	cancel context.CancelFunc
	stop   <-chan struct{}
	wg     sync.WaitGroup
	watch  *watchdog
	log    io.Writer

	sink    func([]*results.GameRecord) error
	writeMu sync.Mutex  // held while the sink runs
	closed  atomic.Bool // after a hard stop or a sink error: drop games
	// played counts the games handed to the sink, counted before the
	// write lock is let go, so that Run, which takes that lock on a hard
	// stop, counts a batch written meanwhile.
	played  atomic.Int64
	qmu     sync.Mutex // protects the fields below
	drained sync.Cond  // on qmu: the writer took pending
	waiting int        // workers waiting on drained (the tests watch it)
	pending []*results.GameRecord
	spare   []*results.GameRecord // the previous batch's slice, for reuse
	writing bool                  // a worker is draining pending into the sink

	mu        sync.Mutex
	err       error
	abandoned int
}

// Run plays the fixtures not yet done. Cancelling ctx stops at once: games
// in progress are dropped (not recorded), everything already handed to the
// sink stays (Run waits for a write in progress). Closing opts.Stop
// finishes the running games first.
func (t *Tournament) Run(ctx context.Context, opts RunOptions) (RunStats, error) {
	if r := opts.Runner; r != nil {
		opts.Runner = nil
		return r(ctx, t, opts)
	}
	if opts.Queue != nil {
		opts.Done = nil
	}
	st := RunStats{Planned: t.Schedule.Len()}
	done := opts.Done.gameSet() // one bit a game: the workers skip these
	st.Skipped = done.Len()
	hard, cancel := context.WithCancel(ctx)
	defer cancel()
	rs := &runState{t: t, hard: hard, cancel: cancel, stop: opts.Stop, log: opts.Log, sink: opts.Sink, reuse: opts.ReuseGames, queue: opts.Queue, skip: opts.Skip}
	rs.drained.L = &rs.qmu
	if rs.log == nil {
		rs.log = io.Discard
	}
	if rs.sink == nil {
		rs.sink = func([]*results.GameRecord) error { return nil }
	}
	rs.done = done // read only
	workers := opts.Concurrency
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	if rs.queue == nil {
		workers = min(workers, max(st.Planned-st.Skipped, 1))
	}
	if tick, ok := t.watchTick(); ok {
		rs.watch = newWatchdog(tick)
		defer rs.watch.close()
	}
	allDone := make(chan struct{})
	rs.wg.Add(workers)
	for range workers {
		rs.startWorker(0, 0)
	}
	go func() {
		rs.wg.Wait()
		close(allDone)
	}()
	select {
	case <-allDone:
	case <-hard.Done():
		// Let a write in progress finish, then drop whatever comes later.
		rs.writeMu.Lock()
		rs.closed.Store(true)
		rs.writeMu.Unlock()
	}
	st.Played = int(rs.played.Load())
	st.Complete = st.Skipped+st.Played == st.Planned && rs.queue == nil
	return rs.stats(st), rs.failure()
}

// maxPending bounds the finished games waiting for the sink: a worker
// that finds that many waits for the writer (back-pressure), so that games
// that end faster than they are written do not pile up in memory. A
// variable for the tests.
var maxPending = 1024

// deliver queues a finished game and, unless another goroutine is already
// writing, writes the queue to the sink until it is empty.
func (rs *runState) deliver(g *results.GameRecord) {
	// An engine's long info lines are cut here, in every run alike, so
	// that a record stays readable (results.MaxLineBytes) and can travel
	// through a broker. A record too long even so fails the run: written,
	// it would make the file unreadable.
	if err := g.Fit(results.MaxGameBytes); err != nil {
		rs.fail(Unrecordable(g.Index, rs.t.Config.MaxPlies, err))
		rs.cancel()
		return
	}
	rs.qmu.Lock()
	for rs.writing && len(rs.pending) >= maxPending {
		rs.waiting++
		rs.drained.Wait()
		rs.waiting--
	}
	rs.pending = append(rs.pending, g)
	if rs.writing {
		rs.qmu.Unlock()
		return // the writer will take it with its next batch
	}
	rs.writing = true
	for len(rs.pending) > 0 {
		batch := rs.pending
		rs.pending = rs.spare[:0] // the sink does not keep the batch slice
		rs.drained.Broadcast()
		rs.qmu.Unlock()
		rs.writeMu.Lock()
		if !rs.closed.Load() {
			if err := rs.sink(batch); err != nil {
				rs.closed.Store(true)
				rs.fail(err)
				rs.cancel()
			} else {
				rs.played.Add(int64(len(batch)))
			}
		}
		rs.writeMu.Unlock()
		if rs.reuse {
			for _, g := range batch {
				recycled.Put(g)
			}
		}
		rs.qmu.Lock()
		clear(batch)
		rs.spare = batch
	}
	rs.writing = false
	rs.qmu.Unlock()
}

func (rs *runState) stats(st RunStats) RunStats {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	st.Abandoned = rs.abandoned
	return st
}

func (rs *runState) failure() error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.err
}

func (rs *runState) fail(err error) {
	rs.mu.Lock()
	if rs.err == nil {
		rs.err = err
	}
	rs.mu.Unlock()
}

// watchTick returns how often the watchdog looks for overdue moves, and
// whether any agent has a limit at all.
func (t *Tournament) watchTick() (time.Duration, bool) {
	tick, any := 50*time.Millisecond, false
	for _, l := range t.Limits {
		if l.Move > 0 || l.First > 0 {
			any = true
			tick = min(tick, max(l.Margin/4, 2*time.Millisecond))
		}
	}
	return tick, any
}

// startWorker starts a worker goroutine; the caller has accounted for it
// in rs.wg.
func (rs *runState) startWorker(next, end int) {
	n := len(rs.t.Config.Agents)
	// fast is written after every game: a whole cache line of its own.
	w := &worker{rs: rs, inst: make([]agents.Agent, n), fast: make([]bool, n, max(n, 64)), ref: newReferee(rs.hard)}
	w.ref.recycle = rs.reuse
	w.next, w.end = next, end // fixtures claimed by the worker it replaces
	if rs.watch != nil {
		w.slot = &slot{abandon: rs.abandon, owner: w}
		w.ref.watch = w.slot
		rs.watch.add(w.slot)
	}
	go func() {
		err := w.loop()
		w.ref.release()
		w.closeAgents()
		if !errors.Is(err, errAbandoned) {
			rs.wg.Done() // an abandoned worker's place went to its replacement
		}
		if err != nil && !errors.Is(err, errAbandoned) && !errors.Is(err, errAborted) {
			rs.fail(err)
			rs.cancel() // an internal error stops the run
		}
	}()
}

func (rs *runState) stopping() bool {
	if rs.hard.Err() != nil {
		return true
	}
	select {
	case <-rs.stop:
		return true
	default:
		return false
	}
}

// abandon is the watchdog's handler for a move that overran its limit
// plus margin: the game is recorded as lost on time, the agent goroutine
// is left to finish on its own (its answer will be discarded and its
// instances closed), and a fresh worker takes its place.
func (rs *runState) abandon(s *slot, sn *moveSnap) {
	// The worker writes the record only after the game, so its fixed
	// fields may be copied now; moves and statistics come from the
	// snapshot. The copy and its moves are the watchdog's own: the stuck
	// worker may still append to the moves it had.
	rec := new(results.GameRecord)
	*rec = *sn.rec
	rec.Moves = slices.Clone(sn.moves)
	elapsed := time.Duration(now() - sn.started)
	stats := sn.stats
	st := &stats[sn.player]
	st.moves++
	st.spent += elapsed
	st.longest = max(st.longest, elapsed)
	putStats(rec, &stats)
	name := rec.Players[sn.player].Name
	doing := "choosing a move"
	if sn.starting {
		doing = "starting the game"
	}
	const note = "the arena stopped waiting and left it running"
	detail := timeoutDetail(name, doing, elapsed, sn.limit, sn.margin, note)
	if sn.timed {
		rec.MoveStats = append(slices.Clone(sn.moveStats), results.MoveStat{Player: sn.player, MS: msRound(elapsed)})
		if len(sn.clocks) > 0 {
			rec.Clocks = slices.Clone(sn.clocks)
		}
		if sn.clocked {
			detail = clockDetail(name, elapsed, sn.remaining[sn.player], sn.margin, note)
		}
	}
	forfeit(rec, sn.player, results.Timeout, detail)
	rec.Plies = results.Plies(rec.Moves)
	rec.DurationMS = ms(time.Duration(now() - sn.gameStart))
	roundTimes(rec)
	rs.mu.Lock()
	rs.abandoned++
	rs.mu.Unlock()
	fmt.Fprintf(rs.log, "game %d: %s is stuck; recorded a timeout forfeit and started a fresh worker\n", rec.Index, name)
	// The stuck worker's held-back games and unplayed claimed fixtures go
	// on: the games to the sink, the fixtures to its replacement. (It wrote
	// them before the game began, and touches neither once abandoned.)
	stuck := s.owner
	for _, g := range stuck.held {
		rs.deliver(g)
	}
	stuck.held = nil
	rs.deliver(rec)
	if !rs.stopping() {
		rs.startWorker(stuck.next, stuck.end)
	} else {
		rs.wg.Done()
	}
}

// worker plays fixtures one after the other with its own agents.
type worker struct {
	rs   *runState
	ref  *referee
	slot *slot
	// next, end: the claimed schedule positions still to play, [next, end).
	next, end int
	// held: finished games not yet delivered (see hold), the first since
	// heldSince (coarse clock). The watchdog delivers them if it abandons
	// the worker.
	held      []*results.GameRecord
	heldSince int64
	inst      []agents.Agent // per agent index, built on first use
	fast      []bool         // per agent index: its last move took under fastMove
}

func (w *worker) loop() error {
	rs := w.rs
	for !rs.stopping() {
		if w.next == w.end {
			if rs.queue != nil {
				w.flush() // the queue may stay empty for long
			}
			if w.next, w.end = rs.claim(); w.next == w.end {
				break
			}
		}
		f := rs.t.Schedule.At(w.next)
		w.next++
		if rs.done.Has(f.Index) || (rs.skip != nil && rs.skip(f)) {
			continue
		}
		// Games held back must not wait for one that may be long.
		if len(w.held) > 0 && (!w.fast[f.Seats[0]] || !w.fast[f.Seats[1]] || coarse.read()-w.heldSince > int64(holdFor)) {
			w.flush()
		}
		rec, err := w.playFixture(f)
		if errors.Is(err, errAbandoned) {
			return err // the watchdog delivered the games held back
		}
		if err != nil {
			w.flush()
			return err
		}
		w.hold(rec)
	}
	w.flush()
	return nil
}

// hold delivers a finished game, or holds it back to deliver it with the
// next ones: games of agents that answer in microseconds would otherwise
// have every worker take the delivery lock after every game. A game is
// held back only if a watchdog runs (which delivers a stuck worker's held
// games), its agents are both fast, and the batch is younger than holdFor
// and smaller than holdMax; so a record reaches the sink at most about a
// millisecond late.
func (w *worker) hold(rec *results.GameRecord) {
	if w.slot == nil || !w.fast[rec.Players[0].Agent] || !w.fast[rec.Players[1].Agent] {
		w.flush()
		w.rs.deliver(rec)
		return
	}
	if len(w.held) == 0 {
		w.heldSince = coarse.read()
	}
	w.held = append(w.held, rec)
	if len(w.held) >= holdMax {
		w.flush()
	}
}

// flush delivers the games held back.
func (w *worker) flush() {
	for i, g := range w.held {
		w.rs.deliver(g)
		w.held[i] = nil
	}
	w.held = w.held[:0]
}

// Limits on holding finished games back (see worker.hold).
const (
	holdFor = time.Millisecond
	holdMax = 16
)

// claim hands a worker the next schedule positions to play, [next, end)
// (those already done are skipped as they come): a few at
// a time while many remain, so that the workers do not contend for the
// counter after every microsecond game, one at a time near the end, so that
// they finish together. Unplayed claimed fixtures of a stopped run are
// simply not recorded (a resume plays them).
func (rs *runState) claim() (next, end int) {
	for rs.queue != nil {
		select {
		case i, ok := <-rs.queue:
			if !ok {
				return 0, 0
			}
			if pos, ok := rs.t.FixturePos(i); ok {
				return pos, pos + 1
			}
			// An index outside the schedule: the sender's error, skipped.
		case <-rs.hard.Done():
			return 0, 0
		case <-rs.stop:
			return 0, 0
		}
	}
	n := int64(1)
	planned := int64(rs.t.Schedule.Len())
	if left := planned - rs.next.Load(); left > 64*claimChunk {
		n = claimChunk
	}
	end64 := rs.next.Add(n)
	next, end = int(end64-n), int(min(end64, planned))
	return min(next, end), end
}

// claimChunk is how many fixtures a worker claims at once while many remain.
const claimChunk = 8

// playFixture plays one planned game.
func (w *worker) playFixture(f Fixture) (*results.GameRecord, error) {
	t := w.rs.t
	rec := w.ref.newRecord()
	*rec = results.GameRecord{Index: f.Index, Pair: f.Pair, Round: f.Round, Seed: f.Seed, Moves: rec.Moves[:0]}
	var seats [2]Seat
	var startErr [2]error
	for p := 0; p < 2; p++ {
		idx := f.Seats[p]
		info := t.Config.Agents[idx]
		rec.Players[p] = results.Player{Agent: idx, Name: info.Name, Spec: info.Spec, Seed: f.Agents[p]}
		a, err := w.agent(idx, f.Agents[p])
		startErr[p] = err
		seats[p] = Seat{Agent: a, Limits: t.Limits[idx]}
	}
	if startErr[0] != nil || startErr[1] != nil {
		rec.Record = results.KindGame
		rec.Game, rec.Variant = t.setup.names()
		rec.Opening, rec.Moves = []string{}, []string{}
		switch {
		case startErr[0] != nil && startErr[1] != nil:
			forfeit(rec, results.BothForfeit, results.Error, fmt.Sprintf("neither agent could be created: %v; %v", startErr[0], startErr[1]))
		case startErr[0] != nil:
			forfeit(rec, 0, results.Error, fmt.Sprintf("%s could not be created: %v", rec.Players[0].Name, startErr[0]))
		default:
			forfeit(rec, 1, results.Error, fmt.Sprintf("%s could not be created: %v", rec.Players[1].Name, startErr[1]))
		}
		return rec, nil
	}
	setup := t.setup
	setup.Opening = t.Opening(f.Round)
	setup.fast = [2]bool{w.fast[f.Seats[0]], w.fast[f.Seats[1]]}
	if v := setup.Opening.Variant; v != nil {
		setup.Variant, setup.name, setup.variant, setup.key = *v, "", "", ""
	}
	err := w.ref.play(&setup, seats, rec, nil)
	w.fast[f.Seats[0]], w.fast[f.Seats[1]] = w.ref.fast[0], w.ref.fast[1]
	if errors.Is(err, errAbandoned) {
		// The watchdog owns this game; the agents may still be running.
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// agent returns agent idx ready for a game with the given seed: reseeded
// when it can be (agents.Seeder), else built afresh, so that every game is
// reproducible from its seed whichever worker plays it.
func (w *worker) agent(idx int, seed uint64) (agents.Agent, error) {
	if a := w.inst[idx]; a != nil {
		if s, ok := a.(agents.Seeder); ok {
			s.Seed(seed)
			return a, nil
		}
		closeAgent(a)
		w.inst[idx] = nil
	}
	a, err := w.rs.t.specs[idx].New(seed)
	if err != nil {
		return nil, err
	}
	w.inst[idx] = a
	return a, nil
}

func (w *worker) closeAgents() {
	for i, a := range w.inst {
		if a != nil {
			closeAgent(a)
			w.inst[i] = nil
		}
	}
}

func closeAgent(a agents.Agent) {
	if c, ok := a.(io.Closer); ok {
		c.Close()
	}
}
