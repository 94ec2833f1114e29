package arena

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// smallOptions is a tiny valid run whose header the tests below edit.
var smallOptions = Options{Game: "t-sum", Agents: []string{"random", "greedy"}, GamesPerPair: 4, Seed: 1, Openings: "random:2"}

// writeHeader writes a record file holding only a header with c.
func writeHeader(t *testing.T, c results.Config) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	w, err := results.Create(path, results.Header{Concurrency: 1, Config: c})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestResumeRejectsOversizedHeaders(t *testing.T) {
	base := mustNew(t, smallOptions).Config
	many := make([]results.AgentInfo, MaxAgents+1)
	for i := range many {
		many[i] = results.AgentInfo{Name: "random", Spec: "random"}
	}
	for _, c := range []struct {
		name string
		edit func(c *results.Config)
		want string // in the error, after the file's name
	}{
		{"games per pair above MaxGames", func(c *results.Config) { c.GamesPerPair, c.TotalGames = MaxGames+2, MaxGames+2 }, "games_per_pair is 1000002"},
		{"odd games per pair", func(c *results.Config) { c.GamesPerPair, c.TotalGames = 3, 3 }, "games_per_pair is 3; it must be an even number"},
		{"no games per pair", func(c *results.Config) { c.GamesPerPair, c.TotalGames = 0, 0 }, "games_per_pair is 0"},
		{"too many agents", func(c *results.Config) {
			c.Kind, c.Agents, c.GamesPerPair, c.TotalGames = results.Gauntlet, many, 2, 2*MaxAgents
		}, "agents lists 1001 agents; a run has 2 to 1000"},
		{"pairings × games above MaxGames", func(c *results.Config) {
			c.Agents = many[:MaxAgents]
			c.GamesPerPair, c.TotalGames = 4, 4*MaxAgents*(MaxAgents-1)/2
		}, "games_per_pair 4 with 1000 agents makes 1998000 games in a round-robin; a run has at most 1000000"},
		{"match of three", func(c *results.Config) { c.Kind, c.Agents, c.TotalGames = results.Match, many[:3], 4 }, `kind "match" with 3 agents`},
		{"total games inconsistent", func(c *results.Config) { c.TotalGames = 1 << 40 }, "total_games is 1099511627776, but a round-robin of 2 agents with games_per_pair 4 plans 4"},
		{"ply cap above MaxPlyCap", func(c *results.Config) { c.MaxPlies = MaxPlyCap + 1 }, "max_plies is 20001"},
		{"negative ply cap", func(c *results.Config) { c.MaxPlies = -1 }, "max_plies is -1"},
		{"long random openings", func(c *results.Config) { c.Openings = "random:5000" }, `openings is "random:5000"`},
		{"move time beyond a Duration", func(c *results.Config) { c.MoveTimeMS = 1e300 }, "move_time_ms is 1e+300"},
		{"negative margin", func(c *results.Config) { c.MoveMarginMS = -1 }, "move_margin_ms is -1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := base
			c.edit(&cfg)
			path := writeHeader(t, cfg)
			_, err := resume(path, nil)
			if err == nil {
				t.Fatal("resumed a crafted header")
			}
			if want := path + ": header: " + c.want; !strings.Contains(err.Error(), want) {
				msg := err.Error()
				if len(msg) > 500 {
					msg = msg[:500] + "…"
				}
				t.Fatalf("error %q\ndoes not say %q", msg, want)
			}
		})
	}
	// The unedited header resumes.
	if _, err := resume(writeHeader(t, base), nil); err != nil {
		t.Fatalf("a valid header: %v", err)
	}
}
