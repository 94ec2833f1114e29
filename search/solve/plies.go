package solve

import (
	"context"
	"fmt"
	"math"
	"runtime/metrics"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/sysmem"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/search/alphabeta"
)

// PliesOptions say how Plies solves.
type PliesOptions struct {
	Options
	// Plies is how far from the given position the positions solved are,
	// 0 to MaxPlies (0: the position itself).
	Plies int
}

// PliesResult is the answer of Plies. Verdicts are from the view of the
// side to move at the start.
type PliesResult struct {
	Plies int
	// Lines counts the lines of Plies plies (or ending sooner) that lead
	// to the positions, at most math.MaxInt64.
	Lines int64
	// Dedup is how positions were told apart: "symmetry" for games that
	// name a position's class under their symmetries (a
	// CanonicalPosition() string method: erdos), else "transpositions"
	// (the position's hash).
	Dedup string
	// Positions are the distinct positions, in the order listed.
	Positions []Leaf
	// Solved positions, and how many are a win, a draw and a loss.
	Solved, Win, Draw, Loss int
	// Values[i] counts the solved positions of value ValueMin+i (empty
	// when none was solved).
	Values   []int
	ValueMin int
	// Start is the given position's value by minimax over the positions,
	// nil unless every one was solved.
	Start *Verdict
	Nodes int64
}

// Leaf is one of the distinct positions of Plies.
type Leaf struct {
	State games.State
	// Key names its class: the canonical position or the hash in hex,
	// see PliesResult.Dedup.
	Key    string
	Solved bool
	Verdict
}

// ListingStopped is the error of Plies stopped (ctx done) while it listed
// the positions, at ply Ply. It wraps ctx's error.
type ListingStopped struct {
	Ply int
	Err error
}

func (e *ListingStopped) Error() string {
	return fmt.Sprintf("stopped listing the positions after %s: %v", plies(e.Ply), e.Err)
}

func (e *ListingStopped) Unwrap() error { return e.Err }

// canonicalPositioner is implemented by positions that can name their
// class under the game's symmetries (erdos): Plies counts such positions
// once.
type canonicalPositioner interface {
	CanonicalPosition() string
}

// MaxPositions bounds the distinct positions Plies keeps in memory.
const MaxPositions = 5_000_000

// heapShare is the share of the machine's memory the listing may fill
// before it stops: a position costs from hundreds of bytes to kilobytes by
// game, so a count alone (othello6 reached 17 GB before MaxPositions)
// does not bound it.
var heapShare = 0.5 // a variable for the test

// listingTooBig reports, every 65 536 positions, whether the heap has
// outgrown heapShare of the machine's memory.
func listingTooBig(n int) (uint64, bool) {
	if n&0xffff != 0 {
		return 0, false
	}
	total, known := sysmem.Total()
	if !known {
		return 0, false
	}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	heap := sample[0].Value.Uint64()
	return heap, float64(heap) > heapShare*float64(total)
}

