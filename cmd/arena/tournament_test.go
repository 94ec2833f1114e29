package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/results"
)

func readRecords(t *testing.T, path string) *results.File {
	t.Helper()
	f, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// sameGames compares the games of two record files by index, ignoring times.
func sameGames(a, b []results.GameRecord) error {
	key := func(gs []results.GameRecord) []string {
		var out []string
		for _, g := range gs {
			g.DurationMS = 0
			for p := range g.Players {
				g.Players[p].TimeMS, g.Players[p].MaxMoveMS = 0, 0
			}
			out = append(out, fmt.Sprintf("%08d %v", g.Index, g))
		}
		slices.Sort(out)
		return out
	}
	ka, kb := key(a), key(b)
	if len(ka) != len(kb) {
		return fmt.Errorf("%d games against %d", len(ka), len(kb))
	}
	for i := range ka {
		if ka[i] != kb[i] {
			return fmt.Errorf("game differs:\n%s\n%s", ka[i], kb[i])
		}
	}
	return nil
}

func TestTournamentWritesRecordsAndRatings(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run.jsonl")
	code, stdout, stderr := runArena("tournament", "--game", "othello6", "--agents", "random", "greedy", "random:name=rnd2",
		"--games", "4", "--concurrency", "2", "--seed", "7", "--out", out, "--format", "json", "--bootstrap", "100")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep results.Analysis
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("json output: %v\n%s", err, stdout)
	}
	if rep.Games != 12 || len(rep.Players) != 3 || len(rep.Crosstable) != 6 {
		t.Errorf("report: %d games, %d players, %d crosstable rows", rep.Games, len(rep.Players), len(rep.Crosstable))
	}
	for _, p := range rep.Players {
		if p.Games != 8 || p.Wins+p.Draws+p.Losses != 8 || !(p.EloLow <= p.Elo && p.Elo <= p.EloHigh) {
			t.Errorf("player row %+v", p)
		}
	}
	f := readRecords(t, out)
	if len(f.Games) != 12 || f.Header.Config.Seed != 7 || f.Header.Config.Openings != "random:2" {
		t.Errorf("record file: %d games, config %+v", len(f.Games), f.Header.Config)
	}
	if !strings.Contains(stderr, "played 12 games") {
		t.Errorf("stderr: %s", stderr)
	}
	// rate reads the same file back.
	code, text, stderr := runArena("rate", out, "--bootstrap", "50")
	if code != 0 || !strings.Contains(text, "Crosstable") || !strings.Contains(text, "rnd2") || !strings.Contains(text, "Mean game length") {
		t.Errorf("rate: exit %d, %s %s", code, text, stderr)
	}
	code, csv, _ := runArena("rate", "--format", "csv", out)
	if lines := strings.Split(strings.TrimSpace(csv), "\n"); code != 0 || len(lines) != 4 || !strings.HasPrefix(lines[0], "rank,name,elo,elo_low,elo_high") {
		t.Errorf("rate csv: %q", csv)
	}
	code, pgn, _ := runArena("rate", out, "--export", "pgn")
	if code != 0 || strings.Count(pgn, "[Result ") != 12 || strings.Count(pgn, "[White ") != 12 {
		t.Errorf("pgn export: %q", pgn)
	}
	code, gamesCSV, _ := runArena("rate", out, "--export", "csv")
	if lines := strings.Split(strings.TrimSpace(gamesCSV), "\n"); code != 0 || len(lines) != 13 {
		t.Errorf("csv export: %d lines", len(lines))
	}
	code, md, _ := runArena("rate", out, "--format", "markdown", "--bootstrap", "0")
	if code != 0 || !strings.Contains(md, "| Rank |") || !strings.Contains(md, "### Crosstable") {
		t.Errorf("markdown: %s", md)
	}
}

