package results

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseShard(t *testing.T) {
	cases := []struct {
		text, want, err string
	}{
		{"1/2", "1/2", ""},
		{"2/2", "2/2", ""},
		{"10000/10000", "10000/10000", ""},
		{" 3 / 7 ", "3/7", ""},
		{"1/1", "", ""}, // the whole run
		{"0/4", "", "i is 0; shards are numbered 1 to N (4); a 0-based job index"},
		{"5/4", "", "i is 5"},
		{"-1/4", "", "i is -1"},
		{"1/0", "", "N is 0"},
		{"1/10001", "", "N is 10001; a run has 1 to 10000 shards"},
		{"3", "", `Shard "3": want i/N, the i-th of N shards, e.g. Shard 3/10`},
		{"a/b", "", "want i/N"},
		{"1/2/3", "", "want i/N"},
		{"", "", "want i/N"},
		{"99999999999999999999/2", "", "want i/N"},
	}
	for _, c := range cases {
		s, err := ParseShard(c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseShard(%q): error %v, want %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil || s.String() != c.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %q", c.text, s, err, c.want)
		}
	}
}

// TestShardHolds deals the 9 game pairs of 3 pairings × 6 games (18
// games, pairs k = 0..8; pair k is round k/3 of the pairing in position
// k mod 3) to 3 shards, by hand: j = (k mod 3)·3 + k/3 gives k = 0..8 the
// numbers 0 3 6 1 4 7 2 5 8, so shard j mod 3 + 1 is 1 1 1 2 2 2 3 3 3:
// each shard has one round of every pairing (dealing k itself would give
// shard 1 only the first pairing). With 2 shards: 1 2 1 2 1 2 1 2 1.
func TestShardHolds(t *testing.T) {
	for _, c := range []struct {
		shard Shard
		want  string
	}{
		{Shard{1, 3}, "[0 1 2 3 4 5]"},
		{Shard{2, 3}, "[6 7 8 9 10 11]"},
		{Shard{3, 3}, "[12 13 14 15 16 17]"},
		{Shard{1, 2}, "[0 1 4 5 8 9 12 13 16 17]"},
		{Shard{2, 2}, "[2 3 6 7 10 11 14 15]"},
		{Shard{9, 9}, "[16 17]"},
	} {
		var got []int
		for g := range 18 {
			if c.shard.Holds(g, 3, 3) {
				got = append(got, g)
			}
		}
		if fmt.Sprint(got) != c.want {
			t.Errorf("shard %s holds %v, want %s", &c.shard, got, c.want)
		}
	}
	var whole *Shard
	if !whole.Holds(13, 3, 3) || whole.String() != "" {
		t.Error("a nil shard must hold every game")
	}
}

// shardHeader is testHeader (4 games: pairs 0 and 1) as shard s of a run
// with seed seed.
func shardHeader(s string, seed int) string {
	h := strings.Replace(testHeader, `"seed":1`, fmt.Sprintf(`"seed":%d`, seed), 1)
	if s == "" {
		return h
	}
	var i, n int
	fmt.Sscanf(s, "%d/%d", &i, &n)
	return strings.Replace(h, `"total_games":4}`, fmt.Sprintf(`"total_games":4,"shard":{"index":%d,"count":%d}}`, i, n), 1)
}

