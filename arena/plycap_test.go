package arena

import (
	"math"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// TestPlyCapRecordable: a game at MaxPlyCap plies, with every statistic,
// clock and name at its widest and moves of 16 bytes, fits the record
// (results.MaxGameBytes) once its info texts are cut, so no game of a run
// with a cap fails to be recorded. MaxPlyCap was 1 000 000: such a game
// took 196 MB, and the run stopped on it (through a broker, before
// the coordinator ended the run, it was queued again for ever).
func TestPlyCapRecordable(t *testing.T) {
	record := func(plies int) *results.GameRecord {
		move := strings.Repeat("m", 16)
		long := strings.Repeat("x", 256)
		g := &results.GameRecord{Index: MaxGames - 1, Forfeit: -1, Game: long, Variant: long, Result: "1/2-1/2", Termination: "adjudication",
			Detail: strings.Repeat("d", 2048), Seed: math.MaxUint64}
		for p := range g.Players {
			g.Players[p] = results.Player{Agent: MaxAgents - 1, Name: long, Spec: long, Seed: math.MaxUint64, Moves: plies, TC: long}
		}
		for range MaxOpeningPlies {
			g.Opening = append(g.Opening, move)
		}
		for i := range plies {
			g.Moves = append(g.Moves, move)
			g.MoveStats = append(g.MoveStats, results.MoveStat{Player: i % 2, MS: 1, Depth: 1, Score: 1, Nodes: 1, Info: long})
			g.Clocks = append(g.Clocks, [2]float64{1, 1})
		}
		return g
	}
	if err := record(MaxPlyCap).Fit(results.MaxGameBytes); err != nil {
		t.Errorf("a game at MaxPlyCap %d cannot be recorded: %v", MaxPlyCap, err)
	}
	// Not far below what fits: a quarter more plies do not.
	if err := record(MaxPlyCap * 5 / 4).Fit(results.MaxGameBytes); err == nil {
		t.Errorf("%d plies fit: MaxPlyCap could be higher", MaxPlyCap*5/4)
	}
}
