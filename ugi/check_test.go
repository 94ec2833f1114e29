//go:build unix

package ugi_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents/botproc/botproctest"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/ugi"
	"github.com/boardgame-arena/arena/ugi/ugitest"
)

// TestMain lets this test binary be a UGI engine (ugitest.Engine), to be
// checked.
func TestMain(m *testing.M) {
	ugitest.ServeIfAsked()
	os.Exit(m.Run())
}

// checkOptions are the options of a check of the engine cmd (split on
// blanks) on othello6, with arena check-engine's defaults.
func checkOptions(cmd string, out *strings.Builder) ugi.CheckOptions {
	return ugi.CheckOptions{
		Engine: ugi.Engine{Argv: strings.Fields(cmd)}, Game: "othello6", Positions: 10,
		MoveTime: 100 * time.Millisecond, Margin: 200 * time.Millisecond, Clock: time.Second,
		Handshake: ugi.DefaultCheckHandshake, Seed: 1, Out: out,
	}
}

// check runs Check and returns its result and report.
func check(t *testing.T, o ugi.CheckOptions) (ugi.CheckResult, string) {
	t.Helper()
	var out strings.Builder
	o.Out = &out
	res, err := ugi.Check(o)
	if err != nil {
		t.Fatal(err)
	}
	return res, out.String()
}

// TestCheck: a served agent passes every check; a script that answers an
// illegal move, none, or a malformed info line fails the right check with
// a reason.
func TestCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	o := checkOptions(ugitest.Engine(t, "greedy", "", ""), nil)
	o.Game, o.Positions, o.MoveTime = "gravity", 5, 50*time.Millisecond
	if res, out := check(t, o); res.Failed != 0 || res.Checks != 11 {
		t.Fatalf("the server failed the check: %+v\n%s", res, out)
	}
	for _, tc := range []struct {
		name, goAction string
		want           []string
	}{
		{"illegal", "echo 'bestmove z9'", []string{"FAIL legal-moves", `bestmove z9`}},
		// No answer is no pass of the movetime check.
		{"silent", ":", []string{"FAIL legal-moves", "no bestmove in time", "FAIL movetime       no bestmove with go movetime 20 (allowed 120ms) after "}},
		{"early", "echo 'info depth x'; echo 'bestmove b3'", []string{"FAIL info", `depth "x" is not an integer`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			o := checkOptions("sh "+ugitest.Script(t, dir, tc.goAction), nil)
			o.Positions, o.MoveTime, o.Margin = 2, 20*time.Millisecond, 100*time.Millisecond
			res, out := check(t, o)
			if res.Failed == 0 {
				t.Errorf("no check failed:\n%s", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
			botproctest.NoneRunning(t, ugitest.PidFile(dir))
		})
	}
}

// TestCheckOptions: options out of their ranges are refused, naming the
// option, before the engine starts (a margin of hours would make the
// checks of a silent engine wait that long).
func TestCheckOptions(t *testing.T) {
	for _, tc := range []struct {
		set        func(*ugi.CheckOptions)
		name, want string
	}{
		{func(o *ugi.CheckOptions) { o.Margin = 99999 * time.Hour }, "Check.Margin", "Check.Margin 99999h is out of range: use 0s to 1m (how late a bestmove may come)"},
		{func(o *ugi.CheckOptions) { o.Margin = -time.Millisecond }, "Check.Margin", "Check.Margin -1ms is out of range: use 0s to 1m"},
		{func(o *ugi.CheckOptions) { o.MoveTime = 2 * time.Minute }, "Check.MoveTime", "Check.MoveTime 2m0s: want 1ms to 1m"},
		{func(o *ugi.CheckOptions) { o.Clock = 5 * time.Millisecond }, "Check.Clock", "Check.Clock 5ms: want 10ms to 1m"},
		{func(o *ugi.CheckOptions) { o.Positions = 0 }, "Check.Positions", "Check.Positions 0: want 1 to 1000"},
		{func(o *ugi.CheckOptions) { o.Handshake = 0 }, "Check.Handshake", "Check.Handshake 0s is out of range: use 1ms to 1h"},
		{func(o *ugi.CheckOptions) { o.Game = "chess" }, "Check.Game", `Check.Game: unknown game "chess"`},
		{func(o *ugi.CheckOptions) { o.Game = "tryangle" }, "Check.Game", "Check.Game tryangle is simultaneous; UGI describes sequential games only"},
		{func(o *ugi.CheckOptions) { o.Engine.Argv = nil }, "Check.Engine", "Check.Engine: the engine's command line (Argv) is empty"},
	} {
		var out strings.Builder
		o := checkOptions("no-such-engine-here", &out)
		tc.set(&o)
		_, err := ugi.Check(o)
		var oe *option.Error
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.As(err, &oe) || oe.Name != tc.name || out.Len() > 0 {
			t.Errorf("%v (report %q); want an error about %s starting %q and no check run", err, out.String(), tc.name, tc.want)
		}
	}
}

// TestCheckHandshakeNamesUgiok: an engine that never says ugiok fails the
// handshake with a message naming ugiok and the init= limit, and one that
// cannot start names ugiok and the exit.
func TestCheckHandshakeNamesUgiok(t *testing.T) {
	// An engine that reads ugi, then exits (one that exits at once may
	// fail the write of ugi instead).
	quits := filepath.Join(t.TempDir(), "quits.sh")
	if err := os.WriteFile(quits, []byte("read line\nexit 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		e    ugi.Engine
		want string
	}{
		{ugi.Engine{Argv: []string{"cat"}, Init: 200 * time.Millisecond}, "FAIL handshake      no ugiok within init= 200ms"},
		{ugi.Engine{Argv: []string{"sh", quits}}, "FAIL handshake      waiting for ugiok: "},
	} {
		o := checkOptions("", nil)
		o.Engine, o.Positions = tc.e, 1
		if res, out := check(t, o); res.Failed != 1 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: %+v\n%s\nwant %q", tc.e.Argv, res, out, tc.want)
		}
	}
}

// TestCheckHandshakeDeadline: Check waits for a silent engine's ugiok
// its own Handshake, not the engine's Init (up to 1h, for engines that
// load for long in matches), names the option in its advice, and says
// through Note what it waits for once the engine has been silent for a
// second. Neither verdict depends on the machine's speed: the note is
// made because no line came by the second, the failure because none came
// by 1.5 s.
func TestCheckHandshakeDeadline(t *testing.T) {
	var notes []string
	o := checkOptions("sleep 120", nil)
	o.Engine.Init, o.Positions, o.Handshake = time.Hour, 1, 1500*time.Millisecond
	o.Note = func(s string) { notes = append(notes, s) }
	o.OptionName = func(s string) string { return "<" + s + ">" }
	res, out := check(t, o)
	if res.Failed != 1 || !strings.Contains(out, "FAIL handshake      no ugiok within 1.5s (<Check.Handshake>; the agent's init= 1h is longer: give <Check.Handshake> 1h to wait as long)") {
		t.Errorf("%+v\n%s", res, out)
	}
	if len(notes) != 1 || notes[0] != "no ugiok yet after 1s; waiting up to 1.5s in all for the engine's answer to ugi" {
		t.Errorf("notes %q; want one saying what Check waits for", notes)
	}
}

// TestCheckBrokenEngines: engines that play legal moves from move lists
// but ignore position fen, never answer query, or answer it wrong fail
// the fen or query check with the reason, and pass the others.
func TestCheckBrokenEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	for _, tc := range []struct {
		mode string
		want []string
	}{
		{"nofen", []string{"FAIL fen", "after \"position fen ", "the engine said \"info string unknown command", "positions as text: see 'arena games'", "pass legal-moves", "pass query"}},
		{"noquery", []string{"FAIL query", "query gameover after \"position startpos", "no response in time (UGI engines answer 'query gameover|p1turn|result'", "pass fen"}},
		{"swapresult", []string{"FAIL query", "query result after \"position startpos moves ", "want \"response p", "pass fen", "pass clock"}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			pids := filepath.Join(t.TempDir(), "pids")
			o := checkOptions(ugitest.Engine(t, "greedy", tc.mode, pids), nil)
			o.Positions, o.MoveTime, o.Margin = 8, 20*time.Millisecond, 100*time.Millisecond
			res, out := check(t, o)
			if res.Failed != 1 || res.Checks != 11 {
				t.Errorf("%+v; want one failed check of 11:\n%s", res, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
			botproctest.NoneRunning(t, pids)
		})
	}
}

// TestCheckStop: an engine that plays but ignores stop after go infinite
// fails the stop check.
func TestCheckStop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	dir := t.TempDir()
	// Answers go movetime at once, never answers go infinite.
	o := checkOptions("sh "+ugitest.Script(t, dir, `case "$line" in *infinite*) ;; *) echo 'bestmove b3';; esac`), nil)
	o.Positions, o.MoveTime, o.Margin = 1, 20*time.Millisecond, 100*time.Millisecond
	// b3 is legal only at the start of othello6, so a random position
	// may fail legal-moves; stop is what this test is about.
	if _, out := check(t, o); !strings.Contains(out, "FAIL stop") || !strings.Contains(out, "no bestmove within 100ms of stop") {
		t.Errorf("want a stop failure:\n%s", out)
	}
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}

