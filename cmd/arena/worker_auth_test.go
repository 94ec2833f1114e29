package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/internal/testcert"
)

// authRun is a small tournament for the credential tests: quick, and long
// enough (depth-3 alpha-beta) for a worker that joins to get games.
var authRun = []string{"tournament", "--game", "othello6", "--agents", "random", "alphabeta:depth=3", "--games", "16", "--seed", "2", "--no-progress", "--concurrency", "1"}

// waitFor waits until the process's stderr contains text.
func waitFor(t *testing.T, p *proc, text string) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); !strings.Contains(p.stderr.String(), text); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("arena %s never said %q:\n%s", p.cmd.Args[1], text, p.stderr.String())
		}
	}
}

// TestBrokerNKeyCLI: arena worker --new-nkey makes a key; a coordinator
// listing its public key in --nkey-users lets that worker play, and refuses
// a worker with another key with a message that says what to check.
func TestBrokerNKeyCLI(t *testing.T) {
	dir := t.TempDir()
	bin := arenaBinary(t)
	pub, err := exec.Command(bin, "worker", "--new-nkey", filepath.Join(dir, "good.nk")).Output()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.Command(bin, "worker", "--new-nkey", filepath.Join(dir, "bad.nk")).Output(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "users"), []byte("# the workers\n"+string(pub)), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	coord := startArena(t, dir, append(authRun, "--out", "b.jsonl", "--broker", "embedded", "--nkey-users", "users", "--listen", fmt.Sprintf("127.0.0.1:%d", port))...)
	waitFor(t, coord, "workers join")
	bad := startArena(t, dir, "worker", "--broker", url, "--nkey", "bad.nk")
	if err := bad.wait(t, 30*time.Second); err == nil || !strings.Contains(bad.stderr.String(), "authorization violation: check --token (it must be the coordinator's) or --nkey") {
		t.Errorf("a worker with another key: err %v, stderr:\n%s", err, bad.stderr.String())
	}
	good := startArena(t, dir, "worker", "--broker", url, "--nkey", "good.nk", "--concurrency", "1")
	if err := coord.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, coord.stderr.String())
	}
	if err := good.wait(t, 30*time.Second); err != nil {
		t.Fatalf("the worker with the listed key: %v\n%s", err, good.stderr.String())
	}
	if workerPlayed(good.stderr.String()) == 0 {
		t.Logf("the worker with the listed key joined but played no game (the local worker was quicker):\n%s", good.stderr.String())
	}
	if f := readRecords(t, filepath.Join(dir, "b.jsonl")); len(f.Games) != 16 {
		t.Errorf("%d games recorded, want 16", len(f.Games))
	}
	// A seed readable by others is refused before connecting.
	os.Chmod(filepath.Join(dir, "good.nk"), 0o644)
	out, err := exec.Command(bin, "worker", "--broker", url, "--nkey", filepath.Join(dir, "good.nk")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "readable by other users") {
		t.Errorf("a seed readable by others: err %v, output:\n%s", err, out)
	}
}

