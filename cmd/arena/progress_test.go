package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/arena"
)

// TestProgressStatus: off a terminal, each progress line ends with the
// runner's refusals once there are any, and says nothing of them before.
func TestProgressStatus(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, "tournament", 4, false)
	p.add(1)
	p.setStatus(arena.RunStatus{RefusedLogins: 2, RefusedMessages: 1})
	p.add(1)
	p.setStatus(arena.RunStatus{})
	p.add(1)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), b.String())
	}
	for i, want := range []bool{false, true, false} {
		if got := strings.HasSuffix(lines[i], ", 3 refused (2 logins, 1 message)"); got != want || strings.Contains(lines[i], "refused") != want {
			t.Errorf("line %d: %q", i+1, lines[i])
		}
	}
}

// refusedLoginLines runs the command (its flags after the broker's) as a
// coordinator, lets a worker with a wrong token be refused and then one
// with the right token play, and returns the coordinator's stderr lines
// that contain mark.
func refusedLoginLines(t *testing.T, mark string, command ...string) []string {
	t.Helper()
	dir := t.TempDir()
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	args := append(command, "--concurrency", "0", "--broker", "embedded", "--token", "right", "--listen", fmt.Sprintf("127.0.0.1:%d", port))
	coord := startArena(t, dir, args...)
	waitFor(t, coord, "workers join")
	bad := startArena(t, dir, "worker", "--broker", url, "--token", "wrong")
	if err := bad.wait(t, 30*time.Second); err == nil {
		t.Fatalf("a wrong token was let in:\n%s", bad.stderr.String())
	}
	waitFor(t, coord, "refused a login")
	// Its games come after the refusal: each line counts it.
	good := startArena(t, dir, "worker", "--broker", url, "--token", "right", "--concurrency", "1")
	if err := coord.wait(t, 2*time.Minute); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, coord.stderr.String())
	}
	good.wait(t, 30*time.Second)
	var lines []string
	for _, l := range strings.Split(coord.stderr.String(), "\n") {
		if strings.Contains(l, mark) {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		t.Errorf("no line with %q:\n%s", mark, coord.stderr.String())
	}
	return lines
}

// TestProgressRefusedLogin: a coordinator's progress lines (stderr not a
// terminal) count a worker's refused login. Before RunOptions.Status the
// line had no such count: only the log line and the final table said it.
func TestProgressRefusedLogin(t *testing.T) {
	for _, l := range refusedLoginLines(t, "games/s, ETA", "tournament", "--game", "othello6", "--agents", "random", "greedy", "--games", "10", "--seed", "2", "--out", "r.jsonl") {
		if !strings.HasSuffix(l, ", 1 refused (1 login)") {
			t.Errorf("a progress line without the refused login: %q", l)
		}
	}
}

// TestMatchLineRefusedLogin: a match's status lines (its progress) end
// with the refusals as the tournament's progress lines do.
func TestMatchLineRefusedLogin(t *testing.T) {
	for _, l := range refusedLoginLines(t, "LOS", "match", "--game", "othello6", "--agents", "random", "greedy", "--games", "20", "--seed", "2", "--rating-interval", "2", "--out", "m.jsonl") {
		if !strings.HasSuffix(l, ", 1 refused (1 login)") {
			t.Errorf("a status line without the refused login: %q", l)
		}
	}
}
