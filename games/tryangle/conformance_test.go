package tryangle

import (
	"testing"
)

// Maps of spec §11.
var (
	mapM1 = [3]string{
		"500,500_500,700_700,600_900,600_1100,500_1100,700",
		"0,1_0,2_1,2_2,3_3,4_3,5_4,5",
		"1,0_1,0_2,0_0,2_0,1_0,1",
	}
	mapM2 = [3]string{
		"700,400_700,650_950,400_950,650_950,500_700,550",
		"0,5_0,2_1,3_2,4_4,3_0,4_3,5_1,5",
		"1,0_0,1_1,0_0,1_1,0_0,1",
	}
	mapM3 = [3]string{
		"500,500_600,400_600,600_700,500_800,300_800,500",
		"0,1_0,2_0,3_1,3_2,3_3,4_3,5_4,5",
		"2,0_2,0_2,0_2,0_0,3_0,3",
	}
)

func mustState(t testing.TB, m [3]string) *State {
	t.Helper()
	mp, err := ParseMap(m[0], m[1], m[2])
	if err != nil {
		t.Fatal(err)
	}
	return New(mp)
}

// setUnit changes a unit count on a stabilised map, as the scenarios'
// "M1 + house3 p0=1" do (remaining follows, as a real start of turn would).
func setUnit(s *State, p, h, v int) {
	s.setUnits(p, h, int32(v))
	s.rem = s.units
}

// turn plays one turn with the two output lines ("" = no output).
func turn(t testing.TB, s *State, line0, line1 string) {
	t.Helper()
	m0, err := s.ParseMove(line0)
	if err != nil {
		t.Fatal(err)
	}
	m1, err := s.ParseMove(line1)
	if err != nil {
		t.Fatal(err)
	}
	s.PlayJoint(m0, m1)
	if h := s.computeHash(); h != s.hash {
		t.Fatalf("incremental hash %x, recomputed %x", s.hash, h)
	}
}

func triOf(s *State, a, b, c int) *triangle {
	want := uint64(1)<<a | 1<<b | 1<<c
	for i := 0; i < s.ntri; i++ {
		if s.tris[i].mask == want {
			return &s.tris[i]
		}
	}
	return nil
}

// expectations
type unitsAt struct{ p, h, n int }

type triWant struct {
	c        [3]int
	owner    int
	elig     int // -1: don't check; else which player's eligibility to check…
	eligWant bool
}

type scenario struct {
	name   string
	m      [3]string
	setup  func(*State)
	lines  [][2]string // one pair per turn
	units  []unitsAt
	tris   []triWant
	paths  [][2]int // must exist
	nopath [][2]int // must not exist
	ntri   int      // expected triangle count (0: don't check)
	check  func(*testing.T, *State)
}

