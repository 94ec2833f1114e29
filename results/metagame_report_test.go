package results

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// A cycle a > b > c > a, and d, who met only a: the analysis drops d
// from the meta-game with a note, gives a, b and c a third of the Nash
// mass each (equal margins), lists the cycle, and its JSON reads back.
func TestAnalysisMetaGame(t *testing.T) {
	game := func(first, second string, winner int) *GameRecord {
		result := map[int]string{0: "1-0", 1: "0-1", -1: "1/2-1/2"}[winner]
		return &GameRecord{Record: KindGame, Game: "othello6", Result: result, Winner: winner,
			Termination: Normal, Forfeit: -1, Players: [2]Player{{Name: first}, {Name: second}}}
	}
	var games []*GameRecord
	for _, pair := range [][2]string{{"a", "b"}, {"b", "c"}, {"c", "a"}} {
		for k := 0; k < 3; k++ { // the first of the pair wins 3 of 4
			games = append(games, game(pair[0], pair[1], 0), game(pair[1], pair[0], 1))
		}
		games = append(games, game(pair[0], pair[1], 1), game(pair[1], pair[0], 0))
	}
	games = append(games, game("a", "d", 0), game("d", "a", 0))
	d := NewDataset("othello6", []string{"a", "b", "c", "d"}, games)
	rep, err := Analyse(d, AnalysisOptions{Bootstrap: 50, Seed: 1, MetaGame: &MetaGameOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	mg := rep.MetaGame
	if mg == nil || strings.Join(mg.Players, " ") != "a b c" || strings.Join(mg.Excluded, " ") != "d" || mg.Replicates != 50 {
		t.Fatalf("meta-game %+v", mg)
	}
	if len(mg.Cycles) != 1 || mg.Cycles[0].Players != [3]string{"a", "b", "c"} || mg.Cycles[0].Scores != [3]float64{0.75, 0.75, 0.75} {
		t.Fatalf("cycles %+v", mg.Cycles)
	}
	noted := false
	for _, n := range rep.Notes {
		noted = noted || strings.Contains(n, "meta-game (Nash averaging, α-Rank) leaves out d")
	}
	if !noted {
		t.Fatalf("no note of d's exclusion: %q", rep.Notes)
	}
	for _, p := range rep.Players {
		switch {
		case p.Name == "d" && p.MetaRow != nil:
			t.Fatalf("d has meta-game values %+v", *p.MetaRow)
		case p.Name != "d" && (p.MetaRow == nil || p.NashMass < 1.0/3-1e-9 || p.NashMass > 1.0/3+1e-9 || p.AlphaRankMass < 1.0/3-1e-9 || p.AlphaRankMass > 1.0/3+1e-9):
			t.Fatalf("%s: %+v, want a third of each mass", p.Name, p.MetaRow)
		}
	}
	var buf bytes.Buffer
	if err := rep.Write(&buf, "json"); err != nil {
		t.Fatal(err)
	}
	var back Analysis
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	for k, p := range back.Players {
		if (p.MetaRow == nil) != (rep.Players[k].MetaRow == nil) || p.MetaRow != nil && *p.MetaRow != *rep.Players[k].MetaRow {
			t.Fatalf("%s: read back %+v, wrote %+v", p.Name, p.MetaRow, rep.Players[k].MetaRow)
		}
	}
	buf.Reset()
	if err := rep.Write(&buf, "markdown"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "* Cycle a > b > c > a: probability") {
		t.Fatalf("markdown without the cycle:\n%s", buf.String())
	}
}
