package tryangle

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
)

func TestMoveFault(t *testing.T) {
	g, err := games.New("tryangle:seed=4")
	if err != nil {
		t.Fatal(err)
	}
	s := g.(*State)
	var _ games.MoveFaulter = s
	for _, tc := range []struct {
		line string
		want string // in the fault; "" for none
	}{
		{"WAIT", ""},
		{"MOVE 0 1 1;MSG hi", ""},
		{"HELLO WORLD", `unknown command "HELLO WORLD"`},
		{"MOVE 0 1 1; MSG hi", `unknown command " MSG hi"`},
		{"MOVE 1 2", `unknown command "MOVE 1 2"`},
	} {
		m, err := s.ParseMove(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		got := s.MoveFault(0, m)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%q: fault %q, want %q", tc.line, got, tc.want)
		}
	}
	var buf []games.Move
	for _, m := range s.LegalMovesFor(1, buf) {
		if f := s.MoveFault(1, m); f != "" {
			t.Errorf("plan %s: fault %q", s.FormatMove(m), f)
		}
	}
	ok, _ := s.ParseMove("MOVE 0 1 1")
	if n := testing.AllocsPerRun(100, func() { s.MoveFault(0, ok) }); n != 0 {
		t.Errorf("MoveFault of a good line: %v allocations", n)
	}
}
