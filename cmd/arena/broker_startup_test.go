package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/internal/testcert"
)

// TestBrokerUnreachable: a coordinator pointed at an address where no
// broker answers gives up within seconds with a message that names the
// address and says what to check, and a Ctrl-C while it waits ends it at
// once; neither leaves a record file behind.
func TestBrokerUnreachable(t *testing.T) {
	dir := t.TempDir()
	url := fmt.Sprintf("nats://127.0.0.1:%d", freePort(t))
	run := []string{"tournament", "--agents", "random", "greedy", "--no-progress", "--broker", url, "--out", "a.jsonl"}

	p := startArena(t, dir, run...)
	t0 := time.Now()
	err := p.wait(t, 20*time.Second)
	if err == nil || !strings.Contains(p.stderr.String(), "broker "+url+": nothing answered for") || !strings.Contains(p.stderr.String(), "is the address the one it printed") {
		t.Errorf("unreachable broker: err %v after %s, stderr:\n%s", err, time.Since(t0), p.stderr.String())
	}
	t.Logf("gave up after %s", time.Since(t0).Round(time.Millisecond))

	p = startArena(t, dir, run...)
	waitFor(t, p, "waiting for the broker at "+url) // Ctrl-C is caught by then
	t0 = time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = p.wait(t, 3*time.Second)
	if err == nil || !strings.Contains(p.stderr.String(), "stopped waiting") {
		t.Errorf("Ctrl-C while waiting for the broker: err %v, stderr:\n%s", err, p.stderr.String())
	}
	t.Logf("ended %s after SIGINT", time.Since(t0).Round(time.Millisecond))
	if _, err := os.Stat(filepath.Join(dir, "a.jsonl")); err == nil {
		t.Errorf("a.jsonl left behind by a run that never started")
	}
}

