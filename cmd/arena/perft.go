package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/games"
)

func init() {
	register(command{"perft", groupSolve, "count the move sequences of a depth (move-generator check and speed)", runPerft})
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
	fs := newFlagSet("perft", "[--game SPEC] [--depth N] [--moves \"M…\" | --fen POSITION] [--divide] [flags]", stderr)
	game := fs.String("game", "othello6", "game `SPEC` (see arena games)")
	depth := fs.Int("depth", 8, "depth `N` in plies, 1 to 64 (a forced pass is a ply)")
	moves := fs.String("moves", "", "play these `MOVES` (space-separated) from the start first")
	fen := fs.String("fen", "", fenHelp)
	divide := fs.Bool("divide", false, "print the leaf count below each legal move")
	generic := fs.Bool("generic", false, "count by the generic play/undo perft, not the game's bulk counter")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	fs.group("Core", "game depth")
	fs.group("Position", "moves fen")
	fs.group("Search", "generic")
	fs.group("Output", "divide format")
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
	// The size first: a depth no machine finishes is refused, a long one
	// announced with its expected time and followed by progress lines.
	est := perftEstimate(s, *depth)
	if est[*depth] > maxPerftPositions {
		from := *depth
		for from > 1 && est[from-1] > maxPerftPositions {
			from--
		}
		return fmt.Errorf("--depth %d: perft(%d) of %s would visit about %.1e positions (estimated from %d random lines of play), more than a 64-bit count holds (2^64 ≈ 1.8e19) and centuries of work at a billion positions a second; the estimate passes 2^64 from depth %d on",
			*depth, *depth, v, est[*depth], perftLines, from)
	}
	var progress io.Writer
	if eta := perftETA(s, est, count); eta >= perftAnnounce {
		fmt.Fprintf(stderr, "arena perft: perft(%d) of %s visits about %.1e positions (estimated from %d random lines of play): about %s on this machine; progress after first moves; Ctrl-C stops\n",
			*depth, v, est[*depth], perftLines, roughDuration(eta))
		progress = stderr
	}
	rep := perftReport{Game: v.String(), Depth: *depth}
	start := time.Now()
	if *divide || progress != nil {
		for _, e := range perftDivide(s, *depth, count, progress) {
			if *divide {
				rep.Divide = append(rep.Divide, divideEntry{s.FormatMove(e.Move), e.Leaves})
			}
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

// Perft's bound and announcements. Perft counts in a uint64 and visits
// every position of the tree, so a depth whose tree has more than 2^64
// positions is refused: its count could overflow, and it would take
// centuries at any speed. Below that, a perft expected to take longer
// than perftAnnounce says so first and reports after each first move.
// The size is games.EstimatePerft's (Knuth's) from perftLines lines and a
// fixed seed, so the verdict is the same on every run: within a few per
// cent on small trees (TestPerftEstimate), a factor of two or so on the
// deepest.
const (
	perftLines        = 1000
	perftSeed         = 1
	perftAnnounce     = 10 * time.Second
	maxPerftPositions = 1 << 64
)

// perftEstimate is games.EstimatePerft with perft's lines and seed.
func perftEstimate(s games.State, depth int) []float64 {
	return games.EstimatePerft(s, depth, perftLines, perftSeed)
}

// perftETA is how long perft(len(est)-1) of s should take, from the time
// of a perft of at most ten million positions (0 for a tree of at most a
// billion: a few seconds, not worth the probe).
func perftETA(s games.State, est []float64, count func(games.State, int) uint64) time.Duration {
	const probe = 1e7
	depth := len(est) - 1
	if est[depth] <= 100*probe {
		return 0
	}
	d := 1
	for d+1 < depth && est[d+1] <= probe {
		d++
	}
	t0 := time.Now()
	count(s, d)
	per := time.Since(t0).Seconds() / est[d]
	return time.Duration(min(per*est[depth], float64(math.MaxInt64/2)) * float64(time.Second))
}

// perftDivide is games.Divide that, when progress is not nil, writes a
// line there after a first move's count if none was written for
// perftEvery (and after the last): how many are done, the leaves so far,
// the time, and the time left if the other moves take as long.
func perftDivide(s games.State, depth int, count func(games.State, int) uint64, progress io.Writer) []games.DivideEntry {
	if progress == nil {
		return games.Divide(s, depth, count)
	}
	start := time.Now()
	last := start
	var leaves uint64
	return games.DivideEach(s, depth, count, func(done []games.DivideEntry, total int) {
		leaves += done[len(done)-1].Leaves
		now := time.Now()
		if now.Sub(last) < perftEvery && len(done) < total {
			return
		}
		last = now
		took := now.Sub(start)
		left := time.Duration(float64(took) / float64(len(done)) * float64(total-len(done)))
		fmt.Fprintf(progress, "arena perft: %d of %d first moves counted, %d leaves so far, %s (about %s left)\n", len(done), total, leaves, roughDuration(took), roughDuration(left))
	})
}

// perftEvery spaces perft's progress lines.
const perftEvery = 5 * time.Second

// roughDuration writes d to a precision a person reads at a glance: 1m40s,
// 3h20m, 12 days, 100 years.
func roughDuration(d time.Duration) string {
	const day, year = 24 * time.Hour, 8766 * time.Hour
	switch {
	case d < time.Hour:
		return d.Round(time.Second).String()
	case d < 2*day:
		return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
	case d < 2*year:
		return fmt.Sprintf("%.0f days", d.Hours()/24)
	}
	return fmt.Sprintf("%.0f years", float64(d)/float64(year))
}
