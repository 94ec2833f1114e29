//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/agents/botproc"
	"github.com/boardgame-arena/arena/agents/botproc/botproctest"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/ugi"
)

// binDir holds the arena binary the UGI tests run as an engine; TestMain
// removes it.
var (
	binDir    string
	binOnce   sync.Once
	binErr    error
	arenaPath string
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(brokenEngineEnv); mode != "" {
		os.Exit(brokenEngine(mode))
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// arenaBinary builds this command once per test run.
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

// gameRecord is the part of a game record the UGI tests look at.
type gameRecord struct {
	Record  string `json:"record"`
	Players [2]struct {
		Name string `json:"name"`
	} `json:"players"`
	Termination string   `json:"termination"`
	Detail      string   `json:"detail"`
	Moves       []string `json:"moves"`
}

func readGames(t *testing.T, path string) []gameRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []gameRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var g gameRecord
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		if g.Record == "game" {
			out = append(out, g)
		}
	}
	return out
}

// normalTournament runs arena tournament with args (which name the record
// file with --out) and checks it exits cleanly and records want games, all
// ending normally (no forfeit: every move crossed the protocol intact).
func normalTournament(t *testing.T, want int, args ...string) []gameRecord {
	t.Helper()
	code, stdout, stderr := runArena(append([]string{"tournament"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	out := ""
	for i, a := range args {
		if a == "--out" && i+1 < len(args) {
			out = args[i+1]
		}
	}
	gs := readGames(t, out)
	if len(gs) != want {
		t.Fatalf("%d games, want %d", len(gs), want)
	}
	for _, g := range gs {
		if g.Termination != "normal" {
			t.Errorf("%s vs %s: %s after %d moves (%s)", g.Players[0].Name, g.Players[1].Name, g.Termination, len(g.Moves), g.Detail)
		}
	}
	return gs
}

// TestUGIEngineTournament plays arena engine, run as a process through the
// ugi agent, against greedy on every sequential game: every game ends
// normally (no forfeit), so the moves went through both directions of the
// protocol in the game's notation, and the variant was announced.
func TestUGIEngineTournament(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs external processes")
	}
	bin := arenaBinary(t)
	for _, game := range []string{"othello6", "erdos:algol", "gravity", "pyrga"} {
		t.Run(game, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run.jsonl")
			// The engine starts on othello6; only UGI_Game makes it play
			// the other games.
			gs := normalTournament(t, 2, "--game", game, "--games", "2", "--concurrency", "1",
				"--move-time", "5s", "--bootstrap", "10", "--out", out, "--agents",
				"ugi:cmd="+bin+" engine --agent random,movetime=50ms,name=engine", "greedy")
			for _, g := range gs {
				if len(g.Moves) < 4 {
					t.Errorf("%s vs %s: only %d moves", g.Players[0].Name, g.Players[1].Name, len(g.Moves))
				}
			}
		})
	}
}

// writeScript writes a shell-script UGI engine that records its PID in
// pidFile and answers go by goAction (shell code).
func writeScript(t *testing.T, pidFile, goAction string) string {
	t.Helper()
	script := filepath.Join(t.TempDir(), "engine.sh")
	body := `#!/bin/sh
echo $$ >> ` + pidFile + `
while read -r line; do
  case "$line" in
    ugi) echo "id name broken"; echo ugiok;;
    isready) echo readyok;;
    go*) ` + goAction + `;;
    quit) exit 0;;
  esac
done
`
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

// TestCheckEngine: arena engine passes every check; a script that answers
// an illegal move, or never answers stop, fails the right check with a
// reason, and the command exits non-zero.
func TestCheckEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs external processes")
	}
	bin := arenaBinary(t)
	code, stdout, stderr := runArena("check-engine", "--game", "gravity", "--positions", "5", "--movetime", "50ms",
		"--agent", "ugi:cmd="+bin+" engine --agent greedy")
	if code != 0 || !strings.Contains(stdout, "all 11 checks passed") {
		t.Fatalf("arena engine failed the check: exit %d\n%s\n%s", code, stdout, stderr)
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
			pids := filepath.Join(t.TempDir(), "pids")
			script := writeScript(t, pids, tc.goAction)
			code, stdout, stderr := runArena("check-engine", "--positions", "2", "--movetime", "20ms", "--margin", "100ms",
				"--agent", "ugi:cmd=sh "+script)
			if code != 1 || !strings.Contains(stderr, "checks failed") {
				t.Errorf("exit %d, stderr %q; want 1 and the number of failed checks", code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("report lacks %q:\n%s", w, stdout)
				}
			}
			botproctest.NoneRunning(t, pids)
		})
	}
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