// TestBrokerTLSCLI: a coordinator with --tls-cert/--tls-key and a worker
// with --tls-ca play the run over TLS; a worker without the CA is refused
// at once with a message that names --tls-ca.
func TestBrokerTLSCLI(t *testing.T) {
	dir := t.TempDir()
	cert, key := testcert.SelfSigned(t, dir)
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	coord := startArena(t, dir, append(authRun, "--out", "b.jsonl", "--broker", "embedded", "--token", "s3cret", "--tls-cert", cert, "--tls-key", key,
		"--listen", fmt.Sprintf("127.0.0.1:%d", port))...)
	waitFor(t, coord, "workers join")
	untrusting := startArena(t, dir, "worker", "--broker", url, "--token", "s3cret")
	if err := untrusting.wait(t, 30*time.Second); err == nil || !strings.Contains(untrusting.stderr.String(), "certificate is not trusted") ||
		!strings.Contains(untrusting.stderr.String(), "--tls-ca") {
		t.Errorf("a worker without the CA: err %v, stderr:\n%s", err, untrusting.stderr.String())
	}
	w := startArena(t, dir, "worker", "--broker", url, "--token", "s3cret", "--tls-ca", cert, "--concurrency", "1")
	if err := coord.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, coord.stderr.String())
	}
	if err := w.wait(t, 30*time.Second); err != nil {
		t.Fatalf("the worker with the CA: %v\n%s", err, w.stderr.String())
	}
	if !strings.Contains(w.stderr.String(), "connected to") {
		t.Errorf("the worker with the CA did not connect:\n%s", w.stderr.String())
	}
	if f := readRecords(t, filepath.Join(dir, "b.jsonl")); len(f.Games) != 16 {
		t.Errorf("%d games recorded, want 16", len(f.Games))
	}
}

// TestWorkerFlagErrors: arena worker refuses, before connecting, a name
// that would pass for the coordinator's own workers or that the record
// cannot keep, and --new-nkey refuses to overwrite a seed.
func TestWorkerFlagErrors(t *testing.T) {
	seed := filepath.Join(t.TempDir(), "w.nk")
	if code, stdout, stderr := runArena("worker", "--new-nkey", seed); code != 0 || !strings.HasPrefix(stdout, "U") {
		t.Fatalf("--new-nkey: exit %d, %q %s", code, stdout, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"worker", "--broker", "nats://127.0.0.1:1", "--name", "local"}, "the coordinator's own workers' name"},
		{[]string{"worker", "--broker", "nats://127.0.0.1:1", "--name", strings.Repeat("x", 101)}, "--name: use up to 100 bytes of printable characters"},
		{[]string{"worker", "--broker", "nats://127.0.0.1:1", "--name", "a\nb"}, "--name: use up to 100 bytes of printable characters"},
		{[]string{"worker", "--new-nkey", seed}, "the file exists"},
		// Said once, after the prefix (it read "arena worker: arena worker needs").
		{[]string{"worker"}, "arena worker: give --broker nats://HOST:PORT, the address the coordinator printed\n"},
		{[]string{"tournament", "--agents", "random", "random", "--broker", "nats://127.0.0.1:1", "--nkey-users", "u"}, "--nkey-users lists the workers' keys of the embedded server"},
		{[]string{"tournament", "--agents", "random", "random", "--broker", "embedded", "--nkey", seed}, "--nkey is the coordinator's key for an existing server"},
		{[]string{"tournament", "--agents", "random", "random", "--broker", "embedded", "--nkey-users", "u", "--token", "t"}, "two ways of letting workers in"},
		{[]string{"worker", "--broker", "http://127.0.0.1:1"}, "nats://HOST:PORT"},
		{[]string{"tournament", "--agents", "random", "random", "--listen", "0.0.0.0:4222", "--token", "t"}, "--listen configures the embedded broker: add --broker embedded"},
		{[]string{"tournament", "--agents", "random", "random", "--token", "t"}, "--token is for a run through a broker"},
		{[]string{"match", "--agents", "random", "random", "--broker", "nats://127.0.0.1:1", "--tls-cert", "c.pem", "--tls-key", "k.pem"}, "--tls-cert configures the embedded broker"},
		{[]string{"tournament", "--agents", "random", "random", "--broker", "embedded", "--tls-cert", "c.pem"}, "--tls-cert and --tls-key go together"},
		// Files are read up to a limit: a device that never ends is refused.
		{[]string{"worker", "--broker", "nats://127.0.0.1:1", "--tls-ca", "/dev/zero"}, "--tls-ca /dev/zero: more than 1 MiB; a PEM file is at most 1 MiB"},
	} {
		code, _, stderr := runArena(tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("arena %q: exit %d, want an error with %q: %s", tc.args, code, tc.want, stderr)
		}
	}
}