// TestBrokerStartupLeavesNoFile: a run whose broker cannot start (missing
// credentials, a missing key or NKey file, a port in use) makes no record
// file and no store directory, so that the corrected command is not
// refused as a file to --resume; a file that existed before (--resume) is
// kept as it was.
func TestBrokerStartupLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	run := []string{"tournament", "--agents", "random", "greedy", "--games", "2", "--no-progress", "--broker", "embedded"}
	cert, _ := testcert.SelfSigned(t, dir)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no credentials", []string{"--listen", "0.0.0.0:0"}, "give --token"},
		{"missing TLS key", []string{"--tls-cert", cert, "--tls-key", "missing.pem"}, "--tls-key missing.pem: no such file"},
		{"missing NKey users", []string{"--nkey-users", "missing.txt"}, "--nkey-users missing.txt: no such file"},
		// Files are read up to a limit: a device that never ends is refused.
		{"TLS files that never end", []string{"--tls-cert", "/dev/zero", "--tls-key", "/dev/zero"}, "--tls-cert /dev/zero: more than 1 MiB; a PEM file is at most 1 MiB"},
		{"NKey users that never end", []string{"--nkey-users", "/dev/zero"}, "--nkey-users /dev/zero: more than 4 MiB; a list of public keys is at most 4 MiB"},
		{"port in use", []string{"--listen", busy.Addr().String()}, "cannot listen there"},
	} {
		out := filepath.Join(dir, "a.jsonl")
		code, _, stderr := runArena(append(append(run, tc.args...), "--out", out)...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, want an error with %q: %s", tc.name, code, tc.want, stderr)
		}
		for _, p := range []string{out, out + ".broker"} {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("%s: %s left behind", tc.name, filepath.Base(p))
				os.RemoveAll(p)
			}
		}
	}
	// The other commands that take --broker: match, tune sweep, spsa, texel.
	if err := os.WriteFile(filepath.Join(dir, "p.txt"), []byte("c, float, 0.7, 0.1, 3, 0.1, 0.002\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	busyArgs := []string{"--no-progress", "--broker", "embedded", "--listen", busy.Addr().String(), "--out", filepath.Join(dir, "x.jsonl")}
	for _, args := range [][]string{
		{"match", "--agents", "random", "greedy", "--games", "2"},
		{"tune", "sweep", "--agent", "mcts:iters=10", "--param", "c", "--values", "0.5,1", "--against", "random", "--games", "2"},
		{"tune", "spsa", "--agent", "mcts:iters=10", "--params", filepath.Join(dir, "p.txt"), "--iterations", "2", "--verify=false"},
		{"tune", "texel", "--game", "othello6", "--agent", "alphabeta:depth=1", "--self-play", "2"},
	} {
		code, _, stderr := runArena(append(args, busyArgs...)...)
		if code == 0 || !strings.Contains(stderr, "cannot listen there") {
			t.Errorf("%s on a busy port: exit %d: %s", args[:2], code, stderr)
		}
		for _, p := range []string{"x.jsonl", "x.jsonl.broker"} {
			if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
				t.Errorf("%s on a busy port: %s left behind", args[:2], p)
				os.RemoveAll(filepath.Join(dir, p))
			}
		}
	}
	// The corrected command runs.
	out := filepath.Join(dir, "a.jsonl")
	if code, _, stderr := runArena(append(run, "--listen", "127.0.0.1:0", "--out", out)...); code != 0 {
		t.Fatalf("corrected command: exit %d: %s", code, stderr)
	}
	// A run resumed on a busy port keeps its file as it was (the resume
	// note it wrote is cut off again), and its store.
	before, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(out+".broker", 0o755)
	if code, _, stderr := runArena("tournament", "--resume", out, "--no-progress", "--broker", "embedded", "--listen", busy.Addr().String()); code == 0 || !strings.Contains(stderr, "cannot listen there") {
		t.Errorf("resume on a busy port: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatalf("the resumed file went away: %v", err)
	}
	if after, err := os.ReadFile(out); err != nil || string(after) != string(before) {
		t.Errorf("the resumed file changed (%v):\nbefore:\n%s\nafter:\n%s", err, before, after)
	}
	if _, err := os.Stat(out + ".broker"); err != nil {
		t.Errorf("the existing store directory went away: %v", err)
	}
}

// TestBrokerNKeyAgainstToken: a worker with an NKey joining a coordinator
// that lets workers in by token is refused at once (not after its
// --patience) with advice; a worker pointed where no broker answers says
// on stderr what it waits for, and then that nothing answered.
func TestBrokerNKeyAgainstToken(t *testing.T) {
	dir := t.TempDir()
	seed := filepath.Join(dir, "w.nk")
	if code, _, stderr := runArena("worker", "--new-nkey", seed); code != 0 {
		t.Fatalf("--new-nkey: %s", stderr)
	}
	port := freePort(t)
	coord := startArena(t, dir, "tournament", "--agents", "random", "random", "--games", "2000", "--no-progress", "--concurrency", "1",
		"--broker", "embedded", "--token", "right", "--listen", fmt.Sprintf("127.0.0.1:%d", port))
	waitFor(t, coord, "workers join")
	w := startArena(t, dir, "worker", "--broker", fmt.Sprintf("nats://127.0.0.1:%d", port), "--nkey", seed)
	if err := w.wait(t, 15*time.Second); err == nil || !strings.Contains(w.stderr.String(), "the server takes no NKeys") || !strings.Contains(w.stderr.String(), "--token") {
		t.Errorf("NKey against a token: err %v, stderr:\n%s", err, w.stderr.String())
	}

	url := fmt.Sprintf("nats://127.0.0.1:%d", freePort(t))
	w = startArena(t, dir, "worker", "--broker", url, "--patience", "1s")
	err := w.wait(t, 15*time.Second)
	if want := "waiting for the broker at " + url + " (up to 1s"; err == nil || !strings.Contains(w.stderr.String(), want) || !strings.Contains(w.stderr.String(), "nothing answered for 1s") ||
		!strings.HasPrefix(w.stderr.String(), "arena worker: ") {
		t.Errorf("no broker: err %v, want %q, that nothing answered, and a stderr that starts \"arena worker: \"; stderr:\n%s", err, want, w.stderr.String())
	}
}

// TestBrokerLiveProgress: on a coordinator whose games are all played by a
// remote worker (--concurrency 0), the progress lines, the interim
// standings (--rating-interval) and the --report page work as in a local
// run; the broker's lines start with the command, as every note does
// (they began "arena:" and "arena worker w1:", and the library's own
// lines now begin with nothing).
func TestBrokerLiveProgress(t *testing.T) {
	dir := t.TempDir()
	port := freePort(t)
	w := startArena(t, dir, "worker", "--broker", fmt.Sprintf("nats://127.0.0.1:%d", port), "--concurrency", "1", "--patience", "30s")
	// Games of a fifth of a second or so, so that results arrive (and are
	// shown) while the run goes on.
	coord := startArena(t, dir, "tournament", "--agents", "mcts:iters=3000", "alphabeta:depth=4", "--games", "20", "--seed", "3", "--concurrency", "0",
		"--rating-interval", "4", "--report", "r.html", "--out", "b.jsonl", "--broker", "embedded", "--listen", fmt.Sprintf("127.0.0.1:%d", port))
	if err := coord.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, coord.stderr.String())
	}
	if err := w.wait(t, 30*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, w.stderr.String())
	}
	if n := workerPlayed(w.stderr.String()); n != 20 {
		t.Errorf("the worker played %d games, want all 20", n)
	}
	stderr := coord.stderr.String()
	progress := regexp.MustCompile(`arena tournament: (1?[0-9])/20 games`).FindAllString(stderr, -1)
	standings := regexp.MustCompile(`Standings after (1?[0-9]) of 20 games`).FindAllString(stderr, -1)
	if len(progress) < 1 || len(standings) < 1 || !strings.Contains(stderr, "arena tournament: 20/20 games") {
		t.Errorf("the coordinator's stderr has %d progress lines and %d interim standings before the end, want one or more of each:\n%s", len(progress), len(standings), stderr)
	}
	// The broker's lines are the command's, on both sides.
	for _, want := range []string{"\narena tournament: broker nats://", "\narena tournament: games by worker"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the coordinator's stderr lacks %q:\n%s", want, stderr)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(w.stderr.String()), "\n") {
		if l != "" && !strings.HasPrefix(l, "arena worker: ") {
			t.Errorf("a worker's line without its command: %q", l)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "r.html"))
	if err != nil || !strings.Contains(string(page), "alphabeta:depth=4") {
		t.Errorf("report page: %v, %d bytes without the agents", err, len(page))
	}
}

