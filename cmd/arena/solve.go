package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/search/alphabeta"
)

func init() {
	register(command{"solve", "solve a position exactly: value, best move, principal variation", runSolve})
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

func runSolve(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("solve", "--game G [--moves \"m1 m2 …\" | --fen F] [--threads N] [--tt MB] [--generic] [--time D] [--format text|json]", stderr)
	game := fs.String("game", "othello6", "game spec (see 'arena games'); sequential games only")
	moves := fs.String("moves", "", "moves to play from the start before solving, space-separated")
	fen := fs.String("fen", "", fenHelp)
	threads := fs.Int("threads", 1, "search threads, 1 to 256")
	tt := fs.Int("tt", 256, "transposition table size in MB of the generic search, 1 to 65536 and at most 3/4 of the machine's memory (the othello6 solver uses 64 MB)")
	generic := fs.Bool("generic", false, "use alpha-beta's generic exact mode even where the game has its own solver")
	limit := fs.Duration("time", 0, "give up after this long, up to 8760h (0: no limit)")
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
	if err := checkTT(*tt); err != nil {
		return err
	}
	if err := durationIn("time", *limit, time.Nanosecond, maxSolveTime, true, " (0: no limit)"); err != nil {
		return err
	}
	v, s, err := sequentialStart("solve", *game, *fen, *moves)
	if err != nil {
		return err
	}
	if s.Terminal() {
		return fmt.Errorf("the game is already over (%s)", s.Outcome().Result())
	}
	ctx := context.Background()
	if *limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *limit)
		defer cancel()
	}
	rep := solveReport{Game: v.String(), PV: []string{}}
	start := time.Now()
	var pv []games.Move
	if solver, ok := s.(alphabeta.ExactSolver); ok && !*generic {
		var value int
		value, pv, rep.Nodes, err = solver.SolveExact(ctx, *threads)
		if err != nil {
			return fmt.Errorf("solve stopped after %d nodes: %w", rep.Nodes, err)
		}
		rep.Value = value
		rep.Result = resultWord(value)
	} else {
		se := alphabeta.New(alphabeta.Options{Exact: true, TTMB: *tt, Threads: *threads})
		res, err := se.Search(ctx, s)
		if err != nil || !res.Complete {
			return fmt.Errorf("solve stopped after %d nodes: %v", res.Nodes, err)
		}
		pv, rep.Nodes = res.PV, res.Nodes
		switch {
		case res.Score >= games.WinScore:
			rep.Value, rep.Result = res.Score-games.WinScore, "win"
		case res.Score <= -games.WinScore:
			rep.Value, rep.Result = res.Score+games.WinScore, "loss"
		default:
			rep.Value, rep.Result = 0, "draw"
		}
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

func resultWord(v int) string {
	switch {
	case v > 0:
		return "win"
	case v < 0:
		return "loss"
	}
	return "draw"
}
