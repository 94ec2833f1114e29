package erdos

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
)

var bothRules = []Rules{Standard, Algol}

// playLine plays the moves of line on s, recording the legal-move count
// before each ply and the columns' controllers after each ply.
func playLine(t *testing.T, s *State, line string) (counts []int, control [][Size]int) {
	t.Helper()
	for _, text := range strings.Fields(line) {
		counts = append(counts, s.NumLegal())
		if len(s.LegalMoves(nil)) != counts[len(counts)-1] {
			t.Fatalf("ply %d: NumLegal disagrees with LegalMoves", s.Ply()+1)
		}
		m, err := games.ParseLegal(s, text)
		if err != nil {
			t.Fatalf("ply %d: %v", s.Ply()+1, err)
		}
		s.Play(m)
		var c [Size]int
		for f := range c {
			c[f] = s.Controller(f)
		}
		control = append(control, c)
	}
	return counts, control
}

// capture is "after ply Ply, column File is controlled by Player".
type capture struct {
	ply    int
	file   byte
	player int
}

// checkCaptures checks that control changes as listed, and (unless partial)
// nowhere else.
func checkCaptures(t *testing.T, control [][Size]int, want []capture, partial bool) {
	t.Helper()
	var prev [Size]int
	for f := range prev {
		prev[f] = -1
	}
	for ply, c := range control {
		for f := range c {
			var expect *capture
			for i := range want {
				if want[i].ply == ply+1 && int(want[i].file-'a') == f {
					expect = &want[i]
				}
			}
			switch {
			case expect != nil && c[f] != expect.player:
				t.Errorf("after ply %d column %c is controlled by %d, want %d", ply+1, 'a'+f, c[f], expect.player)
			case expect != nil && prev[f] != -1:
				t.Errorf("column %c was already controlled before ply %d", 'a'+f, ply+1)
			case expect == nil && !partial && c[f] != prev[f]:
				t.Errorf("after ply %d column %c changed from %d to %d, want no change", ply+1, 'a'+f, prev[f], c[f])
			}
		}
		prev = c
	}
}

func TestEmptyBoardCounts(t *testing.T) {
	tests := []struct {
		line string
		want int
	}{{"", 125}, {"c3:1", 112}, {"c3:1 c4:4", 101}}
	for _, r := range bothRules {
		for _, tt := range tests {
			s := New(r)
			playLine(t, s, tt.line)
			if got := s.NumLegal(); got != tt.want {
				t.Errorf("%v after %q: %d legal moves, want %d", r, tt.line, got, tt.want)
			}
		}
	}
}

