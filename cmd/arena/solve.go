package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime/metrics"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/sysmem"
	"github.com/boardgame-arena/arena/search/alphabeta"
)

func init() {
	register(command{"solve", "solve a position exactly: value, best move, principal variation; or every position K plies on (--plies)", runSolve})
}

// solveReport is the --format json output of solve. Value is from the side
// to move's view: for a game with its own solver (othello6) in its solved
// convention (empty cells to the winner), otherwise the winner's margin
// (Outcome.Score) with the sign of the result.
type solveReport struct {
	Game    string   `json:"game"`
	Value   int      `json:"value"`
	Result  string   `json:"result"` // win, loss or draw for the side to move
	Best    string   `json:"best"`
	PV      []string `json:"pv"`
	Nodes   int64    `json:"nodes"`
	Seconds float64  `json:"seconds"`
}

// pliesReport is the --format json output of solve --plies: the distinct
// positions K plies after the start and their values, and the start's value
// when every one was solved.
type pliesReport struct {
	Game     string  `json:"game"`
	Plies    int     `json:"plies"`
	Leaves   int64   `json:"leaves"`    // lines of K plies (or ending sooner)
	Distinct int     `json:"distinct"`  // positions after deduplication
	Dedup    string  `json:"dedup"`     // "symmetry" or "transpositions"
	Solved   int     `json:"solved"`    // positions solved (all, unless stopped)
	Win      int     `json:"win"`       // for the side to move at the start
	Draw     int     `json:"draw"`      //
	Loss     int     `json:"loss"`      //
	Values   []int   `json:"values"`    // Values[i] counts positions of value ValueMin+i ([] when none was solved)
	ValueMin int     `json:"value_min"` // for the side to move at the start
	Start    *int    `json:"start"`     // the start's value by minimax over them, if all solved
	StartRes string  `json:"start_result,omitempty"`
	Nodes    int64   `json:"nodes"`
	Seconds  float64 `json:"seconds"`
	Stopped  string  `json:"stopped,omitempty"` // why the run stopped early
}

// canonicalPositioner is implemented by positions that can name their class
// under the game's symmetries (erdos): --plies counts such positions once.
type canonicalPositioner interface {
	CanonicalPosition() string
}

// maxPliesPositions bounds the distinct positions --plies keeps in memory.
const maxPliesPositions = 5_000_000

// pliesHeapShare is the share of the machine's memory the --plies listing
// may fill before it stops: a position costs from hundreds of bytes to
// kilobytes by game, so a count alone (othello6 reached 17 GB before
// maxPliesPositions) does not bound it.
var pliesHeapShare = 0.5 // a variable for the test

// listingTooBig reports, every 65 536 positions, whether the heap has
// outgrown pliesHeapShare of the machine's memory.
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
	return heap, float64(heap) > pliesHeapShare*float64(total)
}

