package games_test

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/tryangle"
)

func TestSplitTurns(t *testing.T) {
	turns, err := games.SplitTurns("# two turns\n\nWAIT | WAIT\n  # indented\nMOVE 0 1 1;MSG hi | wait\n")
	if err != nil || len(turns) != 2 || turns[1] != [2]string{"MOVE 0 1 1;MSG hi", "wait"} {
		t.Fatalf("%q %v", turns, err)
	}
	if _, err := games.SplitTurns("WAIT | WAIT\nWAIT\n"); err == nil || err.Error() != `line 2: want "player 0's command line | player 1's command line", got "WAIT"` {
		t.Fatalf("%v", err)
	}
}

func simStart(t *testing.T, spec string) games.SimState {
	t.Helper()
	b, err := games.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	return b.(games.SimState)
}

// TestReplaySim: every turn's moves, the position after it (the game's JSON
// view and text), and before each turn a call with the position before it.
func TestReplaySim(t *testing.T) {
	s := simStart(t, "tryangle:seed=7")
	var before []string
	tr, err := games.ReplaySim("tryangle:seed=7", s, [][2]string{{"WAIT", "WAIT"}, {"MOVE 0 1 1;MSG hi", "wait"}}, func(turn int) {
		before = append(before, s.String())
	})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Game != "tryangle:seed=7" || len(tr.Turns) != 2 || tr.Result != "*" || tr.Initial.(tryangle.View).Turn != 1 {
		t.Fatalf("transcript %+v", tr)
	}
	if got := tr.Turns[1]; got.Turn != 2 || got.Moves[0] != "MOVE 0 1 1;MSG hi" || got.State.(tryangle.View).Turn != 3 ||
		len(got.State.(tryangle.View).Houses) == 0 || got.Board != s.String() {
		t.Errorf("turn 2: %+v", got)
	}
	if len(before) != 2 || before[0] != tr.Board || before[1] != tr.Turns[0].Board {
		t.Errorf("before each turn: %d calls, or not at the position before it", len(before))
	}
}

// TestReplaySimErrors: a move that is not one, and a turn after the end,
// stop the replay with the turns so far; an unknown command is a move
// (that loses).
func TestReplaySimErrors(t *testing.T) {
	for _, c := range []struct {
		turns [][2]string
		want  string
		done  int // turns replayed
	}{
		{[][2]string{{"WAIT", "WAIT"}, {"WAIT", "two\nlines"}}, `turn 2: player 1's move "two\nlines" is not valid here (tryangle: a move is one output line`, 1},
		{[][2]string{{"WAIT", "WAIT"}, {"A", "B | C"}, {"WAIT", "WAIT"}}, "turn 3: the game is already over (", 2},
	} {
		tr, err := games.ReplaySim("tryangle", simStart(t, "tryangle"), c.turns, nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || len(tr.Turns) != c.done {
			t.Errorf("%q: %v after %d turns, want %q after %d", c.turns, err, len(tr.Turns), c.want, c.done)
		}
	}
}
