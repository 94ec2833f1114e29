// Package accuracy scores the moves of recorded games against perfect
// play: for every move an agent chose in a position whose exact value the
// game's book or solver settles within a budget, the value before and
// after the move from the mover's view, the value it lost (0 for an
// optimal move) and whether it changed the theoretical outcome (a
// blunder). Per player and per phase of the game it sums these up, with
// bootstrap intervals over the games. `arena accuracy` is a command line
// over it, and `arena report --accuracy` shows it.
//
// It lives in search, beside search/solve, because it replays games and
// solves their positions (games, the games' own solvers and alpha-beta's
// generic exact search), which results, the package of records and
// ratings, stays free of; it reads the records results reads.
//
// Values are in the game's solved-value convention (games.ExactSolver:
// othello6 gives the empty cells to the winner; erdos the winner's
// margin), or the winner's margin for games solved by the generic search
// (pyrga). A position is settled when it is in the game's book
// (games.Booker, games.BookValuer) or its solve finishes within
// Options.Budget and, if set, Options.Nodes; a move whose position before
// or after is not settled is counted as unknown, never guessed. With a
// node budget the settled positions do not depend on the machine's speed
// (each position is solved on one thread with a table of its own); with a
// time budget alone they may, near the budget. Exact values do not: a
// cache filled with another budget only settles more.
package accuracy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/search/alphabeta"
)

// Defaults and limits of Options.
const (
	DefaultBudget     = time.Second
	DefaultPhaseWidth = 4
	// NodesTimeCap is the time budget with a node budget and no time
	// budget given: a safety, far above the time of any node budget worth
	// giving, so that the settled positions do not depend on the machine.
	NodesTimeCap     = 10 * time.Minute
	DefaultBootstrap = 1000
	MaxConcurrency   = 256
	MaxBootstrap     = 100000
	maxPhase         = 100 // Counts keep the cost of solves by phase up to this
	// genericTableMB is the generic search's table: positions it settles
	// within a budget are small.
	genericTableMB = 16
)

// Options say how to analyse.
type Options struct {
	// Budget bounds the wall time of one position's solve (0:
	// DefaultBudget, or NodesTimeCap with Nodes).
	Budget time.Duration
	// Nodes, if positive, bounds one position's solve in nodes too: a
	// solve that needs more leaves the position unknown, whatever the
	// machine's speed.
	Nodes int64
	// Concurrency is how many positions are solved at once, each on one
	// thread (0: every core).
	Concurrency int
	// PhaseWidth is the width of a phase, in empty cells before the move
	// (games.EmptiesCounter), else in plies (0: DefaultPhaseWidth).
	PhaseWidth int
	// Bootstrap is the number of resamples of the games for the 95 %
	// intervals (0: DefaultBootstrap; negative: none); Seed seeds them.
	Bootstrap int
	Seed      uint64
	// TableMB is the table of the game's solver per solve (0: its choice).
	TableMB int
	// AllMoves values every legal move of each analysed position, not only
	// the one played (for the viewer): a solve per legal move.
	AllMoves bool
	// Cache, if not nil, holds values across games and runs; without it
	// the analysis keeps one in memory.
	Cache *Cache
	// Progress, if not nil, is called after each game, from one goroutine
	// at a time, with the games done and the total.
	Progress func(done, total int)
}

func (o Options) check() error {
	switch {
	case o.Budget < 0:
		return option.New("Budget", o.Budget, "use a positive duration (0: %v)", DefaultBudget)
	case o.Nodes < 0:
		return option.New("Nodes", o.Nodes, "use a positive node count (0: no node limit)")
	case o.Concurrency < 0 || o.Concurrency > MaxConcurrency:
		return option.New("Concurrency", o.Concurrency, "use 1 to %d (0: every core)", MaxConcurrency)
	case o.PhaseWidth < 0 || o.PhaseWidth > 1000:
		return option.New("PhaseWidth", o.PhaseWidth, "use 1 to 1000 (0: %d)", DefaultPhaseWidth)
	case o.Bootstrap > MaxBootstrap:
		return option.New("Bootstrap", o.Bootstrap, "use at most %d", MaxBootstrap)
	case o.TableMB < 0 || o.TableMB > 1<<16:
		return option.New("TableMB", o.TableMB, "use 1 to %d (0: the solver's choice)", 1<<16)
	}
	return nil
}

