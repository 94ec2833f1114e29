package tryangle

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
	"github.com/boardgame-arena/arena/rng"
)

var _ games.SimState = (*State)(nil)
var _ games.Evaluator = (*State)(nil)

// randomGame plays seeded random plans to the end and returns the moves.
func randomGame(t testing.TB, s *State, seed uint64, check func()) [][2]games.Move {
	r := rng.New(seed)
	var moves [][2]games.Move
	var b0, b1 []games.Move
	for !s.Terminal() {
		b0 = s.LegalMovesFor(0, b0[:0])
		b1 = s.LegalMovesFor(1, b1[:0])
		if len(b0) == 0 || b0[0] != Hold || len(b1) == 0 || b1[0] != Hold {
			t.Fatalf("turn %d: plans must start with Hold: %v %v", s.Turn(), b0, b1)
		}
		m := [2]games.Move{b0[r.IntN(len(b0))], b1[r.IntN(len(b1))]}
		s.PlayJoint(m[0], m[1])
		moves = append(moves, m)
		if check != nil {
			check()
		}
	}
	return moves
}

// TestContractWithInput runs the conformance suite (which covers every
// registered game through the registry) with the referee's input lines as an
// extra view: undo and clones must restore what a bot is told, too.
func TestContractWithInput(t *testing.T) {
	v, err := games.Lookup("tryangle:seed=1")
	if err != nil {
		t.Fatal(err)
	}
	input := func(b games.Base) string {
		s := b.(*State)
		return s.Input(0, false) + s.Input(1, true)
	}
	n := 2
	if testing.Short() {
		n = 1
	}
	gamestest.Run(t, v, gamestest.Games(n), gamestest.View(input))
}

// Playing a plan, or the command line it formats to (parsed back), must
// give the same position: plans are nothing but command lines.
func TestPlansAreTheirCommandLines(t *testing.T) {
	for seed := int64(1); seed <= 8; seed++ {
		a := New(Generate(seed))
		b := New(Generate(seed))
		r := rng.New(uint64(seed) * 77)
		var b0, b1 []games.Move
		kinds := map[PlanKind]bool{}
		for !a.Terminal() {
			b0 = a.LegalMovesFor(0, b0[:0])
			b1 = a.LegalMovesFor(1, b1[:0])
			for _, k := range a.PlanKinds(0) {
				kinds[k] = true
			}
			m0, m1 := b0[r.IntN(len(b0))], b1[r.IntN(len(b1))]
			l0, l1 := a.FormatMove(m0), a.FormatMove(m1)
			if CheckLine(l0) != nil || CheckLine(l1) != nil {
				t.Fatalf("plans format to bad lines: %q %q", l0, l1)
			}
			p0, _ := b.ParseMove(l0)
			p1, _ := b.ParseMove(l1)
			a.PlayJoint(m0, m1)
			b.PlayJoint(p0, p1)
			if a.Hash() != b.Hash() {
				t.Fatalf("seed %d turn %d: plan and its line %q / %q differ", seed, a.Ply(), l0, l1)
			}
			// formatting after the move was played still works (history)
			if got := a.FormatMove(m0); got != l0 {
				t.Fatalf("FormatMove after play: %q, before %q", got, l0)
			}
		}
		if seed == 8 && len(kinds) < 5 {
			t.Errorf("random games saw only plan kinds %v", kinds)
		}
	}
}

func TestPlansDistinctAndBounded(t *testing.T) {
	s := New(Generate(5))
	randomGame(t, s, 9, func() {
		for p := 0; p < 2 && !s.Terminal(); p++ {
			moves := s.LegalMovesFor(p, nil)
			if len(moves) > maxPlans {
				t.Fatalf("%d plans", len(moves))
			}
			seen := map[string]bool{}
			for _, m := range moves {
				l := s.FormatMove(m)
				if seen[l] {
					t.Fatalf("turn %d: plan %q listed twice", s.Turn(), l)
				}
				seen[l] = true
			}
		}
	})
}