func TestConformance(t *testing.T) {
	plus := func(p, h, v int) func(*State) { return func(s *State) { setUnit(s, p, h, v) } }
	scenarios := []scenario{
		{name: "2 moves go one hop along the lowest-id shortest path", m: mapM1,
			lines: [][2]string{{"MOVE 0 4 1;MOVE 1 4 1;MOVE 2 4 1", ""}},
			units: []unitsAt{{0, 2, 3}, {0, 3, 1}, {0, 0, 0}, {0, 1, 0}},
			tris:  []triWant{{c: [3]int{0, 1, 2}, owner: 0, elig: -1}}},
		{name: "3 spawn", m: mapM1,
			lines: [][2]string{{"SPAWN 2 1 0", ""}},
			units: []unitsAt{{0, 2, 3}},
			tris:  []triWant{{c: [3]int{0, 1, 2}, owner: -1, elig: 0, eligWant: false}}},
		{name: "4 spawn on the opponent's triangle does nothing", m: mapM1,
			lines: [][2]string{{"", "SPAWN 2 1 0"}},
			units: []unitsAt{{0, 2, 2}, {1, 2, 0}},
			tris:  []triWant{{c: [3]int{0, 1, 2}, owner: 0, elig: -1}, {c: [3]int{3, 4, 5}, owner: 1, elig: -1}}},
		{name: "5 attack", m: mapM1, setup: plus(0, 3, 1),
			lines: [][2]string{{"ATTACK 2 1 0 3", ""}},
			units: []unitsAt{{0, 2, 1}, {0, 3, 1}, {1, 3, 0}},
			tris:  []triWant{{c: [3]int{0, 1, 2}, owner: -1, elig: 0, eligWant: false}}},
		{name: "6 attack target not adjacent", m: mapM1, setup: plus(0, 3, 1),
			lines: [][2]string{{"ATTACK 2 1 0 4", ""}},
			units: []unitsAt{{1, 4, 1}, {0, 2, 2}},
			tris:  []triWant{{c: [3]int{0, 1, 2}, owner: 0, elig: -1}}},
		{name: "7 simultaneous attacks both happen", m: mapM1,
			lines: [][2]string{{"ATTACK 2 1 0 3", "ATTACK 3 4 5 2"}},
			units: []unitsAt{{1, 3, 0}, {0, 2, 0}},
			tris: []triWant{
				{c: [3]int{0, 1, 2}, owner: -1, elig: 0, eligWant: true},
				{c: [3]int{3, 4, 5}, owner: -1, elig: 1, eligWant: true}}},
		{name: "8 add path", m: mapM2,
			lines: [][2]string{{"ADD_PATH 4 2 0 5", ""}},
			paths: [][2]int{{4, 5}}, ntri: 4,
			tris: []triWant{{c: [3]int{0, 2, 4}, owner: -1, elig: 0, eligWant: true}}},
		{name: "9 shorter path wins", m: mapM2,
			lines: [][2]string{{"ADD_PATH 4 2 0 5", "ADD_PATH 3 1 5 0"}},
			paths: [][2]int{{4, 5}}, nopath: [][2]int{{0, 3}}, ntri: 4,
			tris: []triWant{{c: [3]int{1, 3, 5}, owner: 1, elig: -1}}},
		{name: "10 shorter path wins, loser keeps its triangle", m: mapM2,
			lines: [][2]string{{"ADD_PATH 0 2 4 3", "ADD_PATH 5 1 3 4"}},
			paths: [][2]int{{4, 5}}, nopath: [][2]int{{0, 3}}, ntri: 4,
			tris: []triWant{{c: [3]int{0, 2, 4}, owner: 0, elig: -1}, {c: [3]int{1, 3, 5}, owner: -1, elig: -1}}},
		{name: "14 remove path", m: mapM1, setup: plus(0, 3, 1),
			lines:  [][2]string{{"REMOVE_PATH 2 1 0 3", ""}},
			nopath: [][2]int{{2, 3}},
			tris:   []triWant{{c: [3]int{0, 1, 2}, owner: -1, elig: 0, eligWant: false}}},
		{name: "15 both remove", m: mapM1, setup: plus(0, 3, 1),
			lines:  [][2]string{{"REMOVE_PATH 2 1 0 3", "REMOVE_PATH 3 4 5 2"}},
			nopath: [][2]int{{2, 3}},
			tris:   []triWant{{c: [3]int{0, 1, 2}, owner: -1, elig: -1}, {c: [3]int{3, 4, 5}, owner: -1, elig: -1}},
			check: func(t *testing.T, s *State) {
				// both paid one unit per corner (p1: 3 had 2, 4 and 5 had 1)
				if s.units[0][2] != 1 || s.units[1][4] != 0 || s.units[1][5] != 0 {
					t.Errorf("costs not paid by both: p0@2=%d p1@4=%d p1@5=%d", s.units[0][2], s.units[1][4], s.units[1][5])
				}
			}},
		{name: "16 moved corner units cannot pay", m: mapM1, setup: plus(0, 3, 1),
			lines: [][2]string{{"MOVE 1 0 1;MOVE 0 1 1;REMOVE_PATH 2 1 0 3", ""}},
			paths: [][2]int{{2, 3}},
			tris:  []triWant{{c: [3]int{0, 1, 2}, owner: 0, elig: -1}}},
		{name: "17 one attack per frame, second invalid", m: mapM2,
			lines: [][2]string{{"ATTACK 0 2 4 3;ATTACK 0 2 4 5", ""}},
			units: []unitsAt{{1, 3, 0}, {1, 5, 1}}},
		{name: "18 moves use only remaining units", m: mapM3,
			lines: [][2]string{{"MOVE 3 4 1;MOVE 1 3 2;MOVE 3 5 2", ""}},
			units: []unitsAt{{0, 1, 0}, {0, 3, 2}, {0, 4, 1}, {0, 5, 1}}},
		{name: "19 two attacks in two frames", m: mapM3,
			lines: [][2]string{{"ATTACK 0 1 3 4;ATTACK 0 2 3 5", ""}},
			units: []unitsAt{{0, 0, 0}, {0, 1, 1}, {1, 4, 0}, {1, 5, 0}},
			tris:  []triWant{{c: [3]int{0, 1, 3}, owner: -1, elig: -1}, {c: [3]int{0, 2, 3}, owner: -1, elig: -1}}},
		{name: "20 capture after a move", m: mapM3, setup: plus(1, 4, 6),
			lines: [][2]string{{"", "MOVE 4 3 3"}},
			tris:  []triWant{{c: [3]int{3, 4, 5}, owner: 1, elig: -1}}},
		{name: "20b simultaneous attacks pair per frame", m: mapM3, setup: plus(1, 4, 6),
			lines: [][2]string{{"", "MOVE 4 3 3"}, {"ATTACK 0 1 3 4;ATTACK 0 2 3 5", "ATTACK 3 4 5 3"}},
			units: []unitsAt{{0, 1, 1}, {0, 2, 2}, {0, 3, 0}, {1, 4, 0}, {1, 5, 2}},
			tris:  []triWant{{c: [3]int{0, 1, 3}, owner: -1, elig: -1}, {c: [3]int{0, 2, 3}, owner: 0, elig: -1}}},
		{name: "21 invalid triangle skipped, next attack pairs", m: mapM3, setup: plus(1, 3, 3),
			lines: [][2]string{{"", ""}, {"ATTACK 0 1 3 4;ATTACK 0 2 3 5", "ATTACK 3 4 0 3;ATTACK 3 4 5 3"}},
			units: []unitsAt{{0, 1, 1}, {0, 2, 2}, {0, 3, 0}, {1, 4, 0}, {1, 5, 2}},
			tris:  []triWant{{c: [3]int{0, 1, 3}, owner: -1, elig: -1}, {c: [3]int{0, 2, 3}, owner: 0, elig: -1}}},
		{name: "22 removal invalid at turn start is dropped", m: mapM2,
			lines: [][2]string{{"ADD_PATH 4 2 0 5", "REMOVE_PATH 5 1 3 4"}},
			paths: [][2]int{{4, 5}}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			s := mustState(t, sc.m)
			if sc.setup != nil {
				sc.setup(s)
			}
			for _, l := range sc.lines {
				if s.Terminal() {
					t.Fatalf("game over before all turns were played:\n%v", s)
				}
				turn(t, s, l[0], l[1])
			}
			for _, u := range sc.units {
				if got := s.Units(u.p, u.h); got != u.n {
					t.Errorf("house %d player %d: %d units, want %d\n%v", u.h, u.p, got, u.n, s)
				}
			}
			for _, w := range sc.tris {
				tr := triOf(s, w.c[0], w.c[1], w.c[2])
				if tr == nil {
					t.Errorf("triangle %v missing\n%v", w.c, s)
					continue
				}
				if int(tr.owner) != w.owner {
					t.Errorf("triangle %v owner %d, want %d\n%v", w.c, tr.owner, w.owner, s)
				}
				if w.elig >= 0 && tr.canCap[w.elig] != w.eligWant {
					t.Errorf("triangle %v eligibility of %d = %v, want %v", w.c, w.elig, tr.canCap[w.elig], w.eligWant)
				}
			}
			for _, p := range sc.paths {
				if !s.Adjacent(p[0], p[1]) {
					t.Errorf("path %d-%d missing", p[0], p[1])
				}
			}
			for _, p := range sc.nopath {
				if s.Adjacent(p[0], p[1]) {
					t.Errorf("path %d-%d present", p[0], p[1])
				}
			}
			if sc.ntri > 0 && s.ntri != sc.ntri {
				t.Errorf("%d triangles, want %d\n%v", s.ntri, sc.ntri, s)
			}
			if sc.check != nil {
				sc.check(t, s)
			}
		})
	}
}

