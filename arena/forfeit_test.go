package arena

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// TestForgedIllegalForfeit: CheckGame (what the broker's coordinator runs
// on every result) accepts the referee's own illegal-move forfeits and
// rejects forged ones: a legal move called illegal, and an illegal move
// after the end of the game.
func TestForgedIllegalForfeit(t *testing.T) {
	tour := mustNew(t, Options{Game: "othello6", Agents: []string{"t-illegal:at=6", "greedy"}, GamesPerPair: 2, Seed: 3, Openings: "none"})
	got, _ := collect(t, tour, RunOptions{Concurrency: 1})
	var illegal *results.GameRecord
	for i := range got {
		g := &got[i]
		if err := tour.CheckGame(g); err != nil {
			t.Fatalf("the referee's own game %d: %v", g.Index, err)
		}
		if g.Termination == results.Illegal {
			illegal = g
		}
	}
	if illegal == nil || !strings.Contains(illegal.Detail, illegalMoveWords) {
		t.Fatalf("no illegal-move forfeit with the referee's wording among %+v", got)
	}
	// A legal move of the final position (the detail lists them) called
	// illegal.
	_, legal, _ := strings.Cut(illegal.Detail, "(legal: ")
	first := strings.Fields(strings.TrimSuffix(legal, ")"))[0]
	forged := *illegal
	forged.Detail = forged.Players[forged.Forfeit].Name + illegalMoveWords + first + " (legal: " + legal
	if err := tour.CheckGame(&forged); err == nil || !strings.Contains(err.Error(), "legal in the final position") {
		t.Errorf("a legal move %s called illegal: %v", first, err)
	}

	// A finished game turned into a forfeit for an illegal move.
	tour = mustNew(t, Options{Game: "othello6", Agents: []string{"greedy", "random"}, GamesPerPair: 2, Seed: 3, Openings: "none"})
	got, _ = collect(t, tour, RunOptions{Concurrency: 1})
	for i := range got {
		g := got[i]
		if g.Winner < 0 {
			continue
		}
		g.Termination, g.Forfeit = results.Illegal, 1-g.Winner
		g.Detail = g.Players[g.Forfeit].Name + illegalMoveWords + "a1 (legal: )"
		if err := tour.CheckGame(&g); err == nil || !strings.Contains(err.Error(), "after the end of the game") {
			t.Errorf("game %d: a forfeit after the end: %v", g.Index, err)
		}
		return
	}
	t.Fatal("no decisive game to forge")
}
