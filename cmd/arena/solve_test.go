package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/internal/sysmem"
)

// endgame is a line from the start to a position with 16 empty cells whose
// exact value for the side to move is −4 (checked against the generic
// exact search below).
const endgame = "c2 b4 d5 e6 a4 b3 d6 c6 b5 d1 a3 d2 e4 f3 c1 b1"

func TestSolveJSON(t *testing.T) {
	for _, extra := range [][]string{nil, {"--threads", "2"}} {
		args := append([]string{"solve", "--moves", endgame, "--format", "json"}, extra...)
		code, out, errOut := runArena(args...)
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
		// The principal variation is a legal line to the end of the game.
		moves := endgame
		for _, m := range pv {
			moves += " " + m.(string)
		}
		code, out, errOut = runArena("replay", "--moves", moves, "--format", "json")
		if code != 0 || !strings.Contains(out, `"terminal":true`) {
			t.Fatalf("replaying the PV: exit %d %s %s", code, out, errOut)
		}
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
		{[]string{"solve", "--threads", "0"}, "--threads 0 is out of range: use 1 to 256"},
		{[]string{"solve", "--moves", endgame, "--time", "1ns"}, "solve stopped"},
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

// TestSolveErdos: the game's own solver answers, its principal variation
// replays to the end, and both rule sets work.
func TestSolveErdos(t *testing.T) {
	for _, game := range []string{"erdos", "erdos:algol"} {
		code, out, errOut := runArena("solve", "--game", game, "--moves", erdosLine, "--format", "json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", game, code, errOut)
		}
		var rep solveReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Game != game || rep.Value != 1 || rep.Result != "win" || len(rep.PV) == 0 {
			t.Fatalf("%s: %+v", game, rep)
		}
		code, out, errOut = runArena("replay", "--game", game, "--moves", erdosLine+" "+strings.Join(rep.PV, " "), "--format", "json")
		if code != 0 || !strings.Contains(out, `"terminal":true`) {
			t.Fatalf("%s: replaying the PV: exit %d %s %s", game, code, out, errOut)
		}
	}
}

// TestSolvePlies: --plies counts each position once up to symmetry, its
// minimax over them is the position's own value, and the generic search
// finds the same values.
func TestSolvePlies(t *testing.T) {
	for _, game := range []string{"erdos", "erdos:algol"} {
		var reps []pliesReport
		for _, extra := range [][]string{nil, {"--generic", "--tt", "4"}, {"--threads", "2"}} {
			args := append([]string{"solve", "--game", game, "--moves", erdosLine, "--plies", "3", "--format", "json"}, extra...)
			code, out, errOut := runArena(args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			var rep pliesReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Dedup != "symmetry" || rep.Distinct == 0 || rep.Solved != rep.Distinct ||
				rep.Win+rep.Draw+rep.Loss != rep.Distinct || rep.Start == nil || *rep.Start != 1 || rep.Distinct >= int(rep.Leaves) {
				t.Fatalf("%v: %s", args, out)
			}
			rep.Nodes, rep.Seconds, rep.Start = 0, 0, nil
			reps = append(reps, rep)
		}
		for _, r := range reps[1:] {
			if a, b := fmt.Sprint(r), fmt.Sprint(reps[0]); a != b {
				t.Errorf("%s: reports differ:\n%s\n%s", game, a, b)
			}
		}
	}
	// A game without symmetry classes counts transpositions once.
	code, out, errOut := runArena("solve", "--game", "pyrga", "--moves", pyrgaLate, "--plies", "1", "--format", "json", "--tt", "4")
	var rep pliesReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Dedup != "transpositions" || rep.Start == nil {
		t.Fatalf("pyrga: exit %d %s %s", code, out, errOut)
	}
	code, out, errOut = runArena("solve", "--game", "pyrga", "--moves", pyrgaLate, "--format", "json", "--tt", "4")
	var one solveReport
	if code != 0 || json.Unmarshal([]byte(out), &one) != nil || one.Value != *rep.Start || one.Result != rep.StartRes {
		t.Fatalf("pyrga: plies value %d %s, solve %s %s", *rep.Start, rep.StartRes, out, errOut)
	}
}

// TestSolvePliesListing: the positions 3 plies from the Erdős start, up to
// symmetry (3 764; 7 500 under algol, 120 symmetries), and the lines to
// them (1 398 000), as walking every line counted them; the listing says
// how far it got on stderr, a ply at a time. The solves are cut by --time.
func TestSolvePliesListing(t *testing.T) {
	for _, c := range []struct {
		game     string
		distinct int
	}{{"erdos", 3764}, {"erdos:algol", 7500}} {
		code, out, errOut := runArena("solve", "--game", c.game, "--plies", "3", "--time", "1s", "--tt", "4", "--format", "json")
		var rep pliesReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil || code == 0 {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", c.game, code, out, errOut)
		}
		if rep.Stopped != "out of time (--time)" || !strings.Contains(errOut, "(reported above): out of time (--time)") {
			t.Errorf("%s: stopped %q, stderr %q: want the cause as --time", c.game, rep.Stopped, errOut)
		}
		if rep.Distinct != c.distinct || rep.Leaves != 1398000 || rep.Dedup != "symmetry" {
			t.Errorf("%s: %d distinct positions, %d lines, by %s; want %d, 1398000, symmetry", c.game, rep.Distinct, rep.Leaves, rep.Dedup, c.distinct)
		}
		if !strings.Contains(errOut, "listing: 13 distinct positions after 1 ply") && c.game == "erdos" {
			t.Errorf("%s: no listing progress on stderr: %q", c.game, errOut)
		}
	}
	// Listing 6 plies takes minutes: --time stops the listing itself.
	code, _, errOut := runArena("solve", "--game", "erdos", "--plies", "6", "--time", "300ms", "--tt", "4")
	if code == 0 || !strings.Contains(errOut, "stopped listing the positions after") || !strings.Contains(errOut, "out of time (--time)") {
		t.Errorf("listing stopped by --time: exit %d, stderr %q", code, errOut)
	}
}

// TestSolveProgress: a solve longer than --progress reports nodes on stderr;
// --time stops it, and stops a --plies run with what it solved. Both runs
// are far longer than --time, so the test does not depend on speed. The
// first must also see a progress line, which a ticker prints in real time:
// --time gives it 20 intervals, so that a machine 5 times slower than a
// quiet one, or one that stalls the process for a second, still prints
// some (with 3.5 intervals it printed none on a 2-core machine at a load
// of 8). TestProgressLines checks the lines themselves without a clock.
func TestSolveProgress(t *testing.T) {
	code, _, errOut := runArena("solve", "--game", "erdos", "--moves", "c3:1 c4:4 c5:5 b3:4 b5:1 b2:5", "--progress", "100ms", "--time", "2s")
	if code == 0 || !strings.Contains(errOut, "M nodes/s") || !strings.Contains(errOut, "solve stopped after") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	code, out, errOut := runArena("solve", "--game", "erdos", "--moves", "c3:1 c4:4 c5:5 b3:4 b5:1 b2:5 b1:3", "--plies", "2", "--progress", "100ms", "--time", "350ms")
	if code == 0 || !strings.Contains(errOut, "stopped after solving") || !strings.Contains(errOut, "positions (") || !strings.Contains(out, "solved") {
		t.Fatalf("exit %d, stdout %q stderr %q", code, out, errOut)
	}
}

// TestProgressLines: a line at each tick, with the nodes and the rate
// since start, and the extra text; none before a tick or after quit.
func TestProgressLines(t *testing.T) {
	var out strings.Builder
	var nodes atomic.Int64
	ticks, quit := make(chan time.Time), make(chan struct{})
	done := make(chan struct{})
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	go func() {
		progressLines(&out, ticks, quit, start, &nodes, func() string { return "3/9 positions" })
		close(done)
	}()
	ticks <- start.Add(time.Second) // no nodes counted yet: no rate
	nodes.Store(5_000_000)
	ticks <- start.Add(2 * time.Second)
	close(quit)
	<-done
	want := "solve: 1s elapsed, 3/9 positions\nsolve: 2s elapsed, 5.0 M nodes, 2.50 M nodes/s, 3/9 positions\n"
	if out.String() != want {
		t.Fatalf("got %q, want %q", out.String(), want)
	}
}

func TestSolvePliesErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--list"}, "give --plies K too"},
		{[]string{"solve", "--game", "pyrga", "--generic", "--tt", "4", "--time", "50ms"}, "out of time (--time)"},
		{[]string{"solve", "--plies", "65"}, "--plies 65 is out of range"},
		{[]string{"solve", "--plies", "-1"}, "--plies -1 is out of range"},
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

// TestStoppedMove: a stopped solve's message names the move it still has,
// proven or guessed, in the game's notation, and nothing for a move that
// is not legal or no such error.
func TestStoppedMove(t *testing.T) {
	s := othello6.New()
	c2, err := othello6.ParseMove("c2")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{&games.KeptHint{Move: c2, Value: -4, Err: context.DeadlineExceeded}, "; c2 is proven worth at least -4"},
		{fmt.Errorf("wrapped: %w", &games.BestGuess{Move: c2, Err: context.DeadlineExceeded}), "; its best guess: c2"},
		{&games.BestGuess{Move: othello6.Pass, Err: context.DeadlineExceeded}, ""},
		{context.DeadlineExceeded, ""},
		{&games.ProvenBounds{Lo: 1, Hi: 5, Err: context.Canceled}, "; proven: the value is from +1 to +5, a win for the side to move"},
		{&games.ProvenBounds{Lo: -5, Hi: -1, Err: context.Canceled}, "; proven: the value is from -5 to -1, a loss for the side to move"},
		{&games.ProvenBounds{Lo: 0, Hi: 2, Err: context.Canceled}, "; proven: the value is from +0 to +2, at least a draw for the side to move"},
		{&games.ProvenBounds{Lo: -3, Hi: 3, Err: context.Canceled}, "; proven: the value is from -3 to +3, the winner not yet known"},
	} {
		if got := stoppedMove(s, c.err); got != c.want {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
	}
}

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
			"solve stopped after 7 nodes (2.0 s): out of time (--time); proven: the value is from +1 to +5, a win for the side to move"},
		{&games.KeptHint{Move: c2, Value: -4, Err: context.Canceled},
			`{"game":"g","stopped":"interrupted","move":"c2","move_value":-4,"nodes":7,"seconds":2}`,
			"solve stopped after 7 nodes (2.0 s): interrupted; c2 is proven worth at least -4"},
		{context.Canceled, `{"game":"g","stopped":"interrupted","nodes":7,"seconds":2}`, "solve stopped after 7 nodes (2.0 s): interrupted"},
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

// TestSolverTable: --time without --tt leaves the table's size to the
// game's solver (sized for the time); otherwise --tt, or its default, is
// the size.
func TestSolverTable(t *testing.T) {
	for _, c := range []struct {
		tt      int
		ttGiven bool
		limit   time.Duration
		want    int // games.SolveOptions.TableMB: 0 for the solver's choice
	}{
		{256, false, 0, 256},
		{64, true, 0, 64},
		{256, false, time.Second, 0},
		{32, true, time.Second, 32},
	} {
		if got := solverTable(c.tt, c.ttGiven, c.limit); got != c.want {
			t.Errorf("--tt %d (given %t), --time %v: table %d MB, want %d", c.tt, c.ttGiven, c.limit, got, c.want)
		}
	}
}

// TestSolvePliesListingMemory: the --plies listing stops, with a message,
// once the heap outgrows its share of the machine's memory (here a share
// so small that the first check stops it).
func TestSolvePliesListingMemory(t *testing.T) {
	if _, known := sysmem.Total(); !known {
		t.Skip("the machine's memory is unknown here")
	}
	defer func(share float64) { pliesHeapShare = share }(pliesHeapShare)
	pliesHeapShare = 1e-12
	code, _, errOut := runArena("solve", "--game", "erdos", "--plies", "2", "--tt", "4")
	if code == 0 || !strings.Contains(errOut, "distinct positions after 1 ply already fill") || !strings.Contains(errOut, "of this machine's memory: use fewer --plies") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