// TestCheckEngineHandshakeNamesUgiok: an engine that never says ugiok
// fails the handshake with a message naming ugiok and the init= limit, and
// one that cannot start names ugiok and the exit.
func TestCheckEngineHandshakeNamesUgiok(t *testing.T) {
	// An engine that reads ugi, then exits (one that exits at once may
	// fail the write of ugi instead).
	quits := filepath.Join(t.TempDir(), "quits.sh")
	if err := os.WriteFile(quits, []byte("read line\nexit 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ agent, want string }{
		{"ugi:cmd=cat,init=200ms", "FAIL handshake      no ugiok within init= 200ms"},
		{"ugi:cmd=sh " + quits, "FAIL handshake      waiting for ugiok: "},
	} {
		code, stdout, stderr := runArena("check-engine", "--positions", "1", "--agent", tc.agent)
		if code != 1 || !strings.Contains(stdout, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %q", tc.agent, code, stdout, stderr, tc.want)
		}
	}
}

// TestCheckEngineHandshakeDeadline: check-engine waits for a silent
// engine's ugiok its own --handshake (default 10s), not the agent's init=
// (up to 1h, for engines that load for long in matches), and says on stderr
// what it waits for once the engine has been silent for a second. Neither
// verdict depends on the machine's speed: the note is printed because no
// line came by the second, the failure because none came by 1.5 s.
func TestCheckEngineHandshakeDeadline(t *testing.T) {
	t0 := time.Now()
	code, stdout, stderr := runArena("check-engine", "--positions", "1", "--handshake", "1500ms", "--agent", "ugi:cmd=sleep 120,init=1h")
	if code != 1 || !strings.Contains(stdout, "FAIL handshake      no ugiok within 1.5s (--handshake; the agent's init= 1h is longer: give --handshake 1h to wait as long)") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "no ugiok yet after 1s; waiting up to 1.5s in all for the engine's answer to ugi") {
		t.Errorf("stderr does not say what check-engine waits for: %q", stderr)
	}
	t.Logf("failed the handshake after %s", time.Since(t0).Round(time.Millisecond))
	// By default 10s, whatever init= allows; init= is the limit when
	// shorter (an ugiok after it would fail a match's handshake anyway).
	for _, tc := range []struct {
		init, flag, want time.Duration
		limit            string
	}{
		{time.Hour, defaultCheckHandshake, 10 * time.Second, "within 10s (--handshake"},
		{200 * time.Millisecond, defaultCheckHandshake, 200 * time.Millisecond, "within init= 200ms"},
		{time.Hour, 2 * time.Hour, time.Hour, "within init= 1h"},
	} {
		if got, limit := handshakeWait(tc.init, tc.flag); got != tc.want || !strings.HasPrefix(limit, tc.limit) {
			t.Errorf("init= %s, --handshake %s: waits %s %q, want %s %q", tc.init, tc.flag, got, limit, tc.want, tc.limit)
		}
	}
}

// brokenEngineEnv, set in the environment of this test binary, makes it a
// deliberately broken arena engine (greedy, othello6) instead of running
// tests; the value says how it is broken (see brokenEngine).
const brokenEngineEnv = "ARENA_TEST_BROKEN_ENGINE"

// brokenEngine serves arena engine --agent greedy on stdin/stdout, broken
// as mode says: "nofen" ignores position fen (an info string says so and
// the position stays as it was), "noquery" never answers query, and
// "swapresult" answers query result with the winners swapped. It appends
// its PID to the file named by ARENA_TEST_PIDS and returns the exit code.
func brokenEngine(mode string) int {
	if f, err := os.OpenFile(os.Getenv("ARENA_TEST_PIDS"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		fmt.Fprintln(f, os.Getpid())
		f.Close()
	}
	e, err := newEngine("othello6", "greedy", 1)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	in, toEngine := io.Pipe()
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case mode == "nofen" && strings.HasPrefix(line, "position fen"):
				line = "frobnicate" // answered with an info string
			case mode == "noquery" && strings.HasPrefix(line, "query"):
				continue
			}
			fmt.Fprintln(toEngine, line)
		}
		toEngine.Close()
	}()
	var out io.Writer = os.Stdout
	if mode == "swapresult" {
		out = swapWriter{os.Stdout}
	}
	if err := e.serve(in, out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// swapWriter swaps p1win and p2win in what the engine writes (one line a
// Write: the engine flushes each line).
type swapWriter struct{ w io.Writer }

func (s swapWriter) Write(b []byte) (int, error) {
	t := strings.NewReplacer("response p1win", "response p2win", "response p2win", "response p1win").Replace(string(b))
	if _, err := io.WriteString(s.w, t); err != nil {
		return 0, err
	}
	return len(b), nil
}

// TestCheckEngineBrokenEngines: engines that play legal moves from move
// lists but ignore position fen, never answer query, or answer it wrong
// fail the fen or query check with the reason, and pass the others.
func TestCheckEngineBrokenEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
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
			code, stdout, stderr := runArena("check-engine", "--positions", "8", "--movetime", "20ms", "--margin", "100ms",
				// GORACE: a race-enabled binary otherwise sleeps 1s at
				// exit, and fails the quit check.
				"--agent", "ugi:cmd=env GORACE=atexit_sleep_ms=0 "+brokenEngineEnv+"="+tc.mode+" ARENA_TEST_PIDS="+pids+" "+self)
			if code != 1 || !strings.Contains(stderr, "1 of 11 checks failed") {
				t.Errorf("exit %d, stderr %q; want 1 and one failed check:\n%s", code, stderr, stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("report lacks %q:\n%s", w, stdout)
				}
			}
			botproctest.NoneRunning(t, pids)
		})
	}
}

// TestCheckEngineStop: an engine that plays but ignores stop after go
// infinite fails the stop check.
func TestCheckEngineStop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	pids := filepath.Join(t.TempDir(), "pids")
	// Answers go movetime at once, never answers go infinite.
	script := writeScript(t, pids, `case "$line" in *infinite*) ;; *) echo 'bestmove b3';; esac`)
	code, stdout, _ := runArena("check-engine", "--positions", "1", "--movetime", "20ms", "--margin", "100ms",
		"--agent", "ugi:cmd=sh "+script)
	// b3 is legal only at the start of othello6, so a random position
	// may fail legal-moves; stop is what this test is about.
	if code != 1 || !strings.Contains(stdout, "FAIL stop") || !strings.Contains(stdout, "no bestmove within 100ms of stop") {
		t.Errorf("exit %d; want a stop failure:\n%s", code, stdout)
	}
	botproctest.NoneRunning(t, pids)
}