// specLines are the test vectors of spec §5 and §4. The "basic" and
// "starvation" lines capture only with the new unit at the end of a chain,
// so the algol rules give the same result.
var specLines = []struct {
	name     string
	line     string
	rules    []Rules
	counts   []int // legal moves before each ply (nil: checked against the slow rules only)
	after    int   // legal moves after the last ply
	captures []capture
	partial  bool           // captures lists some of the changes of control, not all
	owners   map[string]int // cell → owner after the line (0, 1, or -1 neutral)
	over     bool
	winner   int
	reason   EndReason
	score    int
}{
	{
		name:   "basic",
		line:   "c3:1 c4:4 c5:5 b3:4 b5:1 b2:5 b1:3 d4:2 d5:3 d2:1",
		rules:  bothRules,
		counts: []int{125, 112, 101, 92, 82, 73, 65, 58, 47, 41},
		after:  36,
		captures: []capture{
			{3, 'c', 0},  // 1, 4, 5 bottom → top
			{6, 'b', 1},  // 1, 4, 5 top → bottom
			{10, 'd', 0}, // P2 gives d to P1: 1, 2, 3 bottom → top
		},
		owners: map[string]int{"b1": 1}, // ply 7 lands in P2's column
	},
	{
		name:   "starvation",
		line:   "c3:3 c4:4 c5:1 c1:5 d5:5 d1:4 d4:3 b5:4 d3:1 b4:2 a1:3 a2:2 b1:1 a4:1 b3:5 e2:3 a3:4 e3:2 e4:5",
		rules:  bothRules,
		counts: []int{125, 112, 101, 92, 85, 75, 66, 59, 52, 46, 38, 31, 22, 19, 16, 12, 6, 4, 1},
		after:  0,
		captures: []capture{
			{4, 'c', 1}, {9, 'd', 0}, {13, 'b', 0}, {14, 'a', 1},
		},
		owners: map[string]int{"a3": 1, "e2": -1, "e3": -1, "e4": -1},
		over:   true, winner: 0, reason: Starvation, score: 1,
	},
	{
		name:     "rules page, P2 places 5",
		line:     "c1:2 c4:4 c5:1 c3:5",
		rules:    bothRules,
		counts:   []int{125, 112, 101, 92},
		after:    85,
		captures: []capture{{4, 'c', 1}}, // 1, 4, 5 top → bottom
	},
	{
		name:     "rules page, P1 places 3",
		line:     "c1:2 c4:4 c5:1 a1:1 c3:3",
		rules:    bothRules,
		counts:   []int{125, 112, 101, 92, 82},
		after:    75,
		captures: []capture{{5, 'c', 0}}, // 2, 3, 4 bottom → top
	},
	{
		name:     "Q1 rules: P2's middle unit takes a",
		line:     "a5:1 a3:4 a2:2 a4:3",
		rules:    []Rules{Standard},
		counts:   []int{125, 112, 101, 92},
		after:    85,
		captures: []capture{{4, 'a', 1}}, // 1, 3, 4 top → bottom
		owners:   map[string]int{"a4": 1},
	},
	{
		name:     "Q1 algol: P2's middle unit is missed",
		line:     "a5:1 a3:4 a2:2 a4:3",
		rules:    []Rules{Algol},
		counts:   []int{125, 112, 101, 92},
		after:    85,
		captures: nil, // 3 < min(2, 4) fails, column a stays neutral
		owners:   map[string]int{"a2": -1, "a3": -1, "a4": -1, "a5": -1},
	},
	{
		name:     "Q1: P1 places the middle unit, both rules give a to P2",
		line:     "a5:1 a3:4 b1:1 a2:2 a4:3",
		rules:    bothRules,
		counts:   []int{125, 112, 101, 90, 81},
		after:    74,
		captures: []capture{{5, 'a', 1}},
	},
	// Full games found by a seeded random search and checked by hand.
	// Seed 3993: the last placement a2:3 (P1) makes 4, 3, 1 bottom → top
	// in column a, handing it to P2: 2–3 under the rules; under algol the
	// count before that placement is 2–2, a draw (Q2). No Q1 difference.
	{
		name: "Q2 rules: the last placement counts",
		line: "b2:4 d3:1 e1:1 d1:2 a4:1 d5:3 c2:1 a3:5 c3:2 a5:2 d4:4 c4:5 b4:2 " +
			"c5:4 e2:2 c1:3 e4:3 b5:1 b1:5 e3:4 d2:5 b3:3 a1:4 e5:5 a2:3",
		rules:    []Rules{Standard},
		captures: []capture{{25, 'a', 1}}, partial: true,
		over: true, winner: 1, reason: ColumnCount, score: -1,
	},
	{
		name: "Q2 algol: stale count, draw",
		line: "b2:4 d3:1 e1:1 d1:2 a4:1 d5:3 c2:1 a3:5 c3:2 a5:2 d4:4 c4:5 b4:2 " +
			"c5:4 e2:2 c1:3 e4:3 b5:1 b1:5 e3:4 d2:5 b3:3 a1:4 e5:5 a2:3",
		rules:    []Rules{Algol},
		captures: []capture{{25, 'a', 1}}, partial: true,
		over: true, winner: games.Draw, reason: ColumnCount, score: 0,
	},
	// Seed 6839: ply 14 e3:3 (P2) makes 4, 3, 1 bottom → top in column e
	// with the new unit in the middle, 3 < min(2, 4) fails, so under algol e
	// stays neutral and P1 takes it at ply 15 with e4:5 (2, 3, 5): the
	// winner is reversed, 2–3 under the rules, 3–2 under algol.
	{
		name: "Q1 reverses a full game: rules",
		line: "a5:3 e1:2 e5:1 b3:2 b5:5 e2:4 b1:3 d2:2 a2:5 d5:4 d4:3 c4:1 c3:5 e3:3 " +
			"e4:5 b4:4 d1:5 c2:3 c1:4 d3:1 b2:1 a3:4 c5:2 a1:1 a4:2",
		rules:    []Rules{Standard},
		captures: []capture{{14, 'e', 1}}, partial: true,
		over: true, winner: 1, reason: ColumnCount, score: -1,
		owners: map[string]int{"e3": 1, "e4": 1},
	},
	{
		name: "Q1 reverses a full game: algol",
		line: "a5:3 e1:2 e5:1 b3:2 b5:5 e2:4 b1:3 d2:2 a2:5 d5:4 d4:3 c4:1 c3:5 e3:3 " +
			"e4:5 b4:4 d1:5 c2:3 c1:4 d3:1 b2:1 a3:4 c5:2 a1:1 a4:2",
		rules:    []Rules{Algol},
		captures: []capture{{15, 'e', 0}}, partial: true,
		over: true, winner: 0, reason: ColumnCount, score: 1,
		owners: map[string]int{"e3": 0, "e4": 0},
	},
}