// The scenarios' maps after stabilisation (§11 M1–M3).
func TestConformanceMaps(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    [3]string
		want []Triangle
	}{
		{"M1", mapM1, []Triangle{{[3]int{0, 1, 2}, 0, [2]bool{false, true}}, {[3]int{3, 4, 5}, 1, [2]bool{true, false}}}},
		{"M2", mapM2, []Triangle{{[3]int{0, 2, 4}, 0, [2]bool{false, true}}, {[3]int{1, 3, 5}, 1, [2]bool{true, false}}}},
		{"M3", mapM3, []Triangle{{[3]int{0, 1, 3}, 0, [2]bool{false, true}}, {[3]int{0, 2, 3}, 0, [2]bool{false, true}}, {[3]int{3, 4, 5}, -1, [2]bool{true, true}}}},
	} {
		s := mustState(t, tc.m)
		got := s.Triangles()
		if len(got) != len(tc.want) {
			t.Fatalf("%s: triangles %v, want %v", tc.name, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: triangle %d = %v, want %v", tc.name, i, got[i], tc.want[i])
			}
		}
	}
	// Owned at the start, so scored twice before the first input (§2.7).
	s := mustState(t, mapM1)
	if s.Score(0) != 2 || s.Score(1) != 2 {
		t.Errorf("M1 start scores %d %d, want 2 2 (double initial scoring)", s.Score(0), s.Score(1))
	}
	s = mustState(t, mapM3)
	if s.Score(0) != 4 || s.Score(1) != 0 {
		t.Errorf("M3 start scores %d %d, want 4 0", s.Score(0), s.Score(1))
	}
}

