//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents/botproc/botproctest"
	"github.com/boardgame-arena/arena/ugi/ugitest"
)

// The UGI engine and checker are tested in ugi and ugi/server; these
// tests check that arena engine and arena check-engine hand their flags
// to them, and show their errors and reports.

// binDir holds the arena binary that tests run as a process; TestMain
// removes it.
var (
	binDir    string
	binOnce   sync.Once
	binErr    error
	arenaPath string
)

// engineEnv, set in the environment of this test binary, makes it run
// arena engine with the agent it names instead of running tests.
const engineEnv = "ARENA_TEST_ENGINE"

func TestMain(m *testing.M) {
	if agent := os.Getenv(engineEnv); agent != "" {
		os.Exit(run([]string{"engine", "--agent", agent}, os.Stdout, os.Stderr))
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// arenaBinary builds this command once per test run, for tests that
// run it as a process.
func arenaBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "arena-ugi-test"); binErr != nil {
			return
		}
		arenaPath = filepath.Join(binDir, "arena")
		goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
		if out, err := exec.Command(goTool, "build", "-o", arenaPath, ".").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("building arena: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return arenaPath
}

// engineCommand is the ugi:cmd= value of arena engine --agent agent (a
// spec without commas or blanks), run by this test binary.
func engineCommand(t *testing.T, agent string) string {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// GORACE: a race-enabled binary otherwise sleeps 1s at exit, and
	// fails check-engine's quit check.
	return "env GORACE=atexit_sleep_ms=0 " + engineEnv + "=" + agent + " " + self
}

// serveEngine runs arena engine with args on input and returns its exit
// code and output.
func serveEngine(t *testing.T, input string, args ...string) (int, string, string) {
	t.Helper()
	engineInput = strings.NewReader(input)
	defer func() { engineInput = os.Stdin }()
	return runArena(append([]string{"engine"}, args...)...)
}

// TestEngineFlags: --game, --agent and --seed reach the server: the game
// announced, the engine's name, its moves, and the agent's choices, which
// follow the seed.
func TestEngineFlags(t *testing.T) {
	code, out, errOut := serveEngine(t, "ugi\nposition startpos\ngo movetime 50\nquit\n", "--game", "gravity", "--agent", "greedy")
	for _, w := range []string{"id name arena greedy\n", "option name UGI_Game type string default gravity\n", "bestmove "} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("exit %d, output lacks %q:\n%s\n%s", code, w, out, errOut)
		}
	}
	games := strings.Repeat("uginewgame\nposition startpos\ngo movetime 50\n", 8) + "quit\n"
	moves := func(seed string) string {
		_, out, _ := serveEngine(t, games, "--agent", "random", "--seed", seed)
		return out
	}
	if a, b, c := moves("1"), moves("1"), moves("2"); a != b || a == c {
		t.Errorf("seed 1 twice and seed 2 played\n%s\n%s\n%s\nwant the first two alike and the third not", a, b, c)
	}
}

// TestEngineErrors: a missing or unusable --agent, or a bad --game, is
// refused before a command is read, naming the flag.
func TestEngineErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "arena engine: --agent is required, e.g. arena engine --agent mcts:time=100ms"},
		// The human agent reads stdin, which carries UGI.
		{[]string{"--agent", "human"}, "arena engine: --agent human: the engine's stdin carries UGI"},
		{[]string{"--agent", "frob"}, `arena engine: --agent: unknown agent "frob"`},
		{[]string{"--agent", "greedy", "--game", "chess"}, `arena engine: --game: unknown game "chess"`},
		{[]string{"--agent", "greedy", "--game", "tryangle"}, "arena engine: --game: tryangle is simultaneous"},
	} {
		code, out, errOut := serveEngine(t, "ugi\nquit\n", tc.args...)
		if code != 1 || out != "" || !strings.HasPrefix(errOut, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

// TestCheckEngine: arena check-engine passes arena engine (this test
// binary running the command) on every check, and fails an engine that
// answers illegal moves, exiting 1 with the count.
func TestCheckEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	code, stdout, stderr := runArena("check-engine", "--game", "gravity", "--positions", "5", "--movetime", "50ms",
		"--agent", "ugi:cmd="+engineCommand(t, "greedy"))
	if code != 0 || !strings.Contains(stdout, "pass handshake      ugiok in ") || !strings.HasSuffix(stdout, "all 11 checks passed\n") {
		t.Fatalf("arena engine failed the check: exit %d\n%s\n%s", code, stdout, stderr)
	}
	dir := t.TempDir()
	code, stdout, stderr = runArena("check-engine", "--positions", "2", "--movetime", "20ms", "--margin", "100ms",
		"--agent", "ugi:cmd=sh "+ugitest.Script(t, dir, "echo 'bestmove z9'"))
	if code != 1 || !strings.Contains(stdout, "FAIL legal-moves") || !strings.Contains(stdout, "bestmove z9") || !strings.Contains(stderr, "of 11 checks failed") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1, the failure and the number of failed checks", code, stdout, stderr)
	}
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}