func TestSpecLines(t *testing.T) {
	for _, tt := range specLines {
		for _, r := range tt.rules {
			t.Run(fmt.Sprintf("%s/%v", tt.name, r), func(t *testing.T) {
				s := New(r)
				counts, control := playLine(t, s, tt.line)
				if tt.counts != nil && fmt.Sprint(counts) != fmt.Sprint(tt.counts) {
					t.Errorf("legal-move counts %v, want %v", counts, tt.counts)
				}
				checkCaptures(t, control, tt.captures, tt.partial)
				for cell, want := range tt.owners {
					m, _ := ParseMove(cell + ":1")
					i, _ := Decode(m)
					if got := s.Owner(i); got != want {
						t.Errorf("owner of %s = %d, want %d", cell, got, want)
					}
				}
				if !tt.over {
					if s.Terminal() || s.ToMove() != s.Ply()%2 {
						t.Fatalf("game over or wrong side after the line:\n%s", s)
					}
					if got := s.NumLegal(); got != tt.after {
						t.Errorf("%d legal moves after the line, want %d", got, tt.after)
					}
					return
				}
				if !s.Terminal() || s.ToMove() != games.None || s.NumLegal() != 0 {
					t.Fatalf("game not over after the line:\n%s", s)
				}
				o := s.Outcome()
				if o.Winner != tt.winner || o.Score != tt.score || s.EndReason() != tt.reason {
					t.Errorf("outcome %+v by %v, want winner %d score %d by %v", o, s.EndReason(), tt.winner, tt.score, tt.reason)
				}
			})
		}
	}
}

// TestSpecLinesSlow replays the same lines on the slow array version.
func TestSpecLinesSlow(t *testing.T) {
	for _, tt := range specLines {
		for _, r := range tt.rules {
			g := newSlow(r == Algol)
			s := New(r)
			for _, text := range strings.Fields(tt.line) {
				m, _ := ParseMove(text)
				i, l := Decode(m)
				g.play(slowMove{i % Size, i / Size, l})
				s.Play(m)
				compareSlow(t, s, &g)
			}
		}
	}
}

func TestBasicLineAfterPly10(t *testing.T) {
	const wantMoves = "a1:1 a1:2 a1:4 a1:5 a2:2 a2:3 a2:4 a3:2 a3:3 a3:5 a4:1 a4:3 a4:5 a5:2 a5:4 " +
		"c1:2 c2:2 c2:3 d1:4 d1:5 d3:5 e1:1 e1:2 e1:4 e1:5 e2:2 e2:3 e2:4 e3:2 e3:3 e3:5 e4:1 e4:3 e4:5 e5:2 e5:4"
	const wantBoard = `5   .   1.2  5.1  3.1   .
4   .    .   4.1  2.1   .
3   .   4.2  1.1   .    .
2   .   5.2   .   1.1   .
1   .   3.2   .    .    .
    a    b    c    d    e
col -    2    1    1    -
player 1 to move; columns 2–1`
	for _, r := range bothRules {
		s := New(r)
		playLine(t, s, specLines[0].line)
		if got := games.FormatMoves(s, s.LegalMoves(nil)); got != wantMoves {
			t.Errorf("%v: legal moves after ply 10:\n%s\nwant:\n%s", r, got, wantMoves)
		}
		want := wantBoard
		if r == Algol {
			want += " (algol rules)"
		}
		if got := s.String(); got != want {
			t.Errorf("%v: board after ply 10:\n%s\nwant:\n%s", r, got, want)
		}
	}
}

