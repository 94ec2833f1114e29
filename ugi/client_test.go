//go:build unix

package ugi_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents/botproc/botproctest"
	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/ugi"
	"github.com/boardgame-arena/arena/ugi/ugitest"
)

// newClient returns a client of sh script, closed when the test ends.
func newClient(t *testing.T, script string, e ugi.Engine) *ugi.Client {
	t.Helper()
	e.Argv = []string{"sh", script}
	c := ugi.NewClient(e)
	t.Cleanup(func() { c.Close() })
	return c
}

func othello(t *testing.T) (games.Variant, games.State) {
	v, err := games.Lookup("othello6")
	if err != nil {
		t.Fatal(err)
	}
	return v, v.New().(games.State)
}

// TestClientPlaysAndReports: the handshake sends the options and
// announces the game; the move and the info line's statistics come back;
// a second game reuses the process.
func TestClientPlaysAndReports(t *testing.T) {
	dir := t.TempDir()
	script := ugitest.Script(t, dir, `echo "info depth 3 score cp -25 nodes 1234 nps 5000 pv b3 c2"; echo "bestmove b3"`)
	c := newClient(t, script, ugi.Engine{Options: []ugi.Setting{{Name: "Hash", Value: "16"}}})
	v, s := othello(t)
	for game := 0; game < 2; game++ {
		if err := c.NewGame(v); err != nil {
			t.Fatal(err)
		}
		m, err := c.Move(context.Background(), s, ugi.Go{MoveTime: 30 * time.Millisecond}, 500*time.Millisecond)
		if err != nil || s.FormatMove(m) != "b3" {
			t.Fatalf("game %d: move %q, %v; want b3", game, s.FormatMove(m), err)
		}
	}
	if got, want := c.Info(), (ugi.Info{Depth: 3, Score: -25, Nodes: 1234, Text: "nps 5000 pv b3 c2"}); got != want {
		t.Errorf("info %+v, want %+v", got, want)
	}
	if c.EngineName() != "script" {
		t.Errorf("engine name %q", c.EngineName())
	}
	if n := len(ugitest.Pids(dir)); n != 1 {
		t.Errorf("%d processes for two games, want 1", n)
	}
	c.Close()
	want := "ugi\nsetoption name Hash value 16\nisready\nsetoption name UGI_Game value othello6\nuginewgame\nisready\nposition startpos\ngo movetime 30\nuginewgame\nisready\nposition startpos\ngo movetime 30\nquit\n"
	if log := ugitest.Log(dir); log != want {
		t.Errorf("engine read:\n%s\nwant:\n%s", log, want)
	}
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}

// TestClientPositionMoves: the position command lists the game's moves in
// its notation, opponent's and passes included.
func TestClientPositionMoves(t *testing.T) {
	dir := t.TempDir()
	c := newClient(t, ugitest.Script(t, dir, `echo "bestmove pass"`), ugi.Engine{})
	_, s := othello(t)
	r := rng.New(5)
	var played []string
	for i := 0; i < 12; i++ {
		ms := s.LegalMoves(nil)
		m := ms[r.IntN(len(ms))]
		played = append(played, s.FormatMove(m))
		s.Play(m)
	}
	got, err := ugi.History(s, nil)
	if err != nil || strings.Join(got, " ") != strings.Join(played, " ") {
		t.Fatalf("History = %v, %v; want %v", got, err, played)
	}
	_, err = c.Move(context.Background(), s, ugi.Go{Depth: 2}, 0)
	if !errors.Is(err, ugi.ErrOutput) || !strings.Contains(err.Error(), `bestmove "pass" is illegal`) {
		t.Errorf("err %v; want an illegal pass", err)
	}
	if want := "position startpos moves " + strings.Join(played, " ") + "\ngo depth 2\n"; !strings.Contains(ugitest.Log(dir), want) {
		t.Errorf("engine read:\n%s\nwant it to contain %q", ugitest.Log(dir), want)
	}
}

// TestClientFailures: each bad answer is a failure of its kind, sticks to
// the game, and a failed engine is replaced for the next game.
func TestClientFailures(t *testing.T) {
	for _, tc := range []struct {
		name, goAction string
		want           error
		text           string
		sameProcess    bool
	}{
		{"illegal", `echo "bestmove a1"`, ugi.ErrOutput, `bestmove "a1" is illegal`, true},
		{"malformed", `echo "bestmove zz"`, ugi.ErrOutput, `bestmove "zz"`, true},
		{"missing move", `echo "bestmove"`, ugi.ErrOutput, "bestmove without a move", true},
		{"crash", `echo "dying" >&2; exit 3`, ugi.ErrCrash, "dying", false},
		{"hang", `trap "" TERM; sleep 30`, ugi.ErrTimeout, "nor 250ms after stop", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := newClient(t, ugitest.Script(t, dir, tc.goAction), ugi.Engine{})
			v, s := othello(t)
			if err := c.NewGame(v); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, err := c.Move(context.Background(), s, ugi.Go{MoveTime: 20 * time.Millisecond}, 30*time.Millisecond)
			var e *ugi.Error
			if !errors.Is(err, tc.want) || !errors.As(err, &e) || !strings.Contains(e.Detail, tc.text) {
				t.Fatalf("err %v; want a *ugi.Error of %v with %q", err, tc.want, tc.text)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("failure took %s", d)
			}
			// The game is lost; the next one gets a working engine.
			if _, again := c.Move(context.Background(), s, ugi.Go{MoveTime: 20 * time.Millisecond}, 0); again != err {
				t.Errorf("second move of the failed game: %v; want the same failure", again)
			}
			if err := c.NewGame(v); err != nil {
				t.Fatal(err)
			}
			if n := len(ugitest.Pids(dir)); (n == 1) != tc.sameProcess {
				t.Errorf("%d processes after the failure; same process wanted: %v", n, tc.sameProcess)
			}
			c.Close()
			botproctest.NoneRunning(t, ugitest.PidFile(dir))
		})
	}
}