func (o Options) budget() time.Duration {
	if o.Budget == 0 && o.Nodes > 0 {
		return NodesTimeCap
	}
	if o.Budget == 0 {
		return DefaultBudget
	}
	return o.Budget
}

func (o Options) width() int {
	if o.PhaseWidth == 0 {
		return DefaultPhaseWidth
	}
	return o.PhaseWidth
}

func (o Options) concurrency() int {
	if o.Concurrency == 0 {
		return runtime.NumCPU()
	}
	return o.Concurrency
}

// MoveValue is the exact value of one legal move, from the mover's view.
type MoveValue struct {
	Move  string `json:"move"`
	Known bool   `json:"known"`
	Value int    `json:"value,omitempty"`
	Best  bool   `json:"best,omitempty"` // worth the position's value
}

// Ply is one move an agent chose, scored.
type Ply struct {
	Ply     int    `json:"ply"`    // index in the game's plies, from 0 (a start position not counted)
	Player  int    `json:"player"` // the mover's seat
	Move    string `json:"move"`
	Phase   int    `json:"phase"`   // empty cells (or plies) before the move
	Forced  bool   `json:"forced"`  // the only legal move
	Known   bool   `json:"known"`   // both values settled
	Before  int    `json:"before"`  // the position's value
	After   int    `json:"after"`   // the move's value
	Loss    int    `json:"loss"`    // Before − After
	Blunder bool   `json:"blunder"` // the outcome got worse (win→draw/loss, draw→loss)
	// Moves values every legal move (Options.AllMoves), in legal order.
	Moves []MoveValue `json:"moves,omitempty"`
}

// Game is one game scored.
type Game struct {
	Index   int       `json:"index"` // the record's Index
	Players [2]string `json:"players"`
	Plies   []Ply     `json:"plies"` // the agents' moves (not the opening's)
}

// Analyser scores games of one game spec with one set of options; its
// Game method may be called from several goroutines.
type Analyser struct {
	spec    string
	variant games.Variant
	o       Options
	cache   *Cache
	byPlies bool
	stats   Counts
}

// Counts say where the values came from.
type Counts struct {
	Solved    atomic.Int64 // positions solved now
	Unsettled atomic.Int64 // solves that did not finish in budget
	CacheHits atomic.Int64
	Book      atomic.Int64
	Nodes     atomic.Int64
	// SolveNS sums the solves' wall time, in ns.
	SolveNS atomic.Int64
	// By the phase of the position solved (its empty cells, or plies,
	// up to maxPhase): solves, nodes and ns, for where the time goes.
	byPhase [maxPhase + 1][3]atomic.Int64
}

// NewAnalyser returns an analyser of games of spec (e.g. "othello6"). It
// refuses games the accuracy cannot be computed for, and options out of
// range (*option.Error).
func NewAnalyser(spec string, o Options) (*Analyser, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	v, err := games.Lookup(spec)
	if err != nil {
		return nil, err
	}
	s, ok := v.New().(games.State)
	if !ok {
		return nil, fmt.Errorf("%s is a simultaneous game: it has no exact values to score moves against", spec)
	}
	if _, ok := s.(games.ExactSolver); !ok && !supportedGeneric[v.Game.Name] {
		return nil, fmt.Errorf("%s has no exact solver that settles its positions (accuracy supports othello6, erdos and pyrga)", spec)
	}
	_, hasEmpties := s.(games.EmptiesCounter)
	a := &Analyser{spec: v.String(), variant: v, o: o, cache: o.Cache, byPlies: !hasEmpties}
	if a.cache == nil {
		a.cache = NewCache(a.spec)
	} else if a.cache.Game() != a.spec {
		return nil, option.New("Cache", a.cache.Game(), "the cache holds positions of %s, not %s: use another file", a.cache.Game(), a.spec)
	}
	return a, nil
}

