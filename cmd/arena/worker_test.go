package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents/botproc/botproctest"
	"github.com/boardgame-arena/arena/results"
)

// freePort returns a loopback port nobody listens on (just now).
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// proc is an arena process of a test, in its own process group.
type proc struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	done   chan error
}

// startArena starts the arena binary; the test's cleanup kills whatever
// is left of its process group and checks that nothing survives.
func startArena(t *testing.T, dir string, args ...string) *proc {
	t.Helper()
	return startArenaOut(t, dir, nil, args...)
}

// startArenaOut is startArena with the process's stdout into stdout (read
// it after the process ended).
func startArenaOut(t *testing.T, dir string, stdout io.Writer, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(arenaBinary(t), args...), done: make(chan error, 1)}
	p.cmd.Dir = dir
	p.cmd.Stdout = stdout
	p.cmd.Stderr = &p.stderr
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			t.Errorf("arena %s did not end after SIGKILL", args[0])
		}
		if botproctest.Running(p.cmd.Process.Pid) {
			t.Errorf("process %d (arena %s) is still running", p.cmd.Process.Pid, args[0])
		}
	})
	return p
}

// wait waits for the process to end by itself.
func (p *proc) wait(t *testing.T, limit time.Duration) error {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err // for the cleanup
		return err
	case <-time.After(limit):
		t.Fatalf("arena %s still running after %s; stderr:\n%s", p.cmd.Args[1], limit, p.stderr.String())
	}
	return nil
}

var playedRE = regexp.MustCompile(`played (\d+) games?\b`)

// workerPlayed is the number of games a worker's stderr says it played.
func workerPlayed(stderr string) int {
	m := playedRE.FindStringSubmatch(stderr)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// sameRecords compares two record files game by game: everything but times.
func sameRecords(t *testing.T, want, got string) {
	t.Helper()
	a, err := results.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	b, err := results.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Games) != len(b.Games) {
		t.Fatalf("%s has %d games, %s %d", want, len(a.Games), got, len(b.Games))
	}
	byIndex := map[int]results.GameRecord{}
	for _, g := range b.Games {
		if _, dup := byIndex[g.Index]; dup {
			t.Fatalf("%s: game %d recorded twice", got, g.Index)
		}
		byIndex[g.Index] = g
	}
	for _, g := range a.Games {
		h, ok := byIndex[g.Index]
		if !ok {
			t.Fatalf("%s: game %d missing", got, g.Index)
		}
		if !slices.Equal(g.Moves, h.Moves) || g.Result != h.Result || g.Termination != h.Termination || g.Seed != h.Seed ||
			g.Players[0].Name != h.Players[0].Name || g.Players[1].Name != h.Players[1].Name || g.Score != h.Score {
			t.Fatalf("game %d differs:\n%s: %s %s %v\n%s: %s %s %v", g.Index, want, g.Result, g.Termination, g.Moves, got, h.Result, h.Termination, h.Moves)
		}
	}
}

// brokerAgents are deterministic agents slow enough (a few ms a move) that
// the remote workers get a share of the games.
var brokerAgents = []string{"--agents", "random", "alphabeta:depth=3", "mcts:iters=1000"}

// TestBrokerTournament: a coordinator that plays no game itself
// (--concurrency 0) and three arena worker processes record the same games
// as one process with the same seed, each once; every process ends by
// itself.
func TestBrokerTournament(t *testing.T) {
	run := append([]string{"tournament", "--games", "20", "--seed", "11", "--no-progress", "--concurrency", "1"}, brokerAgents...)
	brokerEqualsLocal(t, t.TempDir(), 3, run)
}