// TestClientCrashRestart: an engine that crashes in its first game plays
// the second one from a new process.
func TestClientCrashRestart(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "crashed")
	c := newClient(t, ugitest.Script(t, dir, `if [ ! -f `+marker+` ]; then touch `+marker+`; exit 1; fi; echo "bestmove b3"`), ugi.Engine{})
	v, s := othello(t)
	g := ugi.Go{MoveTime: 20 * time.Millisecond}
	if err := c.NewGame(v); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(context.Background(), s, g, 0); !errors.Is(err, ugi.ErrCrash) {
		t.Fatalf("err %v; want a crash", err)
	}
	if err := c.NewGame(v); err != nil {
		t.Fatal(err)
	}
	if m, err := c.Move(context.Background(), s, g, 0); err != nil || s.FormatMove(m) != "b3" {
		t.Fatalf("after the restart: %v, %v", s.FormatMove(m), err)
	}
	if n := len(ugitest.Pids(dir)); n != 2 {
		t.Errorf("%d processes, want 2", n)
	}
	c.Close()
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}

// TestClientContextDeadline: the caller's deadline, shorter than
// movetime, is the one that counts.
func TestClientContextDeadline(t *testing.T) {
	dir := t.TempDir()
	c := newClient(t, ugitest.Script(t, dir, `sleep 30`), ugi.Engine{})
	v, s := othello(t)
	if err := c.NewGame(v); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	// The position and go are still sent (a write has until the kill),
	// so the failure is the missing bestmove.
	if _, err := c.Move(ctx, s, ugi.Go{MoveTime: 10 * time.Second}, 500*time.Millisecond); !errors.Is(err, ugi.ErrTimeout) || !strings.Contains(err.Error(), "no bestmove within") {
		t.Fatalf("err %v; want a timeout waiting for bestmove", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s for a 50ms deadline", d)
	}
	c.Close()
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}

// TestClientHandshakeTimeout: an engine that never says ugiok fails within
// Init and is killed.
func TestClientHandshakeTimeout(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "mute.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho $$ >> "+ugitest.PidFile(dir)+"\nexec sleep 30\n"), 0o755)
	c := newClient(t, script, ugi.Engine{Init: 100 * time.Millisecond})
	v, _ := othello(t)
	err := c.NewGame(v)
	if !errors.Is(err, ugi.ErrTimeout) || !strings.Contains(err.Error(), "waiting for ugiok") {
		t.Fatalf("err %v; want a timeout waiting for ugiok", err)
	}
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}