func runSolve(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("solve", "--game G [--moves \"m1 m2 …\" | --fen F] [--plies K [--list]] [--threads N] [--tt MB] [--generic] [--time D] [--progress D] [--format text|json]", stderr)
	game := fs.String("game", "othello6", "game spec (see 'arena games'); sequential games only")
	moves := fs.String("moves", "", "moves to play from the start before solving, space-separated")
	fen := fs.String("fen", "", fenHelp)
	plies := fs.Int("plies", 0, "solve every position K plies after the given one (distinct up to the game's symmetries where it has them, else up to transpositions), 0 to 64; prints how many win, draw and lose and, when all are solved, the value of the given position by minimax over them (0: solve the position itself)")
	list := fs.Bool("list", false, "with --plies: print every distinct position and its value (text format)")
	threads := fs.Int("threads", 1, "search threads, 1 to 256 (with --plies: positions solved at once)")
	tt := fs.Int("tt", 256, "transposition table size in MB of the generic search and of game solvers that take one (erdos, othello6), per thread with --plies, 1 to 65536 and at most 3/4 of the machine's memory (with --plies, all the threads' tables together); with --time and no --tt a game's solver sizes its own for the time")
	generic := fs.Bool("generic", false, "use alpha-beta's generic exact mode even where the game has its own solver")
	limit := fs.Duration("time", 0, "give up after this long, up to 8760h (0: no limit); Ctrl-C stops too, reporting what was solved")
	progress := fs.Duration("progress", 5*time.Second, "print progress (nodes, nodes/s, elapsed; positions solved with --plies) on stderr this often, 100ms to 1h (0: never)")
	format := fs.String("format", "text", "output format: text or json")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format, "text", "json"); err != nil {
		return err
	}
	if err := inRange("threads", *threads, 1, maxThreads, ""); err != nil {
		return err
	}
	if err := inRange("plies", *plies, 0, 64, " (0: solve the position itself)"); err != nil {
		return err
	}
	if *list && *plies == 0 {
		return errors.New("--list lists the positions of --plies: give --plies K too")
	}
	if err := checkTT(*tt); err != nil {
		return err
	}
	if *plies > 0 && *threads > 1 {
		// With --plies every thread solves its own positions with its own table.
		if err := sysmem.CheckMB(fmt.Sprintf("--tt %d per thread × --threads %d (with --plies each thread has its own table) = %d", *tt, *threads, *tt**threads), *tt**threads); err != nil {
			return err
		}
	}
	if err := durationIn("time", *limit, time.Nanosecond, maxSolveTime, true, " (0: no limit)"); err != nil {
		return err
	}
	if err := durationIn("progress", *progress, 100*time.Millisecond, time.Hour, true, " (0: never)"); err != nil {
		return err
	}
	v, s, err := sequentialStart("solve", *game, *fen, *moves)
	if err != nil {
		return err
	}
	if s.Terminal() {
		return fmt.Errorf("the game is already over (%s)", s.Outcome().Result())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *limit)
		defer cancel()
	}
	var nodes atomic.Int64
	ttGiven := false
	fs.Visit(func(f *flag.Flag) { ttGiven = ttGiven || f.Name == "tt" })
	so := games.SolveOptions{Threads: *threads, TableMB: solverTable(*tt, ttGiven, *limit), Nodes: &nodes}
	_, exact := s.(games.ExactSolver)
	exact = exact && !*generic
	if *plies > 0 {
		return solvePlies(ctx, v, s, pliesOptions{
			plies: *plies, threads: *threads, tt: *tt, exact: exact, list: *list,
			progress: *progress, json: *format == "json", nodes: &nodes, tableMB: so.TableMB,
		}, stdout, stderr)
	}
	rep := solveReport{Game: v.String(), PV: []string{}}
	start := time.Now()
	done := showProgress(stderr, *progress, start, &nodes, nil)
	var pv []games.Move
	if exact {
		var value int
		value, pv, rep.Nodes, err = s.(games.ExactSolver).SolveExact(ctx, so)
		done()
		if err != nil {
			return solveStopped(stdout, *format, v.String(), s, err, rep.Nodes, time.Since(start))
		}
		rep.Value = value
		rep.Result = resultWord(value)
	} else {
		se := alphabeta.New(alphabeta.Options{Exact: true, TTMB: *tt, Threads: *threads})
		res, err := se.Search(ctx, s)
		done()
		if err != nil || !res.Complete {
			// The search stops a little before a deadline, with no error.
			err = cmpErr(err, cmpErr(ctx.Err(), context.DeadlineExceeded))
			return solveStopped(stdout, *format, v.String(), s, err, res.Nodes, time.Since(start))
		}
		pv, rep.Nodes = res.PV, res.Nodes
		rep.Value, rep.Result = genericValue(res.Score)
	}
	rep.Seconds = time.Since(start).Seconds()
	c := s.Clone()
	for _, m := range pv {
		rep.PV = append(rep.PV, c.FormatMove(m))
		c.Play(m)
	}
	if len(rep.PV) > 0 {
		rep.Best = rep.PV[0]
	}
	if *format == "json" {
		return json.NewEncoder(stdout).Encode(rep)
	}
	fmt.Fprintf(stdout, "%s\n\n", s)
	fmt.Fprintf(stdout, "value %+d (%s for the side to move)\nbest  %s\npv    %s\nnodes %d in %.3f s (%.1f M nodes/s)\n",
		rep.Value, rep.Result, rep.Best, strings.Join(rep.PV, " "), rep.Nodes, rep.Seconds, float64(rep.Nodes)/max(rep.Seconds, 1e-9)/1e6)
	return nil
}

