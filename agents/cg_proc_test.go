//go:build linux

package agents

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents/botproc/botproctest"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/tryangle"
)

// stubbornBot writes a shell script that starts the test bot the way many
// real bots are started, through a shell, and makes stopping it hard: the
// shell and a child it leaves in the background ignore SIGTERM, SIGINT and
// SIGHUP, and the child holds the bot's stdout and stderr open. The pids of
// the shell and the child land in dir/shell and dir/child.
func stubbornBot(t *testing.T, bin, dir string) string {
	t.Helper()
	script := filepath.Join(dir, "bot.sh")
	text := fmt.Sprintf(`#!/bin/sh
trap '' TERM INT HUP
sh -c 'echo $$ >"$0.tmp" && mv "$0.tmp" "$0"; exec sleep 300' %[1]s/child &
echo $$ >%[1]s/shell
until [ -s %[1]s/child ]; do sleep 0.01; done
%[2]s "$@"
`, dir, bin)
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

// botPids returns the pids the stubborn bot wrote, and makes sure they die
// when the test ends, whatever happens to it.
func botPids(t *testing.T, dir string) []int {
	t.Helper()
	var pids []int
	for _, name := range []string{"shell", "child"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("the bot did not start its %s: %v", name, err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, pid)
	}
	t.Cleanup(func() {
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return pids
}

// noneRunning fails unless all pids are gone within a second.
func noneRunning(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for _, pid := range pids {
		for botproctest.Running(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d is still running", pid)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// within runs f and fails the test if it has not returned after d: the
// defect this guards against is a hang.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s has not returned after %v", what, d)
	}
}

// A bot run through a stubborn shell script leaves no process behind after
// a timeout, a crash, the end of a game or Close, and the agent returns
// promptly every time.
func TestCGStubbornBotLeavesNoProcess(t *testing.T) {
	bin := buildBot(t)
	for _, tc := range []struct {
		name, args, limits string
		want               error // of the last move; nil: the game ends
		closeAfter         int   // Close after this many moves (0: play on)
	}{
		{"timeout", "stall 2", "first=5s,turn=200ms", ErrTimeout, 0},
		{"crash", "crash 2", "first=5s,turn=2s", ErrCrash, 0},
		{"game end", "play", "first=5s,turn=2s", nil, 0},
		{"close mid-game", "play", "first=5s,turn=2s", nil, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			script := stubbornBot(t, bin, dir)
			a, err := New(fmt.Sprintf("cg:cmd='%s %s',%s", script, tc.args, tc.limits), 1)
			if err != nil {
				t.Fatal(err)
			}
			cg := a.(*CG)
			v, _ := games.Lookup("tryangle:seed=9")
			opp, _ := New("random", 2)
			s := v.New().(*tryangle.State)
			var pids []int
			var last error
			within(t, 20*time.Second, "the game", func() {
				if err := cg.NewGame(v, 0); err != nil {
					t.Error(err)
					return
				}
				ctx := context.Background()
				for moves := 0; !s.Terminal(); moves++ {
					if tc.closeAfter > 0 && moves == tc.closeAfter {
						break
					}
					m, err := cg.Move(ctx, s, 0)
					if pids == nil {
						pids = botPids(t, dir) // the script wrote them before the bot answered
					}
					if err != nil {
						last = err
						break
					}
					o, _ := opp.Move(ctx, s, 1)
					s.PlayJoint(m, o)
				}
			})
			if tc.want != nil && !errors.Is(last, tc.want) || tc.want == nil && last != nil {
				t.Fatalf("the game ended with %v, want %v", last, tc.want)
			}
			if tc.want == nil && tc.closeAfter == 0 && !s.Terminal() {
				t.Fatal("the game did not end")
			}
			if tc.want == nil {
				// Nothing failed: the bot is still there until the next game
				// or Close.
				for _, pid := range pids {
					if !botproctest.Running(pid) {
						t.Fatalf("process %d ended before Close", pid)
					}
				}
				if tc.closeAfter == 0 {
					// The next game replaces the process.
					os.Remove(filepath.Join(dir, "shell"))
					os.Remove(filepath.Join(dir, "child"))
					within(t, 10*time.Second, "NewGame", func() {
						if err := cg.NewGame(v, 0); err != nil {
							t.Error(err)
						}
					})
					noneRunning(t, pids)
					// Once the new bot answered, its script wrote the pids.
					if _, err := cg.Move(context.Background(), v.New(), 0); err != nil {
						t.Fatal(err)
					}
					pids = append(pids, botPids(t, dir)...)
				}
			}
			within(t, 10*time.Second, "Close", func() { cg.Close() })
			noneRunning(t, pids)
		})
	}
}

// An agent dropped without Close still takes its bot's group with it once
// it is garbage collected.
func TestCGDroppedAgentKillsItsBot(t *testing.T) {
	bin := buildBot(t)
	dir := t.TempDir()
	script := stubbornBot(t, bin, dir)
	v, _ := games.Lookup("tryangle:seed=9")
	func() {
		a, err := New(fmt.Sprintf("cg:cmd='%s play',first=5s", script), 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Move(context.Background(), v.New(), 0); err != nil {
			t.Fatal(err)
		}
	}()
	pids := botPids(t, dir)
	deadline := time.Now().Add(5 * time.Second)
	for botproctest.Running(pids[0]) || botproctest.Running(pids[1]) {
		if time.Now().After(deadline) {
			t.Fatal("the dropped agent's bot is still running")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