// TestClientPositionFen: a game that began at a position read as text (an
// opening given as a FEN) is sent as "position fen TEXT moves …".
func TestClientPositionFen(t *testing.T) {
	const fen = "....../.O..../.XOX../..XO../....../...... x"
	dir := t.TempDir()
	c := newClient(t, ugitest.Script(t, dir, `echo "bestmove d5"`), ugi.Engine{})
	v, _ := othello(t)
	s, err := games.ParsePosition(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := games.Replay(v.String(), s, []string{"b1", "a1"}); err != nil {
		t.Fatal(err)
	}
	if err := c.NewGame(v); err != nil {
		t.Fatal(err)
	}
	m, err := c.Move(context.Background(), s, ugi.Go{MoveTime: 20 * time.Millisecond}, 0)
	if err != nil || s.FormatMove(m) != "d5" {
		t.Fatalf("move %s, %v", s.FormatMove(m), err)
	}
	if want := "position fen " + fen + " moves b1 a1\n"; !strings.Contains(ugitest.Log(dir), want) {
		t.Errorf("engine read:\n%s\nwant it to contain %q", ugitest.Log(dir), want)
	}
}

// TestClientStderrFile: Engine.StderrFile collects what the engine writes
// there.
func TestClientStderrFile(t *testing.T) {
	dir := t.TempDir()
	errFile := filepath.Join(dir, "engine.err")
	c := newClient(t, ugitest.Script(t, dir, `echo "thinking hard" >&2; echo "bestmove b3"`), ugi.Engine{StderrFile: errFile})
	v, s := othello(t)
	if err := c.NewGame(v); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(context.Background(), s, ugi.Go{MoveTime: 20 * time.Millisecond}, 0); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if b, err := os.ReadFile(errFile); err != nil || !strings.Contains(string(b), "thinking hard") {
		t.Errorf("stderr file: %q, %v", b, err)
	}
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}

// TestClientClock: a move on a clock is asked for with the clock's times
// (p1time/p2time/p1inc/p2inc in whole milliseconds, rounded down), and an
// engine well inside its time is not sent stop, even when its clock is
// shorter than StopWait's share of a plain move. (The clock was 400 ms,
// stop due at 300 ms: on a loaded machine the shell's start and its 100
// ms sleep took longer. At 900 ms stop is due at 675 ms, and the clock is
// still under four StopWaits, where a quarter of it is kept back.)
func TestClientClock(t *testing.T) {
	dir := t.TempDir()
	c := newClient(t, ugitest.Script(t, dir, `sleep 0.1; echo "bestmove b3"`), ugi.Engine{})
	v, s := othello(t)
	if err := c.NewGame(v); err != nil {
		t.Fatal(err)
	}
	g := ugi.Go{Clock: true, Time: [2]time.Duration{900*time.Millisecond + 999*time.Microsecond, 61 * time.Second}, Inc: [2]time.Duration{100 * time.Millisecond, 0}, Depth: 7}
	ctx, cancel := context.WithTimeout(context.Background(), 900*time.Millisecond)
	defer cancel()
	m, err := c.Move(ctx, s, g, 0)
	if err != nil || s.FormatMove(m) != "b3" {
		t.Fatalf("move %s, %v; want b3", s.FormatMove(m), err)
	}
	c.Close()
	if want := "position startpos\ngo p1time 900 p2time 61000 p1inc 100 p2inc 0 depth 7\nquit\n"; !strings.HasSuffix(ugitest.Log(dir), want) {
		t.Errorf("engine read:\n%s\nwant it to end with:\n%s", ugitest.Log(dir), want)
	}
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}

// TestClientClockFlag: an engine that thinks past its flag on a clock is
// stopped before the flag and killed at it, and the client reports the
// timeout itself, by the context's deadline (not long after).
func TestClientClockFlag(t *testing.T) {
	dir := t.TempDir()
	c := newClient(t, ugitest.Script(t, dir, `sleep 30`), ugi.Engine{})
	v, s := othello(t)
	if err := c.NewGame(v); err != nil {
		t.Fatal(err)
	}
	g := ugi.Go{Clock: true, Time: [2]time.Duration{200 * time.Millisecond, 200 * time.Millisecond}}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Move(ctx, s, g, 0)
	if !errors.Is(err, ugi.ErrTimeout) || !strings.Contains(err.Error(), "nor 50ms after stop") {
		t.Fatalf("err %v; want a timeout with stop sent 50ms before the flag", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %s for a 200ms clock", d)
	}
	c.Close()
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}

// TestClientPositionFenZeroStartHash: a game of erdos (whose start
// position hashes to 0) begun at a position given as text is sent as
// "position fen", not as startpos (a zero start hash was taken for "no
// game announced", and the opening was lost).
func TestClientPositionFenZeroStartHash(t *testing.T) {
	const fen = ".5.../...4./..2../.4..3/..... -----"
	v, err := games.Lookup("erdos:algol")
	if err != nil {
		t.Fatal(err)
	}
	if v.New().Hash() != 0 {
		t.Skip("erdos's start position no longer hashes to 0")
	}
	dir := t.TempDir()
	c := newClient(t, ugitest.Script(t, dir, `echo "bestmove a1:1"`), ugi.Engine{})
	s, err := games.ParsePosition(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.NewGame(v); err != nil {
		t.Fatal(err)
	}
	c.Move(context.Background(), s, ugi.Go{MoveTime: 20 * time.Millisecond}, 0) // the answer does not matter
	c.Close()
	if want := "position fen " + fen + "\n"; !strings.Contains(ugitest.Log(dir), want) {
		t.Errorf("engine read:\n%s\nwant it to contain %q", ugitest.Log(dir), want)
	}
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}

// TestClientClockAlreadyOut: a move asked for after the mover's flag fell
// (the context's deadline passed) is a prompt timeout, with no negative
// wait after stop.
func TestClientClockAlreadyOut(t *testing.T) {
	dir := t.TempDir()
	c := newClient(t, ugitest.Script(t, dir, `sleep 30`), ugi.Engine{})
	v, s := othello(t)
	if err := c.NewGame(v); err != nil {
		t.Fatal(err)
	}
	g := ugi.Go{Clock: true, Time: [2]time.Duration{0, time.Second}}
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-100*time.Millisecond))
	defer cancel()
	start := time.Now()
	_, err := c.Move(ctx, s, g, 0)
	if !errors.Is(err, ugi.ErrTimeout) || !strings.Contains(err.Error(), "nor 0s after stop") {
		t.Fatalf("err %v; want a timeout with no wait after stop", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %s", d)
	}
	c.Close()
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}
