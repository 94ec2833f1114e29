package main

import (
	"encoding/json"
	"fmt"
	"html"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/results"
)

// reportTestdata is a small tournament record kept by the report package.
var reportTestdata = filepath.Join("..", "..", "report", "testdata")

// standingsRow matches a standings row of the page (the template writes
// the attributes in this order).
var standingsRow = regexp.MustCompile(`<tr data-player="([^"]*)" data-elo="([^"]*)" data-elo-low="([^"]*)" data-elo-high="([^"]*)"`)

// TestReportStandingsEqualRate: the page's standings are arena rate's, to
// the last digit, open bounds included, with the same rating flags.
func TestReportStandingsEqualRate(t *testing.T) {
	file := filepath.Join(reportTestdata, "tournament.jsonl")
	for _, flags := range [][]string{
		{"--bootstrap", "200"},
		{"--bootstrap", "100", "--draws", "davidson", "--seed", "9"},
		{"--bootstrap", "0", "--anchor", "greedy=1500"},
	} {
		out := filepath.Join(t.TempDir(), "r.html")
		code, stdout, stderr := runArena(append([]string{"report", file, "--out", out, "--viewer-games", "-1"}, flags...)...)
		if code != 0 {
			t.Fatalf("report %v: exit %d: %s", flags, code, stderr)
		}
		if !strings.Contains(stdout, "wrote "+out) {
			t.Errorf("report says %q", stdout)
		}
		code, js, stderr := runArena(append([]string{"rate", file, "--format", "json"}, flags...)...)
		if code != 0 {
			t.Fatalf("rate %v: %s", flags, stderr)
		}
		var rep results.Analysis
		if err := json.Unmarshal([]byte(js), &rep); err != nil {
			t.Fatal(err)
		}
		page, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		rows := standingsRow.FindAllStringSubmatch(string(page), -1)
		if len(rows) != len(rep.Players) {
			t.Fatalf("%v: %d standings rows on the page, rate has %d players", flags, len(rows), len(rep.Players))
		}
		for i, p := range rep.Players {
			row := rows[i]
			got := []float64{parseBound(t, row[2]), parseBound(t, row[3]), parseBound(t, row[4])}
			want := []float64{p.Elo, p.EloLow, p.EloHigh}
			if row[1] != p.Name || !equalFloats(got, want) {
				t.Errorf("%v: rank %d: page %s %v, rate %s %v", flags, i+1, row[1], got, p.Name, want)
			}
		}
	}
}

func parseBound(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(html.UnescapeString(s), 64) // reads +inf and -inf too
	if err != nil {
		t.Fatalf("data attribute %q is not a number", s)
	}
	return v
}

func equalFloats(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return len(a) == len(b)
}

func TestReportPNG(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plots") // created by --png
	out := filepath.Join(t.TempDir(), "r.html")
	code, stdout, stderr := runArena("report", filepath.Join(reportTestdata, "match.jsonl"), "--out", out, "--png", dir, "--bootstrap", "20")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m := regexp.MustCompile(`(\d+) plots\)`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no plot count in %q", stdout)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if strconv.Itoa(len(entries)) != m[1] {
		t.Errorf("%d files for %s plots", len(entries), m[1])
	}
	for _, e := range entries {
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(f); err != nil {
			t.Errorf("%s: %v", e.Name(), err)
		}
		f.Close()
	}
	if _, err := os.Stat(filepath.Join(dir, "llr-1.png")); err != nil {
		t.Error("no PNG of the match's LLR plot")
	}
}

func TestReportErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(reportTestdata, "match.jsonl")
	header := filepath.Join(dir, "header.jsonl")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(data), "\n")
	if err := os.WriteFile(header, []byte(first+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.html")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", out}, "give one or more record files"},
		{[]string{file}, "give the page to write with --out"},
		{[]string{file, "--out", out, "--viewer-games", "-2"}, "--viewer-games -2"},
		{[]string{file, "--out", out, "--draws", "third"}, "unknown --draws"},
		{[]string{filepath.Join(dir, "missing.jsonl"), "--out", out}, "missing.jsonl"},
		{[]string{header, "--out", out}, "no games to report"},
		{[]string{file, "--out", out, "--anchor", "nobody=0"}, "--anchor nobody: no such player"},
		{[]string{file, "--out", filepath.Join(dir, "no", "such", "dir", "r.html")}, "report"},
		{[]string{header, "--out", dir + "/./header.jsonl"}, "would overwrite the record file"},
	} {
		code, _, stderr := runArena(append([]string{"report"}, tc.args...)...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("report %q: exit %d, stderr %q, want it to say %q", tc.args, code, stderr, tc.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed report left a page behind")
	}
}

// TestReportPathIsNotTheRecord: --report naming the record file is refused
// before any game is played or any file touched.
func TestReportPathIsNotTheRecord(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	for _, args := range [][]string{
		{"--out", rec, "--report", rec},
		{"--out", rec, "--report", filepath.Join(filepath.Dir(rec), ".", "run.jsonl")},
	} {
		code, _, stderr := runArena(append([]string{"tournament", "--agents", "random", "greedy", "--games", "2", "--no-progress"}, args...)...)
		if code == 0 || !strings.Contains(stderr, "would overwrite the record file") {
			t.Errorf("%q: exit %d, %s", args, code, stderr)
		}
		if _, err := os.Stat(rec); err == nil {
			t.Errorf("%q: the record file was created", args)
		}
	}
}

// TestLiveReport: a tournament with --report rewrites the page while it
// runs; a reader polling it meanwhile only ever sees whole pages, and at
// the end the page holds every game, without the live status, and no
// temporary file is left.
func TestLiveReport(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "live.html")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var reads, versions int
	var torn []string
	wg.Add(1)
	go func() {
		defer wg.Done()
		last := ""
		for {
			select {
			case <-stop:
				return
			default:
			}
			data, err := os.ReadFile(page)
			if err == nil {
				reads++
				s := string(data)
				if !strings.HasPrefix(s, "<!DOCTYPE html>") || !strings.HasSuffix(s, "</html>\n") {
					torn = append(torn, fmt.Sprintf("%d bytes", len(s)))
				}
				if s != last {
					versions++
					last = s
				}
			}
			time.Sleep(200 * time.Microsecond)
		}
	}()
	code, _, stderr := runArena("tournament", "--game", "othello6", "--agents", "random", "greedy", "mcts:iters=200",
		"--games", "8", "--concurrency", "2", "--rating-interval", "1", "--bootstrap", "20", "--no-progress",
		"--out", filepath.Join(dir, "run.jsonl"), "--report", page)
	close(stop)
	wg.Wait()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if len(torn) > 0 {
		t.Errorf("the reader saw %d partial pages: %v", len(torn), torn)
	}
	if versions < 2 {
		t.Errorf("the reader saw %d versions of the page in %d reads, want the page rewritten during the run", versions, reads)
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if !strings.Contains(s, `data-games="24"`) || strings.Contains(s, "Live:") || strings.Contains(s, `http-equiv="refresh"`) {
		t.Error("the final page does not hold all 24 games without the live status")
	}
	if !strings.Contains(s, `id="viewer"`) {
		t.Error("the final page has no game viewer")
	}
	rec, err := os.ReadFile(filepath.Join(dir, "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	firstLine, _, _ := strings.Cut(string(rec), "\n")
	var h results.Header
	if err := json.Unmarshal([]byte(firstLine), &h); err != nil || h.Created == "" || !strings.Contains(s, h.Created) {
		t.Errorf("the page does not show the record's header (created %q)", h.Created)
	}
	if !strings.Contains(stderr, "\narena tournament: report in "+page+"\n") {
		t.Errorf("stderr does not say where the report is: %s", stderr)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("files left in the directory: %v", entries)
	}
}

// TestLiveReportAfterCtrlC: an interrupted tournament still writes its
// page, of the games recorded, saying it was interrupted.
func TestLiveReportAfterCtrlC(t *testing.T) {
	dir := t.TempDir()
	out, page := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "r.html")
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result)
	go func() {
		c, _, e := runArena("tournament", "--agents", "mcts:iters=3000", "greedy", "--games", "40", "--concurrency", "2",
			"--out", out, "--report", page, "--bootstrap", "0", "--no-progress")
		done <- result{c, e}
	}()
	deadline := time.Now().Add(30 * time.Second)
	for countGames(out) < 2 {
		if time.Now().After(deadline) {
			t.Fatal("no games recorded in 30 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	r := <-done
	if r.code != 1 || !strings.Contains(r.stderr, "interrupted after") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	n := countGames(out)
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if !strings.Contains(s, fmt.Sprintf("Interrupted after %d of 40 games", n)) || !strings.Contains(s, fmt.Sprintf(`data-games="%d"`, n)) {
		t.Errorf("the page does not report the %d recorded games of an interrupted run", n)
	}
	if !strings.HasSuffix(s, "</html>\n") {
		t.Error("the page is incomplete")
	}
}

// TestLiveReportViewerCap: a live report keeps the moves of only the games
// its viewer shows (the first recorded); the plots still count every game.
func TestLiveReportViewerCap(t *testing.T) {
	defer func(n int) { liveViewerGames = n }(liveViewerGames)
	liveViewerGames = 5
	dir := t.TempDir()
	page := filepath.Join(dir, "r.html")
	code, _, stderr := runArena("tournament", "--game", "othello6", "--agents", "random", "greedy", "mcts:iters=20",
		"--games", "4", "--concurrency", "2", "--bootstrap", "0", "--no-progress", "--report", page)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="gv-data">(.*?)</script>`).FindSubmatch(data)
	if m == nil {
		t.Fatal("no viewer data on the page")
	}
	var v struct {
		Games []struct {
			Moves []string `json:"m"`
		} `json:"games"`
		Omitted int `json:"omitted"`
	}
	if err := json.Unmarshal(m[1], &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Games) != 5 || v.Omitted != 12-5 {
		t.Errorf("viewer of %d games, %d omitted; want 5 and 7", len(v.Games), v.Omitted)
	}
	for i, g := range v.Games {
		if len(g.Moves) == 0 {
			t.Errorf("viewer game %d has no moves", i)
		}
	}
	if !strings.Contains(string(data), `data-games="12"`) {
		t.Error("the page does not count all 12 games")
	}
}

// TestLiveReportResumed: the live report of a resumed run counts the
// games the record held, read once as the session reads the record, and
// its viewer shows the first recorded, with their moves, up to its cap.
func TestLiveReportResumed(t *testing.T) {
	defer func(n int) { liveViewerGames = n }(liveViewerGames)
	liveViewerGames = 5
	dir := t.TempDir()
	full, cut, page := filepath.Join(dir, "full.jsonl"), filepath.Join(dir, "cut.jsonl"), filepath.Join(dir, "r.html")
	args := []string{"--game", "othello6", "--agents", "random", "greedy", "mcts:iters=20", "--games", "4", "--concurrency", "1", "--bootstrap", "0", "--no-progress"}
	if code, _, stderr := runArena(append([]string{"tournament", "--out", full}, args...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, _ := os.ReadFile(full)
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(cut, []byte(strings.Join(lines[:8], "")), 0o644) // the header and 7 games
	code, _, stderr := runArena("tournament", "--resume", cut, "--concurrency", "1", "--bootstrap", "0", "--no-progress", "--report", page)
	if code != 0 || !strings.Contains(stderr, "7 already recorded, 5 to play") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if data, err := os.ReadFile(page); err != nil || !strings.Contains(string(data), `data-games="12"`) {
		t.Fatalf("the page does not count all 12 games (%v)", err)
	}
	data, _ = os.ReadFile(page)
	m := regexp.MustCompile(`(?s)<script type="application/json" id="gv-data">(.*?)</script>`).FindSubmatch(data)
	if m == nil {
		t.Fatal("no viewer data on the page")
	}
	var v struct {
		Games []struct {
			Moves []string `json:"m"`
		} `json:"games"`
		Omitted int `json:"omitted"`
	}
	if err := json.Unmarshal(m[1], &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Games) != 5 || v.Omitted != 12-5 {
		t.Fatalf("viewer of %d games, %d omitted; want 5 and 7", len(v.Games), v.Omitted)
	}
	rec := readRecords(t, full)
	for i, g := range v.Games {
		if !slices.Equal(g.Moves, rec.Games[i].Moves) {
			t.Errorf("viewer game %d: moves %q, the record's game %d %q", i, g.Moves, i, rec.Games[i].Moves)
		}
	}
}

// TestReportCommandReproduces: the command the report shows for a record
// plays the very same games again.
func TestReportCommandReproduces(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "first.jsonl")
	code, _, stderr := runArena("tournament", "--game", "othello6", "--agents", "random", "mcts:iters=30,name=m30", "greedy",
		"--games", "4", "--seed", "11", "--openings", "random:3", "--max-plies", "40", "--concurrency", "2",
		"--bootstrap", "0", "--no-progress", "--out", first)
	if code != 0 {
		t.Fatalf("tournament: %s", stderr)
	}
	f1 := readRecords(t, first)
	words := shellWords(rerunCommand(f1.Header.Config))
	if words[0] != "arena" {
		t.Fatalf("command %q", words)
	}
	second := filepath.Join(dir, "second.jsonl")
	code, _, stderr = runArena(append(words[1:], "--bootstrap", "0", "--no-progress", "--out", second)...)
	if code != 0 {
		t.Fatalf("%q: %s", words, stderr)
	}
	f2 := readRecords(t, second)
	if diff := f1.Header.Config.Diff(f2.Header.Config); len(diff) > 0 {
		t.Errorf("the command's configuration differs: %v", diff)
	}
	moves := func(f *results.File) map[int]string {
		m := map[int]string{}
		for _, g := range f.Games {
			m[g.Index] = strings.Join(g.Moves, " ") + " " + g.Result
		}
		return m
	}
	m1, m2 := moves(f1), moves(f2)
	if len(m1) != len(m2) {
		t.Fatalf("%d games, then %d", len(m1), len(m2))
	}
	for i, g := range m1 {
		if m2[i] != g {
			t.Errorf("game %d: %s, then %s", i, g, m2[i])
		}
	}
}

// TestRerunCommand: the command of a record names every setting that
// decides its games, quoted for a shell where a word needs it; a shard's
// plays that shard again, a match's is arena match with its SPRT. The
// page of arena report shows it (report.Options.Command) with its note.
func TestRerunCommand(t *testing.T) {
	for _, tc := range []struct {
		c    results.Config
		want string
	}{
		{results.Config{Kind: results.Gauntlet, Game: "erdos:algol", Seed: 5, GamesPerPair: 2, MaxPlies: 0,
			Agents:   []results.AgentInfo{{Name: "a", Spec: "ugi:cmd='python3 engine.py'"}, {Name: "b", Spec: "random"}},
			Openings: "file:my openings.txt", ShuffleOpenings: true, MoveTimeMS: 50, MoveMarginMS: 25, TimeControl: "10s+100ms"},
			`arena tournament --gauntlet --game erdos:algol --agents 'ugi:cmd='\''python3 engine.py'\''' random --games 2 --seed 5 --openings 'my openings.txt' --shuffle-openings --move-time 50ms --tc 10s+100ms --move-margin 25ms --max-plies 0`},
		{results.Config{Kind: results.RoundRobin, Game: "othello6", Seed: 3, GamesPerPair: 4, MaxPlies: 1000,
			Agents: []results.AgentInfo{{Name: "random", Spec: "random"}, {Name: "greedy", Spec: "greedy"}},
			Shard:  &results.Shard{Index: 2, Count: 5}},
			`arena tournament --game othello6 --agents random greedy --games 4 --seed 3 --max-plies 1000 --shard 2/5`},
		{results.Config{Kind: results.Match, Game: "othello6", Seed: 1, GamesPerPair: 400, MaxPlies: 1000, Openings: "random:4",
			Agents: []results.AgentInfo{{Name: "a", Spec: "alphabeta:depth=2"}, {Name: "r", Spec: "random"}},
			SPRT:   &results.SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05, Model: results.Logistic}},
			`arena match --game othello6 --agents alphabeta:depth=2 random --games 400 --seed 1 --openings random:4 --max-plies 1000 --sprt elo0=0,elo1=100,alpha=0.05,beta=0.05 --model logistic`},
		{results.Config{Kind: results.Gauntlet, Game: "othello6", Seed: 1, GamesPerPair: 100, MaxPlies: 1000,
			Agents: []results.AgentInfo{{Name: "r", Spec: "random"}, {Name: "g", Spec: "greedy"}, {Name: "a", Spec: "alphabeta:depth=1"}},
			SPRT:   &results.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05, Model: results.Logistic}},
			`arena race --game othello6 --agents random greedy alphabeta:depth=1 --games 100 --seed 1 --max-plies 1000 --sprt elo0=0,elo1=50,alpha=0.05,beta=0.05 --model logistic`},
		{results.Config{Kind: results.Swiss, Game: "othello6", Seed: 2, GamesPerPair: 2, MaxPlies: 1000, Rounds: 3, Bye: "draw",
			Agents: []results.AgentInfo{{Name: "r", Spec: "random"}, {Name: "g", Spec: "greedy"}, {Name: "a", Spec: "alphabeta:depth=1"}}},
			`arena tournament --swiss 3 --bye draw --game othello6 --agents random greedy alphabeta:depth=1 --games 2 --seed 2 --max-plies 1000`},
		{results.Config{Kind: results.Knockout, Game: "othello6", Seed: 2, GamesPerPair: 2, MaxPlies: 1000, ExtraPairs: 1,
			Agents: []results.AgentInfo{{Name: "r", Spec: "random"}, {Name: "g", Spec: "greedy"}, {Name: "a", Spec: "alphabeta:depth=1"}}},
			`arena tournament --knockout --extra-pairs 1 --game othello6 --agents random greedy alphabeta:depth=1 --games 2 --seed 2 --max-plies 1000`},
	} {
		if got := rerunCommand(tc.c); got != tc.want {
			t.Errorf("rerunCommand:\n got %s\nwant %s", got, tc.want)
		}
	}
	page := filepath.Join(t.TempDir(), "r.html")
	file := filepath.Join(reportTestdata, "match.jsonl")
	if code, _, stderr := runArena("report", file, "--out", page, "--viewer-games", "-1", "--bootstrap", "0"); code != 0 {
		t.Fatal(stderr)
	}
	data, _ := os.ReadFile(page)
	want := "<p>Reproduce the games (same seed, same openings; add <code>--out FILE</code> to keep them):</p>\n<code class=\"cmd\">" +
		html.EscapeString(rerunCommand(readRecords(t, file).Header.Config)) + "</code>\n"
	if !strings.Contains(string(data), want) {
		t.Errorf("the page lacks\n%s", want)
	}
}

// TestMatchReport: match --report writes the page while the match runs
// and, when the SPRT decides, a final page of every recorded game with the
// match section (pentanomial, LLR) and no live status.
func TestMatchReport(t *testing.T) {
	dir := t.TempDir()
	out, page := filepath.Join(dir, "m.jsonl"), filepath.Join(dir, "m.html")
	code, _, stderr := runArena("match", "--game", "othello6", "--agents", "alphabeta:depth=2", "random",
		"--sprt", "elo0=0,elo1=100", "--games", "400", "--concurrency", "2", "--rating-interval", "2",
		"--no-progress", "--out", out, "--report", page)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "\narena match: report in "+page+"\n") {
		t.Errorf("stderr does not say where the report is: %s", stderr)
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	n := countGames(out)
	if n == 0 || n >= 400 {
		t.Fatalf("%d games recorded; want an SPRT decided early\n%s", n, stderr)
	}
	for _, want := range []string{fmt.Sprintf(`data-games="%d"`, n), `id="match"`, "LLR", `id="viewer"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the final page lacks %s", want)
		}
	}
	for _, unwanted := range []string{"Live:", `http-equiv="refresh"`, "Interrupted"} {
		if strings.Contains(s, unwanted) {
			t.Errorf("the final page still says %q", unwanted)
		}
	}
	code, _, stderr = runArena("match", "--agents", "random", "greedy", "--out", out+"2", "--report", out+"2")
	if code == 0 || !strings.Contains(stderr, "would overwrite the record file") {
		t.Errorf("--report naming the record file: exit %d: %s", code, stderr)
	}
}

// TestCheckWritable: an output path is checked without leaving anything
// behind: a new file is not created, an existing one keeps its content.
func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	if err := checkWritable("--plot", filepath.Join(dir, "new.svg")); err != nil {
		t.Errorf("new file: %v", err)
	}
	old := filepath.Join(dir, "old.svg")
	os.WriteFile(old, []byte("keep"), 0o644)
	if err := checkWritable("--plot", old); err != nil {
		t.Errorf("existing file: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 || ents[0].Name() != "old.svg" {
		t.Errorf("the directory holds %v, want old.svg alone", ents)
	}
	if b, _ := os.ReadFile(old); string(b) != "keep" {
		t.Errorf("the existing file holds %q, want %q", b, "keep")
	}
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(dir, "no", "p.svg"), "the directory " + filepath.Join(dir, "no") + " does not exist"},
		{dir, "is a directory"},
		{filepath.Join(old, "p.svg"), "is not a directory"},
	} {
		if err := checkWritable("--plot", tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one with %q", tc.path, err, tc.want)
		}
	}
}

// TestReportOneGame: a record of one game is said in the singular.
func TestReportOneGame(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(reportTestdata, "tournament.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfterN(string(data), "\n", 3) // the header and the first game
	dir := t.TempDir()
	file, out := filepath.Join(dir, "one.jsonl"), filepath.Join(dir, "r.html")
	if err := os.WriteFile(file, []byte(lines[0]+lines[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runArena("report", file, "--out", out, "--bootstrap", "0")
	if code != 0 || !strings.Contains(stdout, ", 1 game, ") {
		t.Errorf("exit %d, stdout %q, stderr %q; want \", 1 game, \"", code, stdout, stderr)
	}
}
