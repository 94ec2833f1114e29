package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/boardgame-arena/arena/games"
)

func init() {
	register(command{"perft", "count the move sequences of a given depth (move-generator check and speed)", runPerft})
}

// perftReport is the --format json output of perft.
type perftReport struct {
	Game    string        `json:"game"`
	Depth   int           `json:"depth"`
	Nodes   uint64        `json:"nodes"`
	Seconds float64       `json:"seconds"`
	NPS     float64       `json:"nps"`
	Divide  []divideEntry `json:"divide,omitempty"`
}

type divideEntry struct {
	Move   string `json:"move"`
	Leaves uint64 `json:"leaves"`
}

func runPerft(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("perft", "--game G --depth D [--moves \"m1 m2 …\" | --fen F] [--divide] [--generic] [--format text|json]", stderr)
	game := fs.String("game", "othello6", "game spec (see 'arena games')")
	depth := fs.Int("depth", 8, "depth in plies, 1 to 64 (a forced pass is one ply)")
	moves := fs.String("moves", "", "moves to play from the start before counting, space-separated")
	fen := fs.String("fen", "", fenHelp)
	divide := fs.Bool("divide", false, "print the leaf count below each legal move")
	generic := fs.Bool("generic", false, "use the generic play/undo perft even where the game has a faster bulk counter")
	format := fs.String("format", "text", "output format: text or json")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format, "text", "json"); err != nil {
		return err
	}
	if err := inRange("depth", *depth, 1, maxPerftDepth, " plies"); err != nil {
		return err
	}
	v, s, err := sequentialStart("perft", *game, *fen, *moves)
	if err != nil {
		return err
	}
	count := games.Perft
	if _, ok := s.(games.BulkPerfter); ok && !*generic {
		count = func(s games.State, d int) uint64 { return s.(games.BulkPerfter).PerftBulk(d) }
	}
	rep := perftReport{Game: v.String(), Depth: *depth}
	start := time.Now()
	if *divide {
		for _, e := range games.Divide(s, *depth, count) {
			rep.Divide = append(rep.Divide, divideEntry{s.FormatMove(e.Move), e.Leaves})
			rep.Nodes += e.Leaves
		}
	} else {
		rep.Nodes = count(s, *depth)
	}
	rep.Seconds = time.Since(start).Seconds()
	if rep.Seconds > 0 {
		rep.NPS = float64(rep.Nodes) / rep.Seconds
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		return enc.Encode(rep)
	}
	for _, e := range rep.Divide {
		fmt.Fprintf(stdout, "%-8s %d\n", e.Move, e.Leaves)
	}
	fmt.Fprintf(stdout, "perft(%d) of %s = %d  in %.3f s  (%.1f M leaves/s)\n", rep.Depth, rep.Game, rep.Nodes, rep.Seconds, rep.NPS/1e6)
	return nil
}
