package results

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTimeLosses: losses by timeout forfeit are counted per player, shown in
// JSON, and a note says that time decided games; other forfeits and a double
// timeout (a draw) are not losses on time.
func TestTimeLosses(t *testing.T) {
	var gs []*GameRecord
	add := func(first, second string, winner int, term string, forfeit int) {
		result := map[int]string{0: "1-0", 1: "0-1", -1: "1/2-1/2"}[winner]
		gs = append(gs, &GameRecord{Record: KindGame, Index: len(gs), Game: "othello6", Result: result, Winner: winner,
			Termination: term, Forfeit: forfeit, Players: [2]Player{{Name: first}, {Name: second}}})
	}
	add("fast", "slow", 0, Normal, -1)
	add("slow", "fast", 1, Timeout, 0)  // slow, first, lost on time
	add("fast", "slow", 0, Timeout, 1)  // slow, second, lost on time
	add("slow", "fast", 0, Normal, -1)  // slow wins one
	add("fast", "slow", 1, Crash, 0)    // fast crashed: a forfeit, not on time
	add("slow", "fast", -1, Timeout, 2) // both late on one turn: a draw
	d := NewDataset("othello6", []string{"fast", "slow"}, gs)

	rep, err := Analyse(d, AnalysisOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	row := map[string]PlayerRow{}
	for _, p := range rep.Players {
		row[p.Name] = p
	}
	for _, tc := range []struct {
		name                       string
		timeLosses, losses, forfts int
	}{
		{"slow", 2, 3, 3},
		{"fast", 0, 2, 2},
	} {
		p := row[tc.name]
		if p.TimeLosses != tc.timeLosses || p.Losses != tc.losses || p.Forfeits != tc.forfts {
			t.Errorf("%s: %d time losses, %d losses, %d forfeits; want %d, %d, %d",
				tc.name, p.TimeLosses, p.Losses, p.Forfeits, tc.timeLosses, tc.losses, tc.forfts)
		}
	}
	notes := strings.Join(rep.Notes, "\n")
	if want := "time forfeits decided games: slow lost 2 of 3 losses on time;"; !strings.Contains(notes, want) {
		t.Errorf("notes lack %q:\n%s", want, notes)
	}
	if strings.Contains(notes, "fast lost") {
		t.Errorf("fast never lost on time:\n%s", notes)
	}
	js, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"time_losses":2`) {
		t.Errorf("JSON lacks time_losses: %s", js)
	}

	// Without timeouts, no note.
	rep, err = Analyse(NewDataset("othello6", []string{"fast", "slow"}, gs[:1]), AnalysisOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(rep.Notes, "\n"); strings.Contains(n, "on time") {
		t.Errorf("a note about time without timeouts: %s", n)
	}
}
