package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/search/solve"
)

// endgame is a line from the start to a position with 16 empty cells whose
// exact value for the side to move is −4 (checked against the generic
// exact search below).
const endgame = "c2 b4 d5 e6 a4 b3 d6 c6 b5 d1 a3 d2 e4 f3 c1 b1"

// TestSolveJSON: the flags reach the solver (the values themselves are
// search/solve's tests) and the report has its keys.
func TestSolveJSON(t *testing.T) {
	code, out, errOut := runArena("solve", "--moves", endgame, "--format", "json", "--threads", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"game", "value", "best", "pv", "nodes", "seconds"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("missing key %q in %s", k, out)
		}
	}
	pv := rep["pv"].([]any)
	if rep["game"] != "othello6" || rep["value"].(float64) != -4 || rep["result"] != "loss" || len(pv) == 0 || pv[0] != rep["best"] {
		t.Fatalf("unexpected report %s", out)
	}
}

func TestSolveGenericAgrees(t *testing.T) {
	// With no empty cells left at the end of this line both conventions
	// agree; the generic search reports the margin of Outcome.Score.
	code, out, errOut := runArena("solve", "--moves", endgame, "--generic", "--format", "json", "--tt", "16")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep solveReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Value != -4 || rep.Result != "loss" {
		t.Fatalf("generic solve: %+v", rep)
	}
}

func TestSolveText(t *testing.T) {
	code, out, errOut := runArena("solve", "--moves", endgame)
	if code != 0 || !strings.Contains(out, "value -4 (loss for the side to move)") || !strings.Contains(out, "pv ") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
}

func TestSolveErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--moves", "a1"}, "illegal move"},
		{[]string{"solve", "--threads", "-1"}, "--threads -1: use 1 to 256"},
		{[]string{"solve", "--moves", endgame, "--time", "1ns"}, "arena solve: stopped after"},
		{[]string{"analyse", "--agent", "nobody"}, `unknown agent "nobody"`},
		{[]string{"analyse", "--moves", "a1"}, "illegal move"},
		{[]string{"analyse", "--agent", "greedy", "--player", "1"}, "--player is for simultaneous games; in othello6 the side to move plays"},
	} {
		code, _, errOut := runArena(tt.args...)
		if code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("arena %v: exit %d, stderr %q (want %q)", tt.args, code, errOut, tt.want)
		}
	}
}

func TestAnalyse(t *testing.T) {
	t.Run("alphabeta", func(t *testing.T) {
		code, out, errOut := runArena("analyse", "--agent", "alphabeta:depth=4,rootscores", "--moves", "c2 b4", "--format", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var rep analyseReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Moves) != 5 || rep.Moves[0].Move != rep.Move || rep.Depth != 4 || rep.Nodes == 0 {
			t.Fatalf("%+v", rep)
		}
		for _, m := range rep.Moves {
			if m.Score == nil || m.Bound != "exact" || *m.Score > *rep.Moves[0].Score {
				t.Fatalf("move %+v ranks above the choice %+v", m, rep.Moves[0])
			}
		}
	})
	t.Run("mcts", func(t *testing.T) {
		code, out, errOut := runArena("analyse", "--agent", "mcts:iters=3000", "--moves", "c2")
		if code != 0 || !strings.Contains(out, "visits") || !strings.Contains(out, "plays ") {
			t.Fatalf("exit %d: %s %s", code, out, errOut)
		}
	})
}

// erdosLine is the spec's "starvation" line cut 5 plies before its end:
// 11 empty cells, the first player to move, solved in milliseconds.
const erdosLine = "c3:3 c4:4 c5:1 c1:5 d5:5 d1:4 d4:3 b5:4 d3:1 b4:2 a1:3 a2:2 b1:1 a4:1"