func TestGameLengthAndOutcome(t *testing.T) {
	// Holding still for 200 turns: the game lasts exactly MaxTurns.
	s := New(Generate(11))
	for !s.Terminal() {
		s.PlayJoint(Hold, Hold)
	}
	if s.Ply() != MaxTurns {
		t.Fatalf("a quiet game ended after %d turns", s.Ply())
	}
	o := s.Outcome()
	if o.Winner != games.Draw || o.Score != 0 {
		t.Fatalf("symmetric quiet game: %+v", o)
	}
	if s.ToMove() != games.None || len(s.LegalMovesFor(0, nil)) != 0 {
		t.Fatal("moves after the end")
	}
}

// §9 / §10.2: turn 200's actions are never scored.
func TestTurn200IsDead(t *testing.T) {
	s := mustState(t, mapM1)
	for s.Ply() < MaxTurns-1 {
		turn(t, s, "", "")
	}
	before := [2]int{s.Score(0), s.Score(1)}
	// On turn 200 player 0 attacks (the first group still runs) …
	setUnit(s, 0, 3, 1)
	turn(t, s, "ATTACK 2 1 0 3", "")
	if !s.Terminal() || s.Score(0) != before[0] || s.Score(1) != before[1] {
		t.Fatalf("turn 200 changed the score: %v → %d %d", before, s.Score(0), s.Score(1))
	}
	if s.Units(1, 3) != 0 {
		t.Error("turn 200's first group (the attack) did not run")
	}
	if before[0] != 2+(MaxTurns-1) {
		t.Errorf("score after 199 turns %d, want %d (double start, then one per turn)", before[0], 2+(MaxTurns-1))
	}
}

// §9: an unknown command loses; both at once is a draw; the opponent keeps
// its score.
func TestCriticalErrors(t *testing.T) {
	for _, tc := range []struct {
		l0, l1 string
		winner int
	}{
		{"MOVE 1 2 3; MSG hi", "", 1},                                         // a space before MSG
		{"", "MOVE 1 2 99999999999", 0},                                       // overflow
		{"WAIT 1", "MSG", games.Draw},                                         // both lose
		{"msg hello;wait;;  ", "TEXT 1 2 hi there;LINE 1 -2 3 4", games.Draw}, // fine
		{"MOVE 0 1 2 extra", "", 1},
		{"SPAWN 1 2 3 4", "", 1},
		{"MOVE 1 2 +3", "", 1},
		{"move 0 2 1", "FLY 3 4", 0},
	} {
		s := mustState(t, mapM1)
		turn(t, s, tc.l0, tc.l1)
		o := s.Outcome()
		if tc.l0 == "msg hello;wait;;  " {
			if s.Terminal() {
				t.Errorf("%q / %q ended the game", tc.l0, tc.l1)
			}
			continue
		}
		if !s.Terminal() || o.Winner != tc.winner {
			t.Errorf("%q / %q: terminal %v winner %d, want %d", tc.l0, tc.l1, s.Terminal(), o.Winner, tc.winner)
		}
		for p := 0; p < 2; p++ {
			if (o.Winner == 1-p || o.Winner == games.Draw) && s.Score(p) != -1 {
				t.Errorf("%q / %q: loser %d has score %d", tc.l0, tc.l1, p, s.Score(p))
			}
		}
	}
}