// TestCheckEngineFlagRanges: the duration flags are refused outside their
// ranges before the engine starts (a margin of hours would make the checks
// of a silent engine wait that long).
func TestCheckEngineFlagRanges(t *testing.T) {
	for _, tc := range []struct{ flag, value, want string }{
		{"--margin", "99999h", "--margin 99999h is out of range: use 0s to 1m"},
		{"--margin", "-1ms", "--margin -1ms is out of range: use 0s to 1m"},
		{"--margin", "61s", "--margin 1m1s is out of range: use 0s to 1m"},
		{"--movetime", "2m", "--movetime 2m0s: want 1ms to 1m"},
		{"--clock", "5ms", "--clock 5ms: want 10ms to 1m"},
	} {
		code, stdout, stderr := runArena("check-engine", "--positions", "1", tc.flag, tc.value, "--agent", "ugi:cmd=cat,init=200ms")
		if code == 0 || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want an error with %q and no check run", tc.flag, tc.value, code, stdout, stderr, tc.want)
		}
	}
	// The help states the ranges.
	_, _, help := runArena("check-engine", "-h")
	for _, w := range []string{"bestmove may come (0 to 1m)", "movetime of each go (1ms to 1m)", "(10ms to 1m)"} {
		if !strings.Contains(help, w) {
			t.Errorf("the help lacks %q:\n%s", w, help)
		}
	}
}

// TestCheckEngineAgent: --agent must be a valid ugi agent spec.
func TestCheckEngineAgent(t *testing.T) {
	for _, tc := range []struct{ agent, want string }{
		{"", `arena check-engine: --agent "": want a ugi agent spec, e.g. --agent "ugi:cmd='python3 engine.py'"`},
		{"greedy", `arena check-engine: --agent "greedy": want a ugi agent spec`},
		{"ugi:cmd=x,frob=1", `arena check-engine: --agent: ugi: unknown option "frob"`},
		{"ugi:cmd=x,init=0s", "arena check-engine: --agent: "},
	} {
		code, stdout, stderr := runArena("check-engine", "--agent", tc.agent)
		if code != 1 || stdout != "" || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", tc.agent, code, stdout, stderr, tc.want)
		}
	}
}

// TestCheckEngineHandshakeDeadline: --handshake reaches the check, which
// names it (not the agent's init=) when it is the shorter limit, and
// check-engine says on stderr what it waits for once the engine has been
// silent for a second. Neither verdict depends on the machine's speed:
// the note is printed because no line came by the second, the failure
// because none came by 1.5 s.
func TestCheckEngineHandshakeDeadline(t *testing.T) {
	t0 := time.Now()
	code, stdout, stderr := runArena("check-engine", "--positions", "1", "--handshake", "1500ms", "--agent", "ugi:cmd=sleep 120,init=1h")
	if code != 1 || !strings.Contains(stdout, "FAIL handshake      no ugiok within 1.5s (--handshake; the agent's init= 1h is longer: give --handshake 1h to wait as long)") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "arena check-engine: no ugiok yet after 1s; waiting up to 1.5s in all for the engine's answer to ugi\n") {
		t.Errorf("stderr does not say what check-engine waits for: %q", stderr)
	}
	t.Logf("failed the handshake after %s", time.Since(t0).Round(time.Millisecond))
}

// TestRunRefusesMissingProgram: a run whose external agent cannot start
// here is refused before its first game, and leaves no record file.
func TestRunRefusesMissingProgram(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.jsonl")
	for _, args := range [][]string{
		{"tournament", "--agents", "ugi:cmd=/nonexistent/engine", "random", "--games", "2", "--out", out},
		{"match", "--agents", "random", "ugi:cmd=sh,stderr=/nonexistent/dir/err.log", "--games", "2", "--out", out},
		{"play", "--agents", "ugi:cmd=no-such-engine-here", "random"},
	} {
		code, _, stderr := runArena(args...)
		if code != 1 || !strings.Contains(stderr, "ugi:cmd=") || (!strings.Contains(stderr, "cannot be run") && !strings.Contains(stderr, "directory /nonexistent/dir does not exist")) {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v left %s", args, out)
		}
	}
}