// supportedGeneric are the games without an ExactSolver whose positions
// alpha-beta's generic exact search settles late in the game. TryAngle
// Catch (simultaneous) and Gravity Connect (far too deep) are left out.
var supportedGeneric = map[string]bool{"pyrga": true}

// Stats says where the values came from so far.
func (a *Analyser) Stats() *Counts { return &a.stats }

// PhaseUnit is what phases count: "empties" or "plies".
func (a *Analyser) PhaseUnit() string {
	if a.byPlies {
		return "plies"
	}
	return "empties"
}

// value is a settled value from one player's view.
type value struct {
	known  bool
	v      int
	result int // 1 win, 0 draw, −1 loss
}

func (x value) neg() value { return value{x.known, -x.v, -x.result} }

// Game scores the agents' moves of g (its opening's plies are not theirs).
// It stops with ctx's error when ctx is done, keeping in the cache what it
// solved.
func (a *Analyser) Game(ctx context.Context, g *results.GameRecord) (Game, error) {
	out := Game{Index: g.Index, Players: [2]string{g.Players[0].Name, g.Players[1].Name}}
	if g.GameSpec() != a.spec {
		v, err := games.Lookup(g.GameSpec())
		if err != nil || v.String() != a.spec {
			return out, fmt.Errorf("game %d is %s, not %s", g.Index, g.GameSpec(), a.spec)
		}
	}
	s := a.variant.New().(games.State)
	moves, opening := g.Moves, results.Plies(g.Opening)
	if len(moves) > 0 && strings.HasPrefix(moves[0], results.PositionPrefix) {
		// A game from a given position: plies count from it, as the
		// viewer counts them.
		start, err := games.ParsePosition(a.variant, strings.TrimPrefix(moves[0], results.PositionPrefix))
		if err != nil {
			return out, fmt.Errorf("game %d: the start position: %w", g.Index, err)
		}
		s, moves = start, moves[1:]
	}
	var buf []games.Move
	var next value // the value of the position before the ply, from its mover's view, when known
	haveNext := false
	for i, text := range moves {
		buf = s.LegalMoves(buf[:0])
		m, err := s.ParseMove(text)
		if err != nil || !slices.Contains(buf, m) {
			return out, fmt.Errorf("game %d: ply %d: illegal move %q", g.Index, i+1, text)
		}
		if i < opening || s.ToMove() < 0 {
			s.Play(m)
			haveNext = false
			continue
		}
		mover := s.ToMove()
		p := Ply{Ply: i, Player: mover, Move: text, Phase: a.phase(s, i), Forced: len(buf) == 1}
		before := next
		if !haveNext {
			if before, err = a.positionValue(ctx, s, mover); err != nil {
				return out, err
			}
		}
		if a.o.AllMoves {
			p.Moves = make([]MoveValue, len(buf))
			best := value{}
			all := true
			for j, c := range buf {
				s.Play(c)
				cv, err := a.positionValue(ctx, s, mover)
				s.Undo()
				if err != nil {
					return out, err
				}
				p.Moves[j] = MoveValue{Move: s.FormatMove(c), Known: cv.known, Value: cv.v}
				all = all && cv.known
				if cv.known && (!best.known || cv.v > best.v) {
					best = cv
				}
			}
			if !before.known && all {
				before = best // the minimax of the children
			}
			if before.known {
				for j := range p.Moves {
					p.Moves[j].Best = p.Moves[j].Known && p.Moves[j].Value == before.v
				}
			}
		}
		s.Play(m)
		after, err := a.positionValue(ctx, s, mover)
		if err != nil {
			return out, err
		}
		// The next ply's position is this one: its value from its mover's
		// view, for free.
		next, haveNext = after, !s.Terminal()
		if nm := s.ToMove(); nm >= 0 && nm != mover {
			next = after.neg()
		}
		if before.known && after.known {
			p.Known, p.Before, p.After = true, before.v, after.v
			p.Loss = before.v - after.v
			p.Blunder = after.result < before.result
			if p.Loss < 0 {
				return out, fmt.Errorf("game %d: ply %d: the move %s is worth %d, more than its position's %d: the solver or book is inconsistent", g.Index, i+1, text, after.v, before.v)
			}
		}
		out.Plies = append(out.Plies, p)
	}
	return out, nil
}

