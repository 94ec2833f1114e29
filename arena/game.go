package arena

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
)

// Limits bound one agent's thinking time.
type Limits struct {
	// Move is the wall-clock time per move; 0 means no limit. The agent's
	// context carries the deadline start+Move.
	Move time.Duration
	// First replaces Move for the agent's first move of a game (and its
	// NewGame call); 0 means Move.
	First time.Duration
	// Margin is the grace beyond the limit: a move that takes longer than
	// limit+Margin forfeits the game.
	Margin time.Duration
	// Clock, when not zero, puts the seat on a game clock: it starts every
	// game with Clock.Base, a move's limit is the time left, the move's
	// time is taken off and Clock.Inc added after it; a move that takes
	// longer than the time left plus Margin loses on time (its flag
	// falls). Move and First then bound only the agent's NewGame, which is
	// not charged to the clock.
	Clock agents.TimeControl
	// clockText is Clock.String(), computed once by New (Play computes it
	// per game).
	clockText string
}

func (l Limits) limit(first bool) time.Duration {
	if first && l.First > 0 {
		return l.First
	}
	return l.Move
}

// Seat is one side of a game.
type Seat struct {
	Agent  agents.Agent
	Limits Limits
}

// Setup describes one game to play.
type Setup struct {
	Variant  games.Variant
	Opening  Opening // plies played from the start before the agents take over
	MaxPlies int     // adjudicate as a draw once this many plies are played; 0 for no cap
	// Solve, when set, ends a game as soon as the game's exact solver
	// settles its position (see SolveAdjudication).
	Solve SolveAdjudication

	name, variant string // cached by names
	key           string // name:variant, cached by names
	// fast[p] starts player p on the coarse clock: its agent answered its
	// last move of an earlier game in under fastMove (tournament workers
	// carry this from game to game; otherwise first moves are timed
	// precisely).
	fast [2]bool
}

// referee plays games for one worker. It reuses its buffers, its move
// context and the game's state between moves and games, so a move of a fast
// agent costs the arena a few nanoseconds: no allocation, one coarse clock
// read and a legality check.
type referee struct {
	hard context.Context // cancelled when the run must stop at once
	// halted mirrors hard.Err() != nil as one atomic load, checked after
	// every move (a context's Err takes a lock).
	halted atomic.Bool
	watch  *slot // nil when no watchdog runs
	buf    []games.Move
	ctx    *moveCtx
	plies  int    // longest game so far, to size the next record's move list
	ans    answer // the last answer (see call)
	// fast[p]: player p's last move took under fastMove, so its next one
	// is timed with the coarse clock (see Setup.fast for the first move).
	fast [2]bool
	// Per game: each seat's agents.Reporter (or nil), and the position's
	// games.LegalChecker (or nil), looked up once rather than every move.
	reporter [2]agents.Reporter
	checker  games.LegalChecker
	// faulter is the position's games.MoveFaulter (or nil); faults[p]
	// describes player p's first move of the game that loses by the
	// rules, and faultPly its ply (see faultForfeit).
	faulter  games.MoveFaulter
	faults   [2]string
	faultPly [2]int
	// The current game's moves and each player's statistics. The record
	// gets them when the game ends: it is not written during the game, so
	// that the watchdog may copy it while the worker plays on.
	moves []string
	stats [2]playerStats
	// Blocks from which records and move lists are carved: one allocation
	// per many games instead of two per game. A block stays in memory as
	// long as any record cut from it.
	recBlock  []results.GameRecord
	moveBlock []string
	inBlock   bool // the current game's moves are in moveBlock
	// recycle: delivered games come back for reuse (RunOptions.ReuseGames),
	// so a move list keeps room for the longest game, not just its own.
	recycle bool

	// Workers' referees are allocated one after the other and written at
	// every move: the padding keeps them off each other's cache lines.
	_ [64]byte
	// state is the last game's position taken back to the start, for
	// reuse by the next game of the same variant (stateKey).
	state     games.Base
	stateKey  string
	startHash uint64
	stopHalt  func() bool

	// Times per move, for the game in progress. timed: the record keeps
	// move statistics (a seat on a clock, or an agents.Reporter);
	// clockOn: some seat is on a clock, clocked[p] whether p is. The
	// clocks themselves are remaining and inc; clock is the copy a
	// clocked agent is shown through its move context (rewritten before
	// every move, as the agent may write to it).
	timed     bool
	clockOn   bool
	clocked   [2]bool
	remaining [2]time.Duration
	inc       [2]time.Duration
	clock     agents.Clock
	moveStats []results.MoveStat // this game's, while timed
	clocks    [][2]float64       // this game's, while clockOn
	// Blocks the records' statistics and clock lists are cut from (see
	// carve); never reused, so a record a sink kept stays intact.
	statBlock  []results.MoveStat
	clockBlock [][2]float64
}

