//go:build unix

package agents_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/agents/botproc/botproctest"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

// ugiScript writes a shell-script UGI engine for othello6 into dir. It
// appends its PID to dir/pids and every command it reads to dir/log, and
// runs goAction (shell code) on go.
func ugiScript(t *testing.T, dir, goAction string) string {
	t.Helper()
	script := filepath.Join(dir, "engine.sh")
	body := `#!/bin/sh
echo $$ >> ` + filepath.Join(dir, "pids") + `
while read -r line; do
  echo "$line" >> ` + filepath.Join(dir, "log") + `
  case "$line" in
    ugi) echo "id name script"; echo "option name UGI_Game type string default othello6"; echo "option name Hash type spin default 1"; echo ugiok;;
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

func pids(t *testing.T, dir string) []string {
	b, _ := os.ReadFile(filepath.Join(dir, "pids"))
	return strings.Fields(string(b))
}

func newUGI(t *testing.T, text string) *agents.UGI {
	t.Helper()
	a, err := agents.New(text, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.(*agents.UGI).Close() })
	return a.(*agents.UGI)
}

func othello(t *testing.T) (games.Variant, games.State) {
	v, err := games.Lookup("othello6")
	if err != nil {
		t.Fatal(err)
	}
	return v, v.New().(games.State)
}

// TestUGIPlaysAndReports: the handshake sends the spec's options and
// announces the game; the move and the info line's statistics come back;
// a second game reuses the process.
func TestUGIPlaysAndReports(t *testing.T) {
	dir := t.TempDir()
	script := ugiScript(t, dir, `echo "info depth 3 score cp -25 nodes 1234 nps 5000 pv b3 c2"; echo "bestmove b3"`)
	a := newUGI(t, "ugi:cmd=sh "+script+",movetime=30ms,option.Hash=16")
	v, s := othello(t)
	for game := 0; game < 2; game++ {
		if err := a.NewGame(v, 0); err != nil {
			t.Fatal(err)
		}
		m, err := a.Move(context.Background(), s, 0)
		if err != nil || s.FormatMove(m) != "b3" {
			t.Fatalf("game %d: move %q, %v; want b3", game, s.FormatMove(m), err)
		}
	}
	st := a.LastStats()
	if st.Depth != 3 || st.Score != -25 || st.Nodes != 1234 || st.Info != "nps 5000 pv b3 c2" {
		t.Errorf("stats %+v", st)
	}
	if a.EngineName() != "script" {
		t.Errorf("engine name %q", a.EngineName())
	}
	if n := len(pids(t, dir)); n != 1 {
		t.Errorf("%d processes for two games, want 1", n)
	}
	a.Close()
	log, _ := os.ReadFile(filepath.Join(dir, "log"))
	want := "ugi\nsetoption name Hash value 16\nisready\nsetoption name UGI_Game value othello6\nuginewgame\nisready\nposition startpos\ngo movetime 30\nuginewgame\nisready\nposition startpos\ngo movetime 30\nquit\n"
	if string(log) != want {
		t.Errorf("engine read:\n%s\nwant:\n%s", log, want)
	}
	botproctest.NoneRunning(t, filepath.Join(dir, "pids"))
}

// TestUGIPositionMoves: the position command lists the game's moves in
// its notation, opponent's and passes included.
func TestUGIPositionMoves(t *testing.T) {
	dir := t.TempDir()
	script := ugiScript(t, dir, `echo "bestmove pass"`)
	a := newUGI(t, "ugi:cmd=sh "+script+",depth=2")
	_, s := othello(t)
	r := rng.New(5)
	var played []string
	for i := 0; i < 12; i++ {
		ms := s.LegalMoves(nil)
		m := ms[r.IntN(len(ms))]
		played = append(played, s.FormatMove(m))
		s.Play(m)
	}
	got, err := agents.History(s, nil)
	if err != nil || strings.Join(got, " ") != strings.Join(played, " ") {
		t.Fatalf("History = %v, %v; want %v", got, err, played)
	}
	_, err = a.Move(context.Background(), s, s.ToMove())
	if !errors.Is(err, agents.ErrOutput) || !strings.Contains(err.Error(), `bestmove "pass" is illegal`) {
		t.Errorf("err %v; want an illegal pass", err)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "log"))
	if want := "position startpos moves " + strings.Join(played, " ") + "\ngo depth 2\n"; !strings.Contains(string(log), want) {
		t.Errorf("engine read:\n%s\nwant it to contain %q", log, want)
	}
}

// TestUGIFailures: each bad answer is the error the arena maps to the
// right forfeit, and a failed engine is replaced for the next game.
func TestUGIFailures(t *testing.T) {
	for _, tc := range []struct {
		name, goAction string
		want           error
		text           string
		sameProcess    bool
	}{
		{"illegal", `echo "bestmove a1"`, agents.ErrOutput, `bestmove "a1" is illegal`, true},
		{"malformed", `echo "bestmove zz"`, agents.ErrOutput, `bestmove "zz"`, true},
		{"missing move", `echo "bestmove"`, agents.ErrOutput, "bestmove without a move", true},
		{"crash", `echo "dying" >&2; exit 3`, agents.ErrCrash, "dying", false},
		{"hang", `trap "" TERM; sleep 30`, agents.ErrTimeout, "nor 250ms after stop", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a := newUGI(t, "ugi:cmd=sh "+ugiScript(t, dir, tc.goAction)+",movetime=20ms,margin=30ms")
			v, s := othello(t)
			if err := a.NewGame(v, 0); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, err := a.Move(context.Background(), s, 0)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("err %v; want %v with %q", err, tc.want, tc.text)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("failure took %s", d)
			}
			// The game is lost; the next one gets a working engine.
			if _, again := a.Move(context.Background(), s, 0); again == nil || again.Error() != err.Error() {
				t.Errorf("second move of the failed game: %v; want the same failure", again)
			}
			if err := a.NewGame(v, 0); err != nil {
				t.Fatal(err)
			}
			if n := len(pids(t, dir)); (n == 1) != tc.sameProcess {
				t.Errorf("%d processes after the failure; same process wanted: %v", n, tc.sameProcess)
			}
			a.Close()
			botproctest.NoneRunning(t, filepath.Join(dir, "pids"))
		})
	}
}

// TestUGICrashRestart: an engine that crashes in its first game plays the
// second one from a new process.
func TestUGICrashRestart(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "crashed")
	script := ugiScript(t, dir, `if [ ! -f `+marker+` ]; then touch `+marker+`; exit 1; fi; echo "bestmove b3"`)
	a := newUGI(t, "ugi:cmd=sh "+script+",movetime=20ms")
	v, s := othello(t)
	if err := a.NewGame(v, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Move(context.Background(), s, 0); !errors.Is(err, agents.ErrCrash) {
		t.Fatalf("err %v; want a crash", err)
	}
	if err := a.NewGame(v, 0); err != nil {
		t.Fatal(err)
	}
	if m, err := a.Move(context.Background(), s, 0); err != nil || s.FormatMove(m) != "b3" {
		t.Fatalf("after the restart: %v, %v", s.FormatMove(m), err)
	}
	if n := len(pids(t, dir)); n != 2 {
		t.Errorf("%d processes, want 2", n)
	}
	a.Close()
	botproctest.NoneRunning(t, filepath.Join(dir, "pids"))
}

// TestUGIContextDeadline: the arena's deadline, shorter than movetime,
// is the one that counts.
func TestUGIContextDeadline(t *testing.T) {
	dir := t.TempDir()
	a := newUGI(t, "ugi:cmd=sh "+ugiScript(t, dir, `sleep 30`)+",movetime=10s")
	v, s := othello(t)
	if err := a.NewGame(v, 0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	// The position and go are still sent (a write has until the kill),
	// so the failure is the missing bestmove.
	if _, err := a.Move(ctx, s, 0); !errors.Is(err, agents.ErrTimeout) || !strings.Contains(err.Error(), "no bestmove within") {
		t.Fatalf("err %v; want a timeout waiting for bestmove", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s for a 50ms deadline", d)
	}
	a.Close()
	botproctest.NoneRunning(t, filepath.Join(dir, "pids"))
}

// TestUGIHandshakeTimeout: an engine that never says ugiok fails within
// init= and is killed.
func TestUGIHandshakeTimeout(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "mute.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho $$ >> "+filepath.Join(dir, "pids")+"\nexec sleep 30\n"), 0o755)
	a := newUGI(t, "ugi:cmd=sh "+script+",init=100ms")
	v, _ := othello(t)
	err := a.NewGame(v, 0)
	if !errors.Is(err, agents.ErrTimeout) || !strings.Contains(err.Error(), "waiting for ugiok") {
		t.Fatalf("err %v; want a timeout waiting for ugiok", err)
	}
	botproctest.NoneRunning(t, filepath.Join(dir, "pids"))
}

func TestUGISpecErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"ugi", "cmd= is required"},
		{"ugi:cmd=x,movetime=0s", "movetime"},
		{"ugi:cmd=x,depth=0", "depth"},
		{"ugi:cmd=x,nodes=-1", "nodes"},
		{"ugi:cmd=x,hash=3", `unknown option "hash"`},
		{"ugi:cmd=x,option.=5", `option "": a name is not empty`},
	} {
		if _, err := agents.New(tc.spec, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want an error about %s", tc.spec, err, tc.want)
		}
	}
	a, err := agents.New("ugi:cmd=x,option.Skill Level=3", 1)
	if err == nil {
		t.Errorf("an option name with a blank was accepted: %v", a)
	}
}

func TestUGICheckGame(t *testing.T) {
	a := newUGI(t, "ugi:cmd=x")
	v, err := games.Lookup("tryangle")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CheckGame(v); err == nil || !strings.Contains(err.Error(), "simultaneous") {
		t.Errorf("tryangle: %v; want a refusal", err)
	}
	v, _ = othello(t)
	if err := a.CheckGame(v); err != nil {
		t.Errorf("othello6: %v", err)
	}
}

func TestParseUGIInfo(t *testing.T) {
	for _, tc := range []struct {
		line string
		want agents.Stats
	}{
		{"depth 5 seldepth 9 score cp 31 nodes 1000 nps 200 time 5 pv a1 b2", agents.Stats{Depth: 5, Score: 31, Nodes: 1000, Info: "nps 200 pv a1 b2"}},
		{"score mate 3", agents.Stats{Score: games.WinScore - 3}},
		{"score mate -2 depth 4", agents.Stats{Score: -games.WinScore + 2, Depth: 4}},
		{"depth x nodes 7", agents.Stats{Nodes: 7}},
		{"string hello world", agents.Stats{Info: "string hello world"}},
		{"depth", agents.Stats{}},
	} {
		var st agents.Stats
		agents.ParseUGIInfo(strings.Fields(tc.line), &st)
		if st != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.line, st, tc.want)
		}
	}
}

// TestUGIPositionFen: a game that began at a position read as text (an
// opening given as a FEN) is sent as "position fen TEXT moves …".
func TestUGIPositionFen(t *testing.T) {
	const fen = "....../.O..../.XOX../..XO../....../...... x"
	dir := t.TempDir()
	a := newUGI(t, "ugi:cmd=sh "+ugiScript(t, dir, `echo "bestmove d5"`)+",movetime=20ms")
	v, _ := othello(t)
	s, err := games.ParsePosition(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := games.Replay(v.String(), s, []string{"b1", "a1"}); err != nil {
		t.Fatal(err)
	}
	if err := a.NewGame(v, 0); err != nil {
		t.Fatal(err)
	}
	m, err := a.Move(context.Background(), s, s.ToMove())
	if err != nil || s.FormatMove(m) != "d5" {
		t.Fatalf("move %s, %v", s.FormatMove(m), err)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "log"))
	if want := "position fen " + fen + " moves b1 a1\n"; !strings.Contains(string(log), want) {
		t.Errorf("engine read:\n%s\nwant it to contain %q", log, want)
	}
}

// TestUGIStderrFile: stderr= collects what the engine writes there.
func TestUGIStderrFile(t *testing.T) {
	dir := t.TempDir()
	errFile := filepath.Join(dir, "engine.err")
	a := newUGI(t, "ugi:cmd=sh "+ugiScript(t, dir, `echo "thinking hard" >&2; echo "bestmove b3"`)+",movetime=20ms,stderr="+errFile)
	v, s := othello(t)
	if err := a.NewGame(v, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Move(context.Background(), s, 0); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if b, err := os.ReadFile(errFile); err != nil || !strings.Contains(string(b), "thinking hard") {
		t.Errorf("stderr file: %q, %v", b, err)
	}
	botproctest.NoneRunning(t, filepath.Join(dir, "pids"))
}

// TestUGIClock: a move under a clock is asked for with the clock's times
// (p1time/p2time/p1inc/p2inc in whole milliseconds, depth= kept, movetime=
// dropped), and an engine well inside its time is not sent stop, even
// when its clock is shorter than UGIStopWait's share of a plain move.
// (The clock was 400 ms, stop due at 300 ms: on a loaded machine the
// shell's start and its 100 ms sleep took longer. At 900 ms stop is due
// at 675 ms, and the clock is still under four UGIStopWaits, where a
// quarter of it is kept back.)
func TestUGIClock(t *testing.T) {
	dir := t.TempDir()
	a := newUGI(t, "ugi:cmd=sh "+ugiScript(t, dir, `sleep 0.1; echo "bestmove b3"`)+",movetime=20ms,depth=7")
	v, s := othello(t)
	if err := a.NewGame(v, 0); err != nil {
		t.Fatal(err)
	}
	clock := &agents.Clock{Remaining: [2]time.Duration{900*time.Millisecond + 999*time.Microsecond, 61 * time.Second}, Inc: [2]time.Duration{100 * time.Millisecond, 0}}
	ctx, cancel := context.WithTimeout(agents.WithClock(context.Background(), clock), 900*time.Millisecond)
	defer cancel()
	m, err := a.Move(ctx, s, 0)
	if err != nil || s.FormatMove(m) != "b3" {
		t.Fatalf("move %s, %v; want b3", s.FormatMove(m), err)
	}
	a.Close()
	log, _ := os.ReadFile(filepath.Join(dir, "log"))
	if want := "position startpos\ngo p1time 900 p2time 61000 p1inc 100 p2inc 0 depth 7\nquit\n"; !strings.HasSuffix(string(log), want) {
		t.Errorf("engine read:\n%s\nwant it to end with:\n%s", log, want)
	}
	botproctest.NoneRunning(t, filepath.Join(dir, "pids"))
}

// TestUGIClockFlag: an engine that thinks past its flag under a clock is
// stopped before the flag and killed at it, and the agent reports the
// timeout itself, by the context's deadline (not long after).
func TestUGIClockFlag(t *testing.T) {
	dir := t.TempDir()
	a := newUGI(t, "ugi:cmd=sh "+ugiScript(t, dir, `sleep 30`))
	v, s := othello(t)
	if err := a.NewGame(v, 0); err != nil {
		t.Fatal(err)
	}
	clock := &agents.Clock{Remaining: [2]time.Duration{200 * time.Millisecond, 200 * time.Millisecond}}
	ctx, cancel := context.WithTimeout(agents.WithClock(context.Background(), clock), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := a.Move(ctx, s, 0)
	if !errors.Is(err, agents.ErrTimeout) || !strings.Contains(err.Error(), "nor 50ms after stop") {
		t.Fatalf("err %v; want a timeout with stop sent 50ms before the flag", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %s for a 200ms clock", d)
	}
	a.Close()
	botproctest.NoneRunning(t, filepath.Join(dir, "pids"))
}

func TestClockGoCommand(t *testing.T) {
	for _, tc := range []struct {
		c    agents.Clock
		want string
	}{
		{agents.Clock{}, "go p1time 0 p2time 0 p1inc 0 p2inc 0"},
		{agents.Clock{Remaining: [2]time.Duration{10 * time.Second, 1500 * time.Microsecond}, Inc: [2]time.Duration{time.Millisecond, 2 * time.Second}}, "go p1time 10000 p2time 1 p1inc 1 p2inc 2000"},
		{agents.Clock{Remaining: [2]time.Duration{-5 * time.Millisecond, 999 * time.Microsecond}}, "go p1time 0 p2time 0 p1inc 0 p2inc 0"},
	} {
		if got := agents.ClockGoCommand(&tc.c); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.c, got, tc.want)
		}
	}
}

// TestUGIPositionFenZeroStartHash: a game of erdos (whose start position
// hashes to 0) begun at a position given as text is sent as "position
// fen", not as startpos (a zero start hash was taken for "no game
// announced", and the opening was lost).
func TestUGIPositionFenZeroStartHash(t *testing.T) {
	const fen = ".5.../...4./..2../.4..3/..... -----"
	v, err := games.Lookup("erdos:algol")
	if err != nil {
		t.Fatal(err)
	}
	if v.New().Hash() != 0 {
		t.Skip("erdos's start position no longer hashes to 0")
	}
	dir := t.TempDir()
	a := newUGI(t, "ugi:cmd=sh "+ugiScript(t, dir, `echo "bestmove a1:1"`)+",movetime=20ms")
	s, err := games.ParsePosition(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.NewGame(v, 0); err != nil {
		t.Fatal(err)
	}
	a.Move(context.Background(), s, s.ToMove()) // the answer does not matter
	a.Close()
	log, _ := os.ReadFile(filepath.Join(dir, "log"))
	if want := "position fen " + fen + "\n"; !strings.Contains(string(log), want) {
		t.Errorf("engine read:\n%s\nwant it to contain %q", log, want)
	}
	botproctest.NoneRunning(t, filepath.Join(dir, "pids"))
}

// TestUGIClockAlreadyOut: a move asked for after the mover's flag fell
// (the context's deadline passed) is a prompt timeout, with no negative
// wait after stop.
func TestUGIClockAlreadyOut(t *testing.T) {
	dir := t.TempDir()
	a := newUGI(t, "ugi:cmd=sh "+ugiScript(t, dir, `sleep 30`))
	v, s := othello(t)
	if err := a.NewGame(v, 0); err != nil {
		t.Fatal(err)
	}
	clock := &agents.Clock{Remaining: [2]time.Duration{0, time.Second}}
	ctx, cancel := context.WithDeadline(agents.WithClock(context.Background(), clock), time.Now().Add(-100*time.Millisecond))
	defer cancel()
	start := time.Now()
	_, err := a.Move(ctx, s, 0)
	if !errors.Is(err, agents.ErrTimeout) || !strings.Contains(err.Error(), "nor 0s after stop") {
		t.Fatalf("err %v; want a timeout with no wait after stop", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %s", d)
	}
	a.Close()
	botproctest.NoneRunning(t, filepath.Join(dir, "pids"))
}

// An engine whose start (process and handshake) takes longer than a move
// plays its games: NewGame is allowed the agent's StartTime (twice init=),
// not the first move's limit. The Python example engine lost its first
// games on time this way when python3 started slowly.
func TestUGISlowStartPlays(t *testing.T) {
	dir := t.TempDir()
	// The engine moves first and opens with b3, legal from the start.
	script := ugiScript(t, dir, `echo "bestmove b3"`)
	slow := filepath.Join(dir, "slow.sh")
	if err := os.WriteFile(slow, []byte("#!/bin/sh\nsleep 1.2\nexec sh "+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	a := newUGI(t, "ugi:cmd=sh "+slow+",movetime=10ms,init=2s")
	if got, want := a.StartTime(), 4*time.Second+agents.UGIStopWait; got != want {
		t.Errorf("StartTime = %v, want %v (twice init= plus the stop wait)", got, want)
	}
	if a.MoveTime(true)+100*time.Millisecond >= 1200*time.Millisecond {
		t.Fatalf("first-move budget %v: the test needs a start slower than it", a.MoveTime(true))
	}
	random, err := agents.New("random", 1)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := othello(t)
	res, err := arena.Play(context.Background(), arena.Setup{Variant: v, MaxPlies: 1},
		[2]arena.Seat{{Agent: a, Limits: arena.Limits{Move: a.MoveTime(false), First: a.MoveTime(true), Margin: 100 * time.Millisecond}}, {Agent: random}}, nil)
	if err != nil || res.Record.Termination == results.Timeout {
		t.Fatalf("slow start: %v (termination %s: %s)", err, res.Record.Termination, res.Record.Detail)
	}
	if len(res.Moves) != 1 || res.Moves[0] != "b3" {
		t.Fatalf("moves %v, want the engine's b3", res.Moves)
	}
}