func readTest(t *testing.T, path, data string) *File {
	t.Helper()
	f, err := Read(strings.NewReader(data), path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestReadShard(t *testing.T) {
	f := readTest(t, "s2.jsonl", shardHeader("2/2", 1)+"\n"+testGame(3, "0-1", 1)+testGame(2, "1-0", 0))
	if f.Header.Config.Shard.String() != "2/2" || len(f.Games) != 2 {
		t.Fatalf("shard %v, %d games", f.Header.Config.Shard, len(f.Games))
	}
	for _, c := range []struct{ name, data, want string }{
		{"foreign game", shardHeader("2/2", 1) + "\n" + testGame(1, "1-0", 0), "s.jsonl:2: game 1 does not belong to shard 2/2"},
		{"zero", shardHeader("0/2", 1) + "\n", "header: shard 0/2: i is 0"},
		{"too many", shardHeader("1/10001", 1) + "\n", "header: shard 1/10001: N is 10001"},
		{"one", shardHeader("1/1", 1) + "\n", "shard 1/1: a whole run records no shard"},
		{"total", strings.Replace(shardHeader("1/2", 1), `"total_games":4`, `"total_games":6`, 1) + "\n", "header: shard 1/2 with games_per_pair 4 and total_games 6: a shard needs an even games_per_pair from 2 and total_games a multiple of it"},
		{"games", strings.Replace(shardHeader("1/2", 1), `"games_per_pair":4`, `"games_per_pair":0`, 1) + "\n", "header: shard 1/2 with games_per_pair 0"},
	} {
		if _, err := Read(strings.NewReader(c.data), "s.jsonl"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// TestMergeShards: the two shards of a run merge into the whole run's
// games in schedule order, whatever order the files are given in; overlaps
// and incomplete shards of different runs are refused.
func TestMergeShards(t *testing.T) {
	whole := readTest(t, "whole.jsonl", shardHeader("", 1)+"\n"+testGame(0, "1-0", 0)+testGame(1, "0-1", 1)+testGame(2, "1/2-1/2", -1)+testGame(3, "1-0", 0))
	s1 := readTest(t, "s1.jsonl", shardHeader("1/2", 1)+"\n"+testGame(1, "0-1", 1)+testGame(0, "1-0", 0))
	s2 := readTest(t, "s2.jsonl", shardHeader("2/2", 1)+"\n"+testGame(3, "1-0", 0)+testGame(2, "1/2-1/2", -1))
	want, err := Merge(whole)
	if err != nil {
		t.Fatal(err)
	}
	for _, files := range [][]*File{{s1, s2}, {s2, s1}} {
		d, err := Merge(files...)
		if err != nil {
			t.Fatal(err)
		}
		if got, w := fmt.Sprint(d.Results()), fmt.Sprint(want.Results()); got != w || fmt.Sprint(d.Players) != fmt.Sprint(want.Players) {
			t.Errorf("shards %s,%s: results %s players %v, want %s %v", files[0].Path, files[1].Path, got, d.Players, w, want.Players)
		}
	}
	// Two complete sharded runs of different seeds pool like two whole runs.
	o1 := readTest(t, "o1.jsonl", shardHeader("1/2", 2)+"\n"+testGame(0, "1-0", 0))
	o2 := readTest(t, "o2.jsonl", shardHeader("2/2", 2)+"\n"+testGame(2, "1-0", 0))
	if d, err := Merge(s1, s2, o1, o2); err != nil || len(d.Games) != 6 {
		t.Errorf("two complete sharded runs: %v", err)
	}
	var shards []*File
	for i := 1; i <= 30; i += 3 {
		if i != 4 {
			shards = append(shards, readTest(t, fmt.Sprintf("s%d.jsonl", i), shardHeader(fmt.Sprintf("%d/30", i), 1)+"\n"))
		}
	}
	d, err := Merge(shards...)
	if err != nil {
		t.Fatal(err)
	}
	if notes := d.MergeNotes(); len(notes) != 1 || notes[0] != "the run of s1.jsonl has 9 of its 30 shards here (missing: 2, 3, 4, 5, 6, 8, 9, 11, 12, 14 and 11 more); these are the ratings of its games so far" {
		t.Errorf("notes for 9 of 30 shards: %q", notes)
	}
	s13 := readTest(t, "s13.jsonl", shardHeader("1/3", 1)+"\n")
	s1b := readTest(t, "copy.jsonl", shardHeader("1/2", 1)+"\n")
	for _, c := range []struct {
		name  string
		files []*File
		want  string
	}{
		{"same shard twice", []*File{s1, s1b}, "s1.jsonl and copy.jsonl are both shard 1/2 of the same run (seed 1)"},
		{"counts differ", []*File{s1, s13}, "s13.jsonl is shard 1/3 and s1.jsonl shard 1/2 of the same run: the shards of one run must all have the same N"},
		{"whole then shard", []*File{whole, s2}, "s2.jsonl is shard 2/2 of the run in whole.jsonl, which is the whole run: they overlap"},
		{"shard then whole", []*File{s2, whole}, "whole.jsonl is a whole run and s2.jsonl is shard 2/2 of it: they overlap"},
		{"different runs", []*File{s1, o2}, "s1.jsonl (shard 1/2) and o2.jsonl (shard 2/2) are shards of different runs, and the run of s1.jsonl has 1 of its 2 shards here:\n  seed: 1 (s1.jsonl) ≠ 2 (o2.jsonl)"},
	} {
		if _, err := Merge(c.files...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// TestTallyShards: rate's streaming reader pools the shards of a run into
// the whole run's counts and refuses what Merge refuses.
func TestTallyShards(t *testing.T) {
	wholeData := shardHeader("", 1) + "\n" + testGame(0, "1-0", 0) + testGame(1, "0-1", 1) + testGame(2, "1/2-1/2", -1) + testGame(3, "1-0", 0)
	s1 := shardHeader("1/2", 1) + "\n" + testGame(1, "0-1", 1) + testGame(0, "1-0", 0)
	s2 := shardHeader("2/2", 1) + "\n" + testGame(3, "1-0", 0) + testGame(2, "1/2-1/2", -1)
	tally := func(files ...[2]string) (*Tally, error) {
		ta := NewTally()
		for _, f := range files {
			if _, err := ta.Read(strings.NewReader(f[1]), f[0]); err != nil {
				return nil, err
			}
		}
		return ta, ta.Err()
	}
	want, err := tally([2]string{"whole.jsonl", wholeData})
	if err != nil {
		t.Fatal(err)
	}
	got, err := tally([2]string{"s2.jsonl", s2}, [2]string{"s1.jsonl", s1})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%+v", got.Summary) != fmt.Sprintf("%+v", want.Summary) {
		t.Errorf("shards count %+v, the whole run %+v", got.Summary, want.Summary)
	}
	if notes := got.MergeNotes(); len(notes) != 0 {
		t.Errorf("notes for a complete run: %q", notes)
	}
	part, err := tally([2]string{"s2.jsonl", s2})
	if err != nil {
		t.Fatal(err)
	}
	if notes := part.MergeNotes(); len(notes) != 1 || notes[0] != "the run of s2.jsonl has 1 of its 2 shards here (missing: 1); these are the ratings of its games so far" {
		t.Errorf("notes for shard 2/2 alone: %q", notes)
	}
	for _, c := range []struct {
		name  string
		files [][2]string
		want  string
	}{
		{"foreign game", [][2]string{{"s.jsonl", shardHeader("2/2", 1) + "\n" + testGame(1, "1-0", 0)}}, "s.jsonl:2: game 1 does not belong to shard 2/2"},
		{"same shard twice", [][2]string{{"s1.jsonl", s1}, {"copy.jsonl", s1}}, "s1.jsonl and copy.jsonl are both shard 1/2 of the same run (seed 1)"},
		{"whole and shard", [][2]string{{"whole.jsonl", wholeData}, {"s2.jsonl", s2}}, "s2.jsonl is shard 2/2 of the run in whole.jsonl, which is the whole run"},
		{"different runs", [][2]string{{"s1.jsonl", s1}, {"o2.jsonl", shardHeader("2/2", 2) + "\n"}}, "s1.jsonl (shard 1/2) and o2.jsonl (shard 2/2) are shards of different runs"},
	} {
		if _, err := tally(c.files...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// The shards of a round robin of three agents with 6 games per pairing
// (3 pairings, 3 game pairs each; the schedule's games 0-5 are the first
// game pair of every pairing, 6-11 the second, 12-17 the third).
func ExampleShard_Holds() {
	for _, text := range []string{"1/3", "2/3", "3/3", "2/2"} {
		s, err := ParseShard(text)
		if err != nil {
			panic(err)
		}
		fmt.Print(s, ":")
		for g := range 18 {
			if s.Holds(g, 3, 3) {
				fmt.Print(" ", g)
			}
		}
		fmt.Println()
	}
	// Output:
	// 1/3: 0 1 2 3 4 5
	// 2/3: 6 7 8 9 10 11
	// 3/3: 12 13 14 15 16 17
	// 2/2: 2 3 6 7 10 11 14 15
}