// newReferee returns a referee stopped hard by ctx; release it when done.
func newReferee(ctx context.Context) *referee {
	r := &referee{hard: ctx}
	coarse.acquire()
	r.stopHalt = context.AfterFunc(ctx, func() { r.halted.Store(true) })
	if ctx.Err() != nil {
		r.halted.Store(true)
	}
	return r
}

// release detaches the referee from its context and the coarse clock.
func (r *referee) release() {
	r.stopHalt()
	coarse.release()
}

// errAborted reports a game cut short by a hard stop; it is not recorded.
var errAborted = errors.New("arena: game aborted by a hard stop")

// errAbandoned reports that the watchdog took the game over.
var errAbandoned = errors.New("arena: game handed to the watchdog")

// answer is what one agent said for one move.
type answer struct {
	move    games.Move
	err     error
	crash   string // panic value, when the agent panicked
	elapsed time.Duration
	limit   time.Duration
	// clocked: the move was on the mover's clock, which showed left
	// before it (limit is then max(left, 1ns)).
	clocked bool
	left    time.Duration
}

// play plays one game into rec (whose player identities the caller set).
// onMove, if not nil, is called after every ply. It returns errAborted or
// errAbandoned when the game must not be recorded by the caller.
//
// With a watchdog, the game's record is written only once the worker has
// settled the game with the watchdog (settle): until then the watchdog may
// take the game over and build its own record from the move snapshots.
func (r *referee) play(setup *Setup, seats [2]Seat, rec *results.GameRecord, onMove func(games.Base, string)) error {
	start := now()
	r.fast, r.stats = setup.fast, [2]playerStats{}
	v := setup.Variant
	rec.Record = results.KindGame
	rec.Game, rec.Variant = setup.names()
	var b games.Base
	if s := setup.Opening.State(); s != nil {
		b = s // an opening that is a position: no start state to reuse
	} else {
		b = r.startPosition(v, setup.key)
	}
	rec.Forfeit = -1
	var err error
	if r.moves, err = setup.Opening.apply(b, r.newMoves(rec.Moves)); err != nil {
		return fmt.Errorf("opening: %w", err)
	}
	rec.Opening = setup.Opening.texts()
	rec.Moves = nil
	seq, _ := b.(games.State)
	sim, _ := b.(games.SimState)
	if seq == nil && sim == nil {
		return fmt.Errorf("game %s: state %T is neither sequential nor simultaneous", v, b)
	}
	r.checker, _ = b.(games.LegalChecker)
	r.faulter, _ = b.(games.MoveFaulter)
	r.faults = [2]string{}
	for p, seat := range seats {
		r.reporter[p], _ = seat.Agent.(agents.Reporter)
	}
	r.startClocks(seats, rec)
	if r.watch != nil {
		r.watch.startGame(rec, start, r.timed)
	}
	// end settles the game and, if the worker still owns it, records it:
	// lost by forfeit by player p (results.BothForfeit: both) when reason
	// is set, else as b's outcome or, at the ply cap, a draw.
	end := func(p int, reason, detail string) error {
		if r.watch != nil && !r.watch.idle() {
			return errAbandoned
		}
		switch {
		case reason != "":
			forfeit(rec, p, reason, detail)
		case b.Terminal():
			o := b.Outcome()
			rec.Winner, rec.Score, rec.Termination = o.Winner, o.Score, results.Normal
			rec.Result = o.Result()
			if r.faults != [2]string{} {
				faultForfeit(rec, &r.faults, &r.faultPly)
			}
		default:
			rec.Winner, rec.Score, rec.Result, rec.Termination = games.Draw, 0, "1/2-1/2", results.Adjudication
			rec.Detail = fmt.Sprintf("ply cap %d reached: scored as a draw", setup.MaxPlies)
		}
		t := now()
		coarse.refresh(t)
		rec.Moves = r.moves
		r.keepMoves(rec)
		r.writeStats(rec)
		if r.timed {
			rec.MoveStats = carve(&r.statBlock, r.moveStats)
			if r.clockOn {
				rec.Clocks = carve(&r.clockBlock, r.clocks)
			}
		}
		rec.Plies = results.Plies(rec.Moves)
		rec.DurationMS = ms(time.Duration(t - start))
		r.plies = max(r.plies, rec.Plies+rec.Plies/4)
		roundTimes(rec)
		if reason == "" {
			r.keep(b)
		}
		return nil
	}
	// stop leaves a game cut short by a hard stop unrecorded.
	stop := func() error {
		if r.watch != nil && !r.watch.idle() {
			return errAbandoned
		}
		return errAborted
	}
	for p, seat := range seats {
		if _, ok := seat.Agent.(agents.GameStarter); ok {
			if !r.call(&seats[p], p, true, nil, &v) {
				return errAbandoned
			}
			if r.halted.Load() {
				return stop()
			}
			if reason, detail := failure(&r.ans, &seats[p], "starting the game"); reason != "" {
				return end(p, reason, detail)
			}
		}
	}
	firstMove := [2]bool{true, true}
	for !b.Terminal() && (setup.MaxPlies == 0 || b.Ply() < setup.MaxPlies) {
		if solver, ok := setup.Solve.solvable(b); ok {
			// No move runs while the position is solved: the watchdog
			// must not take the solve for an overdue move.
			if r.watch != nil && !r.watch.idle() {
				return errAbandoned
			}
			o, value, solved := solvedOutcome(r.hard, solver, b, setup.Solve.Time)
			if r.halted.Load() {
				return stop()
			}
			if solved {
				empties, ply := b.(games.EmptiesCounter).Empties(), b.Ply()
				err := end(0, "", "") // records the game so far (and takes b back to the start)
				if err == nil {
					adjudicateSolved(rec, o, value, empties, ply)
				}
				return err
			}
		}
		var text string
		if s := seq; s != nil {
			p := s.ToMove()
			m, reason, detail, alive := r.ask(&seats[p], s, p, firstMove[p])
			if !alive {
				return errAbandoned
			}
			if r.halted.Load() {
				return stop()
			}
			firstMove[p] = false
			if reason != "" {
				return end(p, reason, detail)
			}
			if r.faulter != nil {
				r.noteFault(p, m, b.Ply())
			}
			text = s.FormatMove(m)
			s.Play(m)
		} else {
			s := sim
			var ms [2]games.Move
			var reasons, details [2]string
			for p := range seats {
				var alive bool
				// Both players think on the same position, one after the
				// other, each on its own clock.
				ms[p], reasons[p], details[p], alive = r.ask(&seats[p], s, p, firstMove[p])
				if !alive {
					return errAbandoned
				}
				if r.halted.Load() {
					return stop()
				}
				firstMove[p] = false
			}
			switch {
			case reasons[0] != "" && reasons[1] != "":
				return end(results.BothForfeit, reasons[0], details[0]+"; "+details[1])
			case reasons[0] != "":
				return end(0, reasons[0], details[0])
			case reasons[1] != "":
				return end(1, reasons[1], details[1])
			}
			if r.faulter != nil {
				r.noteFault(0, ms[0], b.Ply())
				r.noteFault(1, ms[1], b.Ply())
			}
			text = s.FormatMove(ms[0]) + " | " + s.FormatMove(ms[1])
			s.PlayJoint(ms[0], ms[1])
		}
		if r.clockOn {
			r.clocks = append(r.clocks, r.clockEntry())
		}
		r.moves = append(r.moves, text)
		if onMove != nil {
			onMove(b, text)
		}
	}
	return end(0, "", "")
}

