package erdos

import (
	"context"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// mirrorAnswersLegal plays every line of the second player's placements,
// depth of them, from s (second player to move), answering each with the
// mirror move, and fails if an answer is illegal or the first player has
// no move; it returns the answers checked.
func mirrorAnswersLegal(t *testing.T, s *State, depth int) int {
	if depth == 0 || s.Terminal() {
		return 0
	}
	var buf [NumMoves]games.Move
	n := 0
	for _, m := range s.LegalMoves(buf[:0]) {
		s.Play(m)
		if s.Terminal() {
			if s.Outcome().Winner == 1 && s.EndReason() == Starvation {
				t.Fatalf("after %s the first player starves", FormatMove(m))
			}
			s.Undo()
			continue
		}
		a := MirrorMove(m)
		if !s.Legal(a) {
			t.Fatalf("%q: mirror answer %s to %s illegal", s.Position(), FormatMove(a), FormatMove(m))
		}
		s.Play(a)
		n++
		n += mirrorAnswersLegal(t, s, depth-1)
		s.Undo()
		s.Undo()
	}
	return n
}

// TestMirrorLegal checks the claim that the mirror answer is always legal:
// for every line of the second player's first two placements, and on 2000
// games to the end against random defences, where the first player must
// also never be starved.
func TestMirrorLegal(t *testing.T) {
	for _, rules := range []Rules{Standard, Algol} {
		s := New(rules)
		s.Play(MirrorOpening)
		n := mirrorAnswersLegal(t, s, 2)
		t.Logf("%s: %d mirror answers over every defence of two placements", rules, n)
		r := rng.New(21)
		wins := 0
		for g := 0; g < 2000; g++ {
			s := New(rules)
			s.Play(MirrorOpening)
			var buf [NumMoves]games.Move
			for !s.Terminal() {
				moves := s.LegalMoves(buf[:0])
				m := moves[r.IntN(len(moves))]
				s.Play(m)
				if s.Terminal() {
					break
				}
				a := MirrorMove(m)
				if !s.Legal(a) {
					t.Fatalf("%s: %q: mirror answer %s to %s illegal", rules, s.Position(), FormatMove(a), FormatMove(m))
				}
				s.Play(a)
			}
			if s.Outcome().Winner == 1 && s.EndReason() == Starvation {
				t.Fatalf("%s: the first player starved: %q", rules, s.Position())
			}
			if s.Outcome().Winner == 0 {
				wins++
			}
		}
		t.Logf("%s: the mirror won %d of 2000 games against random defences", rules, wins)
	}
	// Without the level reversal the answer can be illegal: the claim needs it.
	s := New(Standard)
	s.Play(MirrorOpening)
	s.Play(MoveOf(2*Size+0, 1)) // a3:1
	if s.Legal(MoveOf(2*Size+4, 1)) {
		t.Error("e3:1 after a3:1 should be illegal (same rank, same level)")
	}
}

// mirrorBrute is MirrorWins by plain recursion over the game's API.
func mirrorBrute(s *State) bool {
	var buf [NumMoves]games.Move
	for _, m := range s.LegalMoves(buf[:0]) {
		s.Play(m)
		var ok bool
		if s.Terminal() {
			ok = s.Outcome().Winner == 0
		} else {
			s.Play(MirrorMove(m))
			if s.Terminal() {
				ok = s.Outcome().Winner == 0
			} else {
				ok = mirrorBrute(s)
			}
			s.Undo()
		}
		s.Undo()
		if !ok {
			return false
		}
	}
	return true
}

// TestMirrorWinsSmall compares MirrorWins with brute force from symmetric
// positions near the end (random defences answered by the mirror until a
// few cells are left), checks each refutation replays to a first-player
// non-win, and that where the mirror wins the solver agrees the second
// player loses.
func TestMirrorWinsSmall(t *testing.T) {
	r := rng.New(22)
	sv := NewSolver(4)
	for _, rules := range []Rules{Standard, Algol} {
		won, lost := 0, 0
		for n := 0; n < 200; n++ {
			empties := 6 + 2*r.IntN(4)
			s := New(rules)
			s.Play(MirrorOpening)
			var buf [NumMoves]games.Move
			for !s.Terminal() && s.Empties() > empties {
				moves := s.LegalMoves(buf[:0])
				m := moves[r.IntN(len(moves))]
				s.Play(m)
				if !s.Terminal() {
					s.Play(MirrorMove(m))
				}
			}
			if s.Terminal() {
				continue
			}
			res, err := MirrorWins(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if want := mirrorBrute(s); res.Wins != want {
				t.Fatalf("%s %q: MirrorWins %v, brute force %v", rules, s.Position(), res.Wins, want)
			}
			v, _, err := sv.Solve(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if res.Wins {
				won++
				if v >= 0 {
					t.Fatalf("%s %q: the mirror wins but the second player's value is %d", rules, s.Position(), v)
				}
				continue
			}
			lost++
			c := s.Clone().(*State)
			for i, m := range res.Refutation {
				if !c.Legal(m) {
					t.Fatalf("%s %q: refutation move %s illegal", rules, s.Position(), FormatMove(m))
				}
				if i%2 == 1 && m != MirrorMove(res.Refutation[i-1]) {
					t.Fatalf("%s %q: refutation's first-player move %s is not the mirror answer", rules, s.Position(), FormatMove(m))
				}
				c.Play(m)
			}
			if !c.Terminal() || c.Outcome().Winner == 0 || c.Outcome() != res.Outcome {
				t.Fatalf("%s %q: refutation ends at %v (terminal %v), reported %v", rules, s.Position(), c.Outcome(), c.Terminal(), res.Outcome)
			}
		}
		if won == 0 || lost == 0 {
			t.Errorf("%s: mirror won %d, lost %d: the sample should hold both", rules, won, lost)
		}
		t.Logf("%s: from symmetric positions with 6–12 empty cells the mirror wins %d, fails %d", rules, won, lost)
	}
	if _, err := MirrorWins(context.Background(), randomPosition(Standard, 15, rng.New(3))); err == nil {
		t.Error("MirrorWins accepted a position that is not symmetric")
	}
}

// TestMirrorFromStart: from the start the mirror strategy does not win,
// under either rule set: the search finds a defence (in a few thousand
// positions) after which the second player takes all five columns, and
// the refutation replays so.
func TestMirrorFromStart(t *testing.T) {
	for _, rules := range []Rules{Standard, Algol} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res, err := MirrorWins(ctx, New(rules))
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", rules, err)
		}
		if res.Wins {
			t.Fatalf("%s: the mirror strategy wins from the start", rules)
		}
		c := New(rules)
		line := make([]string, len(res.Refutation))
		for i, m := range res.Refutation {
			line[i] = FormatMove(m)
			if !c.Legal(m) {
				t.Fatalf("%s: refutation %v: %s illegal", rules, line, line[i])
			}
			c.Play(m)
		}
		if !c.Terminal() || c.Outcome() != res.Outcome || res.Outcome.Winner != 1 {
			t.Fatalf("%s: refutation %v ends %v, reported %v", rules, line, c.Outcome(), res.Outcome)
		}
		t.Logf("%s: refuted after %d positions, %d mirror answers: %v ends %s by %s, score %d",
			rules, res.Nodes, res.Answers, line, res.Outcome.Result(), c.EndReason(), res.Outcome.Score)
	}
}
