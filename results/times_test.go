package results

import (
	"bytes"
	"strings"
	"testing"
)

// clockedGame is a checked game of two plies after a one-ply opening, the
// first player on a clock and the second not.
func clockedGame() GameRecord {
	return GameRecord{Record: KindGame, Game: "othello6", Result: "1-0", Winner: 0, Termination: Normal, Forfeit: -1,
		Players: [2]Player{{Name: "a", Moves: 1, TC: "1s+10ms"}, {Agent: 1, Name: "b", Moves: 1}},
		Opening: []string{"c2"}, Moves: []string{"c2", "b2", "a1"}, Plies: 3,
		Clocks:    [][2]float64{{990.5, NoClock}, {990.5, NoClock}},
		MoveStats: []MoveStat{{Player: 1, MS: 0.25}, {Player: 0, MS: 19.5, Depth: 3, Score: -12, Nodes: 400, Info: "pv b2 a1"}},
	}
}

// TestCheckTimes: Check accepts consistent clock times and move statistics
// and names what is wrong with inconsistent ones.
func TestCheckTimes(t *testing.T) {
	tests := []struct {
		name string
		edit func(g *GameRecord)
		want string // "" for a good record
	}{
		{"good", func(g *GameRecord) {}, ""},
		{"no times at all", func(g *GameRecord) { g.Clocks, g.MoveStats = nil, nil }, ""},
		{"both on clocks", func(g *GameRecord) { g.Players[1].TC = "1s"; g.Clocks[0][1], g.Clocks[1][1] = 0, 1000 }, ""},
		{"from a position", func(g *GameRecord) {
			g.Opening = []string{"fen x"}
			g.Moves[0] = "fen x"
			g.Plies = 2
		}, ""},
		{"one clock entry short", func(g *GameRecord) { g.Clocks = g.Clocks[:1] }, "1 clock entries for the 2 plies after the opening"},
		{"one clock entry too many", func(g *GameRecord) { g.Clocks = append(g.Clocks, g.Clocks[0]) }, "3 clock entries"},
		{"negative time left", func(g *GameRecord) { g.Clocks[1][0] = -0.001 }, "clock entry 1: player 0 has -0.001 ms left"},
		{"time left without a clock", func(g *GameRecord) { g.Clocks[0][1] = 5 }, "player 1 has no time control but 5 ms left"},
		{"clocks without time controls", func(g *GameRecord) { g.Players[0].TC = "" }, "neither player has a time control"},
		{"bad player", func(g *GameRecord) { g.MoveStats[0].Player = 2 }, "move stat 0: player 2 is not 0 or 1"},
		{"negative move time", func(g *GameRecord) { g.MoveStats[1].MS = -1 }, "move stat 1: time -1 ms"},
		{"negative nodes", func(g *GameRecord) { g.MoveStats[1].Nodes = -1 }, "negative depth 3 or nodes -1"},
		{"stats do not match the moves", func(g *GameRecord) { g.MoveStats = g.MoveStats[:1] }, "0 move stats of player 0, who made 1 moves"},
		{"a forfeited last move counts", func(g *GameRecord) {
			g.Players[1].Moves = 2
			g.MoveStats = append(g.MoveStats, MoveStat{Player: 1, MS: 1200})
		}, ""},
	}
	for _, tt := range tests {
		g := clockedGame()
		tt.edit(&g)
		err := g.Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: got %v, want an error with %q", tt.name, err, tt.want)
		}
	}
}

// TestTimesReadBack: a record with clocks and statistics is written by the
// fast encoder and read back equal; the fields are absent from records
// without them.
func TestTimesReadBack(t *testing.T) {
	g := clockedGame()
	line := AppendGame(nil, &g)
	for _, want := range []string{`"clocks_ms":[[990.5,-1],[990.5,-1]]`, `"move_stats":[{"player":1,"ms":0.25},{"player":0,"ms":19.5,"depth":3,"score":-12,"nodes":400,"info":"pv b2 a1"}]`, `"tc":"1s+10ms"`} {
		if !bytes.Contains(line, []byte(want)) {
			t.Errorf("record lacks %s:\n%s", want, line)
		}
	}
	file, err := Read(strings.NewReader(testHeader+"\n"+string(line)), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := file.Games[0]; len(got.Clocks) != 2 || got.Clocks[1] != g.Clocks[1] || got.MoveStats[1] != g.MoveStats[1] || got.Players[0].TC != "1s+10ms" {
		t.Errorf("read back as %+v", got)
	}
	g.Clocks, g.MoveStats, g.Players[0].TC = nil, nil, ""
	if line := AppendGame(nil, &g); bytes.Contains(line, []byte("clocks_ms")) || bytes.Contains(line, []byte("move_stats")) || bytes.Contains(line, []byte(`"tc"`)) {
		t.Errorf("record without times mentions them:\n%s", line)
	}
}

// TestConfigDiffTC: a changed time control is a difference resume reports.
func TestConfigDiffTC(t *testing.T) {
	a := Config{TimeControl: "1s+10ms"}
	if d := a.Diff(Config{TimeControl: "2s"}); len(d) != 1 || !strings.Contains(d[0], "tc: 1s+10ms (file) ≠ 2s (now)") {
		t.Errorf("diff %q", d)
	}
	if d := a.Diff(Config{}); len(d) != 1 || !strings.Contains(d[0], "≠ none (now)") {
		t.Errorf("diff %q", d)
	}
}