// startClocks sets the game's clocks from the seats' time controls and
// decides whether the record keeps times per move; it names each clocked
// player's time control in rec.
func (r *referee) startClocks(seats [2]Seat, rec *results.GameRecord) {
	r.clockOn = false
	for p := range seats {
		tc := seats[p].Limits.Clock
		r.clocked[p] = !tc.IsZero()
		r.remaining[p], r.inc[p] = tc.Base, tc.Inc
		if r.clocked[p] {
			r.clockOn = true
			text := seats[p].Limits.clockText
			if text == "" {
				text = tc.String()
			}
			rec.Players[p].TC = text
		}
	}
	r.timed = r.clockOn || r.reporter[0] != nil || r.reporter[1] != nil
	r.moveStats, r.clocks = r.moveStats[:0], r.clocks[:0]
}

// clockEntry is both players' time left, for Game.Clocks.
func (r *referee) clockEntry() [2]float64 {
	var e [2]float64
	for p := range e {
		e[p] = results.NoClock
		if r.clocked[p] {
			e[p] = msRound(r.remaining[p])
		}
	}
	return e
}

// carve copies list into a slice cut from *block (a new block when it
// has no room), so that a record's list costs no allocation of its own.
func carve[T any](block *[]T, list []T) []T {
	n := len(list)
	if n == 0 {
		return nil
	}
	if len(*block) < n {
		*block = make([]T, max(1024, n))
	}
	out := (*block)[:n:n]
	*block = (*block)[n:]
	copy(out, list)
	return out
}