// Plies solves every distinct position o.Plies plies after s (up to the
// game's symmetries where it names them, else up to transpositions), each
// on one of o.Threads threads with its own table, and when all are solved
// backs their values up by minimax to s's. Stopped (ctx done) while it
// lists them it returns a *ListingStopped; stopped while it solves them,
// the result so far and the first solver's error (ctx's, or one wrapping
// it). Options it refuses are *option.Error, as is a listing too large to
// hold.
func Plies(ctx context.Context, s games.State, o PliesOptions) (PliesResult, error) {
	if err := o.check(); err != nil {
		return PliesResult{}, err
	}
	if err := notOver(s); err != nil {
		return PliesResult{}, err
	}
	start := time.Now()
	keyOf := func(p games.State) string { return fmt.Sprintf("%x", p.Hash()) }
	r := PliesResult{Plies: o.Plies, Dedup: "transpositions"}
	if _, ok := s.(canonicalPositioner); ok {
		keyOf = func(p games.State) string { return p.(canonicalPositioner).CanonicalPosition() }
		r.Dedup = "symmetry"
	}
	index, err := r.list(ctx, s, o, keyOf, start)
	if err != nil {
		return r, err
	}

	// Solve them, o.Threads at a time; scores in alpha-beta's scale from
	// the view of the position's side to move (terminal: of the start's).
	mover := s.ToMove()
	scores := make([]int, len(r.Positions))
	var nodes, solved atomic.Int64
	var next atomic.Int64
	var stopErr error
	var mu sync.Mutex
	stop := func(err error) {
		mu.Lock()
		stopErr = firstErr(stopErr, err)
		mu.Unlock()
	}
	done := o.ticking(func(now time.Time) Progress {
		return Progress{Stage: Solving, Elapsed: now.Sub(start), Nodes: nodes.Load(), Positions: len(r.Positions), Solved: int(solved.Load())}
	})
	var wg sync.WaitGroup
	for w := 0; w < min(o.threads(), max(len(r.Positions), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var se *alphabeta.Searcher
			for {
				i := int(next.Add(1) - 1)
				if i >= len(r.Positions) || ctx.Err() != nil {
					return
				}
				p := r.Positions[i].State
				var sc int
				ex, exact := p.(games.ExactSolver)
				switch {
				case p.Terminal():
					sc = alphabeta.TerminalScore(p.Outcome(), mover)
				case exact && !o.Generic:
					val, _, _, err := ex.SolveExact(ctx, games.SolveOptions{Threads: 1, TableMB: o.TableMB, Nodes: &nodes})
					if err != nil {
						stop(err)
						return
					}
					sc = provenScore(val)
				default:
					if se == nil {
						se = alphabeta.New(alphabeta.Options{Exact: true, TTMB: o.tableMB()})
					}
					res, err := se.Search(ctx, p)
					nodes.Add(res.Nodes)
					if err != nil || !res.Complete {
						stop(firstErr(err, context.DeadlineExceeded))
						return
					}
					sc = res.Score
				}
				scores[i] = sc
				r.Positions[i].Solved = true
				solved.Add(1)
			}
		}()
	}
	wg.Wait()
	done()
	stopErr = firstErr(stopErr, ctx.Err())
	r.tally(scores, mover)
	if stopErr == nil {
		v := provenVerdict(backUp(s.Clone(), o.Plies, keyOf, index, scores))
		r.Start = &v
	}
	r.Nodes = nodes.Load()
	return r, stopErr
}

// check adds Plies' own limits to Options.check: the threads' tables
// together must fit.
func (o PliesOptions) check() error {
	if o.Plies < 0 || o.Plies > MaxPlies {
		return option.New("Plies", o.Plies, "use 0 to %d (0: the position itself)", MaxPlies)
	}
	if err := o.Options.check(); err != nil {
		return err
	}
	if mb, n := o.tableMB(), o.threads(); n > 1 {
		what := fmt.Sprintf("%d per thread × {Threads} %d (with {Plies} each thread has its own table) = %d", mb, n, mb*n)
		if err := sysmem.CheckMB(what, mb*n); err != nil {
			return option.New("TableMB", nil, "%v", err)
		}
	}
	return nil
}

