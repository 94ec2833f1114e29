package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/search/solve"
)

func init() {
	register(command{"solve", groupSolve, "exact value, best move and principal variation of a position", runSolve})
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

func runSolve(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("solve", "[--game SPEC] [--moves \"M…\" | --fen POSITION] [--plies K [--list]] [--time D] [flags]", stderr)
	game := fs.String("game", "othello6", "game `SPEC` (see arena games); sequential games only")
	moves := fs.String("moves", "", "play these `MOVES` (space-separated) from the start first")
	fen := fs.String("fen", "", fenHelp)
	plies := fs.Int("plies", 0, "solve every distinct position `K` plies on instead, 0 to 64 (0: this one)")
	list := fs.Bool("list", false, "with --plies: print every distinct position and its value")
	threads := fs.Int("threads", 1, "search threads, 1 to 256 (with --plies: positions solved at once)")
	tt := fs.Int("tt", solve.DefaultTableMB, "transposition table in `MB`, 1 to 65536 (0: the solver sizes it for --time)")
	generic := fs.Bool("generic", false, "use alpha-beta's generic exact mode even where the game has a solver")
	limit := fs.Duration("time", 0, "give up after `D`, up to 8760h, and say what was proven (0: no limit)")
	progress := fs.Duration("progress", 5*time.Second, "print progress on stderr every `D`, 100ms to 1h (0: never)")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	fs.group("Core", "game plies")
	fs.group("Position", "moves fen")
	fs.group("Search", "threads tt generic")
	fs.group("Limits", "time")
	fs.group("Output", "list progress format")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format, "text", "json"); err != nil {
		return err
	}
	if *list && *plies == 0 {
		return errors.New("--list lists the positions of --plies: give --plies K too")
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *limit)
		defer cancel()
	}
	ttGiven := false
	fs.Visit(func(f *flag.Flag) { ttGiven = ttGiven || f.Name == "tt" })
	o := solve.Options{Threads: *threads, TableMB: tableMB(*tt, ttGiven, *limit), Generic: *generic, Every: *progress,
		Progress: func(p solve.Progress) { fmt.Fprintln(stderr, progressLine(p)) }}
	if *plies != 0 {
		return solvePlies(ctx, v, s, solve.PliesOptions{Options: o, Plies: *plies}, *list, *format == "json", stdout)
	}
	start := time.Now()
	res, err := solve.Position(ctx, s, o)
	if err != nil {
		if !stoppedErr(err) {
			return err
		}
		return solveStopped(stdout, *format, v.String(), s, err, res.Nodes, time.Since(start))
	}
	rep := solveReport{Game: v.String(), Value: res.Value, Result: res.Result, PV: []string{}, Nodes: res.Nodes, Seconds: time.Since(start).Seconds()}
	c := s.Clone()
	for _, m := range res.PV {
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

// tableMB is solve.Options.TableMB for --tt: 0 (a game's solver sizes its
// table for the time) when --time is set without --tt (othello6: a
// 256 MB table's page faults made a 0.3 s solve take up to 0.73 s).
func tableMB(tt int, ttGiven bool, limit time.Duration) int {
	if limit > 0 && !ttGiven {
		return 0
	}
	return tt
}

// progressLine is a solve.Progress as a line of stderr.
func progressLine(p solve.Progress) string {
	switch p.Stage {
	case solve.Listing:
		return fmt.Sprintf("arena solve: listing: %s after %s (%.1f s)", plural(p.Positions, "distinct position", "distinct positions"), plural(p.Plies, "ply", "plies"), p.Elapsed.Seconds())
	case solve.Listed:
		return fmt.Sprintf("arena solve: %s after %s (%s, deduplicated by %s) in %.1f s",
			plural(p.Positions, "distinct position", "distinct positions"), plural(p.Plies, "ply", "plies"), plural(int(p.Lines), "line", "lines"), p.Dedup, p.Elapsed.Seconds())
	}
	line := fmt.Sprintf("arena solve: %s elapsed", p.Elapsed.Round(time.Second))
	if p.Nodes > 0 {
		line += fmt.Sprintf(", %.1f M nodes, %.2f M nodes/s", float64(p.Nodes)/1e6, float64(p.Nodes)/p.Elapsed.Seconds()/1e6)
	}
	if p.Stage == solve.Solving {
		line += fmt.Sprintf(", %d/%d positions (%.1f%%)", p.Solved, p.Positions, 100*float64(p.Solved)/float64(max(p.Positions, 1)))
		if left, ok := p.Left(); ok {
			line += fmt.Sprintf(", about %s left", left.Round(time.Second))
		}
	}
	return line
}

// solvePlies runs solve --plies and prints its report.
func solvePlies(ctx context.Context, v games.Variant, s games.State, o solve.PliesOptions, list, asJSON bool, stdout io.Writer) error {
	start := time.Now()
	r, err := solve.Plies(ctx, s, o)
	var ls *solve.ListingStopped
	switch {
	case errors.As(err, &ls):
		return fmt.Errorf("--plies: stopped listing the positions after %s: %s", plural(ls.Ply, "ply", "plies"), stopCause(ls.Err))
	case err != nil && !stoppedErr(err):
		return err
	}
	rep := pliesReport{Game: v.String(), Plies: r.Plies, Leaves: r.Lines, Distinct: len(r.Positions), Dedup: r.Dedup, Solved: r.Solved,
		Win: r.Win, Draw: r.Draw, Loss: r.Loss, Values: r.Values, ValueMin: r.ValueMin, Nodes: r.Nodes, Seconds: time.Since(start).Seconds()}
	if r.Start != nil {
		rep.Start, rep.StartRes = &r.Start.Value, r.Start.Result
	}
	if err != nil {
		rep.Stopped = stopCause(err)
	}
	if asJSON {
		if jerr := json.NewEncoder(stdout).Encode(rep); jerr != nil {
			return jerr
		}
	} else {
		fmt.Fprintf(stdout, "%s\n\n", s)
		fmt.Fprintf(stdout, "positions after %s: %d distinct (by %s) of %s; %d solved\n",
			plural(rep.Plies, "ply", "plies"), rep.Distinct, rep.Dedup, plural(int(rep.Leaves), "line", "lines"), rep.Solved)
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
		for _, l := range r.Positions {
			if !list || !l.Solved {
				continue
			}
			name := l.Key
			if w, ok := l.State.(games.PositionWriter); ok {
				name = w.Position()
			}
			fmt.Fprintf(stdout, "%+d\t%s\n", l.Value, name)
		}
	}
	if err != nil {
		return fmt.Errorf("--plies: stopped after solving %d of %d positions (reported above): %s", rep.Solved, rep.Distinct, rep.Stopped)
	}
	return nil
}

// stoppedErr reports whether err is a solve's stop (Ctrl-C, --time),
// possibly with what it proved, rather than a refusal to start.
func stoppedErr(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
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
	why, u := stopCause(err), solve.Stopped(s, err)
	if format == "json" {
		rep := stoppedReport{Game: game, Stopped: why, Nodes: nodes, Seconds: took.Seconds()}
		if u.Bounded {
			rep.Lo, rep.Hi = &u.Lo, &u.Hi
		}
		if u.HasMove {
			rep.Move = s.FormatMove(u.Move)
		}
		if u.Kept {
			rep.MoveValue = &u.Value
		}
		if jerr := json.NewEncoder(stdout).Encode(rep); jerr != nil {
			return jerr
		}
	}
	if d := u.Describe(s); d != "" {
		why += "; " + d
	}
	return fmt.Errorf("stopped after %d nodes (%.1f s): %s", nodes, took.Seconds(), why)
}

// stopCause says why a solve stopped: --time ran out, Ctrl-C, or err.
func stopCause(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "out of time (--time)"
	case errors.Is(err, context.Canceled):
		return "interrupted"
	}
	return err.Error()
}