// noteFault remembers player p's first move of the game that loses by the
// rules (games.MoveFaulter), played at the given ply.
func (r *referee) noteFault(p int, m games.Move, ply int) {
	if r.faults[p] == "" {
		if f := r.faulter.MoveFault(p, m); f != "" {
			r.faults[p], r.faultPly[p] = f, ply
		}
	}
}

// faultForfeit records a game that ended by its rules after a move that
// loses by the rules (an unknown command of a CodinGame-style game): the game's
// outcome stands, but the termination says it was a forfeit, by whom and
// why, instead of "normal".
func faultForfeit(rec *results.GameRecord, faults *[2]string, plies *[2]int) {
	rec.Termination, rec.Forfeit = results.Illegal, -1
	var parts []string
	for p, f := range faults {
		if f == "" {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s lost by the game's rules with its move at ply %d: %s", rec.Players[p].Name, plies[p]+1, f))
		if rec.Forfeit >= 0 {
			rec.Forfeit = results.BothForfeit
		} else {
			rec.Forfeit = p
		}
	}
	rec.Detail = strings.Join(parts, "; ")
}

// playerStats is what the record says of a player's moves.
type playerStats struct {
	moves          int
	nodes          int64
	spent, longest time.Duration
}

// writeStats puts the players' statistics into rec.
func (r *referee) writeStats(rec *results.GameRecord) { putStats(rec, &r.stats) }

func putStats(rec *results.GameRecord, st *[2]playerStats) {
	for p := range rec.Players {
		pl := &rec.Players[p]
		pl.Moves, pl.Nodes = st[p].moves, st[p].nodes
		pl.TimeMS, pl.MaxMoveMS = ms(st[p].spent), ms(st[p].longest)
	}
}

// recycled holds delivered games whose memory a run may reuse
// (RunOptions.ReuseGames), move lists included.
var recycled sync.Pool

// newRecord returns a record to fill: a recycled one (whose Moves keeps
// its capacity), else a zeroed one from the current block.
func (r *referee) newRecord() *results.GameRecord {
	if g, ok := recycled.Get().(*results.GameRecord); ok {
		return g
	}
	if len(r.recBlock) == 0 {
		r.recBlock = make([]results.GameRecord, 64)
	}
	rec := &r.recBlock[0]
	r.recBlock = r.recBlock[1:]
	return rec
}

// newMoves returns an empty move list: old's array when it has room for
// the longest game so far (a recycled record's), else the rest of the
// current block, from which keepMoves then takes just the moves the game
// used.
func (r *referee) newMoves(old []string) []string {
	if cap(old) >= max(r.plies, 16) {
		r.inBlock = false
		return old[:0]
	}
	if len(r.moveBlock) < max(r.plies, 16) {
		r.moveBlock = make([]string, max(4096, 4*r.plies))
	}
	r.inBlock = true
	return r.moveBlock[:0:len(r.moveBlock)]
}

// keepMoves ends rec's claim on the move block: the moves it holds stay
// its own (capacity trimmed, so appending copies) and the block moves past
// them. A list that outgrew the block was reallocated by append and leaves
// the block as it was.
func (r *referee) keepMoves(rec *results.GameRecord) {
	if n := len(rec.Moves); r.inBlock && cap(rec.Moves) == len(r.moveBlock) {
		k := n
		if r.recycle {
			k = min(max(n, r.plies), len(r.moveBlock))
		}
		rec.Moves = rec.Moves[:n:k]
		r.moveBlock = r.moveBlock[k:]
	}
}

// startPosition returns the start position of v: the previous game's
// state taken back to the start when it is of the same variant (saving an
// allocation, and for some games a costly setup, per game), else a new one.
func (r *referee) startPosition(v games.Variant, key string) games.Base {
	if r.state != nil && r.stateKey == key {
		b := r.state
		r.state = nil
		return b
	}
	b := v.New()
	r.state, r.stateKey, r.startHash = nil, key, b.Hash()
	return b
}

// keep takes a finished game's state back to the start for the next game,
// and keeps it only if it then is exactly the start position again (same
// hash, no ply played). Only games that ended normally or by adjudication
// come here: after a forfeit the state may hold an agent's half-finished
// search and is dropped.
func (r *referee) keep(b games.Base) {
	defer func() {
		if recover() != nil {
			r.state = nil // a game whose Undo fails simply gets new states
		}
	}()
	for b.Ply() > 0 {
		b.Undo()
	}
	if b.Hash() == r.startHash && !b.Terminal() {
		r.state = b
	}
}

// ask gets player p's move in s and checks it. reason is empty for a good
// move, else the termination reason of a forfeit; alive is false when the
// watchdog took the game over.
func (r *referee) ask(seat *Seat, s games.Base, p int, first bool) (m games.Move, reason, detail string, alive bool) {
	hash := s.Hash() // the hash covers the position; a changed history changes it too
	if !r.call(seat, p, first, s, nil) {
		return 0, "", "", false
	}
	a := &r.ans
	st := &r.stats[p]
	st.moves++
	if rep := r.reporter[p]; rep != nil && a.crash == "" {
		rs := rep.LastStats()
		st.nodes += rs.Nodes
		r.moveStats = append(r.moveStats, results.MoveStat{Player: p, MS: msRound(a.elapsed), Depth: rs.Depth, Score: rs.Score, Nodes: rs.Nodes, Info: rs.Info})
	} else if r.timed {
		r.moveStats = append(r.moveStats, results.MoveStat{Player: p, MS: msRound(a.elapsed)})
	}
	if reason, detail := failure(a, seat, "choosing a move"); reason != "" {
		return 0, reason, detail, true
	}
	if s.Hash() != hash {
		return 0, results.Crash, fmt.Sprintf("%s changed the position it was shown (ply %d, now %d) instead of leaving it as it found it", seat.Agent.Name(), len(r.moves), s.Ply()), true
	}
	if r.checker != nil && r.checker.Legal(a.move) {
		return a.move, "", "", true
	}
	r.buf = games.LegalMovesFor(s, p, r.buf[:0])
	for _, l := range r.buf {
		if l == a.move {
			return a.move, "", "", true
		}
	}
	// Games whose listed moves are only candidates (a CodinGame-style game
	// accepts any output line) say themselves whether an unlisted move is valid.
	if v, ok := s.(games.MoveValidator); ok && v.ValidMove(p, a.move) {
		return a.move, "", "", true
	}
	return 0, results.Illegal, fmt.Sprintf("%s played the illegal move %s (legal: %s)", seat.Agent.Name(), safeFormat(s, a.move), games.FormatMoves(s, r.buf)), true
}

// call asks seat's agent for player p's move in s, or (v not nil) tells it
// a game of v starts, under the seat's limit, catching panics; the answer
// is left in r.ans, and its time is charged to player p. call returns
// false when the watchdog took the game over (during an earlier move: the
// worker learns it when it next talks to the watchdog).
//
// A move is timed with the precise clock unless the player's previous move
// in this game took under fastMove: then with the coarse clock, whose
// readings are exact on average (a move is charged a whole tick when a
// tick falls inside it, else nothing). Deadlines computed from a lagging
// coarse reading are early, never late; the watchdog allows one tick more.
func (r *referee) call(seat *Seat, p int, first bool, s games.Base, v *games.Variant) bool {
	limit := seat.Limits.limit(first)
	if v != nil && limit > 0 {
		// NewGame may start an external engine: allow it its start time.
		limit = max(limit, agents.StartTime(seat.Agent))
	}
	clocked := v == nil && r.clocked[p]
	if clocked {
		// A move on the clock may use the time left; with none left it
		// must answer within the margin (a limit of 0 would mean none).
		limit = max(r.remaining[p], 1)
	}
	a := &r.ans
	*a = answer{limit: limit}
	if clocked {
		a.clocked, a.left = true, r.remaining[p]
	}
	var ctx context.Context = r.hard
	// Moves on a clock are timed precisely: they are charged to it.
	fast := v == nil && r.fast[p] && !clocked
	var start int64
	if fast {
		start = coarse.read()
	} else {
		start = now()
	}
	var mc *moveCtx
	if limit > 0 {
		if r.ctx == nil {
			r.ctx = &moveCtx{parent: r.hard}
		}
		mc = r.ctx
		mc.deadline, mc.err, mc.clock = start+int64(limit), nil, nil
		if clocked {
			r.clock.Remaining, r.clock.Inc = r.remaining, r.inc
			mc.clock = &r.clock
		}
		ctx = mc
	}
	if w := r.watch; w != nil {
		// Publish the move to the watchdog, which also settles the previous
		// one: false means the watchdog took the game over meanwhile.
		ok := false
		if limit > 0 {
			sn := w.nextSnap()
			sn.player, sn.started, sn.limit, sn.margin = p, start, limit, seat.Limits.Margin
			sn.moves, sn.stats, sn.starting = r.moves, r.stats, v != nil
			if r.timed {
				sn.moveStats, sn.clocks, sn.clocked, sn.remaining = r.moveStats, r.clocks, clocked, r.remaining
			}
			ok = w.begin(start + int64(limit+seat.Limits.Margin+coarseTick))
		} else {
			ok = w.idle()
		}
		if !ok {
			return false
		}
	}
	a.move, a.err, a.crash = protect(ctx, seat.Agent, s, p, v)
	var end int64
	if fast {
		end = coarse.read()
	} else {
		end = now()
	}
	a.elapsed = time.Duration(max(end-start, 0))
	if v == nil {
		r.fast[p] = a.elapsed < fastMove
	}
	if mc != nil && !mc.release() {
		r.ctx = nil // an agent holds its Done channel: use a fresh context next time
	}
	st := &r.stats[p]
	st.spent += a.elapsed
	st.longest = max(st.longest, a.elapsed)
	if clocked {
		// A move past the time left plus the margin loses (failure); one
		// within the margin leaves the clock at 0 before the increment.
		r.remaining[p] = max(r.remaining[p]-a.elapsed, 0) + r.inc[p]
	}
	return true
}

// protect calls the agent's Move, or its NewGame when v is not nil,
// turning a panic into a crash description.
func protect(ctx context.Context, a agents.Agent, s games.Base, p int, v *games.Variant) (m games.Move, err error, crash string) {
	defer func() {
		if x := recover(); x != nil {
			crash = fmt.Sprintf("panic: %v [%s]", x, panicSite(debug.Stack()))
		}
	}()
	if v != nil {
		return 0, a.(agents.GameStarter).NewGame(*v, p), ""
	}
	m, err = a.Move(ctx, s, p)
	return m, err, ""
}

// panicSite returns the source line that panicked: the first frame after
// the panic call that is not in the runtime (a nil-map write, for example,
// panics inside runtime.mapassign).
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	afterPanic := false
	for i := 1; i+1 < len(lines); i += 2 {
		fn := strings.TrimSpace(lines[i])
		if strings.HasPrefix(fn, "panic(") {
			afterPanic = true
			continue
		}
		if !afterPanic || strings.HasPrefix(fn, "runtime.") {
			continue
		}
		loc := strings.TrimSpace(lines[i+1])
		if j := strings.LastIndex(loc, " +0x"); j > 0 {
			loc = loc[:j]
		}
		return loc
	}
	return "unknown location"
}