// phase is what the phase of the ply i from s counts.
func (a *Analyser) phase(s games.State, i int) int {
	if e, ok := s.(games.EmptiesCounter); ok && !a.byPlies {
		return e.Empties()
	}
	return i
}

// positionValue is the value of s from player p's view (the mover of the
// ply that led to s, or the one to move in s).
func (a *Analyser) positionValue(ctx context.Context, s games.State, p int) (value, error) {
	if s.Terminal() {
		return a.terminal(ctx, s, p)
	}
	v, err := a.settle(ctx, s)
	if err != nil {
		return value{}, err
	}
	if s.ToMove() != p {
		v = v.neg()
	}
	return v, nil
}

// terminal is the value of the finished s from p's view, in the game's
// solved-value convention: a game solver's value of a finished position is
// from the view of the side that would move next (the opponent of the
// last mover); the generic convention is the margin.
func (a *Analyser) terminal(ctx context.Context, s games.State, p int) (value, error) {
	o := s.Outcome()
	res := 0
	switch o.Winner {
	case p:
		res = 1
	case 1 - p:
		res = -1
	}
	margin := o.Score
	if p == 1 {
		margin = -margin
	}
	if ex, ok := s.(games.ExactSolver); ok {
		v, _, _, err := ex.SolveExact(ctx, games.SolveOptions{Threads: 1, TableMB: 1})
		if err != nil {
			return value{}, err
		}
		// v is from the view of the side after the last mover: whichever
		// of its two signs agrees with the outcome is p's.
		if v == 0 || (v > 0) == (res > 0) && res != 0 {
			return value{true, v, res}, nil
		}
		return value{true, -v, res}, nil
	}
	return value{true, margin, res}, nil
}

// settle is the value of the live s from its mover's view: from the cache,
// the book or a solve within the budget.
func (a *Analyser) settle(ctx context.Context, s games.State) (value, error) {
	key := keyOf(s)
	if e, ok := a.cache.get(key); ok && (e.Known || e.covers(a.o.Nodes, a.o.budget())) {
		a.stats.CacheHits.Add(1)
		return value{e.Known, int(e.Value), int(e.Result)}, nil
	}
	if b, ok := s.(games.BookValuer); ok {
		if v, ok := b.BookValue(); ok {
			a.stats.Book.Add(1)
			return value{true, v, cmp.Compare(v, 0)}, nil
		}
	}
	if b, ok := s.(games.Booker); ok {
		if _, v, ok := b.BookMove(); ok {
			a.stats.Book.Add(1)
			return value{true, v, cmp.Compare(v, 0)}, nil
		}
	}
	start := time.Now()
	v, nodes, err := a.solve(ctx, s)
	took := int64(time.Since(start))
	a.stats.SolveNS.Add(took)
	ph := &a.stats.byPhase[min(a.phase(s, s.Ply()), maxPhase)]
	ph[0].Add(1)
	ph[1].Add(nodes)
	ph[2].Add(took)
	a.stats.Nodes.Add(nodes)
	if ctx.Err() != nil {
		return value{}, ctx.Err() // interrupted: nothing learnt
	}
	if err != nil {
		return value{}, err
	}
	e := entry{Known: v.known, Value: int16(v.v), Result: int8(v.result)}
	if v.known {
		a.stats.Solved.Add(1)
	} else {
		a.stats.Unsettled.Add(1)
		e.Nodes, e.Time = a.o.Nodes, a.o.budget()
	}
	a.cache.put(key, e)
	return v, nil
}

