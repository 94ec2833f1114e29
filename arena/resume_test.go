package arena

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/results"
)

// createRecord starts the record file of tour at path, as a new
// session's (OpenSession with Out), for a test that writes games of its
// own choosing into it.
func createRecord(t *testing.T, path string, tour *Tournament) *results.Writer {
	t.Helper()
	w, err := results.Create(path, tour.header(1))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// resume reads the record at path to continue it, in a session that plays
// here with 1 worker; o, if not nil, are the caller's options (a command
// line's), which must then be the file's.
func resume(path string, o *Options) (*Session, error) {
	so := SessionOptions{Resume: path, Concurrency: 1, KeepMoves: -1} // the tests compare the moves
	if o != nil {
		so.Edit = func(e *Options) { *e = *o }
	}
	return OpenSession(so)
}

// resumeOptions is the tournament of the kill-and-resume test: deterministic
// given its seed, slow enough (t-slow sleeps per move) to be killed midway.
// At 3 ms a move the child played all 36 games while a loaded CI machine
// kept the test from polling (under -race); at 10 ms and a kill after
// killAfter games, about 0.4 s of the run is left to cut.
var resumeOptions = Options{
	Game:         "t-sum",
	Agents:       []string{"t-slow:sleep=10ms", "random", "t-max", "greedy"},
	GamesPerPair: 6,
	Seed:         99,
	Openings:     "random:2",
}

func TestMain(m *testing.M) {
	if path := os.Getenv("ARENA_TEST_CHILD_RECORD"); path != "" {
		// Child process of TestResumeAfterSIGKILL: play into path until killed.
		if err := runToFile(path, false); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runToFile plays resumeOptions into a new record file, or resumes it, the
// way the command line does (a Session): each finished batch is written at
// once.
func runToFile(path string, resume bool) error {
	o := SessionOptions{Options: resumeOptions, Out: path, Concurrency: 2}
	if resume {
		o = SessionOptions{Resume: path, Concurrency: 2}
	}
	s, err := OpenSession(o)
	if err != nil {
		return err
	}
	defer s.Close()
	_, err = s.Run(context.Background(), RunOptions{ReuseGames: true})
	return err
}

// killAfter is how many games the child has recorded when it is killed.
const killAfter = 4

func countGameLines(path string) int {
	data, _ := os.ReadFile(path)
	return bytes.Count(data, []byte(`{"record":"game"`))
}

// TestResumeAfterSIGKILL kills a tournament process mid-run, resumes it,
// and checks that the file ends with exactly the planned games, none twice,
// equal to those of an uninterrupted run.
func TestResumeAfterSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Log("short mode: running the kill test anyway (it takes about a second)")
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ARENA_TEST_CHILD_RECORD="+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for countGameLines(path) < killAfter {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the child recorded only %d games in 20 s: %s", countGameLines(path), stderr.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed by SIGKILL (%v): it finished too early; %s", err, stderr.String())
	}
	before, err := results.ReadFile(path)
	if err != nil {
		t.Fatalf("the killed run's file does not read: %v", err)
	}
	planned := mustNew(t, resumeOptions).Schedule.Len()
	if n := len(before.Games); n < killAfter || n >= planned {
		t.Fatalf("killed after %d of %d games; the test needs a run cut midway", n, planned)
	}
	t.Logf("killed after %d of %d games (torn last line: %t)", len(before.Games), planned, before.Torn)

	if err := runToFile(path, true); err != nil {
		t.Fatal(err)
	}
	after, err := results.ReadFile(path) // also rejects duplicate indices
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Games) != planned || after.Torn || len(after.Resumes) != 1 {
		t.Fatalf("after resuming: %d games (want %d), torn %t, %d resume notes", len(after.Games), planned, after.Torn, len(after.Resumes))
	}
	got := slices.Clone(after.Games)
	slices.SortFunc(got, func(a, b results.GameRecord) int { return a.Index - b.Index })
	want, _ := collect(t, mustNew(t, resumeOptions), RunOptions{Concurrency: 3})
	for i := range want {
		if a, b := fmt.Sprint(comparable(got)[i]), fmt.Sprint(comparable(want)[i]); a != b {
			t.Fatalf("game %d differs from the uninterrupted run:\n%s\n%s", i, a, b)
		}
	}
	// The games recorded before the kill are kept byte for byte.
	for i, g := range before.Games {
		if fmt.Sprint(g) != fmt.Sprint(after.Games[i]) {
			t.Fatalf("recorded game %d changed on resume", g.Index)
		}
	}
}

func TestResumeRejectsAnotherConfiguration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	tour := mustNew(t, resumeOptions)
	createRecord(t, path, tour).Close()
	other := resumeOptions
	other.GamesPerPair = 8
	other.Seed = 1
	_, err := resume(path, &other)
	if err == nil || !strings.Contains(err.Error(), "games: 6 (file) ≠ 8 (now)") || !strings.Contains(err.Error(), "seed: 99 (file) ≠ 1 (now)") {
		t.Errorf("mismatch error: %v", err)
	}
	// The same configuration resumes; with nothing left to play, Run does nothing.
	s, err := resume(path, &resumeOptions)
	if err != nil || s.Done().Len() != 0 {
		t.Fatalf("%v", err)
	}
	if s.Tournament().Schedule.Len() != tour.Schedule.Len() {
		t.Error("resumed tournament has another schedule")
	}
}