// failure classifies a bad answer: overrun, panic or error.
func failure(a *answer, seat *Seat, doing string) (reason, detail string) {
	if a.err == nil && a.crash == "" && (a.limit == 0 || a.elapsed <= a.limit+seat.Limits.Margin) {
		return "", "" // the usual case, without formatting the agent's name
	}
	name := seat.Agent.Name()
	timedOut := errors.Is(a.err, agents.ErrTimeout) || errors.Is(a.err, context.DeadlineExceeded)
	switch {
	case a.limit > 0 && a.elapsed > a.limit+seat.Limits.Margin, timedOut:
		// An agent past its limit, one that gave up when its move's
		// context expired, or an external bot that missed its own
		// protocol deadline: the same failure, described alike.
		note := ""
		if a.err != nil {
			note = a.err.Error()
		}
		if a.clocked {
			return results.Timeout, clockDetail(name, a.elapsed, a.left, seat.Limits.Margin, note)
		}
		return results.Timeout, timeoutDetail(name, doing, a.elapsed, a.limit, seat.Limits.Margin, note)
	case a.crash != "":
		return results.Crash, fmt.Sprintf("%s crashed %s: %s", name, doing, a.crash)
	case errors.Is(a.err, agents.ErrOutput):
		// Output that is no move at all: an illegal move.
		return results.Illegal, fmt.Sprintf("%s gave no usable move %s: %v", name, doing, a.err)
	case errors.Is(a.err, agents.ErrCrash):
		return results.Crash, fmt.Sprintf("%s crashed %s: %v", name, doing, a.err)
	case a.err != nil:
		return results.Error, fmt.Sprintf("%s failed %s: %v", name, doing, a.err)
	}
	return "", ""
}