// benchPosition returns othello6 after plies random moves.
func benchPosition(b testing.TB, plies int) games.State {
	b.Helper()
	v, err := games.Lookup("othello6")
	if err != nil {
		b.Fatal(err)
	}
	s := v.New().(games.State)
	r := rng.New(3)
	for i := 0; i < plies && !s.Terminal(); i++ {
		ms := s.LegalMoves(nil)
		s.Play(ms[r.IntN(len(ms))])
	}
	return s
}

// BenchmarkUGIMove measures one move of ugi:cmd='arena engine --agent
// random' at ply 20 of othello6: position and go written, info and
// bestmove read, the move history recovered and the answer checked.
// Compare with BenchmarkPipeRoundTrip, the bare cost of a line to a
// process and back.
func BenchmarkUGIMove(b *testing.B) {
	bin := arenaBinary(b)
	a, err := agents.New("ugi:cmd="+bin+" engine --agent random,movetime=1s", 1)
	if err != nil {
		b.Fatal(err)
	}
	defer a.(*agents.UGI).Close()
	s := benchPosition(b, 20)
	v, _ := games.Lookup("othello6")
	if err := a.(*agents.UGI).NewGame(v, 0); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := a.Move(context.Background(), s, s.ToMove()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUGIMoveInGame is BenchmarkUGIMove along whole games, as in a
// tournament: each move comes two plies (the engine's and its opponent's)
// after the last, so the client appends to its position command and the
// engine plays only the new moves. New games (uginewgame, isready) are
// not timed.
func BenchmarkUGIMoveInGame(b *testing.B) {
	bin := arenaBinary(b)
	a, err := agents.New("ugi:cmd="+bin+" engine --agent random,movetime=1s", 1)
	if err != nil {
		b.Fatal(err)
	}
	u := a.(*agents.UGI)
	defer u.Close()
	v, _ := games.Lookup("othello6")
	s := v.New().(games.State)
	r := rng.New(5)
	if err := u.NewGame(v, 0); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if s.Terminal() {
			b.StopTimer()
			s = v.New().(games.State)
			if err := u.NewGame(v, 0); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		m, err := a.Move(context.Background(), s, s.ToMove())
		if err != nil {
			b.Fatal(err)
		}
		s.Play(m)
		if !s.Terminal() { // the opponent's move
			ms := s.LegalMoves(nil)
			s.Play(ms[r.IntN(len(ms))])
		}
	}
}

// BenchmarkPipeRoundTrip writes a line to cat and reads it back.
func BenchmarkPipeRoundTrip(b *testing.B) {
	p, err := botproc.Start(botproc.Config{Argv: []string{"cat"}})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Stop()
	for b.Loop() {
		if err := p.WriteLine("position startpos moves a1 b2 c3", time.Time{}); err != nil {
			b.Fatal(err)
		}
		if _, err := p.ReadLine(context.Background(), time.Time{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEngineCommands runs arena engine's command loop in-process: the
// answers to ugi, isready, queries, positions (startpos and fen, with
// moves) and go, and info strings for what it cannot do.
func TestEngineCommands(t *testing.T) {
	const fen = "....../.O..../.XOX../..XO../....../...... x"
	// A finished game, played at random.
	s := benchPosition(t, 1000)
	over, err := ugi.History(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	overResult := map[int]string{0: "p1win", 1: "p2win", games.Draw: "draw"}[s.Outcome().Winner]
	for _, tc := range []struct {
		name, game, in string
		want           []string
	}{
		{"handshake", "othello6", "ugi\nisready\n", []string{"id name arena greedy", "option name UGI_Game type string default othello6", "ugiok", "readyok"}},
		{"start", "othello6", "position startpos\nquery p1turn\nquery gameover\nquery result\ngo movetime 5\n", []string{"response true\nresponse false\nresponse none", "bestmove "}},
		{"moves", "othello6", "position startpos moves b3\nquery p1turn\n", []string{"response false"}},
		{"fen", "othello6", "position fen " + fen + " moves b1\nquery p1turn\n", []string{"response false"}},
		{"fen illegal", "othello6", "position fen " + fen + " moves a1\n", []string{`info string position: ply 1: illegal move "a1" (legal: b1 c2 d5 e4)`}},
		{"fen bad", "othello6", "position fen nonsense\n", []string{"info string position fen: othello6: bad position"}},
		{"game option", "othello6", "setoption name UGI_Game value erdos:algol\nposition startpos\ngo movetime 5\n", []string{"bestmove "}},
		{"bad game", "othello6", "setoption name UGI_Game value tryangle\n", []string{"info string UGI_Game: tryangle is simultaneous"}},
		{"unknown option", "othello6", "setoption name Hash value 3\n", []string{`info string unknown option "Hash" ignored`}},
		{"unknown command", "othello6", "frobnicate\n", []string{`info string unknown command "frobnicate" ignored`}},
		{"over", "othello6", "position startpos moves " + strings.Join(over, " ") + "\nquery gameover\nquery result\ngo movetime 5\n", []string{"response true\nresponse " + overResult, "bestmove (none)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := newEngine(tc.game, "greedy", 1)
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			if err := e.serve(strings.NewReader(tc.in+"quit\n"), &out); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// TestEngineGoLimits: go depth N and go nodes N cap the move of agents
// that honour them (the info line shows the depth, or mcts's iterations as
// nodes), replacing budgets of the spec that are far larger; the engine
// says on an info string which limits an agent does not honour and which
// values it refuses, and then plays on the spec's budget.
func TestEngineGoLimits(t *testing.T) {
	for _, tc := range []struct {
		spec, in string
		want     []string
	}{
		{"alphabeta:time=3s", "go depth 3", []string{"info depth 3 "}},
		{"alphabeta:depth=1", "go depth 2 nodes 1000000", []string{"info depth 2 "}},
		{"mcts:iters=100000", "go nodes 77", []string{" nodes 77 "}},
		{"mcts:time=3s", "go nodes 50 movetime 3000", []string{" nodes 50 "}},
		{"mcts:iters=40", "go depth 3", []string{"info string go depth is not supported by mcts:iters=40; ignored", " nodes 40 "}},
		{"greedy", "go depth 3 nodes 5", []string{"info string go depth is not supported by greedy; ignored",
			"info string go nodes is not supported by greedy; ignored"}},
		{"alphabeta:depth=1", "go depth 0", []string{`info string go depth "0" ignored: want 1 to 100`, "info depth 1 "}},
		{"alphabeta:depth=1", "go depth 101", []string{`info string go depth "101" ignored: want 1 to 100`, "info depth 1 "}},
		{"alphabeta:depth=1", "go nodes x", []string{`info string go nodes "x" ignored: want 1 to 1000000000000`, "info depth 1 "}},
		{"alphabeta:depth=1", "go nodes", []string{`info string go nodes "" ignored`, "info depth 1 "}},
	} {
		t.Run(tc.spec+" "+tc.in, func(t *testing.T) {
			e, err := newEngine("othello6", tc.spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			inW, lines, served := servePipes(e)
			fmt.Fprintf(inW, "position startpos\n%s\n", tc.in)
			var got strings.Builder
			for lines.Scan() {
				got.WriteString(lines.Text() + "\n")
				if strings.HasPrefix(lines.Text(), "bestmove ") {
					break
				}
			}
			fmt.Fprintln(inW, "quit")
			if err := <-served; err != nil {
				t.Fatal(err)
			}
			inW.Close()
			for _, w := range tc.want {
				if !strings.Contains(got.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, got.String())
				}
			}
		})
	}
}

// TestEngineStopWhileThinking: under go infinite a searching agent keeps
// the command loop free (isready is answered at once), gives no bestmove
// before stop, and one promptly after it, with an info line of its stats.
func TestEngineStopWhileThinking(t *testing.T) {
	e, err := newEngine("othello6", "mcts:iters=1000000000000,maxnodes=65536", 1)
	if err != nil {
		t.Fatal(err)
	}
	inW, lines, served := servePipes(e)
	next := func() string { return nextLine(t, lines) }
	fmt.Fprintln(inW, "position startpos\ngo infinite")
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	fmt.Fprintln(inW, "isready")
	if l := next(); l != "readyok" {
		t.Fatalf("got %q while thinking, want readyok", l)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("readyok took %s while thinking", d)
	}
	start = time.Now()
	fmt.Fprintln(inW, "stop")
	info := next()
	if !strings.HasPrefix(info, "info depth ") || !strings.Contains(info, " nodes ") {
		t.Errorf("info line %q", info)
	}
	for l := info; !strings.HasPrefix(l, "bestmove "); l = next() {
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("bestmove %s after stop", d)
	}
	fmt.Fprintln(inW, "quit")
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	inW.Close()
}

// TestExampleEngines: both example engines pass arena check-engine.
func TestExampleEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs external processes")
	}
	goEngine := filepath.Join(t.TempDir(), "ugi-go")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.Command(goTool, "build", "-o", goEngine, "../../examples/ugi-go").CombinedOutput(); err != nil {
		t.Fatalf("building examples/ugi-go: %v\n%s", err, out)
	}
	cases := []struct{ name, game, agent string }{{"go", "erdos:algol", "ugi:cmd=" + goEngine}}
	if py, err := exec.LookPath("python3"); err == nil {
		cases = append(cases, struct{ name, game, agent string }{"python", "othello6", "ugi:cmd=" + py + " ../../examples/ugi-python/engine.py"})
	} else {
		t.Log("python3 is not installed: the Python example is not checked")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runArena("check-engine", "--game", tc.game, "--positions", "5", "--movetime", "50ms", "--agent", tc.agent)
			if code != 0 || !strings.Contains(stdout, "all 11 checks passed") {
				t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
			}
		})
	}
}

// TestUGIBrokenEngineForfeits: in a tournament, an engine's illegal
// bestmove is an illegal_move forfeit, its silence a timeout and its exit
// a crash, each with the reason in the record; no process remains.
func TestUGIBrokenEngineForfeits(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	for _, tc := range []struct{ name, goAction, termination, detail string }{
		{"illegal", "echo 'bestmove a1'", "illegal_move", `bestmove "a1" is illegal`},
		{"silent", ":", "timeout", "no bestmove"},
		{"crash", "echo 'out of cheese' >&2; exit 3", "crash", "out of cheese"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pids := filepath.Join(t.TempDir(), "pids")
			out := filepath.Join(t.TempDir(), "run.jsonl")
			code, stdout, stderr := runArena("tournament", "--game", "othello6", "--games", "2", "--concurrency", "1",
				"--bootstrap", "10", "--out", out, "--agents",
				"ugi:cmd=sh "+writeScript(t, pids, tc.goAction)+",movetime=20ms,margin=50ms,name=broken", "random")
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			gs := readGames(t, out)
			if len(gs) != 2 {
				t.Fatalf("%d games, want 2", len(gs))
			}
			for _, g := range gs {
				if g.Termination != tc.termination || !strings.Contains(g.Detail, tc.detail) {
					t.Errorf("%s vs %s: %s (%s); want %s with %q", g.Players[0].Name, g.Players[1].Name, g.Termination, g.Detail, tc.termination, tc.detail)
				}
			}
			botproctest.NoneRunning(t, pids)
		})
	}
}

// clockSpy is an agent that reports, as its stats' Info, the clock and the
// time to the deadline its move's context carried, then waits for the
// context to end (a time manager that uses all it is given); with noWait
// it answers at once.
type clockSpy struct {
	info   string
	noWait bool
}

func (c *clockSpy) Name() string            { return "spy" }
func (c *clockSpy) LastStats() agents.Stats { return agents.Stats{Info: c.info} }
func (c *clockSpy) Move(ctx context.Context, b games.Base, p int) (games.Move, error) {
	c.info = "no clock"
	if cl, ok := agents.ClockFrom(ctx); ok {
		c.info = fmt.Sprintf("clock %v %v", cl.Remaining, cl.Inc)
	}
	if d, ok := ctx.Deadline(); ok {
		c.info += fmt.Sprintf(" deadline in %dms", (time.Until(d)+5*time.Millisecond).Milliseconds()/10*10)
	}
	if _, ok := ctx.Deadline(); ok && !c.noWait {
		<-ctx.Done()
	}
	return b.(games.State).LegalMoves(nil)[0], nil
}

// TestEngineClock: go with p1time/p2time/p1inc/p2inc runs the agent with
// the clock in its context (agents.ClockFrom) and a deadline at the side
// to move's time left, so the bestmove comes within that time; movetime
// and infinite take no clock.
func TestEngineClock(t *testing.T) {
	for _, tc := range []struct {
		name, in, info string
		least, most    time.Duration
	}{
		{"p1 to move", "position startpos\ngo p1time 300 p2time 40000 p1inc 20 p2inc 7\n",
			"info string clock [300ms 40s] [20ms 7ms] deadline in 300ms", 250 * time.Millisecond, 600 * time.Millisecond},
		{"p2 to move", "position startpos moves b3\ngo p1time 40000 p2time 200 p1inc 0 p2inc 5\n",
			"info string clock [40s 200ms] [0s 5ms] deadline in 200ms", 150 * time.Millisecond, 500 * time.Millisecond},
		{"movetime", "position startpos\ngo movetime 100 p1time 40000 p2time 40000\n",
			"info string no clock deadline in 100ms", 50 * time.Millisecond, 400 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := newEngine("othello6", "random", 1)
			if err != nil {
				t.Fatal(err)
			}
			e.agent = &clockSpy{}
			inW, lines, served := servePipes(e)
			start := time.Now()
			fmt.Fprint(inW, tc.in)
			var got []string
			for lines.Scan() && !strings.HasPrefix(lines.Text(), "bestmove ") {
				got = append(got, lines.Text())
			}
			if d := time.Since(start); d < tc.least || d > tc.most {
				t.Errorf("bestmove after %s, want %s to %s", d, tc.least, tc.most)
			}
			if !slices.Contains(got, tc.info) {
				t.Errorf("the engine said %q; want %q", got, tc.info)
			}
			fmt.Fprintln(inW, "quit")
			if err := <-served; err != nil {
				t.Fatal(err)
			}
			inW.Close()
		})
	}
}

// TestEngineBadGoTimes: a movetime, time left or increment that is not a
// whole number of milliseconds in its range is ignored with an info string
// naming it and the range (as go depth and go nodes are), and the agent
// plays as if it had not been given: no deadline from a bad movetime, no
// clock from a bad time left, a zero increment for a bad one.
func TestEngineBadGoTimes(t *testing.T) {
	const movetime = "ignored: want 1 to 86400000 (milliseconds)"
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"go movetime -5", []string{`info string go movetime "-5" ` + movetime, "info string no clock"}},
		{"go movetime 0", []string{`info string go movetime "0" ` + movetime, "info string no clock"}},
		{"go movetime abc", []string{`info string go movetime "abc" ` + movetime, "info string no clock"}},
		{"go movetime 99999999999999999999", []string{`info string go movetime "99999999999999999999" ` + movetime, "info string no clock"}},
		{"go movetime 86400001", []string{`info string go movetime "86400001" ` + movetime, "info string no clock"}},
		{"go movetime", []string{`info string go movetime "" ` + movetime, "info string no clock"}},
		{"go p1time -1000 p2time 1000", []string{`info string go p1time "-1000" ignored: want 0 to 31536000000 (milliseconds)`, "info string no clock"}},
		{"go p1time 300 p2time 1000 p1inc -3 p2inc 99999999", []string{
			`info string go p1inc "-3" ignored: want 0 to 3600000 (milliseconds)`,
			`info string go p2inc "99999999" ignored: want 0 to 3600000 (milliseconds)`,
			"info string clock [300ms 1s] [0s 0s] deadline in 300ms"}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			e, err := newEngine("othello6", "random", 1)
			if err != nil {
				t.Fatal(err)
			}
			e.agent = &clockSpy{noWait: true} // a wrongly kept movetime of a day must not hang the test
			inW, lines, served := servePipes(e)
			fmt.Fprintf(inW, "position startpos\n%s\n", tc.in)
			var got []string
			for lines.Scan() && !strings.HasPrefix(lines.Text(), "bestmove ") {
				got = append(got, lines.Text())
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("the engine said %q; want %q", got, w)
				}
			}
			fmt.Fprintln(inW, "quit")
			if err := <-served; err != nil {
				t.Fatal(err)
			}
			inW.Close()
		})
	}
}

// TestUGIEngineFenOpening: games that start at an opening given as a
// position reach the engine as "position fen …" (were they sent as
// startpos, the engine would play moves of the wrong position and lose
// by illegal moves).
func TestUGIEngineFenOpening(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs external processes")
	}
	bin := arenaBinary(t)
	dir := t.TempDir()
	openings := filepath.Join(dir, "openings.txt")
	if err := os.WriteFile(openings, []byte("fen ....../.O..../.XOX../..XO../....../...... x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	normalTournament(t, 2, "--game", "othello6", "--games", "2", "--concurrency", "1",
		"--openings", openings, "--bootstrap", "10", "--out", filepath.Join(dir, "run.jsonl"), "--agents",
		"ugi:cmd="+bin+" engine --agent greedy,movetime=50ms,name=engine", "random")
}

// BenchmarkEngineServe measures arena engine's side of a move in-process,
// over OS pipes as a process would have them: a position and go, answered
// with bestmove by the random agent. The positions are 20 and 22 plies
// in, alternately: each 22 extends the 20 before it (two moves to play),
// each 20 goes back and is read from the start.
func BenchmarkEngineServe(b *testing.B) {
	e, err := newEngine("othello6", "random", 1)
	if err != nil {
		b.Fatal(err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- e.serve(inR, outW); outW.Close() }()
	out := bufio.NewReader(outR)
	s := benchPosition(b, 24)
	moves, err := ugi.History(s, nil)
	if err != nil {
		b.Fatal(err)
	}
	cmds := [2][]byte{
		[]byte("position startpos moves " + strings.Join(moves[:20], " ") + "\ngo movetime 1000\n"),
		[]byte("position startpos moves " + strings.Join(moves[:22], " ") + "\ngo movetime 1000\n"),
	}
	i := 0
	for b.Loop() {
		if _, err := inW.Write(cmds[i&1]); err != nil {
			b.Fatal(err)
		}
		i++
		for {
			line, err := out.ReadSlice('\n')
			if err != nil {
				b.Fatal(err)
			}
			if bytes.HasPrefix(line, []byte("bestmove ")) {
				break
			}
		}
	}
	b.StopTimer()
	fmt.Fprintln(inW, "quit")
	if err := <-served; err != nil {
		b.Fatal(err)
	}
	inW.Close()
	inR.Close()
	outR.Close()
}

// TestEnginePositionIncremental: position commands that extend the last
// one (as in a game), go back to an earlier ply, start from a fen, carry
// an illegal move or a word that merely begins like the last one all
// leave the engine at the position a fresh replay reaches (or, on an
// error, where it was).
func TestEnginePositionIncremental(t *testing.T) {
	for _, game := range []string{"othello6", "erdos:algol", "pyrga", "gravity"} {
		t.Run(game, func(t *testing.T) {
			v, err := games.Lookup(game)
			if err != nil {
				t.Fatal(err)
			}
			e, err := newEngine(game, "random", 1)
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			e.out = bufio.NewWriter(&out)
			r := rng.New(7)
			for g := 0; g < 20; g++ {
				// A random game and the position text of a ply in it.
				s := v.New().(games.State)
				var moves []string
				for !s.Terminal() && len(moves) < 80 {
					ms := s.LegalMoves(nil)
					m := ms[r.IntN(len(ms))]
					moves = append(moves, s.FormatMove(m))
					s.Play(m)
				}
				root, from := "startpos", 0
				if g%3 == 1 {
					from = r.IntN(len(moves))
					f := v.New().(games.State)
					if _, err := games.Replay(v.String(), f, moves[:from]); err != nil {
						t.Fatal(err)
					}
					root = "fen " + f.(games.PositionWriter).Position()
				}
				cmd := func(n int) string {
					c := "position " + root
					if n > from || g%2 == 0 {
						c += " moves " + strings.Join(moves[from:n], " ")
					}
					return c
				}
				want := func(n int) uint64 {
					f := v.New().(games.State)
					games.Replay(v.String(), f, moves[:n])
					return f.Hash()
				}
				for n := from; n <= len(moves); {
					out.Reset()
					e.position(cmd(n))
					if e.s.Hash() != want(n) {
						t.Fatalf("game %d after %q: not the position of ply %d\n%s", g, cmd(n), n, out.String())
					}
					switch k := r.IntN(10); {
					case k == 0 && n < len(moves):
						// An illegal move added: an error, the position stays.
						bad := cmd(n)
						if n == from && g%2 != 0 {
							bad += " moves"
						}
						e.position(bad + " zz9")
						e.out.Flush()
						if !strings.Contains(out.String(), "info string position: ply ") || e.s.Hash() != want(n) {
							t.Fatalf("game %d: %q then an illegal move: %q, position changed: %v", g, cmd(n), out.String(), e.s.Hash() != want(n))
						}
					case k == 1 && n < len(moves):
						// The last word goes on: not an extension.
						e.position(cmd(n) + "x")
						if e.s.Hash() != want(n) {
							t.Fatalf("game %d: %q+x moved the position", g, cmd(n))
						}
					case k == 2:
						n = from + r.IntN(n-from+1) // back
						continue
					case k == 3 && !e.s.Terminal():
						// The agent searches the engine's state.
						e.goSearch("movetime 1000")
						e.stopSearch()
					}
					n += 1 + r.IntN(2)
				}
			}
		})
	}
}

// stateBreaker is an agent that plays its move on the state and leaves it
// there, breaking the agents' contract.
type stateBreaker struct{}

func (stateBreaker) Name() string { return "breaker" }
func (stateBreaker) Move(_ context.Context, b games.Base, _ int) (games.Move, error) {
	s := b.(games.State)
	m := s.LegalMoves(nil)[0]
	s.Play(m)
	return m, nil
}

// TestEngineAgentChangesPosition: an agent that leaves the engine's state
// changed is reported, a legal move still answered, and the next position
// read from scratch.
func TestEngineAgentChangesPosition(t *testing.T) {
	e, err := newEngine("othello6", "random", 1)
	if err != nil {
		t.Fatal(err)
	}
	e.agent = stateBreaker{}
	var out strings.Builder
	in := "position startpos moves b3\ngo movetime 100\nposition startpos moves b3 b2\nquery p1turn\nquit\n"
	if err := e.serve(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"info string agent failed: agent changed the position (ply 2, want 1)", "bestmove ", "response true"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out.String())
		}
	}
}

