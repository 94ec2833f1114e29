package broker

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// The summary lists each worker's games and forfeits by kind, the
// coordinator's own workers as "this coordinator"; a hub's runs list them
// only when a forfeit happened.
func TestWorkerSummary(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tally  map[string]*workerTally
		always bool
		want   []string // lines, in order; nil: no summary
	}{
		{"local only", map[string]*workerTally{LocalWorker: {games: 5, forfeits: map[string]int{}}}, true, nil},
		{"with forfeits", map[string]*workerTally{
			LocalWorker: {games: 5, forfeits: map[string]int{}},
			"node2:77":  {games: 9, forfeits: map[string]int{results.Timeout: 2, results.Crash: 1}},
		}, false, []string{"games by worker", "this coordinator", "5 games", "node2:77", "9 games, 3 forfeits (2 timeout, 1 crash)"}},
		{"a hub's run without forfeits", map[string]*workerTally{"n": {games: 3, forfeits: map[string]int{}}}, false, nil},
		{"one run without forfeits", map[string]*workerTally{"n": {games: 3, forfeits: map[string]int{}}}, true, []string{"games by worker", "n", "3 games"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log strings.Builder
			c := &coordinator{log: &log, byWorker: tc.tally}
			c.summary(tc.always)
			out := log.String()
			if tc.want == nil {
				if out != "" {
					t.Errorf("summary %q, want none", out)
				}
				return
			}
			at := 0
			for _, w := range tc.want {
				i := strings.Index(out[at:], w)
				if i < 0 {
					t.Fatalf("summary lacks %q after byte %d:\n%s", w, at, out)
				}
				at += i + len(w)
			}
		})
	}
}

func TestWorkerName(t *testing.T) {
	long := strings.Repeat("é", 80) // 160 bytes
	for _, tc := range []struct{ in, want string }{
		{"node1:42", "node1:42"},
		{"", "?"},
		{"bad\xffutf8", "bad?utf8"},
		{"red\x1b[31m\nline\ttab", "red?[31m?line tab"},
		{long, strings.Repeat("é", results.MaxWorkerName/2)},
	} {
		if got := workerName(tc.in); got != tc.want {
			t.Errorf("workerName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPrintable: what a worker sends reaches the coordinator's terminal
// without control characters (an escape sequence, a line break that would
// fake a log line) or invalid UTF-8.
func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"cannot build agent x: unknown kind", "cannot build agent x: unknown kind"},
		{"ünïcödé ok", "ünïcödé ok"},
		{"\x1b[2J\x1b[Harena: game 3 recorded\nfake", "?[2J?[Harena: game 3 recorded?fake"},
		{"a\tb\rc\x00d\x7fe\u200bf", "a b?c?d?e?f"},
		{"bad\xff", "bad?"},
	} {
		if got := printable(tc.in); got != tc.want {
			t.Errorf("printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