func TestParseMove(t *testing.T) {
	tests := []struct {
		in   string
		want games.Move
		ok   bool
	}{
		{"a1:1", 0, true}, {"e1:1", 4, true}, {"a5:1", 20, true}, {"e5:5", 124, true},
		{"c3:1", 12, true}, {"c3:2", 37, true}, {" C3:1 ", 12, true}, {"B2:5", 106, true},
		{"c3", 0, false}, {"c3:0", 0, false}, {"c3:6", 0, false}, {"f1:1", 0, false},
		{"a6:1", 0, false}, {"a0:1", 0, false}, {"c3-1", 0, false}, {"c3:11", 0, false},
		{"", 0, false}, {":", 0, false}, {"c 3:1", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseMove(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseMove(%q) = %v, %v; want %v ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
		if tt.ok && FormatMove(got) != strings.ToLower(strings.TrimSpace(tt.in)) {
			t.Errorf("FormatMove(ParseMove(%q)) = %q", tt.in, FormatMove(got))
		}
	}
	for m := games.Move(0); m < NumMoves; m++ {
		if back, err := ParseMove(FormatMove(m)); err != nil || back != m {
			t.Errorf("move %d formats as %q, which parses to %d, %v", m, FormatMove(m), back, err)
		}
	}
	if got := FormatMove(NumMoves); got != "?125" {
		t.Errorf("FormatMove(125) = %q", got)
	}
}

func TestRegistry(t *testing.T) {
	tests := []struct {
		spec  string
		rules Rules
		err   string
	}{
		{"erdos", Standard, ""},
		{"erdos:algol", Algol, ""},
		{"erdos:algol=true", Algol, ""},
		{"erdos:algol=false", Standard, ""},
		{"erdos:bga", 0, `unknown option "bga" (valid: algol)`},
		{"erdos:algol=maybe", 0, "not true or false"},
	}
	for _, tt := range tests {
		b, err := games.New(tt.spec)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("games.New(%q) error %v, want one containing %q", tt.spec, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("games.New(%q): %v", tt.spec, err)
		}
		s, ok := b.(*State)
		if !ok || s.Rules() != tt.rules || s.Ply() != 0 || s.ToMove() != 0 {
			t.Errorf("games.New(%q) = %T rules %v", tt.spec, b, s.Rules())
		}
	}
}

func TestEvaluate(t *testing.T) {
	// After "basic" P1 holds c and d, P2 holds b: +100 for P1 before threats.
	s := New(Standard)
	playLine(t, s, specLines[0].line)
	th := s.b.threats()
	want := 100 + 10*(bits.OnesCount8(th[0])-bits.OnesCount8(th[1]))
	if got := s.Evaluate(0); got != want || s.Evaluate(1) != -want {
		t.Errorf("Evaluate = %d / %d, want %d / %d", got, s.Evaluate(1), want, -want)
	}
	// Threats from first principles: play every legal move in each open
	// column for each player as the mover and see who would capture.
	var brute [2]uint8
	for _, m := range s.LegalMoves(nil) {
		i, _ := Decode(m)
		f := i % Size
		if s.Controller(f) >= 0 {
			continue
		}
		for p := 0; p < 2; p++ {
			c := *s
			c.b.side = uint8(p)
			c.Play(m)
			if c.Controller(f) == p {
				brute[p] |= 1 << f
			}
		}
	}
	if th != brute {
		t.Errorf("threats %05b/%05b, want %05b/%05b", th[0], th[1], brute[0], brute[1])
	}
	// A finished game ranks beyond any heuristic value.
	s = New(Standard)
	playLine(t, s, specLines[1].line)
	if v := s.Evaluate(0); v <= games.WinScore/2 || v >= games.WinScore || s.Evaluate(1) != -v {
		t.Errorf("won game evaluates to %d / %d", v, s.Evaluate(1))
	}
}

func ExampleState() {
	s := New(Standard)
	for _, text := range []string{"c1:2", "c4:4", "c5:1", "c3:5"} {
		m, _ := s.ParseMove(text)
		s.Play(m)
	}
	fmt.Println(s.NumLegal())
	fmt.Println(s)
	// Output:
	// 85
	// 5   .    .   1.2   .    .
	// 4   .    .   4.2   .    .
	// 3   .    .   5.2   .    .
	// 2   .    .    .    .    .
	// 1   .    .   2.2   .    .
	//     a    b    c    d    e
	// col -    -    2    -    -
	// player 1 to move; columns 0–1
}