// sleepy is an agent that takes the first legal move after sleeping
// for the next of its delays.
type sleepy struct{ delays []time.Duration }

func (a *sleepy) Name() string { return "sleepy" }
func (a *sleepy) Move(ctx context.Context, b games.Base, _ int) (games.Move, error) {
	if len(a.delays) > 0 {
		// No timer for a zero delay: the move must take well under
		// syncMove even on a loaded machine.
		if a.delays[0] > 0 {
			select {
			case <-time.After(a.delays[0]):
			case <-ctx.Done():
			}
		}
		a.delays = a.delays[1:]
	}
	return b.(games.State).LegalMoves(nil)[0], nil
}

// TestEngineFastAgentsRunInline: after a move that took under syncMove the
// next runs on the reader goroutine (no hand-off); after a slower one, in
// its own goroutine again, so that isready is answered while it thinks;
// go infinite always waits for stop.
func TestEngineFastAgentsRunInline(t *testing.T) {
	e, err := newEngine("othello6", "random", 1)
	if err != nil {
		t.Fatal(err)
	}
	e.agent = &sleepy{delays: []time.Duration{0, 0, 300 * time.Millisecond, 300 * time.Millisecond, 0}}
	inW, lines, served := servePipes(e)
	next := func() string { return nextLine(t, lines) }
	// Move 1 runs in a goroutine (nothing is known yet), move 2 inline.
	for i := 1; i <= 2; i++ {
		fmt.Fprintln(inW, "position startpos\ngo movetime 1000")
		if l := next(); !strings.HasPrefix(l, "bestmove ") {
			t.Fatalf("move %d: %q", i, l)
		}
	}
	// Move 3, inline, takes 300 ms: isready waits for it.
	start := time.Now()
	fmt.Fprintln(inW, "go movetime 1000\nisready")
	if l := next(); !strings.HasPrefix(l, "bestmove ") {
		t.Fatalf("move 3: %q", l)
	}
	if l := next(); l != "readyok" || time.Since(start) < 250*time.Millisecond {
		t.Fatalf("%q after %s; want readyok after the inline move", l, time.Since(start))
	}
	// Move 4 is slow again, but in its own goroutine: readyok comes
	// first (its order proves it; a bound on its time failed under load).
	fmt.Fprintln(inW, "go movetime 1000\nisready")
	if l := next(); l != "readyok" {
		t.Fatalf("%q; want readyok while the agent thinks", l)
	}
	if l := next(); !strings.HasPrefix(l, "bestmove ") {
		t.Fatalf("move 4: %q", l)
	}
	// Move 5 under go infinite, after a slow move: its own goroutine
	// (and so it would be after a fast one); the bestmove waits for stop.
	fmt.Fprintln(inW, "go movetime 1000")
	next()
	fmt.Fprintln(inW, "go infinite\nisready")
	if l := next(); l != "readyok" {
		t.Fatalf("%q under go infinite; want readyok and no bestmove before stop", l)
	}
	fmt.Fprintln(inW, "stop")
	if l := next(); !strings.HasPrefix(l, "bestmove ") {
		t.Fatalf("after stop: %q", l)
	}
	fmt.Fprintln(inW, "quit")
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	inW.Close()
}

