//go:build linux

package botproc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents/botproc/botproctest"
)

// stubborn starts testdata/stubborn.sh in the given mode and waits for its
// "ready": by then its background child is running. It returns the process
// and the pids of the shell and the child; a cleanup kills them whatever
// happens to the test.
func stubborn(t *testing.T, mode string, cfg Config) (p *Process, shell, child int) {
	t.Helper()
	dir := t.TempDir()
	script, err := filepath.Abs("testdata/stubborn.sh")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Argv = []string{script, mode}
	cfg.Env = append(os.Environ(), "PIDS="+dir)
	p, err = Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Kill() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if l, err := p.ReadLine(ctx, time.Time{}); err != nil || l != "ready" {
		t.Fatalf("the bot's first line: %q, %v", l, err)
	}
	shell, child = readPid(t, filepath.Join(dir, "shell")), readPid(t, filepath.Join(dir, "child"))
	t.Cleanup(func() {
		syscall.Kill(shell, syscall.SIGKILL)
		syscall.Kill(child, syscall.SIGKILL)
	})
	if shell != p.Pid() {
		t.Fatalf("the shell's pid %d is not the process's %d", shell, p.Pid())
	}
	if !botproctest.Running(child) {
		t.Fatalf("the child %d is not running", child)
	}
	return p, shell, child
}

func readPid(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return pid
}

// checkGone fails unless every pid is gone within a second: SIGKILL is
// delivered asynchronously, but promptly.
func checkGone(t *testing.T, pids ...int) {
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

// checkGoroutines fails if more goroutines run than before (give or take
// the test's own), waiting a little for ending ones.
func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestEchoAndStop(t *testing.T) {
	before := runtime.NumGoroutine()
	p, shell, child := stubborn(t, "echo", Config{})
	ctx := context.Background()
	for _, req := range []string{"a", "b c", ""} {
		if err := p.WriteLine(req, time.Now().Add(5*time.Second)); err != nil {
			t.Fatal(err)
		}
		got, err := p.ReadLine(ctx, time.Now().Add(5*time.Second))
		if err != nil || got != "got "+req {
			t.Fatalf("answer to %q: %q, %v", req, got, err)
		}
	}
	start := time.Now()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Stop took %v", d)
	}
	checkGone(t, shell, child)
	if err := p.Stop(); err != nil { // idempotent
		t.Fatal(err)
	}
	if _, err := p.ReadLine(ctx, time.Time{}); !errors.Is(err, ErrStopped) {
		t.Errorf("ReadLine after Stop: %v", err)
	}
	if err := p.WriteLine("x", time.Time{}); !errors.Is(err, ErrStopped) {
		t.Errorf("WriteLine after Stop: %v", err)
	}
	checkGoroutines(t, before)
}

// Every way a stubborn bot can end its part leaves no process behind and
// returns promptly, although the bot and its child ignore SIGTERM and the
// child keeps the bot's output open.
func TestStubbornBotLeavesNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		mode string
		run  func(t *testing.T, p *Process)
	}{
		{"close", "echo", func(t *testing.T, p *Process) {
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
		}},
		{"kill", "stall", func(t *testing.T, p *Process) {
			if err := p.Kill(); err != nil {
				t.Fatal(err)
			}
		}},
		{"timeout then stop", "stall", func(t *testing.T, p *Process) {
			p.WriteLine("anything", time.Now().Add(time.Second))
			if _, err := p.ReadLine(context.Background(), time.Now().Add(50*time.Millisecond)); !errors.Is(err, ErrTimeout) {
				t.Fatalf("ReadLine: %v, want a timeout", err)
			}
			if err := p.Stop(); err != nil {
				t.Fatal(err)
			}
		}},
		{"cancelled then stop", "stall", func(t *testing.T, p *Process) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(20*time.Millisecond, cancel)
			if _, err := p.ReadLine(ctx, time.Time{}); !errors.Is(err, context.Canceled) {
				t.Fatalf("ReadLine: %v, want context.Canceled", err)
			}
			if err := p.Stop(); err != nil {
				t.Fatal(err)
			}
		}},
		{"crash", "crash", func(t *testing.T, p *Process) {
			// The child still holds the output: the read must not wait for
			// its end, nor report a timeout.
			p.WriteLine("go", time.Time{})
			_, err := p.ReadLine(context.Background(), time.Now().Add(10*time.Second))
			if !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "about to crash") {
				t.Fatalf("ReadLine: %v, want the exit with status 3 and the stderr", err)
			}
		}},
		{"last line then exit", "last", func(t *testing.T, p *Process) {
			ctx := context.Background()
			p.WriteLine("go", time.Time{})
			if l, err := p.ReadLine(ctx, time.Now().Add(10*time.Second)); err != nil || l != "bye" {
				t.Fatalf("last line: %q, %v", l, err)
			}
			_, err := p.ReadLine(ctx, time.Now().Add(10*time.Second))
			if !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "status 0") {
				t.Fatalf("after the last line: %v", err)
			}
			if err := p.Wait(time.Second); err != nil {
				t.Fatalf("Wait: %v", err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			p, shell, child := stubborn(t, tc.mode, Config{Grace: 20 * time.Millisecond})
			start := time.Now()
			tc.run(t, p)
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("took %v", d)
			}
			checkGone(t, shell, child)
			p.Stop()
			checkGoroutines(t, before)
		})
	}
}