// TestSolvePlies: --plies, --list and the table reach the solver, and the
// report is printed (the values are search/solve's tests).
func TestSolvePlies(t *testing.T) {
	code, out, errOut := runArena("solve", "--game", "erdos", "--moves", erdosLine, "--plies", "2", "--format", "json", "--threads", "2", "--generic", "--tt", "4")
	var rep pliesReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Plies != 2 || rep.Dedup != "symmetry" || rep.Distinct == 0 ||
		rep.Solved != rep.Distinct || rep.Leaves <= int64(rep.Distinct) || rep.Start == nil || *rep.Start != 1 || rep.StartRes != "win" || len(rep.Values) == 0 {
		t.Fatalf("exit %d %s %s", code, out, errOut)
	}
	if !strings.Contains(errOut, "arena solve: listing: 16 distinct positions after 1 ply (") ||
		!strings.Contains(errOut, fmt.Sprintf("arena solve: %d distinct positions after 2 plies (%d lines, deduplicated by symmetry) in ", rep.Distinct, rep.Leaves)) {
		t.Errorf("listing progress on stderr: %q", errOut)
	}
	code, out, errOut = runArena("solve", "--game", "pyrga", "--moves", pyrgaLate, "--plies", "1", "--list", "--tt", "4")
	if code != 0 || !strings.Contains(out, "positions after 1 ply: ") || !strings.Contains(out, "distinct (by transpositions)") ||
		!strings.Contains(out, "by minimax over them") || strings.Count(out, "\t") == 0 {
		t.Fatalf("exit %d %s %s", code, out, errOut)
	}
}

// TestSolveStops: --time stops a solve, a --plies listing and a --plies
// run, each reporting what it did. Every run is far longer than --time,
// so the test does not depend on speed. The first must also see a
// progress line, which a ticker prints in real time: --time gives it 20
// intervals, so that a machine 5 times slower than a quiet one, or one
// that stalls the process for a second, still prints some (with 3.5
// intervals it printed none on a 2-core machine at a load of 8).
// TestProgressLine checks the lines themselves without a clock.
func TestSolveStops(t *testing.T) {
	code, _, errOut := runArena("solve", "--game", "erdos", "--moves", "c3:1 c4:4 c5:5 b3:4 b5:1 b2:5", "--progress", "100ms", "--time", "2s")
	if code == 0 || !strings.Contains(errOut, "M nodes/s") || !strings.Contains(errOut, "\narena solve: stopped after ") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, line := range strings.Split(strings.TrimSuffix(errOut, "\n"), "\n") {
		if !strings.HasPrefix(line, "arena solve: ") {
			t.Errorf("a line of stderr without the prefix \"arena solve: \": %q", line)
		}
	}
	code, out, errOut := runArena("solve", "--game", "erdos", "--moves", "c3:1 c4:4 c5:5 b3:4 b5:1 b2:5 b1:3", "--plies", "2", "--progress", "100ms", "--time", "350ms", "--format", "json")
	var rep pliesReport
	if code == 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Stopped != "out of time (--time)" || rep.Start != nil ||
		!strings.Contains(errOut, fmt.Sprintf("arena solve: --plies: stopped after solving %d of %d positions (reported above): out of time (--time)", rep.Solved, rep.Distinct)) {
		t.Fatalf("exit %d, stdout %q stderr %q", code, out, errOut)
	}
	// Listing 6 plies takes minutes: --time stops the listing itself.
	code, _, errOut = runArena("solve", "--game", "erdos", "--plies", "6", "--time", "300ms", "--tt", "4")
	if code == 0 || !strings.Contains(errOut, "arena solve: --plies: stopped listing the positions after") || !strings.Contains(errOut, "plies: out of time (--time)") {
		t.Errorf("listing stopped by --time: exit %d, stderr %q", code, errOut)
	}
}

