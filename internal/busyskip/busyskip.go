// Package busyskip is for the few tests that judge real time (an agent
// answering within its budget, a watchdog noticing a late answer): each
// runs a control beside it, and when even the control was late the machine
// was too busy for a verdict. Such a test skips through Skipf, which also
// writes the skip to the file named by $ARENA_BUSY_SKIPS, so that .ci/run
// lists every timing test that could not judge instead of counting it as
// passed.
package busyskip

import (
	"fmt"
	"os"
	"testing"
)

// Env names the file that Skipf appends its lines to; unset, nothing is
// written.
const Env = "ARENA_BUSY_SKIPS"

// Skipf skips t as too busy to judge, with the reason, and appends a line
// naming the test to the file named by $ARENA_BUSY_SKIPS.
func Skipf(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := "the machine is too busy to judge: " + fmt.Sprintf(format, args...)
	if err := record(os.Getenv(Env), t.Name(), msg); err != nil {
		t.Errorf("%s: %v", Env, err)
	}
	t.Skip(msg)
}

// record appends "name: msg" to the file path; an empty path records
// nothing. One write of one line with O_APPEND, so that test binaries run
// in parallel do not interleave their lines.
func record(path, name, msg string) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s: %s\n", name, msg)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
