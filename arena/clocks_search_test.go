package arena

import (
	"testing"
	"time"

	"github.com/boardgame-arena/arena/results"
)

// TestSearchAgentsOnClocks: alphabeta and mcts on 300ms+5ms clocks in an
// othello6 tournament never lose on time, and each uses a sensible share
// of what its clock offered in every game (over 25 % of the base plus its
// increments): their time managers read the clock from the move context.
func TestSearchAgentsOnClocks(t *testing.T) {
	if testing.Short() {
		t.Skip("plays clocked games of about half a second each")
	}
	tc := parseTC(t, "300ms+5ms")
	tour := mustNew(t, Options{Game: "othello6", Agents: []string{"alphabeta", "mcts"}, GamesPerPair: 4, Seed: 11, TimeControl: tc})
	got, _ := collect(t, tour, RunOptions{Concurrency: 1})
	for i := range got {
		g := &got[i]
		if g.Termination == results.Timeout || g.Forfeit != -1 {
			t.Errorf("game %d: %s by %d: %s", g.Index, g.Termination, g.Forfeit, g.Detail)
			continue
		}
		checkClocks(t, g)
		for p, pl := range g.Players {
			// The moves' times (time_ms also counts NewGame, which the
			// clock does not).
			used := 0.0
			for _, m := range g.MoveStats {
				if m.Player == p {
					used += m.MS
				}
			}
			offered := tc.Base + time.Duration(pl.Moves)*tc.Inc
			share := used / ms(offered)
			t.Logf("game %d: %s used %.0f of %.0f ms (%.0f %%) in %d moves", g.Index, pl.Name, used, ms(offered), 100*share, pl.Moves)
			if share < 0.25 {
				t.Errorf("game %d: %s used %.1f ms of the %.0f ms its clock offered (%.0f %%), want over 25 %%", g.Index, pl.Name, used, ms(offered), 100*share)
			}
			if left := g.Clocks[len(g.Clocks)-1][p]; left < 0 {
				t.Errorf("game %d: %s ends with %v ms", g.Index, pl.Name, left)
			}
		}
		deep := false
		for _, m := range g.MoveStats {
			deep = deep || m.Depth > 1
		}
		if !deep {
			t.Errorf("game %d: no move stat reports a depth over 1: %+v", g.Index, g.MoveStats)
		}
	}
}