// solve solves s on one thread within the budget; a solve that stops is
// an unknown value, not an error.
func (a *Analyser) solve(ctx context.Context, s games.State) (value, int64, error) {
	sctx, cancel := context.WithTimeout(ctx, a.o.budget())
	defer cancel()
	if ex, ok := s.(games.ExactSolver); ok {
		var counter atomic.Int64
		if a.o.Nodes > 0 {
			stop := watchNodes(&counter, a.o.Nodes, cancel)
			defer stop()
		}
		v, _, nodes, err := ex.SolveExact(sctx, games.SolveOptions{Threads: 1, TableMB: a.o.TableMB, Nodes: &counter})
		if err != nil || (a.o.Nodes > 0 && nodes > a.o.Nodes) {
			return value{}, nodes, nil
		}
		return value{true, v, cmp.Compare(v, 0)}, nodes, nil
	}
	mb := a.o.TableMB
	if mb == 0 {
		mb = genericTableMB
	}
	res, err := alphabeta.New(alphabeta.Options{Exact: true, TTMB: mb, Threads: 1, Nodes: a.o.Nodes}).Search(sctx, s)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return value{}, res.Nodes, err
	}
	if err != nil || !res.Complete || !alphabeta.IsProven(res.Score) && res.Score != 0 || (a.o.Nodes > 0 && res.Nodes > a.o.Nodes) {
		return value{}, res.Nodes, nil
	}
	switch sc := res.Score; {
	case sc >= games.WinScore:
		return value{true, sc - games.WinScore, 1}, res.Nodes, nil
	case sc <= -games.WinScore:
		return value{true, sc + games.WinScore, -1}, res.Nodes, nil
	}
	return value{true, 0, 0}, res.Nodes, nil
}

// watchNodes calls cancel once counter passes limit; stop ends the watch.
func watchNodes(counter *atomic.Int64, limit int64, cancel func()) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(5 * time.Millisecond) // overshoot is harmless: nodes are checked after
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if counter.Load() > limit {
					cancel()
					return
				}
			}
		}
	}()
	return func() { close(done) }
}

// canonicalPositioner names a position's class under the game's
// symmetries (othello6, erdos): the cache keys by it.
type canonicalPositioner interface{ CanonicalPosition() string }

// keyOf is the cache key of s: its class under symmetries, else its text,
// else its hash.
func keyOf(s games.State) string {
	switch p := s.(type) {
	case canonicalPositioner:
		return p.CanonicalPosition()
	case games.PositionWriter:
		return p.Position()
	}
	return fmt.Sprintf("#%016x", s.Hash())
}

// Analyse scores every game of d with o and sums them up (see Summary).
// Games are scored o.Concurrency at a time; stopped (ctx done), it returns
// ctx's error, and the cache keeps what was solved, so a second run with
// it resumes where this one stopped and gives the same table.
func Analyse(ctx context.Context, d *results.Dataset, o Options) (*Report, error) {
	a, err := NewAnalyser(d.Game, o)
	if err != nil {
		return nil, err
	}
	scored := make([]Game, len(d.Games))
	var mu sync.Mutex
	done := 0
	jobs := make(chan int)
	errs := make(chan error, a.o.concurrency())
	var wg sync.WaitGroup
	for range a.o.concurrency() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				g, err := a.Game(ctx, d.Games[i])
				if err != nil {
					errs <- err
					return
				}
				scored[i] = g
				mu.Lock()
				done++
				if o.Progress != nil {
					o.Progress(done, len(d.Games))
				}
				mu.Unlock()
			}
		}()
	}
	var firstErr error
feed:
	for i := range d.Games {
		select {
		case jobs <- i:
		case firstErr = <-errs:
			break feed
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if firstErr == nil {
		firstErr = <-errs
	}
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	if firstErr != nil {
		return nil, firstErr
	}
	sum := a.NewSummary()
	for _, g := range scored {
		sum.Add(g)
	}
	return sum.Report(), nil
}

// sortedNames returns the keys of m in order.
func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
