package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/ugi/ugitest"
)

// sweepArgsFor is a small, fast sweep: mcts's iters at two values against
// random and greedy on othello6.
func sweepArgsFor(extra ...string) []string {
	return append([]string{"tune", "sweep", "--game", "othello6", "--agent", "mcts:iters=20", "--param", "iters", "--values", "2,60",
		"--against", "random", "greedy", "--games", "6", "--seed", "4", "--bootstrap", "50", "--concurrency", "2"}, extra...)
}

func TestTuneSweep(t *testing.T) {
	dir := t.TempDir()
	out, plot := filepath.Join(dir, "sweep.jsonl"), filepath.Join(dir, "sweep.svg")
	code, stdout, stderr := runArena(sweepArgsFor("--out", out, "--plot", plot, "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "arena tune sweep: othello6 sweep of iters over 2 values against 2 opponents, 6 games per pairing: 24 games") || !strings.Contains(stderr, "arena tune sweep: plot in "+plot) {
		t.Errorf("stderr: %s", stderr)
	}
	var doc struct {
		Param  string `json:"param"`
		Points []struct {
			Value   string   `json:"value"`
			Elo     *float64 `json:"elo"`
			EloLow  *float64 `json:"elo_low"`
			EloHigh *float64 `json:"elo_high"`
			Games   int      `json:"games"`
		} `json:"points"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, stdout)
	}
	if doc.Param != "iters" || len(doc.Points) != 2 || doc.Points[0].Value != "2" || doc.Points[1].Value != "60" {
		t.Fatalf("document %s", stdout)
	}
	for _, p := range doc.Points {
		if p.Games != 12 || p.Elo == nil {
			t.Errorf("point %+v: want 12 games (6 against each of 2 opponents) and a rating", p)
		}
	}
	// The record file holds exactly the value-against-opponent games.
	f := readRecords(t, out)
	if len(f.Games) != 2*2*6 {
		t.Fatalf("%d games recorded, want 24", len(f.Games))
	}
	for _, g := range f.Games {
		a, b := g.Players[0].Agent, g.Players[1].Agent
		if (a < 2) == (b < 2) {
			t.Errorf("game %d: %s against %s is not a value against an opponent", g.Index, g.Players[0].Name, g.Players[1].Name)
		}
	}
	// The figure is one SVG document with a label per value.
	svg, err := os.ReadFile(plot)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(svg, new(struct{})); err != nil || !strings.Contains(string(svg), "Elo against iters") {
		t.Errorf("plot: %v\n%.300s", err, svg)
	}
	// Text and markdown tables; rate reads the file as any record.
	code, text, stderr := runArena(sweepArgsFor()...)
	if code != 0 || !strings.Contains(text, "Elo against iters (24 games; random anchored at 0; 95 % intervals)") || !strings.Contains(text, "│ iters │") {
		t.Errorf("text: exit %d: %s %s", code, text, stderr)
	}
	code, md, _ := runArena(sweepArgsFor("--format", "markdown")...)
	if code != 0 || !strings.Contains(md, "### Elo against iters") || !strings.Contains(md, "| iters |") {
		t.Errorf("markdown: %s", md)
	}
	if code, text, stderr := runArena("rate", out, "--bootstrap", "0"); code != 0 || !strings.Contains(text, "mcts:iters=60") {
		t.Errorf("rate: exit %d: %s %s", code, text, stderr)
	}
}

// A sweep cut short (a killed run: some games, then half a line) and
// resumed records the games an uninterrupted run records.
func TestTuneSweepResume(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.jsonl")
	code, want, stderr := runArena(sweepArgsFor("--out", full)...)
	if code != 0 {
		t.Fatal(stderr)
	}
	data, _ := os.ReadFile(full)
	lines := strings.SplitAfter(string(data), "\n")
	cut := filepath.Join(dir, "cut.jsonl")
	os.WriteFile(cut, []byte(strings.Join(lines[:6], "")+lines[6][:25]), 0o644)
	// Resumed without --seed: the record's seed 4 rates it, so the table
	// is the uninterrupted run's.
	args := slices.DeleteFunc(sweepArgsFor("--resume", cut, "--concurrency", "1"), func(a string) bool { return a == "--seed" || a == "4" })
	code, got, stderr := runArena(args...)
	if code != 0 || !strings.Contains(stderr, "5 already recorded, 19 to play") || !strings.Contains(stderr, "torn last line") {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if got != want {
		t.Errorf("resumed sweep's table:\n%s\nthe uninterrupted run's:\n%s", got, want)
	}
	if err := sameGames(withoutStats(readRecords(t, full).Games), withoutStats(readRecords(t, cut).Games)); err != nil {
		t.Errorf("resumed sweep differs from the uninterrupted one: %v", err)
	}
	// The file must be resumed as the sweep it is.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "sweep", "--resume", cut}, "--agent is missing"},
		{[]string{"tune", "sweep", "--resume", cut, "--agent", "mcts:iters=20", "--param", "iters", "--values", "2,61", "--against", "random", "greedy"}, "not this sweep's"},
		{sweepArgsFor("--resume", cut, "--games", "8"), "games: 6 (file) ≠ 8 (now)"},
		{sweepArgsFor("--resume", cut, "--games", "8"), "leave out the flags that differ"},
		{sweepArgsFor("--out", full), "already exists"},
	} {
		code, _, stderr := runArena(tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("arena %q: exit %d, want an error with %q: %s", tc.args, code, tc.want, stderr)
		}
	}
}

// withoutStats drops the per-move statistics, whose texts hold speeds
// (iterations per second) that differ from run to run.
func withoutStats(gs []results.GameRecord) []results.GameRecord {
	for i := range gs {
		gs[i].MoveStats = nil
	}
	return gs
}

func TestTuneSweepErrors(t *testing.T) {
	base := []string{"tune", "sweep", "--agent", "mcts:iters=20", "--param", "iters", "--values", "2,60", "--against", "random"}
	noDir := filepath.Join(t.TempDir(), "missing")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "sweep", "--param", "c", "--values", "1,2", "--against", "random"}, "--agent is missing"},
		{[]string{"tune", "sweep", "--agent", "mcts", "--param", "c", "--against", "random"}, "--values is missing"},
		{[]string{"tune", "sweep", "--agent", "mcts", "--param", "c", "--values", "1,2"}, "--against is missing"},
		{[]string{"tune", "sweep", "--agent", "mcts", "--values", "1,2", "--against", "random"}, "--param is missing"},
		{[]string{"tune", "sweep", "--agent", "random", "--param", "iters", "--values", "1,2", "--against", "random"}, `unknown option "iters"`},
		{[]string{"tune", "sweep", "--agent", "mcts", "--param", "c", "--values", "0.5,1.0,1", "--against", "random"}, "1.0 and 1 are the same value"},
		{[]string{"tune", "sweep", "--agent", "mcts:iters=20", "--param", "c", "--values", "1,-1", "--against", "random"}, "c=-1: mcts: option c=-1 is out of range"},
		{[]string{"tune", "sweep", "--agent", "mcts", "--param", "c", "--values", "0.5", "--against", "random"}, "lists 1 values"},
		{[]string{"tune", "sweep", "--agent", "mcts", "--param", "c", "--values", strings.Repeat("1,", 70) + "1", "--against", "random"}, "lists 71 values"},
		{[]string{"tune", "sweep", "--agent", "mcts", "--param", "c", "--values", "1,2", "--against", "nosuch"}, `--against "nosuch"`},
		// --agents is no flag of tune sweep: its agents are --agent and --against.
		{append(base, "--agents", "greedy"), "arena tune sweep: unknown flag --agents; did you mean --agent?"},
		{append(base, "--games", "7"), "--games 7"},
		{append(base, "--games", "600000"), "the sweep plays 1200000 games"},
		{append(base, "--format", "csv"), `unknown --format "csv"`},
		{append(base, "--concurrency", "0"), "--concurrency"},
		{append(base, "--out", "x.jsonl", "--plot", "x.jsonl"), "would overwrite the record file"},
		{append(base, "--plot", filepath.Join(noDir, "p.svg")), "--plot " + filepath.Join(noDir, "p.svg") + " cannot be written: the directory " + noDir + " does not exist"},
		{append(base, "--plot", filepath.Dir(noDir)), "is a directory"},
		{append(base, "--anchor", "nobody=0", "--games", "2"), "--anchor nobody: no such player"},
		{append([]string{"tune", "sweep", "stray"}, base[2:]...), `unexpected argument "stray"`},
	} {
		code, _, stderr := runArena(tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("arena %q: exit %d, want an error with %q: %s", tc.args[2:], code, tc.want, stderr)
		}
	}
}

// TestTuneSweepShards: the two shards of a sweep (--shard i/2) play the
// whole sweep's games between them, and --records rates the two files to
// the whole sweep's curve.
func TestTuneSweepShards(t *testing.T) {
	dir := t.TempDir()
	whole, a, b := filepath.Join(dir, "whole.jsonl"), filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	code, want, stderr := runArena(sweepArgsFor("--out", whole, "--format", "json")...)
	if code != 0 || !strings.Contains(want, `"points"`) {
		t.Fatalf("whole sweep: exit %d: %s\n%s", code, want, stderr)
	}
	for i, path := range []string{a, b} {
		if code, _, stderr := runArena(sweepArgsFor("--out", path, "--shard", fmt.Sprintf("%d/2", i+1))...); code != 0 || !strings.Contains(stderr, fmt.Sprintf("in shard %d/2 (of the sweep's 24)", i+1)) {
			t.Fatalf("shard %d: exit %d: %s", i+1, code, stderr)
		}
	}
	fa, fb, fw := readRecords(t, a), readRecords(t, b), readRecords(t, whole)
	if len(fa.Games)+len(fb.Games) != len(fw.Games) || len(fa.Games) == 0 || len(fb.Games) == 0 {
		t.Fatalf("shards of %d and %d games, the sweep %d", len(fa.Games), len(fb.Games), len(fw.Games))
	}
	code, got, stderr := runArena(sweepArgsFor("--records", a, "--records", b, "--format", "json")...)
	if code != 0 || got != want {
		t.Errorf("--records of the shards: exit %d\n%s\nwant the whole sweep's\n%s\n%s", code, got, want, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{sweepArgsFor("--records", a, "--out", filepath.Join(dir, "x.jsonl")), "--records rates files already played"},
		{[]string{"tune", "sweep", "--game", "othello6", "--agent", "mcts:iters=20", "--param", "iters", "--values", "2,70", "--against", "random", "greedy", "--records", a}, "not this sweep's"},
	} {
		if code, _, stderr := runArena(tc.args...); code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("arena %q: exit %d, want an error with %q: %s", tc.args, code, tc.want, stderr)
		}
	}
}

// TestRefusedResumeLeavesFile: a resume refused for what the file holds
// (another sweep's values, an anchor that names no player, a match resumed
// as a tournament) leaves the file byte for byte as it was, torn last line
// included. The sweep's check ran after the file had been opened for
// appending: a refused resume had already cut the torn line and written a
// resume note.
func TestRefusedResumeLeavesFile(t *testing.T) {
	dir := t.TempDir()
	torn := func(path string, args ...string) []byte {
		t.Helper()
		if code, _, stderr := runArena(append(args, "--out", path)...); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		data = []byte(strings.Join(lines[:3], "") + lines[3][:25]) // two games and half a third
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return data
	}
	sweep := filepath.Join(dir, "sweep.jsonl")
	sweepData := torn(sweep, sweepArgsFor()...)
	tour := filepath.Join(dir, "tour.jsonl")
	tourData := torn(tour, "tournament", "--agents", "greedy", "random", "--games", "6", "--no-progress")
	match := filepath.Join(dir, "match.jsonl")
	matchData := torn(match, "match", "--agents", "greedy", "random", "--games", "6", "--no-progress")
	for _, tc := range []struct {
		path string
		data []byte
		args []string
		want string
	}{
		{sweep, sweepData, []string{"tune", "sweep", "--resume", sweep, "--agent", "mcts:iters=20", "--param", "iters", "--values", "2,61", "--against", "random", "greedy"}, "not this sweep's"},
		{sweep, sweepData, []string{"tune", "sweep", "--resume", sweep, "--agent", "mcts:iters=20", "--param", "iters", "--values", "2,60", "--against", "random", "greedy", "--anchor", "nobody=0"}, "--anchor nobody: no such player"},
		{tour, tourData, []string{"tournament", "--resume", tour, "--anchor", "nobody=0"}, "--anchor nobody: no such player"},
		{tour, tourData, []string{"tune", "sweep", "--resume", tour, "--agent", "mcts:iters=20", "--param", "iters", "--values", "2,60", "--against", "random", "greedy"}, "not a sweep"},
		{match, matchData, []string{"tournament", "--resume", match}, "records a match: continue it with arena match --resume"},
		{tour, tourData, []string{"match", "--resume", tour}, "continue it with arena tournament --resume"},
	} {
		code, _, stderr := runArena(tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, want an error with %q: %s", tc.args, code, tc.want, stderr)
		}
		if got, _ := os.ReadFile(tc.path); string(got) != string(tc.data) {
			t.Errorf("%q was refused, yet changed %s:\n%s\nwas:\n%s", tc.args, tc.path, got, tc.data)
		}
	}
}

// TestRefusedResumeBeforePlay: a resume refused after the file's own
// checks but before the first game (an external program that cannot start
// here, a broker that cannot start) leaves the file byte for byte as it
// was, torn last line included, in a match as in a tournament; once the
// program can start again, the resume cuts the torn line and plays the
// rest. The programs were checked after the torn line had been cut and a
// resume note written, and the note alone was taken back.
func TestRefusedResumeBeforePlay(t *testing.T) {
	dir := t.TempDir()
	// An engine that answers every move with one that is not legal: each
	// of its games is recorded at once as a forfeit. Its stderr file's
	// directory goes away to make the program one that cannot start.
	engine := ugitest.Script(t, dir, "echo bestmove none")
	logDir := filepath.Join(dir, "logs")
	agent := "ugi:cmd=sh " + engine + ",stderr=" + filepath.Join(logDir, "err.log") + ",name=engine"
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, cmd := range []string{"match", "tournament"} {
		os.MkdirAll(logDir, 0o755)
		path := filepath.Join(dir, cmd+".jsonl")
		if code, _, stderr := runArena(cmd, "--agents", agent, "random", "--games", "6", "--concurrency", "1", "--no-progress", "--out", path); code != 0 {
			t.Fatalf("%s: exit %d: %s", cmd, code, stderr)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		if len(lines) != 8 || !strings.Contains(lines[1], `"termination":"illegal_move"`) {
			t.Fatalf("%s: want a header and 6 forfeits:\n%s", cmd, data)
		}
		data = []byte(strings.Join(lines[:3], "") + lines[3][:25]) // two games and half a third
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		os.RemoveAll(logDir)
		for _, tc := range []struct {
			name string
			args []string
			want string
		}{
			{"a program that cannot start", nil, "directory " + logDir + " does not exist"},
			{"a broker that cannot start", []string{"--concurrency", "0", "--broker", "embedded", "--listen", busy.Addr().String()}, "cannot listen there"},
		} {
			code, _, stderr := runArena(append([]string{cmd, "--resume", path, "--no-progress"}, tc.args...)...)
			if code == 0 || !strings.Contains(stderr, tc.want) {
				t.Errorf("%s --resume, %s: exit %d, want an error with %q: %s", cmd, tc.name, code, tc.want, stderr)
			}
			if got, _ := os.ReadFile(path); string(got) != string(data) {
				t.Errorf("%s --resume, %s, was refused, yet changed the file:\n%s\nwas:\n%s", cmd, tc.name, got, data)
			}
		}
		os.MkdirAll(logDir, 0o755)
		code, _, stderr := runArena(cmd, "--resume", path, "--concurrency", "1", "--no-progress")
		if code != 0 || !strings.Contains(stderr, "cut off a torn last line") {
			t.Errorf("%s --resume: exit %d, want a torn line cut off: %s", cmd, code, stderr)
		}
		if got, _ := os.ReadFile(path); strings.Count(string(got), `"record":"game"`) != 6 || strings.Count(string(got), `"record":"resume"`) != 1 {
			t.Errorf("%s --resume: want 6 games and a resume note:\n%s", cmd, got)
		}
	}
}

// TestTuneSweepHelp: the help lists neither --agents, which tune sweep
// does not take (it listed it as "not used here"), nor a --format csv it
// refuses.
func TestTuneSweepHelp(t *testing.T) {
	code, _, help := runArena("tune", "sweep", "--help")
	if code != 0 || strings.Contains(help, "--agents") || strings.Contains(help, "csv") || !strings.Contains(help, "--against SPEC") {
		t.Errorf("exit %d, help:\n%s", code, help)
	}
}

// TestWithoutFlags: the flags dropped leave no trace in the flag set (nor
// their aliases, nor their places in the groups); the others keep their
// values, texts, defaults, aliases and groups.
func TestWithoutFlags(t *testing.T) {
	fs := newFlagSet("x", "", nil)
	var a *int
	withoutFlags(fs, []string{"b"}, func(s *flagSet) {
		a = s.Int("a", 3, "the `N` of a")
		s.String("b", "", "b")
		s.Bool("c", false, "c")
		s.alias("bb", "b")
		s.alias("aa", "a")
		s.group("G", "a b")
		s.group("H", "b")
		s.group("G", "c")
	})
	for _, name := range []string{"b", "bb"} {
		if fs.Lookup(name) != nil {
			t.Errorf("--%s is still a flag", name)
		}
	}
	if f := fs.Lookup("a"); f == nil || f.DefValue != "3" || f.Usage != "the `N` of a" || fs.canonical("aa") != "a" {
		t.Fatalf("--a: %+v, --aa stands for %q", f, fs.canonical("aa"))
	}
	if err := fs.parse([]string{"--aa", "5", "--c"}); err != nil || *a != 5 {
		t.Errorf("parse: %v, a = %d", err, *a)
	}
	if got := fmt.Sprint(fs.groups); got != "[{G [a c]} {H []}]" {
		t.Errorf("groups %s", got)
	}
}