// brokerEqualsLocal runs the command line run (without --out) as an
// embedded coordinator with no local worker (--concurrency 0) and n worker
// processes, started first (they wait for the run), and again on its own,
// and checks that the remote workers played every game (a coordinator
// with a local worker of its own could play them all before a remote
// worker joins), that nothing was rejected and that both records hold the
// same games. It returns the coordinator, ended, for further checks (its
// record is broker.jsonl in dir) and the number of games the workers played.
func brokerEqualsLocal(t *testing.T, dir string, n int, run []string) (coord *proc, remote int) {
	t.Helper()
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	var workers []*proc
	for range n {
		workers = append(workers, startArena(t, dir, "worker", "--broker", url, "--concurrency", "1", "--patience", "30s"))
	}
	coord = startArena(t, dir, append(slices.Clone(run), "--concurrency", "0", "--out", "broker.jsonl", "--broker", "embedded", "--listen", fmt.Sprintf("127.0.0.1:%d", port))...)
	if err := coord.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, coord.stderr.String())
	}
	for i, w := range workers {
		if err := w.wait(t, 30*time.Second); err != nil {
			t.Fatalf("worker %d: %v\n%s", i, err, w.stderr.String())
		}
		remote += workerPlayed(w.stderr.String())
	}
	if f := readRecords(t, filepath.Join(dir, "broker.jsonl")); remote != len(f.Games) {
		t.Errorf("the remote workers played %d of the %d games; coordinator:\n%s", remote, len(f.Games), coord.stderr.String())
	}
	if strings.Contains(coord.stderr.String(), "rejected") {
		t.Errorf("the coordinator rejected results:\n%s", coord.stderr.String())
	}
	local := startArena(t, dir, append(slices.Clone(run), "--out", "local.jsonl")...)
	if err := local.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("local run: %v\n%s", err, local.stderr.String())
	}
	sameRecords(t, filepath.Join(dir, "local.jsonl"), filepath.Join(dir, "broker.jsonl"))
	t.Logf("remote workers played %d of the games", remote)
	return coord, remote
}

// TestBrokerWorkerKilled: a worker killed (SIGKILL) in the middle of a
// batch loses nothing: the batch goes to another worker after the ack wait,
// and every game is recorded once, the same as a local run. The games are
// slow (a depth-13 alpha-beta: about a second a game here) and the worker
// is killed as soon as it says which games it took (--verbose), so it dies
// holding them unfinished.
func TestBrokerWorkerKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("a run of several seconds")
	}
	dir := t.TempDir()
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	victim := startArena(t, dir, "worker", "--broker", url, "--concurrency", "2", "--patience", "30s", "--verbose")
	run := []string{"tournament", "--games", "6", "--seed", "12", "--no-progress", "--concurrency", "1",
		"--agents", "alphabeta:depth=13,tt=16", "greedy"}
	coord := startArena(t, dir, append(run, "--out", "broker.jsonl", "--broker", "embedded", "--ack-wait", "2s", "--listen", fmt.Sprintf("127.0.0.1:%d", port))...)
	took := regexp.MustCompile(`took games ([0-9 ]+)`)
	deadline := time.Now().Add(30 * time.Second)
	var held []string
	for held == nil && time.Now().Before(deadline) {
		if m := took.FindStringSubmatch(victim.stderr.String()); m != nil {
			held = strings.Fields(m[1])
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	syscall.Kill(-victim.cmd.Process.Pid, syscall.SIGKILL)
	if held == nil {
		t.Fatalf("the worker took no batch in 30 s:\n%s", victim.stderr.String())
	}
	other := startArena(t, dir, "worker", "--broker", url, "--concurrency", "1", "--patience", "30s")
	if err := coord.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, coord.stderr.String())
	}
	if err := other.wait(t, 30*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, other.stderr.String())
	}
	local := startArena(t, dir, append(run, "--out", "local.jsonl")...)
	if err := local.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("local run: %v\n%s", err, local.stderr.String())
	}
	// sameRecords checks every game once, those the victim held included.
	sameRecords(t, filepath.Join(dir, "local.jsonl"), filepath.Join(dir, "broker.jsonl"))
	t.Logf("the killed worker held games %v", held)
}

// TestBrokerWrongToken: a worker with the wrong token is refused and says
// what to check; a coordinator beyond loopback without a token refuses to
// start.
func TestBrokerWrongToken(t *testing.T) {
	dir := t.TempDir()
	port := freePort(t)
	coord := startArena(t, dir, "tournament", "--agents", "random", "random", "--games", "2000", "--no-progress", "--concurrency", "1",
		"--out", "b.jsonl", "--broker", "embedded", "--token", "right", "--listen", fmt.Sprintf("127.0.0.1:%d", port))
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(coord.stderr.String(), "workers join") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	w := startArena(t, dir, "worker", "--broker", fmt.Sprintf("nats://127.0.0.1:%d", port), "--token", "wrong")
	err := w.wait(t, 30*time.Second)
	if err == nil || !strings.Contains(w.stderr.String(), "authorization violation: check --token") {
		t.Errorf("wrong token: err %v, stderr:\n%s", err, w.stderr.String())
	}
	out, err := exec.Command(arenaBinary(t), "tournament", "--agents", "random", "random", "--games", "2", "--broker", "embedded", "--listen", "0.0.0.0:0").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "give --token") {
		t.Errorf("--listen 0.0.0.0 without a token: err %v, output:\n%s", err, out)
	}
	os.Remove(filepath.Join(dir, "b.jsonl"))
}

