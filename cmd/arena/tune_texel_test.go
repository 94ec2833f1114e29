package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/tune"
)

// texelRun runs "arena tune texel ARGS" and returns stdout, stderr and the
// error.
func texelRun(args ...string) (string, string, error) {
	var out, errb bytes.Buffer
	err := runTuneTexel(args, &out, &errb)
	if err != nil {
		err = errors.New(errorText(err)) // as run prints it: options as flags
	}
	return out.String(), errb.String(), err
}

// texelRecords writes a record file of 40 othello6 games, greedy against
// random, and returns its path.
func texelRecords(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.jsonl")
	var out, errb bytes.Buffer
	if code := run([]string{"tournament", "--game", "othello6", "--agents", "greedy", "random", "--games", "40", "--seed", "5", "--out", path, "--no-progress"}, &out, &errb); code != 0 {
		t.Fatalf("tournament: exit %d: %s", code, errb.String())
	}
	return path
}

func TestTuneTexelFlagErrors(t *testing.T) {
	recs := texelRecords(t)
	erdos := filepath.Join(t.TempDir(), "erdos.jsonl")
	var out, errb bytes.Buffer
	if code := run([]string{"tournament", "--game", "erdos", "--agents", "random", "random", "--games", "2", "--out", erdos, "--no-progress"}, &out, &errb); code != 0 {
		t.Fatalf("erdos tournament: exit %d: %s", code, errb.String())
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "no training games: give --records FILE…"},
		{[]string{"--records", recs, "--self-play", "10"}, "two sources of games"},
		{[]string{"--records", recs, "--out", "x.jsonl"}, "two sources of games"},
		{[]string{"--self-play", "3"}, "--self-play 3: use an even number"},
		{[]string{"--self-play", "-2"}, "--self-play -2"},
		{[]string{"--self-play", "10", "--out", "a", "--resume", "b"}, "leave out --out"},
		{[]string{"--records", recs, "--skip-plies", "-2"}, "--skip-plies -2: use 0 to 1000"},
		{[]string{"--records", recs, "--positions", "0"}, "--positions 0: use 1 to"},
		{[]string{"--records", recs, "--positions", "600000"}, "--positions 600000"},
		{[]string{"--records", recs, "--evaluations", "0"}, "--evaluations 0"},
		{[]string{"--records", recs, "--k", "-1"}, "--k -1"},
		{[]string{"--records", recs, "--k", "NaN"}, "--k NaN"},
		{[]string{"--records", recs, "--concurrency", "0"}, "--concurrency 0"},
		{[]string{"--records", recs, "--verify-games", "3"}, "--verify-games 3"},
		{[]string{"--records", recs, "--verify=false", "--verify-out", "v.jsonl"}, "leave it out with --verify=false"},
		{[]string{"--records", recs, "--verify-sprt", "elo0=5,elo1=0"}, "--verify-sprt"},
		{[]string{"--records", recs, "--format", "xml"}, `unknown --format "xml"`},
		{[]string{"stray", "--records", recs}, `unexpected argument "stray"`},
		{[]string{"--records", recs, "--game", "nosuchgame"}, "nosuchgame"},
		{[]string{"--records", recs, "--game", "tryangle"}, "simultaneous-move game"},
		{[]string{"--records", recs, "--agent", "greedy:eval.nosuch=3"}, `the game has no weight "nosuch" (its weights: corner_open`},
		{[]string{"--records", recs, "--agent", "greedy:eval.corner_open=9999"}, "eval.corner_open"},
		{[]string{"--records", recs, "--agent", "random", "--verify=false"}, "random takes no eval.NAME keys, so its weights cannot be tuned (agents that take them: alphabeta, greedy, mcts)"},
		{[]string{"--records", filepath.Join(t.TempDir(), "missing.jsonl")}, "missing.jsonl"},
		{[]string{"--records", erdos}, "a game of erdos, not othello6"},
		{[]string{"--records", recs, "--skip-plies", "1000"}, "no position to fit"},
	} {
		_, _, err := texelRun(c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("tune texel %q: error %v, want one with %q", c.args, err, c.want)
		}
	}
}