// genericValue turns a proven alpha-beta score into the reported value and
// result word.
func genericValue(score int) (int, string) {
	switch {
	case score >= games.WinScore:
		return score - games.WinScore, "win"
	case score <= -games.WinScore:
		return score + games.WinScore, "loss"
	}
	return 0, "draw"
}

func resultWord(v int) string {
	switch {
	case v > 0:
		return "win"
	case v < 0:
		return "loss"
	}
	return "draw"
}

// showProgress prints a progress line on stderr every interval until the
// returned function is called: nodes (when the solver counts them), nodes
// per second and elapsed time, and what extra returns.
func showProgress(stderr io.Writer, every time.Duration, start time.Time, nodes *atomic.Int64, extra func() string) (done func()) {
	if every <= 0 {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		progressLines(stderr, t.C, quit, start, nodes, extra)
	}()
	return func() {
		close(quit)
		wg.Wait()
	}
}

// progressLines prints showProgress's line at each tick until quit is
// closed.
func progressLines(stderr io.Writer, ticks <-chan time.Time, quit <-chan struct{}, start time.Time, nodes *atomic.Int64, extra func() string) {
	for {
		select {
		case <-quit:
			return
		case now := <-ticks:
			el := now.Sub(start)
			line := fmt.Sprintf("solve: %s elapsed", el.Round(time.Second))
			if n := nodes.Load(); n > 0 {
				line += fmt.Sprintf(", %.1f M nodes, %.2f M nodes/s", float64(n)/1e6, float64(n)/el.Seconds()/1e6)
			}
			if extra != nil {
				line += ", " + extra()
			}
			fmt.Fprintln(stderr, line)
		}
	}
}

type pliesOptions struct {
	plies, threads, tt int
	exact, list, json  bool
	progress           time.Duration
	nodes              *atomic.Int64
	tableMB            int // the game solver's table (0: its choice)
}

// provenScore is a solved value in alpha-beta's scale, ±(WinScore+margin)
// for a win or loss and 0 for a draw, so a win by a margin of 0 stays a win.
func provenScore(v int) int {
	switch {
	case v > 0:
		return games.WinScore + v
	case v < 0:
		return -games.WinScore + v
	}
	return 0
}