// TestWorkerBrokerGone: a worker whose coordinator dies (SIGKILL) in the
// middle of a run waits --patience for it to come back, then ends with
// "the broker went away" (it retried on the closed connection for ever).
func TestWorkerBrokerGone(t *testing.T) {
	dir := t.TempDir()
	port := freePort(t)
	coord := startArena(t, dir, "tournament", "--agents", "random", "alphabeta:depth=3", "--games", "2000", "--no-progress", "--concurrency", "1",
		"--broker", "embedded", "--listen", fmt.Sprintf("127.0.0.1:%d", port))
	waitFor(t, coord, "workers join")
	w := startArena(t, dir, "worker", "--broker", fmt.Sprintf("nats://127.0.0.1:%d", port), "--concurrency", "1", "--patience", "1s", "--verbose")
	waitFor(t, w, "took games") // playing, not still looking for the queue
	syscall.Kill(-coord.cmd.Process.Pid, syscall.SIGKILL)
	t0 := time.Now()
	err := w.wait(t, 20*time.Second)
	stderr := w.stderr.String()
	if err == nil || !strings.Contains(stderr, "arena worker: the broker went away") {
		t.Errorf("worker: err %v, stderr:\n%s", err, stderr)
	}
	t.Logf("the worker ended %s after its coordinator", time.Since(t0).Round(time.Millisecond))
}