// The flags reach the run: a small fit from records, as JSON, with its
// verification match recorded (tune's TestRunTexelRecords tests the run).
func TestTuneTexelRecordsJSON(t *testing.T) {
	recs := texelRecords(t)
	verify := filepath.Join(t.TempDir(), "verify.jsonl")
	stdout, stderr, err := texelRun("--records", recs, "--agent", "greedy:name=g", "--evaluations", "20", "--skip-plies", "4", "--positions", "300",
		"--verify-games", "4", "--verify-out", verify, "--concurrency", "2", "--format", "json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var r tune.TexelReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if r.StartSpec != "greedy:name=g" || r.SkipPlies != 4 || r.Positions+r.HeldOutPositions != 300 || r.Evaluations < 20 || r.Evaluations >= tune.DefaultEvaluations {
		t.Errorf("start %q, skip %d, %d+%d positions, %d evaluations", r.StartSpec, r.SkipPlies, r.Positions, r.HeldOutPositions, r.Evaluations)
	}
	if r.Verify == nil || r.Verify.Games() == 0 || r.Verify.Games() > 4 {
		t.Fatalf("verification %+v", r.Verify)
	}
	if file, err := results.ReadFile(verify); err != nil || len(file.Games) < r.Verify.Games() {
		t.Errorf("verification record: %v", err)
	}
	// A verification match is not continued: its record is not offered
	// for a resume.
	_, _, err = texelRun("--records", recs, "--agent", "greedy:name=g", "--evaluations", "20", "--skip-plies", "4", "--positions", "300",
		"--verify-games", "4", "--verify-out", verify, "--concurrency", "2", "--format", "json")
	if want := "--verify-out " + verify + " already exists: choose another file"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("--verify-out onto its own record: %v, want %q", err, want)
	}
}