// timeoutDetail describes a move that ran out of time. Whoever noticed it
// (the agent's own deadline, the referee when the move returned late, the
// watchdog while it ran) the description has the same form; note adds what
// the one who noticed said, if anything.
func timeoutDetail(name, doing string, elapsed, limit, margin time.Duration, note string) string {
	d := fmt.Sprintf("%s timed out %s after %s (limit %s + margin %s)", name, doing, roundDur(elapsed), limit, margin)
	if limit == 0 {
		d = fmt.Sprintf("%s timed out %s (after %s, no arena limit)", name, doing, roundDur(elapsed))
	}
	if note != "" {
		d += ": " + note
	}
	return d
}

// clockDetail describes a move on a clock that lost on time: its flag
// fell (it took longer than the time left plus the margin), or it gave up
// before (note says how).
func clockDetail(name string, elapsed, left, margin time.Duration, note string) string {
	d := fmt.Sprintf("%s lost on time: its flag fell after %s of thought with %s on its clock (margin %s)", name, roundDur(elapsed), roundDur(left), margin)
	if elapsed <= left+margin {
		d = fmt.Sprintf("%s lost on time: it gave up after %s of thought with %s on its clock (margin %s)", name, roundDur(elapsed), roundDur(left), margin)
	}
	if note != "" {
		d += ": " + note
	}
	return d
}