// Scenarios 1 and 11–13 concern map loading and stabilisation.
func TestConformanceStabilisation(t *testing.T) {
	// 1: the big triangle contains house 3.
	s := mustState(t, [3]string{"200,200_400,400_0,400_200,300", "0,1_0,2_0,3_1,2_1,3_2,3", "0,0_0,0_0,0_0,0"})
	var got [][3]int
	for _, tr := range s.Triangles() {
		got = append(got, tr.Corners)
	}
	if want := [][3]int{{0, 1, 3}, {0, 2, 3}, {1, 2, 3}}; !equalTriples(got, want) {
		t.Errorf("1: triangles %v, want %v", got, want)
	}

	// 11: the surrounded enemy unit dies, then the triangle is captured.
	s = mustState(t, [3]string{"100,100_200,100_100,200", "0,1_1,2_0,2", "1,0_1,0_0,1"})
	if s.Units(1, 2) != 0 {
		t.Errorf("11: player 1's unit on 2 survived")
	}
	if tr := s.Triangles(); len(tr) != 1 || tr[0].Owner != 0 {
		t.Errorf("11: triangles %v, want one owned by player 0", tr)
	}
	if !s.Terminal() || s.Outcome().Winner != 0 {
		t.Errorf("11: player 1 has no units nor triangles and must lose at once (§9)")
	}

	// 12: an isolated house never kills.
	s = mustState(t, [3]string{"100,100", "", "1,0"})
	if s.Units(0, 0) != 1 {
		t.Errorf("12: the lone unit died")
	}
	// No triangle at all: 0 ≥ 0.8·0, both players are dominated (§9, §10.16).
	if !s.Terminal() || s.Outcome().Winner != -1 || s.Score(0) != -1 || s.Score(1) != -1 {
		t.Errorf("12: zero triangles must end in a draw with both at -1, got %v %d %d", s.Terminal(), s.Score(0), s.Score(1))
	}

	// 13: two lone enemy units on adjacent leaves kill each other.
	s = mustState(t, [3]string{"100,100_200,200", "0,1", "1,0_0,1"})
	if s.Units(0, 0) != 0 || s.Units(1, 1) != 0 {
		t.Errorf("13: units %d %d survived", s.Units(0, 0), s.Units(1, 1))
	}
}

func equalTriples(a, b [][3]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
