package results

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// reportGames plays a round robin by a fixed script: strong beats
// everyone, random loses to everyone, a and b split their games.
func reportGames() *Dataset {
	var gs []*GameRecord
	add := func(first, second string, winner int) {
		result := map[int]string{0: "1-0", 1: "0-1", -1: "1/2-1/2"}[winner]
		gs = append(gs, &GameRecord{Record: KindGame, Index: len(gs), Game: "othello6", Result: result, Winner: winner,
			Termination: Normal, Forfeit: -1, Players: [2]Player{{Name: first}, {Name: second}}})
	}
	for k := range 10 {
		add("strong", "a", 0)
		add("b", "strong", 1)
		add("random", "a", 1)
		add("b", "random", 0)
		add("strong", "random", 0)
		add("a", "b", k%2)
		add("b", "a", -1)
	}
	return NewDataset("othello6", []string{"strong", "a", "b", "random"}, gs)
}

// TestReportOpenBounds: a player with 100 % (and one with 0 %) gets an
// interval open on that side in every format, a note says why, and the
// players in between are rated by maximum likelihood without them.
func TestReportOpenBounds(t *testing.T) {
	rep, err := Analyse(reportGames(), AnalysisOptions{Bootstrap: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	row := map[string]PlayerRow{}
	for _, p := range rep.Players {
		row[p.Name] = p
	}
	if s := row["strong"]; !math.IsInf(s.EloHigh, 1) || math.IsInf(s.EloLow, 0) || !(s.EloLow <= s.Elo) {
		t.Errorf("strong (100 %%): %v [%v, %v], want a finite lower bound and an open upper one", s.Elo, s.EloLow, s.EloHigh)
	}
	if r := row["random"]; !math.IsInf(r.EloLow, -1) || math.IsInf(r.EloHigh, 0) || !(r.Elo <= r.EloHigh) {
		t.Errorf("random (0 %%): %v [%v, %v], want an open lower bound and a finite upper one", r.Elo, r.EloLow, r.EloHigh)
	}
	// a and b split their games evenly: maximum likelihood rates them equal.
	if a, b := row["a"], row["b"]; math.Abs(a.Elo-b.Elo) > 1e-6 || math.IsInf(a.EloLow, 0) || math.IsInf(b.EloHigh, 0) {
		t.Errorf("a %v [%v, %v], b %v [%v, %v]: want equal, bounded ratings", a.Elo, a.EloLow, a.EloHigh, b.Elo, b.EloLow, b.EloHigh)
	}
	notes := strings.Join(rep.Notes, "\n")
	for _, want := range []string{"strong scored 100 %", "random scored 0 %", "null in JSON"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q: %s", want, notes)
		}
	}

	var js bytes.Buffer
	if err := rep.Write(&js, "json"); err != nil {
		t.Fatalf("json: %v", err)
	}
	var doc struct {
		Players []map[string]any `json:"players"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range doc.Players {
		switch p["name"] {
		case "strong":
			if p["elo_high"] != nil || p["elo_low"] == nil {
				t.Errorf("JSON strong: elo_low %v, elo_high %v; want a number and null", p["elo_low"], p["elo_high"])
			}
		case "random":
			if p["elo_low"] != nil || p["elo_high"] == nil {
				t.Errorf("JSON random: elo_low %v, elo_high %v; want null and a number", p["elo_low"], p["elo_high"])
			}
		}
	}

	var back Analysis
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	for i, p := range back.Players {
		if q := rep.Players[i]; p.Name != q.Name || p.EloLow != q.EloLow || p.EloHigh != q.EloHigh || p.Elo != q.Elo {
			t.Errorf("JSON round trip: %s %v [%v, %v], want %s %v [%v, %v]", p.Name, p.Elo, p.EloLow, p.EloHigh, q.Name, q.Elo, q.EloLow, q.EloHigh)
		}
	}

	var c bytes.Buffer
	if err := rep.Write(&c, "csv"); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[1:] {
		if r[1] == "strong" && r[4] != "+inf" || r[1] == "random" && r[3] != "-inf" {
			t.Errorf("CSV row %v: want +inf / -inf for the open bounds", r)
		}
	}

	var text bytes.Buffer
	if err := rep.Write(&text, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "∞") {
		t.Errorf("text table shows no open bound:\n%s", text.String())
	}
}

// TestReportDavidsonScale: the title and JSON state Davidson's scale.
func TestReportDavidsonScale(t *testing.T) {
	rep, err := Analyse(reportGames(), AnalysisOptions{Draws: Davidson})
	if err != nil {
		t.Fatal(err)
	}
	if !(rep.EloScale > 0 && rep.EloScale < 1) || !strings.Contains(rep.title(), "2/(2+ν)") {
		t.Errorf("scale %v, title %q", rep.EloScale, rep.title())
	}
}

// TestReportNotesReadWhole: the note on players the games cannot rate
// says each case once, as a sentence: "x scored 100 % against the rest of
// the group", and a player who won or lost every game (a chain a > b > c)
// without "against the rest of the group" after it.
func TestReportNotesReadWhole(t *testing.T) {
	var gs []*GameRecord
	add := func(first, second string, winner int) {
		result := map[int]string{0: "1-0", 1: "0-1"}[winner]
		gs = append(gs, &GameRecord{Record: KindGame, Index: len(gs), Game: "othello6", Result: result, Winner: winner,
			Termination: Normal, Forfeit: -1, Players: [2]Player{{Name: first}, {Name: second}}})
	}
	for range 4 {
		add("a", "b", 0)
		add("b", "c", 0)
	}
	rep, err := Analyse(NewDataset("othello6", []string{"a", "b", "c"}, gs), AnalysisOptions{Bootstrap: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(rep.Notes, "\n")
	if !strings.Contains(notes, "a scored 100 % against the rest of the group") || !strings.Contains(notes, "c scored 0 % against the rest of the group") {
		t.Errorf("notes: %s", notes)
	}
	if !strings.Contains(notes, "b won or lost every game against everyone they met, so") || strings.Count(notes, "against the rest of the group") != 2 {
		t.Errorf("a note says its case twice: %s", notes)
	}
}