// forfeit ends rec with player p (or both) losing by forfeit.
func forfeit(rec *results.GameRecord, p int, reason, detail string) {
	rec.Termination, rec.Forfeit, rec.Detail, rec.Score = reason, p, detail, 0
	switch p {
	case 0:
		rec.Winner, rec.Result = 1, "0-1"
	case 1:
		rec.Winner, rec.Result = 0, "1-0"
	default:
		rec.Winner, rec.Result = games.Draw, "1/2-1/2"
	}
}

// safeFormat formats a move that may be garbage (FormatMove may panic on
// values the game never produces).
func safeFormat(b games.Base, m games.Move) (s string) {
	defer func() {
		if recover() != nil {
			s = fmt.Sprintf("#%d", uint32(m))
		}
	}()
	return b.FormatMove(m)
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// msRound is d in milliseconds rounded to the microsecond, as records
// keep times.
func msRound(d time.Duration) float64 { return math.Round(float64(d)/1e3) / 1e3 }

// roundTimes rounds a record's times to whole microseconds: sums of many
// float milliseconds otherwise print as 0.010695999999999999.
func roundTimes(rec *results.GameRecord) {
	r := func(v float64) float64 { return math.Round(v*1e3) / 1e3 }
	rec.DurationMS = r(rec.DurationMS)
	for p := range rec.Players {
		rec.Players[p].TimeMS = r(rec.Players[p].TimeMS)
		rec.Players[p].MaxMoveMS = r(rec.Players[p].MaxMoveMS)
	}
}

func roundDur(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}

// variantOf returns the options part of a game spec ("algol" for "game:algol").
func variantOf(v games.Variant) string {
	s := v.String()
	if _, opts, ok := strings.Cut(s, ":"); ok {
		return opts
	}
	return ""
}

// names returns the record's game name and variant, computed once per
// Setup value (tournaments copy a prepared Setup for every game).
func (s *Setup) names() (string, string) {
	if s.name == "" {
		s.name, s.variant = s.Variant.Game.Name, variantOf(s.Variant)
		s.key = s.name + ":" + s.variant
	}
	return s.name, s.variant
}

// GameResult is the end of a game played by PlayGame.
type GameResult struct {
	Outcome games.Outcome
	Plies   int
	Moves   []string // every move in the game's notation (joint moves as "a | b")
	// Record is the full record: termination reason, forfeits, times, nodes.
	Record *results.GameRecord
}

// PlayGame plays one game of v between two agents (players[0] moves first)
// without time limits and returns its result. onMove, when not nil, is
// called after every move with the new state. A forfeit (agent error,
// panic or illegal move) ends the game with an error naming the agent; the
// result then still holds the record.
func PlayGame(ctx context.Context, v games.Variant, players [2]agents.Agent, onMove func(s games.Base, last string)) (GameResult, error) {
	return Play(ctx, Setup{Variant: v}, [2]Seat{{Agent: players[0]}, {Agent: players[1]}}, onMove)
}

// Play plays one game with per-seat limits. Without a watchdog a stuck
// agent blocks Play until it returns; a move that returns after its limit
// plus margin still forfeits. A forfeit is reported as an error (and in
// the record).
func Play(ctx context.Context, setup Setup, seats [2]Seat, onMove func(s games.Base, last string)) (GameResult, error) {
	for _, s := range seats {
		if err := agents.CheckGame(s.Agent, setup.Variant); err != nil {
			return GameResult{}, err
		}
	}
	rec := &results.GameRecord{}
	for p, s := range seats {
		rec.Players[p].Name = s.Agent.Name()
		rec.Players[p].Agent = p
	}
	r := newReferee(ctx)
	defer r.release()
	err := r.play(&setup, seats, rec, onMove)
	res := GameResult{Outcome: games.Outcome{Winner: rec.Winner, Score: rec.Score}, Plies: rec.Plies, Moves: rec.Moves, Record: rec}
	if err != nil {
		if errors.Is(err, errAborted) {
			return res, ctx.Err()
		}
		return res, err
	}
	if rec.Forfeit >= 0 {
		return res, fmt.Errorf("%s (%s)", rec.Detail, rec.Termination)
	}
	return res, nil
}