// Self-play writes its games; a resume takes the flags its file keeps
// from it and refuses others, and fits the same positions to the same
// weights; the text output names the tuned spec. (tune's
// TestTexelSelfPlayResume tests resumes after a kill.)
func TestTuneTexelSelfPlayResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "self.jsonl")
	args := []string{"--evaluations", "30", "--verify=false", "--concurrency", "2", "--no-progress"}
	first, stderr, err := texelRun(append([]string{"--self-play", "6", "--agent", "greedy", "--out", path}, args...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if file, err := results.ReadFile(path); err != nil || len(file.Games) != 6 || file.Header.Config.Openings != tune.DefaultTexelOpenings {
		t.Fatalf("self-play record: %v", err)
	}
	strip := func(s string) string { // the timing differs
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "MSE ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	// Resumed with the fit's flags alone: the agent (greedy, not the
	// default alphabeta), seed, games and openings come from the file.
	again, stderr, err := texelRun(append([]string{"--resume", path}, args...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if strip(first) != strip(again) {
		t.Errorf("resumed run differs:\n%s\nfirst:\n%s", again, first)
	}
	// Flags the file keeps must agree with it.
	if _, _, err := texelRun("--resume", path, "--agent", "alphabeta:depth=3", "--seed", "9", "--openings", "random:8", "--game", "othello6", "--verify=false"); err == nil ||
		!strings.Contains(err.Error(), "agent: greedy (file) ≠ alphabeta:depth=3 (now)") || !strings.Contains(err.Error(), "seed: 1 (file) ≠ 9 (now)") ||
		strings.Contains(err.Error(), "openings:") || strings.Contains(err.Error(), "game:") {
		t.Errorf("resume with other flags: %v", err)
	}
	if !strings.Contains(first, "\ntuned: greedy") || !strings.Contains(first, "K = ") {
		t.Errorf("text output:\n%s", first)
	}
	if _, _, err := texelRun(append([]string{"--self-play", "6", "--out", path}, args...)...); err == nil || !strings.Contains(err.Error(), "exist") {
		t.Errorf("--out onto an existing file: error %v", err)
	}
	// A resume of a record killed while writing says that it cut off the
	// torn last line, as tournament and match do, plays the lost game
	// again and fits the same weights.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)-20], 0o644); err != nil {
		t.Fatal(err)
	}
	torn, stderr, err := texelRun(append([]string{"--resume", path}, args...)...)
	if err != nil || !strings.Contains(stderr, "cut off a torn last line") {
		t.Errorf("resume of a torn record: %v, stderr:\n%s", err, stderr)
	}
	if strip(torn) != strip(first) {
		t.Errorf("the torn record's resume differs:\n%s\nfirst:\n%s", torn, first)
	}
}

// TestTuneTexelRefusedOutStartsNoBroker: a self-play record that exists
// is refused before the broker starts, as in arena tournament: no broker
// address is printed and no store directory is left next to the record
// (the broker was opened first, and its store stayed).
func TestTuneTexelRefusedOutStartsNoBroker(t *testing.T) {
	path := filepath.Join(t.TempDir(), "self.jsonl")
	if err := os.WriteFile(path, []byte("not ours\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := texelRun("--self-play", "4", "--agent", "greedy", "--out", path, "--verify=false", "--no-progress",
		"--broker", "embedded", "--listen", fmt.Sprintf("127.0.0.1:%d", freePort(t)))
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("--out onto an existing file: %v", err)
	}
	if _, serr := os.Stat(path + ".broker"); !errors.Is(serr, os.ErrNotExist) || strings.Contains(stderr, "nats://") {
		t.Errorf("the refused run started its broker (store: %v):\n%s", serr, stderr)
	}
	if got, _ := os.ReadFile(path); string(got) != "not ours\n" {
		t.Errorf("the file was changed: %q", got)
	}
}

// TestTexelResumeHint: the command an interrupted self-play run prints
// repeats the fit's flags, which its file does not keep, quoted for a shell.
func TestTexelResumeHint(t *testing.T) {
	f := &texelFlags{given: map[string]string{"agent": "greedy", "evaluations": "500", "verify-sprt": "elo0=0,elo1=300", "k": "1.5"}}
	want := "arena tune texel --resume 'my run.jsonl' --evaluations='500' --k='1.5' --verify-sprt='elo0=0,elo1=300'"
	if got := f.resumeHint("my run.jsonl"); got != want {
		t.Errorf("hint\n%s\nwant\n%s", got, want)
	}
}

// TestTuneTexelCtrlC: a fit stopped by Ctrl-C prints the best weights
// found so far and exits 1, as every interrupted command does (it exited
// 0, like a finished fit). The signal is sent when the positions are
// announced, just before the fit, and that line's write returns only once
// the signal's message is out: the handler's next step is to stop, and the
// fit (K, then thousands of evaluations) takes far longer than that step,
// so the fit always sees the stop, however slow the machine.
func TestTuneTexelCtrlC(t *testing.T) {
	// The test's own subscription keeps a late SIGINT from killing the
	// test binary.
	own := make(chan os.Signal, 4)
	signal.Notify(own, os.Interrupt)
	defer signal.Stop(own)
	recs := texelRecords(t)
	stderr := &signalOnWrite{trigger: " positions (", handled: "arena tune texel: stopping"}
	var stdout bytes.Buffer
	code := run([]string{"tune", "texel", "--records", recs, "--evaluations", "100000", "--verify=false"}, &stdout, stderr)
	errs := stderr.String()
	if code != 1 || !strings.Contains(errs, "arena tune texel: interrupted after ") || !strings.Contains(errs, "evaluations of the fit: the weights above are the best found so far") {
		t.Fatalf("exit %d (want 1, as an interrupted tournament, match or spsa), stderr:\n%s", code, errs)
	}
	if !strings.Contains(stdout.String(), "tuned: ") {
		t.Errorf("the best weights so far are not printed:\n%s", stdout.String())
	}
}

// signalOnWrite is a stderr that sends the process SIGINT on the first
// write holding trigger, and returns from that write once a later write
// (the signal handler's) holds handled.
type signalOnWrite struct {
	lockedBuffer
	trigger, handled string
	once             sync.Once
}

func (w *signalOnWrite) Write(p []byte) (int, error) {
	n, err := w.lockedBuffer.Write(p)
	if strings.Contains(string(p), w.trigger) {
		w.once.Do(func() {
			syscall.Kill(os.Getpid(), syscall.SIGINT)
			for deadline := time.Now().Add(30 * time.Second); !strings.Contains(w.String(), w.handled) && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
		})
	}
	return n, err
}

// TestTexelInterruptedCounts: an interrupted fit says "1 evaluation" (it
// said "1 evaluations"); a finished run is no error.
func TestTexelInterruptedCounts(t *testing.T) {
	for _, tc := range []struct {
		rep  tune.TexelReport
		want string
	}{
		{tune.TexelReport{Stopped: true, Evaluations: 1}, "interrupted after 1 evaluation of the fit: "},
		{tune.TexelReport{Stopped: true, Evaluations: 7}, "interrupted after 7 evaluations of the fit: "},
		{tune.TexelReport{Verify: &tune.VerifyResult{}}, "interrupted after 0 games of the verification match"},
	} {
		if err := texelInterrupted(&tc.rep); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v: %v; want %q", tc.rep, err, tc.want)
		}
	}
	if err := texelInterrupted(&tune.TexelReport{Verify: &tune.VerifyResult{Complete: true}}); err != nil {
		t.Errorf("a finished run: %v", err)
	}
}