// TestProgressLine: the stderr line of each kind of progress report.
func TestProgressLine(t *testing.T) {
	for _, c := range []struct {
		p    solve.Progress
		want string
	}{
		{solve.Progress{Stage: solve.Searching, Elapsed: time.Second}, "arena solve: 1s elapsed"},
		{solve.Progress{Stage: solve.Searching, Elapsed: 2 * time.Second, Nodes: 5_000_000}, "arena solve: 2s elapsed, 5.0 M nodes, 2.50 M nodes/s"},
		{solve.Progress{Stage: solve.Solving, Elapsed: time.Second, Positions: 9}, "arena solve: 1s elapsed, 0/9 positions (0.0%)"},
		{solve.Progress{Stage: solve.Solving, Elapsed: 2 * time.Second, Nodes: 5_000_000, Positions: 9, Solved: 3},
			"arena solve: 2s elapsed, 5.0 M nodes, 2.50 M nodes/s, 3/9 positions (33.3%), about 4s left"},
		{solve.Progress{Stage: solve.Listing, Elapsed: 1500 * time.Millisecond, Plies: 1, Positions: 13}, "arena solve: listing: 13 distinct positions after 1 ply (1.5 s)"},
		{solve.Progress{Stage: solve.Listed, Elapsed: 2 * time.Second, Plies: 3, Positions: 3764, Lines: 1398000, Dedup: "symmetry"},
			"arena solve: 3764 distinct positions after 3 plies (1398000 lines, deduplicated by symmetry) in 2.0 s"},
		{solve.Progress{Stage: solve.Listed, Elapsed: time.Second, Plies: 1, Positions: 1, Lines: 1, Dedup: "transpositions"},
			"arena solve: 1 distinct position after 1 ply (1 line, deduplicated by transpositions) in 1.0 s"},
	} {
		if got := progressLine(c.p); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}

func TestSolvePliesErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--list"}, "give --plies K too"},
		{[]string{"solve", "--game", "pyrga", "--generic", "--tt", "4", "--time", "50ms"}, "out of time (--time)"},
		{[]string{"solve", "--plies", "65"}, "--plies 65: use 0 to 64 (0: the position itself)"},
		{[]string{"solve", "--plies", "-1"}, "--plies -1: use 0 to 64"},
		{[]string{"solve", "--progress", "1ms"}, "--progress"},
	} {
		code, _, errOut := runArena(tt.args...)
		if code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("arena %v: exit %d, stderr %q (want %q)", tt.args, code, errOut, tt.want)
		}
	}
}

// pyrgaLate is the first 20 plies of a random Pyrga game of 30.
const pyrgaLate = "T@a2>E S@b2 C@c2 T@c2>E T@d2>S S@d1 T@c1>E T@d1>N S@d3 T@c3>E T@d3>N C@d4 T@d4>W C@b4 S@b4 T@a4>S C@a3 T@a3>N C@a4 S@a4"

// TestSolveStoppedJSON: a game solver's solve that stops writes a JSON
// record with why and what it proved (--format json), and its error says
// the same; --time reads as "out of time", Ctrl-C as "interrupted".
func TestSolveStoppedJSON(t *testing.T) {
	s := othello6.New()
	c2, _ := othello6.ParseMove("c2")
	for _, c := range []struct {
		err      error
		json     string
		errorMsg string
	}{
		{&games.ProvenBounds{Lo: 1, Hi: 5, Err: context.DeadlineExceeded},
			`{"game":"g","stopped":"out of time (--time)","lo":1,"hi":5,"nodes":7,"seconds":2}`,
			"stopped after 7 nodes (2.0 s): out of time (--time); proven: the value is from +1 to +5, a win for the side to move"},
		{&games.KeptHint{Move: c2, Value: -4, Err: context.Canceled},
			`{"game":"g","stopped":"interrupted","move":"c2","move_value":-4,"nodes":7,"seconds":2}`,
			"stopped after 7 nodes (2.0 s): interrupted; c2 is proven worth at least -4"},
		{context.Canceled, `{"game":"g","stopped":"interrupted","nodes":7,"seconds":2}`, "stopped after 7 nodes (2.0 s): interrupted"},
	} {
		var out strings.Builder
		err := solveStopped(&out, "json", "g", s, c.err, 7, 2*time.Second)
		if strings.TrimSpace(out.String()) != c.json || err == nil || err.Error() != c.errorMsg {
			t.Errorf("%v:\n got %s, %v\nwant %s, %s", c.err, strings.TrimSpace(out.String()), err, c.json, c.errorMsg)
		}
		out.Reset()
		if solveStopped(&out, "text", "g", s, c.err, 7, 2*time.Second); out.Len() != 0 {
			t.Errorf("%v: text format wrote %q to stdout", c.err, out.String())
		}
	}
}

// TestTableMB: --time without --tt leaves the table's size to the
// game's solver (sized for the time); otherwise --tt, or its default, is
// the size.
func TestTableMB(t *testing.T) {
	for _, c := range []struct {
		tt      int
		ttGiven bool
		limit   time.Duration
		want    int // solve.Options.TableMB: 0 for the solver's choice
	}{
		{256, false, 0, 256},
		{64, true, 0, 64},
		{256, false, time.Second, 0},
		{32, true, time.Second, 32},
	} {
		if got := tableMB(c.tt, c.ttGiven, c.limit); got != c.want {
			t.Errorf("--tt %d (given %t), --time %v: table %d MB, want %d", c.tt, c.ttGiven, c.limit, got, c.want)
		}
	}
}