// TestBrokerSPRT: a match with an SPRT across workers stops once the test
// decides: far fewer games than the most it may play are recorded, and
// the workers go idle and exit by themselves.
func TestBrokerSPRT(t *testing.T) {
	if testing.Short() {
		t.Skip("a run of several seconds")
	}
	dir := t.TempDir()
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	var workers []*proc
	for range 2 {
		workers = append(workers, startArena(t, dir, "worker", "--broker", url, "--concurrency", "1", "--patience", "30s"))
	}
	// No local worker: every game is a remote worker's.
	var out bytes.Buffer
	coord := startArenaOut(t, dir, &out, "match", "--agents", "alphabeta:depth=3", "random", "--sprt", "elo0=0,elo1=300", "--games", "2000", "--seed", "4",
		"--concurrency", "0", "--no-progress", "--out", "m.jsonl", "--broker", "embedded", "--listen", fmt.Sprintf("127.0.0.1:%d", port))
	if err := coord.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, coord.stderr.String())
	}
	remote := 0
	for i, w := range workers {
		if err := w.wait(t, 30*time.Second); err != nil {
			t.Fatalf("worker %d: %v\n%s", i, err, w.stderr.String())
		}
		remote += workerPlayed(w.stderr.String())
	}
	f, err := results.ReadFile(filepath.Join(dir, "m.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.Games); n == 0 || n > 400 {
		t.Fatalf("%d games recorded; the SPRT should decide within a few dozen\n%s", n, coord.stderr.String())
	}
	if remote != len(f.Games) {
		t.Errorf("the remote workers played %d games, %d are recorded", remote, len(f.Games))
	}
	if !strings.Contains(out.String(), "SPRT") || !strings.Contains(out.String(), "H1 accepted") {
		t.Errorf("the coordinator's summary does not say the SPRT accepted H1:\n%s", out.String())
	}
	t.Logf("%d games recorded", len(f.Games))
}

// TestBrokerCoordinatorKilled: the coordinator killed (SIGKILL) in the
// middle of a run and resumed on the same address completes the run with
// the workers that stayed: the same games as a local run, each once.
func TestBrokerCoordinatorKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("a run of several seconds")
	}
	dir := t.TempDir()
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	listen := fmt.Sprintf("127.0.0.1:%d", port)
	var workers []*proc
	for range 2 {
		workers = append(workers, startArena(t, dir, "worker", "--broker", url, "--concurrency", "1", "--patience", "60s"))
	}
	run := append([]string{"tournament", "--games", "20", "--seed", "13", "--no-progress", "--concurrency", "1"}, brokerAgents...)
	first := startArena(t, dir, append(run, "--out", "broker.jsonl", "--broker", "embedded", "--ack-wait", "2s", "--listen", listen)...)
	path := filepath.Join(dir, "broker.jsonl")
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(path); bytes.Count(b, []byte("\n")) > 10 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Every player is stopped (SIGSTOP) before the kill, so that a test
	// process that gets no processor for a while on a busy machine does
	// not find the run finished when it wakes (all 60 games were recorded
	// once at a load of 8); the workers go on after it.
	everyone := append([]*proc{first}, workers...)
	for _, p := range everyone {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGSTOP)
	}
	syscall.Kill(-first.cmd.Process.Pid, syscall.SIGKILL)
	first.wait(t, 10*time.Second)
	for _, p := range workers {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGCONT)
	}
	// The kill must have cut the run short, or the resume proves nothing:
	// 3 players, 20 games a pairing.
	b, _ := os.ReadFile(path)
	if n := bytes.Count(b, []byte(`"record":"game"`)); n == 0 || n >= 60 {
		t.Fatalf("%d of 60 games recorded when the coordinator was killed: the kill was to come in the middle of the run", n)
	}
	second := startArena(t, dir, "tournament", "--resume", "broker.jsonl", "--no-progress", "--concurrency", "1", "--broker", "embedded", "--ack-wait", "2s", "--listen", listen)
	if err := second.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("resumed coordinator: %v\n%s", err, second.stderr.String())
	}
	for i, w := range workers {
		if err := w.wait(t, 30*time.Second); err != nil {
			t.Fatalf("worker %d: %v\n%s", i, err, w.stderr.String())
		}
	}
	local := startArena(t, dir, append(run, "--out", "local.jsonl")...)
	if err := local.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("local run: %v\n%s", err, local.stderr.String())
	}
	sameRecords(t, filepath.Join(dir, "local.jsonl"), path)
}

