// Package botproctest helps tests prove that no bot process outlives its
// run: a test bot writes its PID (and its children's) to files, and the
// test asks Running of each after the run.
package botproctest

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// NoneRunning fails t unless pidFile holds at least one PID (blank
// separated, as a script's `echo $$ >> FILE` writes them) and every one of
// those processes has ended within 5 s.
func NoneRunning(t testing.TB, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil || len(strings.Fields(string(b))) == 0 {
		t.Fatalf("no PID was written to %s: %v", pidFile, err)
	}
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("%s: %q is not a PID", pidFile, f)
		}
		deadline := time.Now().Add(5 * time.Second)
		for Running(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if Running(pid) {
			t.Errorf("process %d still runs", pid)
		}
	}
}