// TestUGIEngineClockTournament: in a tournament on a clock, the ugi agent
// asks arena engine for its moves with both clocks (never movetime), and
// every game ends normally.
func TestUGIEngineClockTournament(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs external processes")
	}
	bin := arenaBinary(t)
	dir := t.TempDir()
	log, pids := filepath.Join(dir, "log"), filepath.Join(dir, "pids")
	// The engine's input is copied to log on its way.
	script := filepath.Join(dir, "engine.sh")
	body := "#!/bin/sh\necho $$ >> " + pids + "\ntee -a " + log + " | " + bin + " engine --agent greedy\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	normalTournament(t, 2, "--game", "othello6", "--games", "2", "--concurrency", "1",
		"--tc", "2s+20ms", "--bootstrap", "10", "--no-progress", "--out", filepath.Join(dir, "run.jsonl"), "--agents", "ugi:cmd=sh "+script+",name=engine", "random")
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	goLine := regexp.MustCompile(`^go p1time (\d+) p2time (\d+) p1inc 20 p2inc 20$`)
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "go") {
			// A clock holds at most its base and an increment a move.
			m := goLine.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("engine read %q; want go p1time … p2time … p1inc 20 p2inc 20", l)
				continue
			}
			for _, ms := range m[1:] {
				if v, _ := strconv.Atoi(ms); v <= 0 || v > 2000+20*64 {
					t.Errorf("engine read %q: %s ms is not a clock of 2s+20ms", l, ms)
				}
			}
			n++
		}
	}
	if n < 4 {
		t.Errorf("%d go commands in two games", n)
	}
	botproctest.NoneRunning(t, pids)
}

