package results_test

import (
	"fmt"
	"strings"

	"github.com/boardgame-arena/arena/results"
)

// Count a record file as it is read and rate its players from the
// counts: a wins both decisive games against b and draws one moving first.
func ExampleTally() {
	header := `{"record":"header","version":1,"created":"2026-11-24T00:00:00Z","concurrency":1,"config":{"kind":"round-robin","game":"othello6","agents":[{"name":"a","spec":"random"},{"name":"b","spec":"random"}],"games_per_pair":4,"seed":1,"openings":"random:2","move_time_ms":0,"move_margin_ms":100,"max_plies":1000,"total_games":4}}` + "\n"
	var file []byte
	file = append(file, header...)
	for i, winner := range []int{0, 1, -1} {
		first, second := i%2, 1-i%2
		g := results.GameRecord{Record: results.KindGame, Index: i, Game: "othello6", Winner: winner,
			Result: map[int]string{0: "1-0", 1: "0-1", -1: "1/2-1/2"}[winner], Termination: results.Normal, Forfeit: -1,
			Players: [2]results.Player{{Agent: first, Name: []string{"a", "b"}[first]}, {Agent: second, Name: []string{"a", "b"}[second]}},
			Moves:   []string{"c2", "b2"}, Opening: []string{"c2"}, Plies: 2}
		file = results.AppendGame(file, &g)
	}
	t := results.NewTally()
	if _, err := t.Read(strings.NewReader(string(file)), "run.jsonl"); err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range t.Summary.Players {
		fmt.Printf("%s %v as first %v\n", p.Name, p.All, p.AsFirst)
	}
	rep, err := t.Analyse(results.AnalysisOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// a scored 2.5 of 3: 400·log10(2.5/0.5) = 279.6 Elo above b.
	fmt.Printf("%s %+.1f, %s %+.1f\n", rep.Players[0].Name, rep.Players[0].Elo, rep.Players[1].Name, rep.Players[1].Elo)
	// Output:
	// a 2-1-0 as first 1-1-0
	// b 0-1-2 as first 0-0-1
	// a +139.8, b -139.8
}