// TestTournamentResume: --resume reaches the session (arena's
// TestSessionResume and TestSessionResumeRefused test the resume itself):
// the run says what is left and that it cut a torn line, rates with the
// record's seed, and the errors name the flags.
func TestTournamentResume(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.jsonl")
	args := []string{"tournament", "--agents", "random", "greedy", "--games", "6", "--gauntlet", "--seed", "3", "--bootstrap", "0"}
	if code, _, stderr := runArena(append(args, "--out", full)...); code != 0 {
		t.Fatal(stderr)
	}
	// Cut the file after the header and two games, with half a third line
	// (as a killed run leaves it), then resume with the file alone.
	data, _ := os.ReadFile(full)
	lines := strings.SplitAfter(string(data), "\n")
	cut := filepath.Join(dir, "cut.jsonl")
	os.WriteFile(cut, []byte(lines[0]+lines[1]+lines[2]+lines[3][:20]), 0o644)
	code, _, stderr := runArena("tournament", "--resume", cut, "--bootstrap", "0", "--concurrency", "1")
	if code != 0 || !strings.Contains(stderr, "2 already recorded, 4 to play") || !strings.Contains(stderr, "torn last line") {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if err := sameGames(readRecords(t, full).Games, readRecords(t, cut).Games); err != nil {
		t.Errorf("resumed run differs from the uninterrupted one: %v", err)
	}
	// The resumed run rates with the record's seed: its bootstrap
	// intervals are the uninterrupted run's.
	_, want, _ := runArena("rate", full, "--bootstrap", "200")
	os.WriteFile(cut, []byte(lines[0]+lines[1]+lines[2]), 0o644)
	code, got, stderr := runArena("tournament", "--resume", cut, "--bootstrap", "200", "--concurrency", "1")
	if code != 0 || got != want {
		t.Errorf("resumed table differs from the record's (exit %d, %s):\n%s\nwant:\n%s", code, stderr, got, want)
	}
	// Flags that agree with the file are accepted; others are an error.
	if code, _, stderr := runArena(append(args, "--resume", cut)...); code != 0 {
		t.Errorf("resume with matching flags: %s", stderr)
	}
	code, _, stderr = runArena("tournament", "--resume", cut, "--games", "8", "--seed", "4")
	if code != 1 || !strings.Contains(stderr, "--resume "+cut+": the configuration differs") || !strings.Contains(stderr, "games: 6 (file) ≠ 8 (now)") {
		t.Errorf("mismatch: exit %d: %s", code, stderr)
	}
	code, _, stderr = runArena("tournament", "--resume", cut, "--out", full)
	if code != 1 || !strings.Contains(stderr, "--resume continues its own file; leave out --out") {
		t.Errorf("--resume with another --out: exit %d: %s", code, stderr)
	}
	code, _, stderr = runArena(append(args, "--out", full)...)
	if want := "--out " + full + " already exists: continue it with --resume " + full + ", or choose another file"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("overwrite: exit %d: %s\nwant %q", code, stderr, want)
	}
}

func TestMatchCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.jsonl")
	code, stdout, stderr := runArena("match", "--agents", "greedy", "random", "--sprt", "elo0=0,elo1=100", "--games", "200",
		"--format", "json", "--out", out, "--seed", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep matchReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if rep.Decision != "H1 accepted" || rep.Pairs == 0 || rep.LLR == nil || *rep.LLR < *rep.LLRUpper || rep.Penta.Pairs() != rep.Pairs {
		t.Errorf("match report %+v", rep)
	}
	if !strings.Contains(stderr, "pairs ") || !strings.Contains(stderr, "LLR") {
		t.Errorf("no status line on stderr: %s", stderr)
	}
	if f := readRecords(t, out); f.Header.Config.Kind != results.Match || f.Header.Config.SPRT == nil || len(f.Games) < 2*rep.Pairs {
		t.Errorf("match record: %+v, %d games", f.Header.Config, len(f.Games))
	}
	// A fixed-length match without a test.
	code, text, stderr := runArena("match", "--agents", "random", "greedy", "--games", "10")
	if code != 0 || !strings.Contains(text, "Fixed-length match: 5 pairs (10 games)") || !strings.Contains(text, "Pentanomial") {
		t.Errorf("fixed match: exit %d: %s %s", code, text, stderr)
	}
	for _, bad := range [][]string{
		{"match", "--agents", "random"},
		{"match", "--agents", "random", "greedy", "--sprt", "elo0=10,elo1=0"},
		{"match", "--agents", "random", "greedy", "--sprt", "elo0=0,elo1=10", "--model", "bayes"},
		{"match", "--agents", "random", "greedy", "--games", "7"},
	} {
		if code, _, _ := runArena(bad...); code == 0 {
			t.Errorf("arena %v succeeded", bad)
		}
	}
}

func TestRateErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"record":"header","version":1,"config":{"kind":"round-robin","game":"othello6","agents":[{"name":"a","spec":"a"},{"name":"b","spec":"b"}],"total_games":2}}`+"\n{\"record\":\"game\",\"index\":0,\"plies\":\"x\"}\n"), 0o644)
	code, _, stderr := runArena("rate", bad)
	if code != 1 || !strings.Contains(stderr, "bad.jsonl:2:") || !strings.Contains(stderr, `"plies"`) {
		t.Errorf("corrupt file: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runArena("rate"); code != 1 || !strings.Contains(stderr, "record files") {
		t.Errorf("no files: %d %s", code, stderr)
	}
	if code, _, _ := runArena("rate", bad, "--export", "sgf"); code != 1 {
		t.Error("unknown export accepted")
	}
}

func TestDefaultCommandIsAShortTournament(t *testing.T) {
	if defaultCommand[0] != "tournament" {
		t.Fatalf("default command %v", defaultCommand)
	}
	demo := demoAgents()
	if !slices.Contains(demo, "random") || !slices.Contains(demo, "greedy") {
		t.Errorf("demo agents %v", demo)
	}
	// Flags without a command go to the default tournament; keep it small.
	code, stdout, stderr := runArena("--games", "2", "--gauntlet", "--bootstrap", "20", "--format", "csv")
	if code != 0 || len(strings.Split(strings.TrimSpace(stdout), "\n")) != len(demo)+1 {
		t.Errorf("default tournament: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestCtrlC sends the test process SIGINT while a tournament runs: the first
// lets running games finish and be recorded, and the run says how to
// resume; a second stops at once, leaving a readable file. (arena's
// TestInterrupts and TestInterruptedSession test the stops themselves,
// and that a stopped run resumes to the planned games.)
//
// The second SIGINT is sent only once the first has been handled (its
// message is on stderr): two of the same signal that arrive before the
// process gets to the first merge into one, both in the kernel (a pending
// signal is not queued twice) and in Go's runtime (a bit per signal), so a
// second one sent a fixed 30 ms later was lost on a busy machine (5 of 40
// runs with the other helpers' builds running) and the run only stopped
// softly.
func TestCtrlC(t *testing.T) {
	// The test's own subscription keeps a SIGINT that arrives after the run
	// has let go of the signal (its games all ended) from killing the
	// whole test binary; the run then simply lacks the hard stop.
	own := make(chan os.Signal, 4)
	signal.Notify(own, os.Interrupt)
	defer signal.Stop(own)
	dir := t.TempDir()
	for _, twice := range []bool{false, true} {
		out := filepath.Join(dir, fmt.Sprintf("run-%t.jsonl", twice))
		// Slower games when stopping twice, so that the second signal
		// arrives while games are still running.
		iters := map[bool]string{false: "mcts:iters=1500", true: "mcts:iters=10000"}[twice]
		args := []string{"tournament", "--agents", iters, "greedy", "--games", "40", "--concurrency", "2",
			"--out", out, "--bootstrap", "0", "--no-progress"}
		type result struct {
			code           int
			stdout, stderr string
		}
		var stderr lockedBuffer
		done := make(chan result)
		go func() {
			var stdout bytes.Buffer
			c := run(args, &stdout, &stderr)
			done <- result{c, stdout.String(), stderr.String()}
		}()
		waitUntil(t, "2 games recorded", func() bool { return countGames(out) >= 2 })
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		if twice {
			waitUntil(t, "the first Ctrl-C handled", func() bool {
				return strings.Contains(stderr.String(), "the running ones will finish")
			})
			syscall.Kill(os.Getpid(), syscall.SIGINT)
		}
		r := <-done
		if r.code != 1 || !strings.Contains(r.stderr, "interrupted after") || !strings.Contains(r.stderr, "arena tournament --resume "+out) {
			t.Fatalf("twice=%t: exit %d, stderr %s", twice, r.code, r.stderr)
		}
		want := "the running ones will finish"
		if twice {
			want = "stopping now"
		}
		if !strings.Contains(r.stderr, want) {
			t.Errorf("twice=%t: stderr lacks %q: %s", twice, want, r.stderr)
		}
		f := readRecords(t, out)
		if n := len(f.Games); n < 2 || n >= 40 || !strings.Contains(r.stdout, "Rank") {
			t.Errorf("twice=%t: %d games recorded; stdout %q", twice, n, r.stdout)
		}
	}
}

// waitUntil polls cond until it holds, failing t after 30 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s for %s", what)
		}
	}
}

// lockedBuffer is a bytes.Buffer that a run can write while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func countGames(path string) int {
	data, _ := os.ReadFile(path)
	return strings.Count(string(data), `{"record":"game"`)
}

// TestInterimTables: --rating-interval N prints the standings so far every
// N games (tournament) or the sweep's table (tune sweep), through the one
// run loop both share (playRun), and never after the last game. Results
// arrive in batches, so which counts get a table depends on timing: at
// least one must, each at a count below the run's.
func TestInterimTables(t *testing.T) {
	for _, tt := range []struct {
		args        []string
		head, final string
	}{
		{[]string{"tournament", "--agents", "random", "greedy", "--games", "40"}, "Standings after ", "of 40 games:"},
		{[]string{"tune", "sweep", "--game", "othello6", "--agent", "alphabeta:depth=1", "--param", "depth", "--values", "1,2",
			"--against", "random", "--games", "20"}, "After ", "of 40 games:"},
	} {
		code, _, stderr := runArena(append(tt.args, "--rating-interval", "4", "--no-progress", "--bootstrap", "0")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args[:2], code, stderr)
		}
		n := strings.Count(stderr, tt.head)
		if n == 0 || n != strings.Count(stderr, tt.final) {
			t.Errorf("%v: want interim tables (%q … %q), found %d:\n%s", tt.args[:2], tt.head, tt.final, n, stderr)
		}
		if strings.Contains(stderr, tt.head+"40 of 40") {
			t.Errorf("%v: an interim table after the last game:\n%s", tt.args[:2], stderr)
		}
	}
}
