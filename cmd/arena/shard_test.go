package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// shardRun is the tournament of the shard tests: 3 pairings × 20 games =
// 60 games in 30 colour-swapped pairs.
var shardRun = []string{"tournament", "--game", "othello6", "--agents", "random", "random:name=rnd2", "random:name=rnd3",
	"--games", "20", "--seed", "7", "--no-progress", "--bootstrap", "200", "--format", "csv"}

// msPerMove matches the thinking times in rate's json, which differ
// between runs of the same games.
var msPerMove = regexp.MustCompile(`"ms_per_move": [-+0-9.e]+`)

// TestTournamentShards runs a tournament whole and as N = 2, 3 and 7
// shards (with other concurrencies): the shard files hold exactly the whole
// run's games, and rate (json and csv, bootstrap included) and report on
// the shard files, in any order, give exactly the whole run's ratings.
func TestTournamentShards(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	code, tourTable, errOut := runArena(append(shardRun, "--concurrency", "2", "--out", whole)...)
	if code != 0 {
		t.Fatalf("tournament: exit %d: %s", code, errOut)
	}
	if strings.Contains(tourTable, "inf") {
		t.Fatalf("open intervals, on which the bootstrap has no effect:\n%s", tourTable)
	}
	rate := func(format string, files ...string) string {
		t.Helper()
		code, out, errOut := runArena(append([]string{"rate", "--bootstrap", "200", "--format", format}, files...)...)
		if code != 0 {
			t.Fatalf("rate %v: exit %d: %s", files, code, errOut)
		}
		return msPerMove.ReplaceAllString(out, `"ms_per_move": T`)
	}
	wantJSON, wantCSV := rate("json", whole), rate("csv", whole)
	if !strings.Contains(wantJSON, `"elo_high"`) || !strings.Contains(wantJSON, `"ms_per_move": T`) {
		t.Fatalf("rate --format json printed no ratings, or its times were not masked:\n%s", wantJSON)
	}
	if wantCSV != tourTable {
		t.Fatalf("rate on the whole run differs from its tournament's table:\n%s\n%s", wantCSV, tourTable)
	}
	wholeGames := readRecords(t, whole).Games
	for _, n := range []int{2, 3, 7} {
		var files, reversed []string
		var games []results.GameRecord
		for i := 1; i <= n; i++ {
			path := filepath.Join(dir, fmt.Sprintf("n%d-shard-%d.jsonl", n, i))
			code, _, errOut := runArena(append(shardRun, "--concurrency", fmt.Sprint(1+i%2), "--shard", fmt.Sprintf("%d/%d", i, n), "--out", path)...)
			if code != 0 {
				t.Fatalf("shard %d/%d: exit %d: %s", i, n, code, errOut)
			}
			if want := fmt.Sprintf("in shard %d/%d (of the run's 60)", i, n); !strings.Contains(errOut, want) {
				t.Errorf("shard %d/%d: stderr lacks %q:\n%s", i, n, want, errOut)
			}
			f := readRecords(t, path)
			if f.Header.Config.Shard.String() != fmt.Sprintf("%d/%d", i, n) {
				t.Errorf("%s: header shard %v", path, f.Header.Config.Shard)
			}
			games = append(games, f.Games...)
			files = append(files, path)
			reversed = append([]string{path}, reversed...)
		}
		if err := sameGames(games, wholeGames); err != nil {
			t.Errorf("%d shards: %v", n, err)
		}
		for _, fs := range [][]string{files, reversed} {
			if got := rate("json", fs...); got != wantJSON {
				t.Errorf("rate --format json on %d shards %v:\n%s\nwant (the whole run)\n%s", n, fs, got, wantJSON)
			}
			if got := rate("csv", fs...); got != wantCSV {
				t.Errorf("rate --format csv on %d shards %v:\n%s\nwant (the whole run)\n%s", n, fs, got, wantCSV)
			}
		}
	}
	// report merges the shards too: the same standings as the whole run.
	code, _, errOut = runArena("report", "--bootstrap", "200", "--out", filepath.Join(dir, "whole.html"), whole)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	code, _, errOut = runArena("report", "--bootstrap", "200", "--out", filepath.Join(dir, "shards.html"),
		filepath.Join(dir, "n3-shard-1.jsonl"), filepath.Join(dir, "n3-shard-2.jsonl"), filepath.Join(dir, "n3-shard-3.jsonl"))
	if code != 0 {
		t.Fatalf("report on shards: exit %d: %s", code, errOut)
	}
	wantTables, gotTables := reportTables(t, filepath.Join(dir, "whole.html")), reportTables(t, filepath.Join(dir, "shards.html"))
	if len(wantTables) != 4 || !slices.Equal(gotTables, wantTables) {
		t.Errorf("report on 3 shards: its standings, crosstable, colour and termination tables differ from the whole run's:\n%s\nwant\n%s", strings.Join(gotTables, "\n"), strings.Join(wantTables, "\n"))
	}

	// With a shard missing, rate rates what is there and says so.
	code, _, errOut = runArena("rate", filepath.Join(dir, "n3-shard-1.jsonl"), filepath.Join(dir, "n3-shard-3.jsonl"))
	if want := "has 2 of its 3 shards here (missing: 2)"; code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("rate on 2 of 3 shards: exit %d, stderr %q, want %q", code, errOut, want)
	}

	// Mixed files are refused: a shard with its whole run, two counts.
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{whole, filepath.Join(dir, "n2-shard-1.jsonl")}, "is shard 1/2 of the run in " + whole + ", which is the whole run: they overlap"},
		{[]string{filepath.Join(dir, "n2-shard-1.jsonl"), filepath.Join(dir, "n3-shard-2.jsonl")}, "the shards of one run must all have the same N"},
		{[]string{filepath.Join(dir, "n3-shard-2.jsonl"), filepath.Join(dir, "n3-shard-2.jsonl")}, "are both shard 2/3 of the same run (seed 7)"},
	} {
		if code, _, errOut := runArena(append([]string{"rate"}, c.files...)...); code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("rate %v: exit %d, stderr %q, want %q", c.files, code, errOut, c.want)
		}
	}

	// A shard resumes as itself; as another shard it is refused.
	shard := filepath.Join(dir, "n3-shard-2.jsonl")
	if code, _, errOut := runArena("tournament", "--resume", shard, "--shard", "1/3"); code == 0 || !strings.Contains(errOut, "shard: 2/3 (file) ≠ 1/3 (now)") {
		t.Errorf("resume as shard 1/3: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runArena("tournament", "--resume", shard, "--no-progress"); code != 0 || !strings.Contains(errOut, "in shard 2/3 (of the run's 60)") {
		t.Errorf("resume of a complete shard: exit %d: %s", code, errOut)
	}
}

// reportTable is a table of an HTML report that depends only on the games
// (not on thinking times, nor on each file's command line).
var reportTable = regexp.MustCompile(`(?s)<table[^>]*id="(?:standings-table|cross-table|colour-table|termination-table)".*?</table>`)

// reportTables are the game-only tables of the report page at path.
func reportTables(t *testing.T, path string) []string {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return reportTable.FindAllString(string(page), -1)
}

func TestShardFlagErrors(t *testing.T) {
	// The hint about 0-based job indices only where one is likely.
	for _, arg := range []string{"3/2", "4/3", "-1/3"} {
		if _, _, errOut := runArena("tournament", "--shard", arg); strings.Contains(errOut, "JOB_COMPLETION_INDEX") || !strings.Contains(errOut, "shards are numbered 1 to N") {
			t.Errorf("--shard %s: %q, want the range without the 0-based index hint", arg, errOut)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tournament", "--shard", "0/3"}, "--shard \"0/3\": i is 0; shards are numbered 1 to N (3); a 0-based job index such as Kubernetes' JOB_COMPLETION_INDEX needs +1"},
		{[]string{"tournament", "--shard", "4/3"}, "i is 4"},
		{[]string{"tournament", "--shard", "1/10001"}, "N is 10001; a run has 1 to 10000 shards"},
		{[]string{"tournament", "--shard", "3"}, `--shard "3": want i/N`},
		{[]string{"tournament", "--shard", "1/0"}, "N is 0"},
		{[]string{"tournament", "--agents", "random", "greedy", "--games", "4", "--shard", "1/3"}, "--shard 1/3: this run has only 2 game pairs, so at most 2 shards"},
		{[]string{"match", "--agents", "random", "greedy", "--shard", "1/2"}, "--shard 1/2: a match cannot be sharded"},
	} {
		if code, _, errOut := runArena(c.args...); code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
}
