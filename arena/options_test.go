package arena

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

// TestOptionsCheck: every option out of its range, or given with one it
// cannot go with, is refused by Check and by New, before anything is
// built, with an *option.Error that names the field and says what to use.
func TestOptionsCheck(t *testing.T) {
	many := make([]string, MaxAgents+1)
	for i := range many {
		many[i] = "random"
	}
	for _, c := range []struct {
		name       string
		edit       func(o *Options)
		field, msg string
	}{
		{"games per pair above MaxGames", func(o *Options) { o.GamesPerPair = 100000000000 }, "GamesPerPair", "GamesPerPair 100000000000: use an even number from 2 to 1000000 (games come in colour-swapped pairs)"},
		{"no games per pair", func(o *Options) { o.GamesPerPair = 0 }, "GamesPerPair", "GamesPerPair 0: use an even number from 2"},
		{"negative games per pair", func(o *Options) { o.GamesPerPair = -4 }, "GamesPerPair", "GamesPerPair -4: use an even number"},
		{"odd games per pair", func(o *Options) { o.GamesPerPair = 3 }, "GamesPerPair", "GamesPerPair 3: use an even number"},
		{"pairings × games above MaxGames", func(o *Options) { o.Agents, o.GamesPerPair = many[:3], 400000 },
			"GamesPerPair", "GamesPerPair 400000 with 3 agents makes 1200000 games in a round-robin; one run plays at most 1000000: use a smaller GamesPerPair or fewer agents, and split a larger study into runs with different Seed"},
		{"gauntlet of 1000 above MaxGames", func(o *Options) { o.Kind, o.Agents, o.GamesPerPair = results.Gauntlet, many[:MaxAgents], 2000 },
			"GamesPerPair", "GamesPerPair 2000 with 1000 agents makes 1998000 games in a gauntlet; one run plays at most 1000000"},
		{"too many agents", func(o *Options) { o.Agents = many }, "Agents", "Agents lists 1001 agent specs; a run has at most 1000: split the agents into several runs"},
		{"one agent", func(o *Options) { o.Agents = many[:1] }, "Agents", "Agents needs at least two agent specs, got 1"},
		{"match of three", func(o *Options) { o.Kind, o.Agents = results.Match, many[:3] }, "Agents", "Agents needs exactly two agent specs, got 3"},
		{"negative move time", func(o *Options) { o.MoveTime = -time.Second }, "MoveTime", "MoveTime -1s is out of range: use 0 or 1ms to 24h (0: automatic)"},
		{"move time above a day", func(o *Options) { o.MoveTime = 1000 * time.Hour }, "MoveTime", "MoveTime 1000h is out of range"},
		{"move time below 1ms", func(o *Options) { o.MoveTime = time.Microsecond }, "MoveTime", "MoveTime 1µs is out of range"},
		{"negative margin", func(o *Options) { o.MoveMargin = -time.Millisecond }, "MoveMargin", "MoveMargin -1ms is out of range: use 1ms to 1h"},
		{"margin above an hour", func(o *Options) { o.MoveMargin = 2 * time.Hour }, "MoveMargin", "MoveMargin 2h is out of range: use 1ms to 1h"},
		{"ply cap", func(o *Options) { o.MaxPlies = MaxPlyCap + 1 }, "MaxPlies", "MaxPlies 20001 is out of range: use 0 to 20000"},
		{"long random openings", func(o *Options) { o.Openings = "random:1000000000" }, "Openings", "Openings random:1000000000: want random:K with K from 0 to 1000 plies"},
		{"negative random openings", func(o *Options) { o.Openings = "random:-1" }, "Openings", "Openings random:-1: want random:K"},
		{"random openings without a number", func(o *Options) { o.Openings = "random:x" }, "Openings", "Openings random:x: want random:K"},
		{"clock with a move time", func(o *Options) {
			o.TimeControl, o.MoveTime = agents.TimeControl{Base: time.Second}, 50*time.Millisecond
		},
			"TimeControl", "TimeControl 1s and MoveTime 50ms cannot be used together: the clock limits every move (leave out MoveTime, or give agents their own clocks with tc= in their specs)"},
		{"clock base above its bound", func(o *Options) { o.TimeControl = agents.TimeControl{Base: 48 * time.Hour} }, "TimeControl", "TimeControl 48h0m0s: the base must be 1ms to"},
		{"negative increment", func(o *Options) { o.TimeControl = agents.TimeControl{Base: time.Second, Inc: -time.Millisecond} }, "TimeControl", "the increment 0 to"},
		{"SPRT outside a match", func(o *Options) { o.SPRT = &results.SPRT{Elo1: 5, Alpha: 0.05, Beta: 0.05} }, "SPRT", "SPRT: an SPRT belongs to a match"},
		{"bad adjudication", func(o *Options) { o.Adjudicate = "solve" }, "Adjudicate", "Adjudicate solve: say from how many empty cells to solve"},
		{"shard 0", func(o *Options) { o.Shard = &results.Shard{Index: 0, Count: 3} }, "Shard", "Shard 0/3: i is 0"},
		{"more shards than pairs", func(o *Options) { o.Shard = &results.Shard{Index: 1, Count: 3} }, "Shard", "Shard 1/3: this run has only 2 game pairs, so at most 2 shards"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := smallOptions
			c.edit(&o)
			for call, f := range map[string]func() error{
				"Check": o.Check,
				"New":   func() error { _, err := New(o); return err },
			} {
				start := time.Now()
				err := f()
				var oe *option.Error
				if !errors.As(err, &oe) || oe.Name != c.field || !strings.Contains(err.Error(), c.msg) {
					t.Errorf("%s: error %v\nwant an *option.Error for %s saying %q", call, err, c.field, c.msg)
				}
				if el := time.Since(start); el > 5*time.Second {
					t.Errorf("%s took %v to refuse", call, el) // it built something
				}
			}
		})
	}
}

