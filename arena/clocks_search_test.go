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
//
// The arena's margin is 500ms, not the default 100ms: a busy machine
// stalls a search for longer than 100ms, which no time manager can help
// (at a load of 8 on 2 cores alphabeta flagged after 134ms of thought with
// 9ms on its clock). An agent that did not read the clock would think for
// its own budget on every move, a second for alphabeta's default: it
// flags at once, and uses far more than the 5 times what its clock offered
// that a machine 5 times slower could excuse. How closely they keep to
// their clocks is TestTimeManager's matter, judged beside a control.
func TestSearchAgentsOnClocks(t *testing.T) {
	if testing.Short() {
		t.Skip("plays clocked games of about half a second each")
	}
	tc := parseTC(t, "300ms+5ms")
	tour := mustNew(t, Options{Game: "othello6", Agents: []string{"alphabeta", "mcts"}, GamesPerPair: 4, Seed: 11, TimeControl: tc,
		MoveMargin: 500 * time.Millisecond})
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
			if share > 5 {
				t.Errorf("game %d: %s used %.0f ms of the %.0f ms its clock offered, more than 5 times", g.Index, pl.Name, used, ms(offered))
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
