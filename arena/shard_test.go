package arena

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// shardOptions: a round robin of three fast agents, 3 pairings × 6 games =
// 18 games in 9 colour-swapped pairs, from random openings.
var shardOptions = Options{
	Game:         "othello6",
	Agents:       []string{"random", "greedy", "random:name=r2"},
	GamesPerPair: 6,
	Seed:         7,
	Openings:     "random:2",
}

// gameKey is what must agree between a shard and the whole run: everything
// but times.
func gameKey(g *results.GameRecord) string {
	p := g.Players
	for i := range p {
		p[i].TimeMS, p[i].MaxMoveMS = 0, 0
	}
	return fmt.Sprintf("%d %d %d %d %v %q %q %s %d %s %d %d", g.Index, g.Pair, g.Round, g.Seed, p, g.Opening, g.Moves, g.Result, g.Score, g.Termination, g.Forfeit, g.Plies)
}

func playAll(t *testing.T, o Options, concurrency int) (*Tournament, []string) {
	t.Helper()
	tour, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	st, err := tour.Run(context.Background(), RunOptions{Concurrency: concurrency, Sink: func(b []*results.GameRecord) error {
		for _, g := range b {
			got = append(got, gameKey(g))
		}
		return nil
	}})
	if err != nil || !st.Complete || st.Played != tour.Schedule.Len() {
		t.Fatalf("run: %+v, %v", st, err)
	}
	return tour, got
}

// TestShardsUnionIsTheWholeRun plays the run whole and as N shards (N = 1,
// 2, 3, 7; the shards with another concurrency): together the shards play
// each game of the whole run exactly once, identically (moves, results,
// seeds, openings), and shard i plays exactly the pairs k ≡ i−1 (mod N).
func TestShardsUnionIsTheWholeRun(t *testing.T) {
	whole, want := playAll(t, shardOptions, 1)
	slices.Sort(want)
	if len(want) != 18 || whole.Config.Shard != nil {
		t.Fatalf("whole run: %d games, shard %v", len(want), whole.Config.Shard)
	}
	for _, n := range []int{1, 2, 3, 7} {
		var union []string
		for i := 1; i <= n; i++ {
			o := shardOptions
			o.Shard = &results.Shard{Index: i, Count: n}
			tour, got := playAll(t, o, 2)
			if n == 1 {
				if tour.Config.Shard != nil {
					t.Errorf("1/1 recorded shard %v; the whole run has none", tour.Config.Shard)
				}
			} else if tour.Config.Shard.String() != fmt.Sprintf("%d/%d", i, n) {
				t.Errorf("shard %d/%d: config has %v", i, n, tour.Config.Shard)
			}
			if tour.Config.TotalGames != 18 {
				t.Errorf("shard %d/%d: total_games %d, want the whole run's 18", i, n, tour.Config.TotalGames)
			}
			pairings := map[int]bool{}
			for f := range tour.Schedule.All() {
				// 3 pairings of 3 pairs: pair k is number (k mod 3)·3 + k/3.
				if k := f.Index / 2; ((k%3)*3+k/3)%n != i-1 {
					t.Errorf("shard %d/%d plays game %d of pair %d", i, n, f.Index, k)
				}
				pairings[f.Pair] = true
			}
			// Dealt pairing by pairing, each of 3 shards has every pairing.
			if n <= 3 && len(pairings) != 3 {
				t.Errorf("shard %d/%d plays %d of the 3 pairings", i, n, len(pairings))
			}
			// Pairs are never split: 9 pairs dealt round-robin to n shards.
			if wantLen := 2 * ((9 - i + n) / n); len(got) != wantLen {
				t.Errorf("shard %d/%d played %d games, want %d", i, n, len(got), wantLen)
			}
			union = append(union, got...)
		}
		slices.Sort(union)
		if !slices.Equal(union, want) {
			t.Errorf("the %d shards' games differ from the whole run's:\n%s\nwant\n%s", n, strings.Join(union, "\n"), strings.Join(want, "\n"))
		}
	}
}

func TestShardErrors(t *testing.T) {
	match := shardOptions
	match.Kind, match.Agents = results.Match, match.Agents[:2]
	for _, c := range []struct {
		name  string
		o     Options
		shard results.Shard
		want  string
	}{
		{"zero", shardOptions, results.Shard{Index: 0, Count: 3}, "Shard 0/3: i is 0"},
		{"beyond", shardOptions, results.Shard{Index: 4, Count: 3}, "Shard 4/3: i is 4"},
		{"too many", shardOptions, results.Shard{Index: 1, Count: 10001}, "N is 10001; a run has 1 to 10000 shards"},
		{"more shards than pairs", shardOptions, results.Shard{Index: 1, Count: 10}, "Shard 1/10: this run has only 9 game pairs, so at most 9 shards"},
		{"match", match, results.Shard{Index: 1, Count: 2}, "Shard: a match cannot be sharded"},
	} {
		o := c.o
		s := c.shard
		o.Shard = &s
		if _, err := New(o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// TestShardResume: a shard's file resumes as its shard (the header alone
// rebuilds it), and resuming it as another shard is refused.
func TestShardResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shard-2.jsonl")
	o := shardOptions
	o.Shard = &results.Shard{Index: 2, Count: 3}
	playSession(t, SessionOptions{Options: o, Out: path, Concurrency: 1})
	// Keep the header and two games, as if the job had been killed there.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) < 7 {
		t.Fatalf("%d lines in %s", len(lines), path)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines[:3], "")), 0o644); err != nil {
		t.Fatal(err)
	}

	other := shardOptions
	other.Shard = &results.Shard{Index: 3, Count: 3}
	if _, err := resume(path, &other); err == nil || !strings.Contains(err.Error(), "shard: 2/3 (file) ≠ 3/3 (now)") {
		t.Errorf("resume as shard 3/3: error %v", err)
	}
	if _, err := resume(path, &shardOptions); err == nil || !strings.Contains(err.Error(), "shard: 2/3 (file) ≠ none (now)") {
		t.Errorf("resume as the whole run: error %v", err)
	}

	s, err := OpenSession(SessionOptions{Resume: path, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	again := s.Tournament()
	if again.Config.Shard.String() != "2/3" || again.Schedule.Len() != 6 || s.Done().Len() != 2 {
		t.Fatalf("resumed shard %v with %d fixtures, %d games already", again.Config.Shard, again.Schedule.Len(), s.Done().Len())
	}
	st, err := s.Run(context.Background(), RunOptions{})
	s.Close()
	if err != nil || !st.Complete || st.Played != 4 {
		t.Fatalf("resumed run: %+v, %v", st, err)
	}
	done, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, g := range done.Games {
		got = append(got, g.Index)
	}
	slices.Sort(got)
	if fmt.Sprint(got) != "[6 7 8 9 10 11]" { // the second round of every pairing
		t.Errorf("shard 2/3 holds games %v, want [6 7 8 9 10 11]", got)
	}
}
