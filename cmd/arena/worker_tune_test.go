package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/results"
)

// TestBrokerSweep: tune sweep through the broker, with two arena worker
// processes, records the local sweep's games, game by game: the workers
// rebuild the sweep's schedule from the header (kind sweep).
func TestBrokerSweep(t *testing.T) {
	dir := t.TempDir()
	run := []string{"tune", "sweep", "--game", "othello6", "--agent", "mcts:iters=1500", "--param", "c", "--values", "0.3,1.4",
		"--against", "random", "--against", "alphabeta:depth=3", "--games", "8", "--seed", "8", "--bootstrap", "20", "--no-progress", "--concurrency", "1"}
	coord, remote := brokerEqualsLocal(t, dir, 2, run)
	f := readRecords(t, filepath.Join(dir, "broker.jsonl"))
	if c := f.Header.Config; c.Kind != results.Sweep || c.Swept != 2 || len(f.Games) != 2*2*8 {
		t.Errorf("header kind %s swept %d, %d games; want sweep, 2, 32", c.Kind, c.Swept, len(f.Games))
	}
	// The record names the worker of every game a remote worker played,
	// and the coordinator's summary counts them.
	named := 0
	for _, g := range f.Games {
		if g.Worker != "" {
			named++
		}
	}
	if named != remote || !strings.Contains(coord.stderr.String(), "games by worker") {
		t.Errorf("%d games name a worker, the workers played %d; coordinator:\n%s", named, remote, coord.stderr.String())
	}
	t.Logf("remote workers played %d of the %d games", remote, len(f.Games))
}

// TestTournamentResumeSweep: arena tournament --resume of an interrupted
// sweep's file (cut after a few games) completes it with exactly the
// sweep's games, those of the uninterrupted sweep.
func TestTournamentResumeSweep(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	if code, _, stderr := runArena(sweepArgsFor("--out", whole)...); code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	}
	// The file as an interruption leaves it: the header and 5 games.
	data, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	cut := filepath.Join(dir, "cut.jsonl")
	if err := os.WriteFile(cut, bytes.Join(lines[:6], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runArena("tournament", "--resume", cut, "--no-progress", "--concurrency", "2")
	if code != 0 {
		t.Fatalf("tournament --resume: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "(5 already recorded, 19 to play)") {
		t.Errorf("stderr: %s", stderr)
	}
	sameRecords(t, whole, cut)
	// tune sweep reads the completed file as its own.
	code, stdout, stderr := runArena(sweepArgsFor("--resume", cut)...)
	if code != 0 || !strings.Contains(stdout, "Elo against iters (24 games") {
		t.Errorf("tune sweep --resume of the completed file: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestBrokerTexel: tune texel --broker plays its self-play games and its
// verification match through the broker, served by a worker process with
// --wait: the self-play record, the verification record and the tuned
// weights are those of the local run. The coordinator plays no game itself
// (--concurrency 0), so the worker plays them all.
func TestBrokerTexel(t *testing.T) {
	dir := t.TempDir()
	port := freePort(t)
	w := startArena(t, dir, "worker", "--broker", fmt.Sprintf("nats://127.0.0.1:%d", port), "--concurrency", "1", "--wait", "--patience", "2s")
	run := []string{"tune", "texel", "--game", "othello6", "--agent", "alphabeta:depth=3", "--self-play", "24", "--evaluations", "60",
		"--verify-games", "8", "--seed", "3", "--no-progress", "--concurrency", "1"}
	coord := startArena(t, dir, append(slices.Clone(run), "--concurrency", "0", "--out", "broker.jsonl", "--verify-out", "broker-verify.jsonl", "--broker", "embedded", "--listen", fmt.Sprintf("127.0.0.1:%d", port))...)
	if err := coord.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, coord.stderr.String())
	}
	if strings.Contains(coord.stderr.String(), "rejected") {
		t.Errorf("the coordinator rejected results:\n%s", coord.stderr.String())
	}
	local := startArena(t, dir, append(run, "--out", "local.jsonl", "--verify-out", "local-verify.jsonl")...)
	if err := local.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("local run: %v\n%s", err, local.stderr.String())
	}
	sameRecords(t, filepath.Join(dir, "local.jsonl"), filepath.Join(dir, "broker.jsonl"))
	sameRecords(t, filepath.Join(dir, "local-verify.jsonl"), filepath.Join(dir, "broker-verify.jsonl"))
	// The verification match is between the tuned spec and the start: the
	// same tuned weights.
	a, b := readRecords(t, filepath.Join(dir, "local-verify.jsonl")), readRecords(t, filepath.Join(dir, "broker-verify.jsonl"))
	if fmt.Sprint(a.Header.Config.Agents) != fmt.Sprint(b.Header.Config.Agents) {
		t.Errorf("tuned specs differ: local %v, broker %v", a.Header.Config.Agents, b.Header.Config.Agents)
	}
	t0 := time.Now()
	w.wait(t, 30*time.Second) // it leaves once the broker is gone for --patience
	t.Logf("the worker left %s after the runs", time.Since(t0).Round(time.Millisecond))
	if n, want := workerPlayedAll(w.stderr.String()), 24+len(b.Games); n != want {
		t.Errorf("the worker played %d games, want all %d (24 self-play, %d verification):\n%s", n, want, len(b.Games), w.stderr.String())
	}
}

// workerPlayedAll is the number of games a --wait worker's stderr says it
// played, over all the runs it served.
func workerPlayedAll(stderr string) int {
	n := 0
	for _, m := range playedRE.FindAllStringSubmatch(stderr, -1) {
		k, _ := strconv.Atoi(m[1])
		n += k
	}
	return n
}