// list fills r.Positions, r.Lines and r.Dedup with the distinct positions
// o.Plies plies after s, and returns their index by key. It enumerates
// them a ply at a time, each position once per depth (walking every line
// took 40 s for 4 plies of Erdős Latino, 124 M lines to 47 114
// positions), counting the lines to each; a game that ends sooner is a
// leaf.
func (r *PliesResult) list(ctx context.Context, s games.State, o PliesOptions, keyOf func(games.State) string, start time.Time) (map[string]int, error) {
	index := map[string]int{}
	addLeaf := func(p games.State, lines int64) error {
		r.Lines = satAdd(r.Lines, lines)
		k := keyOf(p)
		if _, ok := index[k]; ok {
			return nil
		}
		if len(r.Positions) == MaxPositions {
			return tooMany(o.Plies, o.Plies)
		}
		index[k] = len(r.Positions)
		r.Positions = append(r.Positions, Leaf{State: p.Clone(), Key: k})
		return nil
	}
	type node struct {
		p     games.State
		lines int64
	}
	level := []node{{s.Clone(), 1}}
	var buf []games.Move
	for depth := 0; depth < o.Plies && len(level) > 0; depth++ {
		at := map[string]int{}
		var next []node
		for n, nd := range level {
			if n&1023 == 0 && ctx.Err() != nil {
				r.Positions = nil
				return nil, &ListingStopped{Ply: depth + 1, Err: ctx.Err()}
			}
			if nd.p.Terminal() {
				if err := addLeaf(nd.p, nd.lines); err != nil {
					return nil, err
				}
				continue
			}
			buf = nd.p.LegalMoves(buf[:0])
			for _, m := range buf {
				nd.p.Play(m)
				k := keyOf(nd.p)
				if i, ok := at[k]; ok {
					next[i].lines = satAdd(next[i].lines, nd.lines)
				} else if len(next) == MaxPositions {
					return nil, tooMany(o.Plies, depth+1)
				} else if heap, big := listingTooBig(len(next)); big {
					return nil, fmt.Errorf("listing the positions: %w", option.New("Plies", o.Plies,
						"%d distinct positions after %s already fill %.1f GB, more than %.3g %% of this machine's memory: use fewer {Plies}",
						len(next), plies(depth+1), float64(heap)/1e9, 100*heapShare))
				} else {
					at[k] = len(next)
					next = append(next, node{nd.p.Clone(), nd.lines})
				}
				nd.p.Undo()
			}
		}
		level = next
		if depth+1 < o.Plies && o.Progress != nil {
			o.Progress(Progress{Stage: Listing, Elapsed: time.Since(start), Plies: depth + 1, Positions: len(level)})
		}
	}
	for _, nd := range level {
		if err := addLeaf(nd.p, nd.lines); err != nil {
			return nil, err
		}
	}
	if o.Progress != nil {
		o.Progress(Progress{Stage: Listed, Elapsed: time.Since(start), Plies: o.Plies, Positions: len(r.Positions), Lines: r.Lines, Dedup: r.Dedup})
	}
	return index, nil
}

// tooMany refuses a listing of more than MaxPositions positions.
func tooMany(asked, depth int) error {
	return fmt.Errorf("listing the positions: %w", option.New("Plies", asked,
		"more than %d distinct positions after %s: use fewer {Plies}", MaxPositions, plies(depth)))
}

// tally sets the verdicts of the solved positions and the counts, from
// the view of mover (the side to move at the start).
func (r *PliesResult) tally(scores []int, mover int) {
	counts := map[int]int{}
	for i := range r.Positions {
		l := &r.Positions[i]
		if !l.Solved {
			continue
		}
		sc := scores[i]
		if !l.State.Terminal() && l.State.ToMove() != mover {
			sc = -sc
		}
		l.Verdict = provenVerdict(sc)
		r.Solved++
		counts[l.Value]++
		switch l.Result {
		case "win":
			r.Win++
		case "loss":
			r.Loss++
		default:
			r.Draw++
		}
	}
	r.Values = []int{}
	if len(counts) == 0 {
		return
	}
	keys := make([]int, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	r.ValueMin = keys[0]
	r.Values = make([]int, keys[len(keys)-1]-keys[0]+1)
	for k, n := range counts {
		r.Values[k-keys[0]] = n
	}
}

// backUp is the minimax value, in alpha-beta's scale from the side to
// move's view, of p from the scores of the positions plies later (scores[i]
// from the view of the side to move there, found through keyOf and index),
// each position once per depth.
func backUp(p games.State, plies int, keyOf func(games.State) string, index map[string]int, scores []int) int {
	memo := make([]map[string]int, plies)
	for i := range memo {
		memo[i] = map[string]int{}
	}
	// value returns p's value from player pov's view.
	var value func(p games.State, depth, pov int) int
	value = func(p games.State, depth, pov int) int {
		if p.Terminal() {
			return alphabeta.TerminalScore(p.Outcome(), pov)
		}
		q := p.ToMove()
		var sc int
		if depth == plies {
			sc = scores[index[keyOf(p)]]
		} else if m, ok := memo[depth][keyOf(p)]; ok {
			sc = m
		} else {
			sc = -games.WinScore - 1<<20
			for _, m := range p.LegalMoves(nil) {
				p.Play(m)
				sc = max(sc, value(p, depth+1, q))
				p.Undo()
			}
			memo[depth][keyOf(p)] = sc
		}
		if q != pov {
			sc = -sc
		}
		return sc
	}
	return value(p, 0, p.ToMove())
}

// satAdd is a + b, or the largest int64 where that overflows (the lines
// of many plies).
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// plies says "1 ply" or "n plies".
func plies(n int) string {
	if n == 1 {
		return "1 ply"
	}
	return strconv.Itoa(n) + " plies"
}