func TestLineLimitAndStderr(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(dir, "err.log")
	os.WriteFile(logFile, []byte("earlier\n"), 0o644)
	p, err := Start(Config{
		Argv:       []string{"sh", "-c", `i=0; while [ $i -lt 100 ]; do echo "line $i" >&2; i=$((i+1)); done; printf '%0200d\n' 0; sleep 300`},
		MaxLine:    100,
		StderrTail: 64,
		StderrFile: logFile,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	if _, err := p.ReadLine(context.Background(), time.Now().Add(10*time.Second)); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("ReadLine: %v, want ErrLineTooLong", err)
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if s := p.Stderr(); len(s) > 64 || !strings.HasSuffix(s, "line 99\n") {
		t.Errorf("stderr tail %q: want at most 64 bytes ending with line 99", s)
	}
	if s := p.StderrTail(20); s != "…line 98\nline 99" { // cut at a line start
		t.Errorf("StderrTail(20) = %q", s)
	}
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "earlier\nline 0\n") || !strings.HasSuffix(string(data), "line 99\n") {
		t.Errorf("stderr file: %q…", data[:min(len(data), 40)])
	}
}

func TestWriteDeadline(t *testing.T) {
	p, err := Start(Config{Argv: []string{"sleep", "300"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	start := time.Now()
	err = p.Write(make([]byte, 4<<20), time.Now().Add(50*time.Millisecond)) // more than a pipe holds
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Write: %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the write took %v", d)
	}
}

func TestDirEnvAndStartErrors(t *testing.T) {
	dir := t.TempDir()
	p, err := Start(Config{Argv: []string{"sh", "-c", `pwd; echo "$FOO"`}, Dir: dir, Env: []string{"FOO=bar"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	ctx := context.Background()
	for _, want := range []string{dir, "bar"} {
		if got, err := p.ReadLine(ctx, time.Now().Add(10*time.Second)); err != nil || got != want {
			t.Errorf("got %q, %v; want %q", got, err, want)
		}
	}
	for _, cfg := range []Config{
		{},
		{Argv: []string{"/no/such/bot"}},
		{Argv: []string{"sh"}, Dir: "/no/such/dir"},
		{Argv: []string{"sh"}, StderrFile: "/no/such/dir/log"},
	} {
		if p, err := Start(cfg); err == nil {
			p.Kill()
			t.Errorf("%+v: started", cfg)
		} else if !strings.Contains(err.Error(), "botproc") {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}

func TestTailBuffer(t *testing.T) {
	for _, tc := range []struct {
		max    int
		writes []string
		want   string
	}{
		{0, []string{"abc"}, ""},
		{4, []string{"ab", "cd"}, "abcd"},
		{4, []string{"ab", "cde"}, "bcde"},
		{4, []string{"abcdefg"}, "defg"},
		{4, []string{"abc", "d", "ef"}, "cdef"},
	} {
		b := newTailBuffer(tc.max)
		for _, w := range tc.writes {
			b.Write([]byte(w))
		}
		if got := b.String(); got != tc.want {
			t.Errorf("max %d, writes %q: %q, want %q", tc.max, tc.writes, got, tc.want)
		}
	}
}
