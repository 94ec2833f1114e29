//go:build unix

package agents_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/agents/botproc/botproctest"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/ugi"
	"github.com/boardgame-arena/arena/ugi/ugitest"
)

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

// TestUGIPlaysAndReports: the spec's options and movetime= reach the
// engine, the info line's statistics are the agent's Stats, and a second
// game reuses the process (the client's part of this is tested in ugi).
func TestUGIPlaysAndReports(t *testing.T) {
	dir := t.TempDir()
	script := ugitest.Script(t, dir, `echo "info depth 3 score cp -25 nodes 1234 nps 5000 pv b3 c2"; echo "bestmove b3"`)
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
	if n := len(ugitest.Pids(dir)); n != 1 {
		t.Errorf("%d processes for two games, want 1", n)
	}
	a.Close()
	log := ugitest.Log(dir)
	want := "ugi\nsetoption name Hash value 16\nisready\nsetoption name UGI_Game value othello6\nuginewgame\nisready\nposition startpos\ngo movetime 30\nuginewgame\nisready\nposition startpos\ngo movetime 30\nquit\n"
	if log != want {
		t.Errorf("engine read:\n%s\nwant:\n%s", log, want)
	}
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}

// TestUGIFailures: each failure of the client is the agent's error that
// the arena maps to the right forfeit, named for the agent, the same for
// every move of the failed game (the failures themselves are tested in
// ugi's TestClientFailures).
func TestUGIFailures(t *testing.T) {
	for _, tc := range []struct {
		name, goAction string
		want           error
		text           string
	}{
		{"illegal", `echo "bestmove a1"`, agents.ErrOutput, `bestmove "a1" is illegal`},
		{"crash", `echo "dying" >&2; exit 3`, agents.ErrCrash, "dying"},
		{"hang", `trap "" TERM; sleep 30`, agents.ErrTimeout, "nor 250ms after stop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a := newUGI(t, "ugi:cmd=sh "+ugitest.Script(t, dir, tc.goAction)+",movetime=20ms,margin=30ms,name=broken")
			v, s := othello(t)
			if err := a.NewGame(v, 0); err != nil {
				t.Fatal(err)
			}
			_, err := a.Move(context.Background(), s, 0)
			if !errors.Is(err, tc.want) || !strings.HasPrefix(err.Error(), "ugi broken: "+tc.want.Error()+": ") || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("err %v; want %v with %q", err, tc.want, tc.text)
			}
			if _, again := a.Move(context.Background(), s, 0); again == nil || again.Error() != err.Error() {
				t.Errorf("second move of the failed game: %v; want the same failure", again)
			}
			a.Close()
			botproctest.NoneRunning(t, ugitest.PidFile(dir))
		})
	}
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

// TestUGIClock: a move under a clock (agents.WithClock) is asked for with
// the clock's times, depth= kept and movetime= dropped, and the engine,
// well inside its time, is not sent stop (see ugi's TestClientClock).
func TestUGIClock(t *testing.T) {
	dir := t.TempDir()
	a := newUGI(t, "ugi:cmd=sh "+ugitest.Script(t, dir, `sleep 0.1; echo "bestmove b3"`)+",movetime=20ms,depth=7")
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
	log := ugitest.Log(dir)
	if want := "position startpos\ngo p1time 900 p2time 61000 p1inc 100 p2inc 0 depth 7\nquit\n"; !strings.HasSuffix(log, want) {
		t.Errorf("engine read:\n%s\nwant it to end with:\n%s", log, want)
	}
	botproctest.NoneRunning(t, ugitest.PidFile(dir))
}

// An engine whose start (process and handshake) takes longer than a move
// plays its games: NewGame is allowed the agent's StartTime (twice init=),
// not the first move's limit. The Python example engine lost its first
// games on time this way when python3 started slowly.
func TestUGISlowStartPlays(t *testing.T) {
	dir := t.TempDir()
	// The engine moves first and opens with b3, legal from the start.
	script := ugitest.Script(t, dir, `echo "bestmove b3"`)
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

// TestUGIEngine: UGIEngine gives the engine of a ugi spec, checked as New
// checks it.
func TestUGIEngine(t *testing.T) {
	e, err := agents.UGIEngine("ugi:cmd=python3 engine.py,init=2s,option.Hash=16,option.Skill=3,stderr=e.log")
	want := ugi.Engine{Argv: []string{"python3", "engine.py"}, StderrFile: "e.log", Init: 2 * time.Second,
		Options: []ugi.Setting{{Name: "Hash", Value: "16"}, {Name: "Skill", Value: "3"}}}
	if err != nil || !reflect.DeepEqual(e, want) {
		t.Errorf("UGIEngine = %+v, %v; want %+v", e, err, want)
	}
	if e, _ := agents.UGIEngine("ugi:cmd=x"); e.Init != agents.DefaultUGIInit {
		t.Errorf("default init %v, want %v", e.Init, agents.DefaultUGIInit)
	}
	for _, text := range []string{"ugi:cmd=x,init=0s", "ugi:cmd=x,frob=1", "greedy"} {
		if _, err := agents.UGIEngine(text); err == nil {
			t.Errorf("%s: no error", text)
		}
	}
}

// TestUGIBrokenEngineForfeits: in games, an engine's illegal bestmove is
// an illegal_move forfeit, its silence a timeout and its exit a crash,
// each with the reason in the record; no process remains.
func TestUGIBrokenEngineForfeits(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	v, _ := othello(t)
	for _, tc := range []struct{ name, goAction, termination, detail string }{
		{"illegal", "echo 'bestmove a1'", results.Illegal, `bestmove "a1" is illegal`},
		{"silent", ":", results.Timeout, "no bestmove"},
		{"crash", "echo 'out of cheese' >&2; exit 3", results.Crash, "out of cheese"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			engine := "ugi:cmd=sh " + ugitest.Script(t, dir, tc.goAction) + ",movetime=20ms,margin=50ms,name=broken"
			recs := ugitest.PlayGames(t, arena.Setup{Variant: v}, arena.Limits{}, [2]string{engine, "random"}, 2, 1)
			if len(recs) != 2 {
				t.Fatalf("%d games, want 2", len(recs))
			}
			for _, g := range recs {
				if g.Termination != tc.termination || !strings.Contains(g.Detail, tc.detail) {
					t.Errorf("%s vs %s: %s (%s); want %s with %q", g.Players[0].Name, g.Players[1].Name, g.Termination, g.Detail, tc.termination, tc.detail)
				}
			}
			botproctest.NoneRunning(t, ugitest.PidFile(dir))
		})
	}
}