// §9 early losses, in player order, with scores already updated (§10.17).
func TestEarlyLosses(t *testing.T) {
	// Two components: player 0 owns (0,1,2) and (1,2,3), player 1 owns (4,5,6).
	twoSides := [3]string{
		"100,100_300,100_100,300_300,300_1000,100_1200,100_1100,250",
		"0,1_0,2_1,2_1,3_2,3_4,5_5,6_4,6",
		"1,0_2,0_2,0_1,0_0,2_0,1_0,1",
	}
	s := mustState(t, twoSides)
	if s.Terminal() || s.Score(0) != 4 || s.Score(1) != 2 {
		t.Fatalf("start: over %v, scores %d %d\n%v", s.Terminal(), s.Score(0), s.Score(1), s)
	}
	// Player 0 spends everything (no units, no triangles → loses, score
	// −1); player 1 is left with one unit and no triangle, but is compared
	// with player 0's new score −1, so it survives and wins.
	turn(t, s, "ATTACK 0 1 2 0;ATTACK 1 2 3 1", "ATTACK 4 5 6 4")
	if !s.Terminal() || s.Outcome().Winner != 1 || s.Score(0) != -1 || s.Score(1) != 2 {
		t.Errorf("rule 1 then rule 2: over %v winner %d scores %d %d", s.Terminal(), s.Outcome().Winner, s.Score(0), s.Score(1))
	}
	// Same, but player 0 keeps (1,2,3): player 1 has one unit, no
	// triangle and the lower score → loses.
	s = mustState(t, twoSides)
	turn(t, s, "ATTACK 0 1 2 0", "ATTACK 4 5 6 4")
	if !s.Terminal() || s.Outcome().Winner != 0 || s.Score(1) != -1 || s.Score(0) != 5 {
		t.Errorf("rule 2: over %v winner %d scores %d %d", s.Terminal(), s.Outcome().Winner, s.Score(0), s.Score(1))
	}

	// Dominance: 4 of 5 triangles is ≥ 0.8·5, player 1 loses at once.
	grid := "0,0_200,0_400,0_0,200_200,200_400,200_1000,0_1200,0_1100,150_1500,500"
	units := "1,0_1,0_1,0_1,0_1,0_1,0_1,0_0,1_0,0_0,2"
	d := mustState(t, [3]string{grid, "0,1_1,2_3,4_4,5_0,3_1,4_2,5_0,4_1,5_6,7_7,8_6,8", units})
	if n := len(d.Triangles()); n != 5 {
		t.Fatalf("%d triangles, want 5\n%v", n, d)
	}
	if !d.Terminal() || d.Outcome().Winner != 0 || d.Score(1) != -1 {
		t.Errorf("4 of 5 triangles: over %v winner %d", d.Terminal(), d.Outcome().Winner)
	}
	// 2 of 3 is no domination.
	d = mustState(t, [3]string{grid, "0,1_1,2_3,4_4,5_0,3_1,4_2,5_0,4_6,7_7,8_6,8", units})
	if n := len(d.Triangles()); n != 3 || d.Terminal() {
		t.Errorf("2 of 3 triangles: %d triangles, over %v", n, d.Terminal())
	}
}

// §10.7: ADD_PATH a b c a makes a self-loop: invisible, permanent, and a
// counts itself in the all-neighbours tests.
func TestSelfLoop(t *testing.T) {
	s := mustState(t, mapM3)
	turn(t, s, "ADD_PATH 0 1 3 0", "")
	if !s.Adjacent(0, 0) {
		t.Fatal("no self-loop")
	}
	if strings.Contains(s.Input(0, false), "\n0 0\n") || len(s.Paths()) != 8 {
		t.Error("the self-loop shows among the paths")
	}
	if tr := triOf(s, 0, 1, 3); tr == nil || tr.owner != noOwner {
		t.Error("the triangle was not used")
	}
	if s.Units(0, 0) != 1 || s.Units(0, 1) != 1 || s.Units(0, 3) != 1 {
		t.Errorf("cost not paid: %d %d %d", s.Units(0, 0), s.Units(0, 1), s.Units(0, 3))
	}
	// It can never be removed: REMOVE_PATH's target may not be a corner.
	turn(t, s, "REMOVE_PATH 0 2 3 0", "")
	if !s.Adjacent(0, 0) || triOf(s, 0, 2, 3).owner != 0 {
		t.Error("self-loop removed, or the triangle used")
	}
	// House 0 is now its own neighbour: enemy majorities on all its other
	// neighbours no longer kill the unit on it (the control without the
	// self-loop shows they would).
	for _, loop := range []bool{true, false} {
		c := mustState(t, mapM3)
		if loop {
			turn(t, c, "ADD_PATH 0 1 3 0", "")
		}
		setUnit(c, 0, 0, 1)
		for _, h := range []int{1, 2, 3} {
			setUnit(c, 0, h, 0)
			setUnit(c, 1, h, 5)
		}
		turn(t, c, "", "")
		if survived := c.Units(0, 0) == 1; survived != loop {
			t.Errorf("self-loop %v: unit on 0 survived %v", loop, survived)
		}
	}
}