// TestOptionsCheckAccepts: the edges of the ranges are accepted, and
// without agents (a resume takes them from its record) the checks that
// count them wait for New.
func TestOptionsCheckAccepts(t *testing.T) {
	for _, edit := range []func(o *Options){
		func(o *Options) { o.GamesPerPair, o.MaxPlies = MaxGames, MaxPlyCap },
		func(o *Options) { o.MoveTime, o.MoveMargin, o.Openings = MaxMoveTime, time.Millisecond, "random:1000" },
		func(o *Options) { o.MoveTime, o.MoveMargin, o.MaxPlies = time.Millisecond, MaxMoveMargin, -1 },
		func(o *Options) { o.Kind, o.Agents, o.GamesPerPair = results.Gauntlet, []string{"a", "b", "c"}, 500000 },
		func(o *Options) {
			o.TimeControl = agents.TimeControl{Base: agents.MaxClockBase, Inc: agents.MaxClockInc}
		},
		func(o *Options) { o.Agents, o.GamesPerPair, o.Shard = nil, 2, &results.Shard{Index: 7, Count: 9} },
		func(o *Options) { o.Kind, o.Agents = results.Match, nil },
	} {
		o := smallOptions
		edit(&o)
		if err := o.Check(); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

func TestCheckConcurrency(t *testing.T) {
	for _, c := range []struct {
		n      int
		remote bool
		want   string
	}{
		{0, false, "Concurrency 0 is out of range: use 1 to 256 games at once (0 with Remote: the coordinator plays no game itself, its workers play them all)"},
		{100000, false, "Concurrency 100000 is out of range"},
		{-3, true, "Concurrency -3 is out of range"},
		{257, true, "Concurrency 257 is out of range"},
		{0, true, ""}, {1, false, ""}, {256, false, ""},
	} {
		err := CheckConcurrency(c.n, c.remote)
		var oe *option.Error
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%d (remote %t): %v", c.n, c.remote, err)
		case c.want != "" && (!errors.As(err, &oe) || oe.Name != "Concurrency" || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%d (remote %t): error %v, want %q", c.n, c.remote, err, c.want)
		}
	}
}

// FuzzOptionsCheck: Check never panics, and what it accepts lies within
// the documented limits.
func FuzzOptionsCheck(f *testing.F) {
	f.Add("round-robin", 3, 40, int64(0), int64(0), 0, "random:2", int64(0), int64(0), 0, 0)
	f.Add("gauntlet", 4, 500000, int64(time.Hour), int64(time.Millisecond), -1, "random:3+seed", int64(0), int64(0), 2, 3)
	f.Add("match", 2, 100000000000, int64(-1), int64(0), 2000000, "random:x", int64(time.Second), int64(time.Millisecond), 0, 0)
	f.Add("sweep", 5, 6, int64(0), int64(2*time.Hour), 0, "none", int64(-1), int64(0), 1, 10001)
	f.Fuzz(func(t *testing.T, kind string, agentCount, games int, moveTime, margin int64, maxPlies int, openings string, base, inc int64, shardI, shardN int) {
		if agentCount < 0 || agentCount > 3*MaxAgents {
			return
		}
		o := Options{Kind: kind, Agents: make([]string, agentCount), GamesPerPair: games,
			MoveTime: time.Duration(moveTime), MoveMargin: time.Duration(margin), MaxPlies: maxPlies, Openings: openings,
			TimeControl: agents.TimeControl{Base: time.Duration(base), Inc: time.Duration(inc)}}
		if kind == results.Sweep {
			o.Swept = 1
		}
		if shardN != 0 {
			o.Shard = &results.Shard{Index: shardI, Count: shardN}
		}
		if o.Check() != nil {
			return
		}
		if kind == "" {
			kind = results.RoundRobin
		}
		pairs, err := pairCount(kind, agentCount, o.Swept)
		switch {
		case err != nil:
			t.Fatalf("%+v: accepted a run of no kind: %v", o, err)
		case agentCount < 2 || agentCount > MaxAgents:
			t.Fatalf("accepted %d agents", agentCount)
		case games < 2 || games%2 != 0 || pairs*uint64(games) > MaxGames:
			t.Fatalf("accepted %d pairings × %d games", pairs, games)
		case o.MoveTime != 0 && (o.MoveTime < time.Millisecond || o.MoveTime > MaxMoveTime):
			t.Fatalf("accepted MoveTime %v", o.MoveTime)
		case o.MoveMargin != 0 && (o.MoveMargin < time.Millisecond || o.MoveMargin > MaxMoveMargin):
			t.Fatalf("accepted MoveMargin %v", o.MoveMargin)
		case o.MaxPlies > MaxPlyCap:
			t.Fatalf("accepted MaxPlies %d", o.MaxPlies)
		case !o.TimeControl.IsZero() && o.MoveTime != 0:
			t.Fatalf("accepted a clock with a move time")
		case o.Shard != nil && (kind == results.Match || o.Shard.Check() != nil || uint64(o.Shard.Count) > pairs*uint64(games)/2):
			t.Fatalf("accepted shard %v", o.Shard)
		}
		if k, ok := randomPlies(openings); strings.HasPrefix(openings, "random:") && (!ok || k < 0 || k > MaxOpeningPlies) {
			t.Fatalf("accepted openings %q", openings)
		}
		if tc := o.TimeControl; !tc.IsZero() {
			if _, err := agents.ParseTimeControl(tc.String()); err != nil {
				t.Fatalf("accepted clock %v: %v", tc, err)
			}
		}
	})
}