func TestCheckInfo(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"depth 4 seldepth 4 score cp 200 time 0 nodes 473 tthits 38 hashfull 0 pv f1 b1 g2 a2", ""},
		{"depth 3 score mate -2 lowerbound nodes 10 nps 5 currmove a1 currmovenumber 1", ""},
		{"string anything at all 1 2", ""},
		{"depth x", `depth "x" is not an integer`},
		{"nodes", "nodes without a number"},
		{"score 31", "score needs cp N or mate N"},
		{"score cp many", `score cp "many" is not an integer`},
		{"tthits lots", `unknown field "tthits" (not followed by an integer)`},
		{"depth 2 frob", `unknown field "frob" (not followed by an integer)`},
	} {
		if got := checkInfo(strings.Fields(tc.line)); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestEngineUnboundedGoRunsInGoroutine: a go without movetime or clock
// (depth, nodes, bare go) never runs on the reader goroutine, even after
// fast moves: with no deadline, only stop could end a slow move there.
func TestEngineUnboundedGoRunsInGoroutine(t *testing.T) {
	e, err := newEngine("othello6", "random", 1)
	if err != nil {
		t.Fatal(err)
	}
	e.agent = &sleepy{delays: []time.Duration{0, 0, 3 * time.Second}}
	inW, lines, served := servePipes(e)
	next := func() string { return nextLine(t, lines) }
	fmt.Fprintln(inW, "position startpos\ngo movetime 1000")
	next()
	fmt.Fprintln(inW, "go movetime 1000")
	next()
	// Fast so far; this move would take 3 s, and only stop ends it
	// (readyok before its bestmove shows it). The test agent has no depth
	// budget, which the engine says first.
	fmt.Fprintln(inW, "go depth 3\nisready")
	if l := next(); l != "info string go depth is not supported by random; ignored" {
		t.Fatalf("%q; want the engine to say the depth is ignored", l)
	}
	if l := next(); l != "readyok" {
		t.Fatalf("%q; want readyok while the agent thinks", l)
	}
	fmt.Fprintln(inW, "stop")
	if l := next(); !strings.HasPrefix(l, "bestmove ") {
		t.Fatalf("after stop: %q", l)
	}
	fmt.Fprintln(inW, "quit")
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	inW.Close()
}

// TestCheckEngineClockReachesAgent: arena engine with an mcts agent that
// has no budget of its own passes check-engine's clock check, which only
// a time manager told the clock can (without it the agent would think
// until the deadline, the mover's whole time).
func TestCheckEngineClockReachesAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs external processes")
	}
	bin := arenaBinary(t)
	code, stdout, stderr := runArena("check-engine", "--game", "othello6", "--positions", "2", "--movetime", "50ms",
		"--agent", "ugi:cmd="+bin+" engine --agent mcts:iters=1000000000000")
	if code != 0 || !strings.Contains(stdout, "pass clock") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// servePipes serves e on pipes, as arena engine serves stdin and stdout:
// the test writes commands to in and reads the engine's lines; served gets
// serve's error once it returns (after quit, or when in is closed).
func servePipes(e *engine) (in *io.PipeWriter, lines *bufio.Scanner, served chan error) {
	inR, in := io.Pipe()
	outR, outW := io.Pipe()
	served = make(chan error, 1)
	go func() { served <- e.serve(inR, outW); outW.Close() }()
	return in, bufio.NewScanner(outR), served
}

// nextLine returns the engine's next line; the test fails if there is none.
func nextLine(t *testing.T, lines *bufio.Scanner) string {
	t.Helper()
	if !lines.Scan() {
		t.Fatal("the engine's output ended")
	}
	return lines.Text()
}

// TestEngineRefusesHuman: the human agent reads stdin, which carries UGI
// under arena engine, so the engine refuses it before reading a line.
func TestEngineRefusesHuman(t *testing.T) {
	code, _, stderr := runArena("engine", "--agent", "human")
	if code != 1 || !strings.Contains(stderr, "--agent human: the engine's stdin carries UGI") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
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