// §10.8: a triangle destroyed earlier in the turn is still used by a later
// task that was parsed with it.
func TestOrphanedTriangle(t *testing.T) {
	s := mustState(t, mapM3) // p0 owns (0,1,3) and (0,2,3), 2 units everywhere
	// Removing 0-3 destroys both triangles; the second removal still runs
	// on the orphaned (0,2,3) and pays its cost.
	turn(t, s, "REMOVE_PATH 0 1 3 2;REMOVE_PATH 3 0 2 1", "")
	if s.Adjacent(0, 2) || s.Adjacent(3, 1) {
		t.Fatalf("removals: 0-2 %v 3-1 %v\n%v", s.Adjacent(0, 2), s.Adjacent(3, 1), s)
	}
	// 0 paid twice, 1 and 2 once, 3 twice.
	want := [4]int{0, 1, 1, 0}
	for h, w := range want {
		if s.Units(0, h) != w {
			t.Errorf("house %d: %d units, want %d", h, s.Units(0, h), w)
		}
	}
}

// §10.11: a MOVE towards an unreachable house leaves the units in place.
func TestMoveToUnreachable(t *testing.T) {
	s := mustState(t, mapM3)
	turn(t, s, "REMOVE_PATH 3 0 1 4;REMOVE_PATH 3 0 2 5", "") // cut off 4 and 5
	if s.Adjacent(3, 4) || s.Adjacent(3, 5) || s.Terminal() {
		t.Fatalf("paths not cut, or game over\n%v", s)
	}
	u := s.Units(0, 1)
	turn(t, s, "MOVE 1 4 1", "")
	if s.Units(0, 1) != u || u == 0 {
		t.Errorf("units moved towards an unreachable house")
	}
}

// §10.12: ADD_PATH to a house that does not exist is a plain invalid command.
func TestAddPathInvalidNode(t *testing.T) {
	s := mustState(t, mapM1)
	turn(t, s, "ADD_PATH 2 1 0 60;MOVE 0 70 1;SPAWN 99 1 0", "")
	if s.Terminal() {
		t.Fatal("an invalid node ended the game")
	}
	if tr := triOf(s, 0, 1, 2); tr.owner != 0 {
		t.Error("triangle used by invalid commands")
	}
}

// §10.6: a triangle spec with repeated houses means the first triangle that
// contains them.
func TestRepeatedHousesInTriangleSpec(t *testing.T) {
	s := mustState(t, mapM3)
	turn(t, s, "SPAWN 3 3 3", "") // first triangle containing 3 is (0,1,3)
	if tr := triOf(s, 0, 1, 3); tr.owner != noOwner {
		t.Error("(0,1,3) not used")
	}
	if tr := triOf(s, 0, 2, 3); tr.owner != 0 {
		t.Error("(0,2,3) used")
	}
	if s.Units(0, 3) != 3 {
		t.Errorf("spawned on house %d", s.Units(0, 3))
	}
}

func TestEvaluate(t *testing.T) {
	s := mustState(t, mapM3)
	if v := s.Evaluate(0); v <= 0 || v != -s.Evaluate(1) {
		t.Errorf("M3 favours player 0: %d / %d", v, s.Evaluate(1))
	}
	e := mustState(t, mapM1)
	if e.Evaluate(0) != 0 {
		t.Errorf("symmetric M1: %d", e.Evaluate(0))
	}
	turn(t, e, "WAIT 2", "")
	if v := e.Evaluate(1); v <= games.WinScore/4 || v >= games.WinScore {
		t.Errorf("won game evaluates %d", v)
	}
}

