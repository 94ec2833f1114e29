package results

import (
	"reflect"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/rng"
)

// verboseGame is a game of 2n moves whose first player's info texts are
// long (an engine's info string), the second's short.
func verboseGame(n, long int, text string) *GameRecord {
	g := &GameRecord{Record: KindGame, Game: "othello6", Result: "1-0", Termination: Illegal, Forfeit: 1, Winner: 0,
		Detail:  "greedy played an illegal move: " + strings.Repeat("z", 3000),
		Players: [2]Player{{Name: "a", Moves: n}, {Agent: 1, Name: "b", Moves: n}}}
	for i := range 2 * n {
		g.Moves = append(g.Moves, "c3")
		info := "depth 3"
		if i%2 == 0 {
			info = "string " + strings.Repeat(text, long/len(text))
		}
		g.MoveStats = append(g.MoveStats, MoveStat{Player: i % 2, MS: 1, Depth: 3, Info: info})
	}
	g.Plies = len(g.Moves)
	return g
}

// TestFit: a record over the limit keeps its short texts and has its
// long info texts cut to one length, each ending in TrimMark, so that its
// line fits; Trimmed counts what was cut, and the line reads back (the
// text's invalid UTF-8 as U+FFFD).
func TestFit(t *testing.T) {
	for _, text := range []string{"x", `"<é>\` + "\x01\xff"} {
		g := verboseGame(16, 900_000, text)
		before := len(AppendGame(nil, g))
		infos := 0
		for _, m := range g.MoveStats {
			infos += len(m.Info)
		}
		detail := g.Detail
		if err := g.Fit(MaxGameBytes); err != nil {
			t.Fatal(err)
		}
		line := AppendGame(nil, g)
		// Fit counts every character JSON may escape as 6 bytes: it
		// cuts such texts shorter than it needs to.
		if len(line) > MaxGameBytes || len(line) < MaxGameBytes*3/4 {
			t.Errorf("%q: a line of %d bytes (%d before); want at most %d, not far under", text, len(line), before, MaxGameBytes)
		}
		after := 0
		for i, m := range g.MoveStats {
			after += len(m.Info)
			switch {
			case i%2 == 1 && m.Info != "depth 3":
				t.Errorf("%q: a short info was changed: %q", text, m.Info)
			case i%2 == 0 && (!strings.HasSuffix(m.Info, TrimMark) || len(m.Info) != len(g.MoveStats[0].Info)):
				t.Errorf("%q: info %d not cut like the others (%d bytes, ends %q)", text, i, len(m.Info), m.Info[max(0, len(m.Info)-8):])
			}
		}
		if g.Detail != detail {
			t.Errorf("%q: the detail (3 KB) was cut", text)
		}
		if want := infos - after + 16*len(TrimMark); g.Trimmed != want {
			t.Errorf("%q: trimmed %d bytes, but %d were cut", text, g.Trimmed, want)
		}
		f, err := Read(strings.NewReader(testHeader+"\n"+string(line)), "fit.jsonl")
		if err != nil || len(f.Games) != 1 || f.Games[0].Trimmed != g.Trimmed {
			t.Fatalf("%q: the line does not read back as the record: %v", text, err)
		}
	}
}

// TestFitLeavesFittingRecords: a record within the limit (as Fit counts:
// times and the worker's name at their longest) is not changed, whatever
// its texts (random records with awkward strings); Fit's count is at
// least the line's length, and sizeBound at least Fit's count.
func TestFitLeavesFittingRecords(t *testing.T) {
	r := rng.New(9)
	for i := range 2000 {
		g := randomGame(r)
		g.Trimmed = 0
		want := *g
		want.MoveStats = append([]MoveStat(nil), g.MoveStats...)
		line, n, b := len(AppendGame(nil, g)), g.fitSize(), g.sizeBound()
		if line > n || n > b {
			t.Fatalf("record %d: a line of %d bytes, at most %d as Fit counts, at most %d as sizeBound counts", i, line, n, b)
		}
		if err := g.Fit(n); err != nil || !reflect.DeepEqual(*g, want) {
			t.Fatalf("record %d (%d bytes) changed by Fit(%d): %v", i, line, n, err)
		}
	}
}

// TestFitTight: cut to a limit just under the line, any record with texts
// fits it exactly (escapes and invalid UTF-8 included) or says why not.
func TestFitTight(t *testing.T) {
	r := rng.New(4)
	fitted := 0
	for i := range 2000 {
		g := randomGame(r)
		g.Trimmed = 0
		for j := range g.MoveStats {
			g.MoveStats[j].Info = strings.Repeat(g.MoveStats[j].Info, r.IntN(200))
		}
		n := len(AppendGame(nil, g))
		limit := n - r.IntN(n/2+1)
		orig := *g
		if err := g.Fit(limit); err != nil {
			if !strings.Contains(err.Error(), "even with every info text cut") || !reflect.DeepEqual(*g, orig) {
				t.Fatalf("record %d: %v, and the record changed", i, err)
			}
			continue
		}
		if m := len(AppendGame(nil, g)); m > limit {
			t.Fatalf("record %d: %d bytes after Fit(%d)", i, m, limit)
		}
		fitted++
	}
	if fitted < 500 {
		t.Errorf("only %d of 2000 records fitted: the test tries too little", fitted)
	}
}

// TestFitTooLong: a record whose moves alone are over the limit is left
// as it was, with an error.
func TestFitTooLong(t *testing.T) {
	g := verboseGame(1000, 100, "x")
	n := len(AppendGame(nil, g))
	if err := g.Fit(20_000); err == nil || !strings.Contains(err.Error(), "more than the 20000 bytes") {
		t.Errorf("Fit: %v", err)
	}
	if g.Trimmed != 0 || len(AppendGame(nil, g)) != n {
		t.Error("the record was changed")
	}
}

// TestFitAllocatesNothing: a record that fits costs no allocation (Fit
// runs once per game, on a tournament's hot path).
func TestFitAllocatesNothing(t *testing.T) {
	g := verboseGame(30, 100, "x")
	if n := testing.AllocsPerRun(100, func() { _ = g.Fit(MaxGameBytes) }); n != 0 {
		t.Errorf("Fit of a record that fits: %v allocations", n)
	}
}

// TestFitIgnoresTimes: where Fit cuts depends on the texts and moves, not
// on the times or the worker's name, which differ from one playing of a
// game to the next (locally, or on a broker's worker); and a coordinator
// may name any worker in the record after Fit: it still fits.
func TestFitIgnoresTimes(t *testing.T) {
	a, b := verboseGame(16, 900_000, "x"), verboseGame(16, 900_000, "x")
	b.DurationMS, b.Players[0].TimeMS, b.Players[1].MaxMoveMS, b.Players[0].Nodes = 123456.789, 98765.432, 1234.5, 1<<40
	for i := range b.MoveStats {
		b.MoveStats[i].MS, b.MoveStats[i].Nodes, b.MoveStats[i].Score = 1234.567, 1<<41, -12345
	}
	for _, g := range []*GameRecord{a, b} {
		if err := g.Fit(MaxGameBytes); err != nil {
			t.Fatal(err)
		}
	}
	if a.Trimmed != b.Trimmed || a.MoveStats[0].Info != b.MoveStats[0].Info {
		t.Errorf("cut differently: %d and %d bytes trimmed, infos of %d and %d bytes", a.Trimmed, b.Trimmed, len(a.MoveStats[0].Info), len(b.MoveStats[0].Info))
	}
	b.Worker = strings.Repeat("<", MaxWorkerName)
	if n := len(AppendGame(nil, b)); n > MaxGameBytes {
		t.Errorf("a line of %d bytes with the longest worker name", n)
	}
}