// solvePlies solves every distinct position opts.plies plies after s and
// reports their values and, when all were solved, s's value by minimax.
func solvePlies(ctx context.Context, v games.Variant, s games.State, opts pliesOptions, stdout, stderr io.Writer) error {
	start := time.Now()
	mover := s.ToMove()
	keyOf := func(p games.State) string { return fmt.Sprintf("%x", p.Hash()) }
	rep := pliesReport{Game: v.String(), Plies: opts.plies, Dedup: "transpositions"}
	if _, ok := s.(canonicalPositioner); ok {
		keyOf = func(p games.State) string { return p.(canonicalPositioner).CanonicalPosition() }
		rep.Dedup = "symmetry"
	}
	// Enumerate the distinct positions a ply at a time, each position once
	// per depth (walking every line took 40 s for 4 plies of Erdős
	// Latino, 124 M lines to 47 114 positions), counting the lines to
	// each; a game that ends sooner is a leaf.
	index := map[string]int{}
	var positions []games.State
	addLeaf := func(p games.State, lines int64) error {
		rep.Leaves = satAdd(rep.Leaves, lines)
		k := keyOf(p)
		if _, ok := index[k]; ok {
			return nil
		}
		if len(positions) == maxPliesPositions {
			return fmt.Errorf("more than %d distinct positions after %d plies: use fewer --plies", maxPliesPositions, opts.plies)
		}
		index[k] = len(positions)
		positions = append(positions, p.Clone())
		return nil
	}
	type node struct {
		p     games.State
		lines int64
	}
	level := []node{{s.Clone(), 1}}
	var buf []games.Move
	for depth := 0; depth < opts.plies && len(level) > 0; depth++ {
		at := map[string]int{}
		var next []node
		for n, nd := range level {
			if n&1023 == 0 && ctx.Err() != nil {
				return fmt.Errorf("solve --plies: stopped listing the positions after %s: %s", plural(depth+1, "ply", "plies"), stopCause(ctx.Err()))
			}
			if nd.p.Terminal() {
				if err := addLeaf(nd.p, nd.lines); err != nil {
					return fmt.Errorf("solve --plies: listing the positions: %w", err)
				}
				continue
			}
			buf = nd.p.LegalMoves(buf[:0])
			for _, m := range buf {
				nd.p.Play(m)
				k := keyOf(nd.p)
				if i, ok := at[k]; ok {
					next[i].lines = satAdd(next[i].lines, nd.lines)
				} else if len(next) == maxPliesPositions {
					return fmt.Errorf("solve --plies: listing the positions: more than %d distinct positions after %d plies: use fewer --plies", maxPliesPositions, depth+1)
				} else if heap, big := listingTooBig(len(next)); big {
					return fmt.Errorf("solve --plies: listing the positions: %d distinct positions after %s already fill %.1f GB, more than %.3g %% of this machine's memory: use fewer --plies", len(next), plural(depth+1, "ply", "plies"), float64(heap)/1e9, 100*pliesHeapShare)
				} else {
					at[k] = len(next)
					next = append(next, node{nd.p.Clone(), nd.lines})
				}
				nd.p.Undo()
			}
		}
		level = next
		if depth+1 < opts.plies {
			fmt.Fprintf(stderr, "solve: listing: %d distinct positions after %s (%.1f s)\n", len(level), plural(depth+1, "ply", "plies"), time.Since(start).Seconds())
		}
	}
	for _, nd := range level {
		if err := addLeaf(nd.p, nd.lines); err != nil {
			return fmt.Errorf("solve --plies: listing the positions: %w", err)
		}
	}
	rep.Distinct = len(positions)
	fmt.Fprintf(stderr, "solve: %d distinct positions after %s (%d lines, deduplicated by %s) in %.1f s\n",
		rep.Distinct, plural(opts.plies, "ply", "plies"), rep.Leaves, rep.Dedup, time.Since(start).Seconds())

	// Solve them, opts.threads at a time; scores in alpha-beta's scale from
	// the view of the position's side to move (terminal: of the start's).
	scores := make([]int, len(positions))
	solved := make([]bool, len(positions))
	var nSolved atomic.Int64
	next := atomic.Int64{}
	var firstErr error
	var mu sync.Mutex
	done := showProgress(stderr, opts.progress, start, opts.nodes, func() string {
		n := nSolved.Load()
		line := fmt.Sprintf("%d/%d positions (%.1f%%)", n, len(positions), 100*float64(n)/float64(max(len(positions), 1)))
		if n > 0 {
			el := time.Since(start)
			left := time.Duration(float64(el) / float64(n) * float64(int64(len(positions))-n))
			line += fmt.Sprintf(", about %s left", left.Round(time.Second))
		}
		return line
	})
	var wg sync.WaitGroup
	for w := 0; w < min(opts.threads, max(len(positions), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var se *alphabeta.Searcher
			for {
				i := int(next.Add(1) - 1)
				if i >= len(positions) || ctx.Err() != nil {
					return
				}
				p := positions[i]
				var sc int
				switch {
				case p.Terminal():
					sc = alphabeta.TerminalScore(p.Outcome(), mover)
				case opts.exact:
					val, _, _, err := p.(games.ExactSolver).SolveExact(ctx, games.SolveOptions{Threads: 1, TableMB: opts.tableMB, Nodes: opts.nodes})
					if err != nil {
						mu.Lock()
						firstErr = cmpErr(firstErr, err)
						mu.Unlock()
						return
					}
					sc = provenScore(val)
				default:
					if se == nil {
						se = alphabeta.New(alphabeta.Options{Exact: true, TTMB: opts.tt})
					}
					res, err := se.Search(ctx, p)
					opts.nodes.Add(res.Nodes)
					if err != nil || !res.Complete {
						mu.Lock()
						firstErr = cmpErr(firstErr, cmpErr(err, errOutOfTime))
						mu.Unlock()
						return
					}
					sc = res.Score
				}
				scores[i], solved[i] = sc, true
				nSolved.Add(1)
			}
		}()
	}
	wg.Wait()
	done()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	// Tally from the start mover's view.
	view := func(i int) int {
		p := positions[i]
		if p.Terminal() || p.ToMove() == mover {
			return scores[i]
		}
		return -scores[i]
	}
	counts := map[int]int{}
	for i := range positions {
		if !solved[i] {
			continue
		}
		rep.Solved++
		sc := view(i)
		val, word := genericValue(sc)
		counts[val]++
		switch word {
		case "win":
			rep.Win++
		case "loss":
			rep.Loss++
		default:
			rep.Draw++
		}
	}
	rep.Values = []int{} // not null in JSON when nothing was solved
	if len(counts) > 0 {
		keys := make([]int, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		rep.ValueMin = keys[0]
		rep.Values = make([]int, keys[len(keys)-1]-keys[0]+1)
		for k, n := range counts {
			rep.Values[k-keys[0]] = n
		}
	}
	if firstErr != nil {
		rep.Stopped = stopCause(firstErr)
	} else {
		sc := backUp(s.Clone(), opts.plies, keyOf, index, scores)
		val, word := genericValue(sc)
		rep.Start, rep.StartRes = &val, word
	}
	rep.Nodes = opts.nodes.Load()
	rep.Seconds = time.Since(start).Seconds()
	if opts.json {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "%s\n\n", s)
		fmt.Fprintf(stdout, "positions after %d plies: %d distinct (by %s) of %d lines; %d solved\n", rep.Plies, rep.Distinct, rep.Dedup, rep.Leaves, rep.Solved)
		fmt.Fprintf(stdout, "for the side to move now: %d win, %d draw, %d loss\n", rep.Win, rep.Draw, rep.Loss)
		var vals []string
		for k, n := range rep.Values {
			if n > 0 {
				vals = append(vals, fmt.Sprintf("%+d:%d", rep.ValueMin+k, n))
			}
		}
		fmt.Fprintf(stdout, "values %s\n", strings.Join(vals, " "))
		if rep.Start != nil {
			fmt.Fprintf(stdout, "value %+d (%s for the side to move), by minimax over them\n", *rep.Start, rep.StartRes)
		}
		fmt.Fprintf(stdout, "nodes %d in %.3f s (%.1f M nodes/s)\n", rep.Nodes, rep.Seconds, float64(rep.Nodes)/max(rep.Seconds, 1e-9)/1e6)
		if opts.list {
			for i, p := range positions {
				if !solved[i] {
					continue
				}
				val, _ := genericValue(view(i))
				name := keyOf(p)
				if w, ok := p.(games.PositionWriter); ok {
					name = w.Position()
				}
				fmt.Fprintf(stdout, "%+d\t%s\n", val, name)
			}
		}
	}
	if firstErr != nil {
		return fmt.Errorf("solve --plies stopped after solving %d of %d positions (reported above): %s", rep.Solved, rep.Distinct, rep.Stopped)
	}
	return nil
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

// errOutOfTime is why a search that ended unfinished without an error
// stopped.
var errOutOfTime = errors.New("out of time (--time)")

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// stoppedReport is the --format json output of a solve that stopped
// before it proved the value: why, and what it had proven.
type stoppedReport struct {
	Game    string `json:"game"`
	Stopped string `json:"stopped"`
	// Lo and Hi bound the value from the side to move's view when the
	// solver proved more than the game's own limits (games.ProvenBounds).
	Lo *int `json:"lo,omitempty"`
	Hi *int `json:"hi,omitempty"`
	// Move is a move proven worth at least MoveValue (games.KeptHint), or
	// the solver's unproven best guess (games.BestGuess), or "".
	Move      string  `json:"move,omitempty"`
	MoveValue *int    `json:"move_value,omitempty"`
	Nodes     int64   `json:"nodes"`
	Seconds   float64 `json:"seconds"`
}

// solveStopped reports a solve of s that stopped with err
// (Ctrl-C, --time): on stdout as JSON with --format json, and as the
// error, which says why and what was proven.
func solveStopped(stdout io.Writer, format, game string, s games.State, err error, nodes int64, took time.Duration) error {
	why := stopCause(err)
	if format == "json" {
		rep := stoppedReport{Game: game, Stopped: why, Nodes: nodes, Seconds: took.Seconds()}
		var pb *games.ProvenBounds
		if errors.As(err, &pb) {
			rep.Lo, rep.Hi = &pb.Lo, &pb.Hi
		}
		var kept *games.KeptHint
		var guess *games.BestGuess
		switch {
		case errors.As(err, &kept) && games.IsLegal(s, kept.Move):
			rep.Move, rep.MoveValue = s.FormatMove(kept.Move), &kept.Value
		case errors.As(err, &guess) && games.IsLegal(s, guess.Move):
			rep.Move = s.FormatMove(guess.Move)
		}
		if jerr := json.NewEncoder(stdout).Encode(rep); jerr != nil {
			return jerr
		}
	}
	return fmt.Errorf("solve stopped after %d nodes (%.1f s): %s%s", nodes, took.Seconds(), why, stoppedMove(s, err))
}

// stopCause says why a solve stopped: --time ran out, Ctrl-C, or err.
func stopCause(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return errOutOfTime.Error()
	case errors.Is(err, context.Canceled):
		return "interrupted"
	}
	return err.Error()
}