// TestBrokerWorkerCannotBuild: a worker that cannot build an agent (here
// an engine at a relative path that exists only where the coordinator
// runs) says so, on its stderr and the coordinator's, and plays nothing;
// the run completes with the other workers.
func TestBrokerWorkerCannotBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("starts engine processes")
	}
	dir := t.TempDir()
	bin, err := os.ReadFile(arenaBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "eng"), bin, 0o755); err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(dir, "elsewhere")
	if err := os.Mkdir(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	w := startArena(t, elsewhere, "worker", "--broker", fmt.Sprintf("nats://127.0.0.1:%d", port), "--concurrency", "1", "--patience", "30s")
	coord := startArena(t, dir, "tournament", "--agents", "ugi:cmd=./eng engine --agent random", "random", "--games", "30", "--concurrency", "1",
		"--no-progress", "--out", "b.jsonl", "--broker", "embedded", "--listen", fmt.Sprintf("127.0.0.1:%d", port))
	if err := coord.wait(t, time.Minute); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, coord.stderr.String())
	}
	werr := w.wait(t, 30*time.Second)
	if werr == nil || !strings.Contains(w.stderr.String(), "cannot play this run") {
		t.Errorf("worker: %v, stderr:\n%s", werr, w.stderr.String())
	}
	if !strings.Contains(coord.stderr.String(), "cannot play this run") || !strings.Contains(coord.stderr.String(), "./eng") {
		t.Errorf("the coordinator did not say which worker cannot play and why:\n%s", coord.stderr.String())
	}
	f, err := results.ReadFile(filepath.Join(dir, "b.jsonl"))
	if err != nil || len(f.Games) != 30 {
		t.Fatalf("record: %v, %d games", err, len(f.Games))
	}
}

// TestBrokerSPSA: tune spsa through the broker, each iteration a run of
// the queue served by a worker with --wait, writes the same run file,
// byte for byte, as without the broker (iterations applied in order).
func TestBrokerSPSA(t *testing.T) {
	if testing.Short() {
		t.Skip("a run of several seconds")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.txt"), []byte("c, float, 0.7, 0.1, 3, 0.1, 0.002\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	w := startArena(t, dir, "worker", "--broker", fmt.Sprintf("nats://127.0.0.1:%d", port), "--concurrency", "1", "--wait", "--patience", "2s")
	run := []string{"tune", "spsa", "--agent", "mcts:iters=300", "--params", "p.txt", "--iterations", "8", "--pairs-per", "2", "--verify=false", "--no-progress", "--seed", "5", "--concurrency", "1"}
	// No local worker (--concurrency 0): the worker plays every game.
	coord := startArena(t, dir, append(slices.Clone(run), "--concurrency", "0", "--out", "broker.jsonl", "--broker", "embedded", "--listen", fmt.Sprintf("127.0.0.1:%d", port))...)
	if err := coord.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, coord.stderr.String())
	}
	local := startArena(t, dir, append(run, "--out", "local.jsonl")...)
	if err := local.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("local run: %v\n%s", err, local.stderr.String())
	}
	a, _ := os.ReadFile(filepath.Join(dir, "local.jsonl"))
	b, _ := os.ReadFile(filepath.Join(dir, "broker.jsonl"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("run files differ:\nlocal:\n%s\nbroker:\n%s", a, b)
	}
	w.wait(t, 30*time.Second) // it leaves once the broker is gone for --patience
	if n := workerPlayedAll(w.stderr.String()); n != 8*2*2 {
		t.Errorf("the worker played %d games, want all 32 (8 iterations of 2 pairs):\n%s", n, w.stderr.String())
	}
}