func TestParseMoveAndFormat(t *testing.T) {
	s := New(Generate(1))
	for _, l := range []string{"", "WAIT", "  wait "} {
		if m, err := s.ParseMove(l); err != nil || m != Hold {
			t.Errorf("%q: %v %v", l, m, err)
		}
	}
	if s.FormatMove(Hold) != "WAIT" {
		t.Error("Hold formats as", s.FormatMove(Hold))
	}
	m, err := s.ParseMove("MOVE 1 2 3;MSG hi")
	if err != nil || s.FormatMove(m) != "MOVE 1 2 3;MSG hi" {
		t.Errorf("interned line: %v %q", err, s.FormatMove(m))
	}
	if m2, _ := s.Clone().ParseMove("MOVE 1 2 3;MSG hi"); m2 != m {
		t.Error("clones do not share the line table")
	}
	if _, err := s.ParseMove("MOVE 1 2 3\nWAIT"); err == nil {
		t.Error("two lines accepted")
	}
	if CheckLine("MOVE 1 2 3;FOO") == nil || CheckLine("MOVE 1 2 3; msg x") == nil || CheckLine("MOVE 1 2 3;msg x") != nil {
		t.Error("CheckLine")
	}
}

func TestValidMove(t *testing.T) {
	s := New(Generate(4))
	var _ games.MoveValidator = s
	line, _ := s.ParseMove("MOVE 1 2 3;FOO")
	if !s.ValidMove(0, Hold) || !s.ValidMove(1, line) || s.ValidMove(0, interned|12345) {
		t.Error("lines")
	}
	m0 := s.LegalMovesFor(0, nil)
	m1 := s.LegalMovesFor(1, nil)
	last := m0[len(m0)-1]
	if !s.ValidMove(0, last) || s.ValidMove(1, last) {
		t.Error("plans belong to their player")
	}
	s.PlayJoint(last, m1[0])
	if s.ValidMove(0, last) || !s.ValidMove(0, planMove(1, 0, 1)) {
		t.Error("plans are valid on their own turn only")
	}
}

// §10.10: both players adding the same path in the same frame both pay.
func TestSamePathTwice(t *testing.T) {
	s := mustState(t, mapM2)
	turn(t, s, "ADD_PATH 4 2 0 5", "ADD_PATH 5 1 3 4")
	if !s.Adjacent(4, 5) {
		t.Fatal("path 4-5 missing")
	}
	if triOf(s, 0, 2, 4).owner != noOwner || triOf(s, 1, 3, 5).owner != noOwner {
		t.Error("both triangles must be used")
	}
	if len(s.Triangles()) != 4 {
		t.Errorf("%d triangles", len(s.Triangles()))
	}
}

// §10.13: a MOVE to a far house goes one hop, to the lowest-id neighbour
// on a shortest path.
func TestMoveLowestIDShortestPath(t *testing.T) {
	// a square 0-2-3-1-0 plus a triangle 3-4-5 to keep the game going
	s := mustState(t, [3]string{"0,0_200,200_0,200_200,0_400,100_400,300",
		"0,2_2,1_1,3_3,0_1,4_4,5_1,5", "2,0_0,0_0,0_0,0_0,3_0,1"})
	turn(t, s, "MOVE 0 1 1;MOVE 0 4 1", "")
	// 0 → 1 and 0 → 4: via 2 or via 3, equally short: both units go to 2
	if s.Units(0, 2) != 2 || s.Units(0, 3) != 0 || s.Units(0, 0) != 0 {
		t.Errorf("units on 2, 3, 0: %d %d %d\n%v", s.Units(0, 2), s.Units(0, 3), s.Units(0, 0), s)
	}
}