// stoppedMove says what a solve stopped before its value still found in s:
// the range it proved the value in (games.ProvenBounds), a move proven
// worth at least a value (games.KeptHint) or the solver's best guess
// (games.BestGuess); "" for none.
func stoppedMove(s games.State, err error) string {
	var pb *games.ProvenBounds
	if errors.As(err, &pb) {
		return "; proven: " + provenRange(pb.Lo, pb.Hi)
	}
	var kept *games.KeptHint
	if errors.As(err, &kept) && games.IsLegal(s, kept.Move) {
		return fmt.Sprintf("; %s is proven worth at least %+d", s.FormatMove(kept.Move), kept.Value)
	}
	var guess *games.BestGuess
	if errors.As(err, &guess) && games.IsLegal(s, guess.Move) {
		return fmt.Sprintf("; its best guess: %s", s.FormatMove(guess.Move))
	}
	return ""
}

// provenRange says what a value from lo to hi (the side to move's view)
// settles.
func provenRange(lo, hi int) string {
	r := fmt.Sprintf("the value is from %+d to %+d", lo, hi)
	switch {
	case lo > 0:
		return r + ", a win for the side to move"
	case hi < 0:
		return r + ", a loss for the side to move"
	case lo == 0:
		return r + ", at least a draw for the side to move"
	case hi == 0:
		return r + ", at best a draw for the side to move"
	}
	return r + ", the winner not yet known"
}

// solverTable is the table size tt for a game's solver
// (games.SolveOptions.TableMB) unless --time is set without --tt: 0, the
// solver then sizes its table for the time (othello6: a 256 MB table's
// page faults made a 0.3 s solve take up to 0.73 s).
func solverTable(tt int, ttGiven bool, limit time.Duration) int {
	if limit > 0 && !ttGiven {
		return 0
	}
	return tt
}