// TestCheckClockReachesAgent: a served mcts agent that has no budget of
// its own passes the clock check, which only a time manager told the
// clock can (without it the agent would think until the deadline, the
// mover's whole time).
func TestCheckClockReachesAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	o := checkOptions(ugitest.Engine(t, "mcts:iters=1000000000000", "", ""), nil)
	o.Positions, o.MoveTime = 2, 50*time.Millisecond
	if _, out := check(t, o); !strings.Contains(out, "pass clock") {
		t.Fatalf("the clock check failed:\n%s", out)
	}
}

// TestCheckExampleEngines: both example engines pass the check.
func TestCheckExampleEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs external processes")
	}
	goEngine := filepath.Join(t.TempDir(), "ugi-go")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.Command(goTool, "build", "-o", goEngine, "../examples/ugi-go").CombinedOutput(); err != nil {
		t.Fatalf("building examples/ugi-go: %v\n%s", err, out)
	}
	cases := []struct{ name, game, cmd string }{{"go", "erdos:algol", goEngine}}
	if py, err := exec.LookPath("python3"); err == nil {
		cases = append(cases, struct{ name, game, cmd string }{"python", "othello6", py + " " + pythonEngine})
	} else {
		t.Log("python3 is not installed: the Python example is not checked")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := checkOptions(tc.cmd, nil)
			o.Game, o.Positions, o.MoveTime = tc.game, 5, 50*time.Millisecond
			if res, out := check(t, o); res.Failed != 0 || res.Checks != 11 {
				t.Errorf("%+v\n%s", res, out)
			}
		})
	}
}
