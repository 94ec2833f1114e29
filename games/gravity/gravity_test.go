package gravity

import (
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// playAll parses and plays moves from the start, failing on an illegal one.
func playAll(t testing.TB, moves ...string) *State {
	t.Helper()
	s := New()
	for i, text := range moves {
		m, err := games.ParseLegal(s, text)
		if err != nil {
			t.Fatalf("ply %d: %v", i+1, err)
		}
		s.Play(m)
	}
	return s
}

func cellOf(t testing.TB, name string) int {
	t.Helper()
	if len(name) != 2 || name[0] < 'A' || name[0] > 'I' || name[1] < '1' || name[1] > '9' {
		t.Fatalf("bad cell %q", name)
	}
	return int(name[1]-'1')*Size + int(name[0]-'A')
}

// The test vectors of the spec, section 4.
func TestSpecVectors(t *testing.T) {
	const ongoing = -2
	tests := []struct {
		name   string
		moves  string
		cells  string // landing cell of each move
		counts []int  // legal moves before each ply and after the last
		winner int    // ongoing while the game goes on
		legal  string // the legal moves after the last ply, when given
	}{
		{
			name:   "original example",
			moves:  "R3 L3 TA",
			cells:  "A3 I3 A2",
			counts: []int{36, 36, 27, 27},
			winner: ongoing,
			legal: "BA BB BC BD BE BF BG BH BI R1 R2 R3 R4 R5 R6 R7 R8 R9 " +
				"TA TB TC TD TE TF TG TH TI",
		},
		{
			name:   "five",
			moves:  "TA L1 R9 R1 TC L2 R9 R2 TE",
			cells:  "A9 I1 B9 A1 C9 I2 D9 A2 E9",
			counts: []int{36, 36, 27, 27, 27, 27, 27, 27, 27, 0},
			winner: 0,
		},
		{
			name:   "overline",
			moves:  "TA L1 R9 R1 TC L2 R9 R2 TF L3 L9",
			cells:  "A9 I1 B9 A1 C9 I2 D9 A2 F9 I3 E9",
			counts: []int{36, 36, 27, 27, 27, 27, 27, 27, 27, 27, 27, 0},
			winner: 0,
		},
		{
			name:   "full column",
			moves:  "TA BA BA TA TA BA BA TA TA",
			cells:  "A9 A1 A2 A8 A7 A3 A4 A6 A5",
			counts: []int{36, 36, 27, 27, 27, 27, 27, 27, 27, 26},
			winner: ongoing,
			legal: "BB BC BD BE BF BG BH BI L1 L2 L3 L4 L5 L6 L7 L8 L9 " +
				"R1 R2 R3 R4 R5 R6 R7 R8 R9",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			moves, cells := strings.Fields(tc.moves), strings.Fields(tc.cells)
			s := New()
			for i, text := range moves {
				if n := len(s.LegalMoves(nil)); n != tc.counts[i] {
					t.Fatalf("before ply %d: %d legal moves, want %d", i+1, n, tc.counts[i])
				}
				if s.Terminal() {
					t.Fatalf("game over before ply %d", i+1)
				}
				m, err := games.ParseLegal(s, text)
				if err != nil {
					t.Fatalf("ply %d: %v", i+1, err)
				}
				want := cellOf(t, cells[i])
				if got := s.Landing(m); got != want {
					t.Fatalf("ply %d %s: Landing says %s, want %s", i+1, text, CellName(got), cells[i])
				}
				p := s.ToMove()
				s.Play(m)
				if got := s.Owner(want); got != p {
					t.Fatalf("ply %d %s: %s owned by %d, want %d", i+1, text, cells[i], got, p)
				}
			}
			if tiles := bits.OnesCount64(s.occupied()[0]) + bits.OnesCount64(s.occupied()[1]); tiles != len(moves) {
				t.Errorf("%d tiles on the board after %d plies", tiles, len(moves))
			}
			if n := len(s.LegalMoves(nil)); n != tc.counts[len(moves)] {
				t.Errorf("after the last ply: %d legal moves, want %d", n, tc.counts[len(moves)])
			}
			if tc.legal != "" {
				if got := games.FormatMoves(s, s.LegalMoves(nil)); got != tc.legal {
					t.Errorf("legal moves after the last ply:\n got %s\nwant %s", got, tc.legal)
				}
			}
			if tc.winner == ongoing {
				if s.Terminal() || s.ToMove() != len(moves)%2 {
					t.Errorf("game should go on with player %d to move; ToMove %d", len(moves)%2, s.ToMove())
				}
				return
			}
			o := s.Outcome()
			if !s.Terminal() || s.ToMove() != games.None || o.Winner != tc.winner || o.Score != 1-2*tc.winner {
				t.Errorf("Terminal %v, ToMove %d, Outcome %+v; want player %d to have won",
					s.Terminal(), s.ToMove(), o, tc.winner)
			}
		})
	}
}

// occupied returns the occupied cells as a cellSet.
func (b *board) occupied() cellSet {
	var cs cellSet
	for r := range Size {
		for c := range Size {
			if b.owner(r, c) >= 0 {
				cs.add(r*Size + c)
			}
		}
	}
	return cs
}

// TestLandingEveryLine checks the bit-scan landing functions against a walk
// along the line, for all 511 occupancies with an empty cell.
func TestLandingEveryLine(t *testing.T) {
	for occ := uint16(0); occ < lineFull; occ++ {
		empty := func(i int) bool { return occ>>uint(i)&1 == 0 }
		i := 0
		for !empty(i) {
			i++
		}
		for i+1 < Size && empty(i+1) {
			i++
		}
		if got := landFromLow(occ); got != i {
			t.Errorf("landFromLow(%09b) = %d, want %d", occ, got, i)
		}
		j := Size - 1
		for !empty(j) {
			j--
		}
		for j > 0 && empty(j-1) {
			j--
		}
		if got := landFromHigh(occ); got != j {
			t.Errorf("landFromHigh(%09b) = %d, want %d", occ, got, j)
		}
	}
}

func TestFiveInEveryLine(t *testing.T) {
	for x := uint16(0); x <= lineFull; x++ {
		longest, run := 0, 0
		for i := range Size {
			if x>>uint(i)&1 != 0 {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
		if got := fiveIn(x) != 0; got != (longest >= 5) {
			t.Errorf("fiveIn(%09b) = %v, longest run %d", x, got, longest)
		}
	}
}

func TestWindows(t *testing.T) {
	// 9 rows and 9 columns of 5 windows each, and 25 per diagonal direction.
	if len(windows) != 140 {
		t.Fatalf("%d windows, want 140", len(windows))
	}
	seen := map[[5]int]bool{}
	for _, w := range windows {
		var cells [5]int
		k := 0
		for m := w.mask; m != 0; m &= m - 1 {
			cells[k] = cellAt(int(w.dir), int(w.line), bits.TrailingZeros16(m))
			k++
		}
		if seen[cells] {
			t.Errorf("window %v listed twice", cells)
		}
		seen[cells] = true
		// The five cells must be consecutive along one direction.
		dr, dc := cells[1]/Size-cells[0]/Size, cells[1]%Size-cells[0]%Size
		for i := 1; i < 5; i++ {
			if cells[i]/Size-cells[i-1]/Size != dr || cells[i]%Size-cells[i-1]%Size != dc {
				t.Errorf("window %v is not a straight line", cells)
			}
		}
	}
}

func TestFormatParseAllSlots(t *testing.T) {
	var names []string
	for m := range games.Move(Slots) {
		text := FormatMove(m)
		names = append(names, text)
		for _, variant := range []string{text, strings.ToLower(text), " " + text + "\t"} {
			got, err := ParseMove(variant)
			if err != nil || got != m {
				t.Errorf("ParseMove(%q) = %d, %v; want %d", variant, got, err, m)
			}
		}
	}
	want := "TA TB TC TD TE TF TG TH TI BA BB BC BD BE BF BG BH BI " +
		"L1 L2 L3 L4 L5 L6 L7 L8 L9 R1 R2 R3 R4 R5 R6 R7 R8 R9"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("slots in move order:\n got %s\nwant %s", got, want)
	}
	if got := FormatMove(Slots); got != "?36" {
		t.Errorf("FormatMove(Slots) = %q", got)
	}
}

func TestParseMove(t *testing.T) {
	tests := []struct {
		in   string
		want string // canonical form, "" for an error
	}{
		{"TA", "TA"}, {"ti", "TI"}, {"Bc", "BC"}, {"L1", "L1"}, {"r9", "R9"},
		// The labels of the original rules text.
		{"3", "L3"}, {"9", "L9"}, {"10", "R1"}, {"12", "R3"}, {"18", "R9"}, {"A", "TA"}, {"i", "TI"},
		{"", ""}, {"T", ""}, {"TJ", ""}, {"T1", ""}, {"LA", ""}, {"L0", ""}, {"R10", ""},
		{"0", ""}, {"19", ""}, {"J", ""}, {"BA1", ""}, {"X5", ""}, {"pass", ""}, {"09", ""},
	}
	for _, tc := range tests {
		m, err := ParseMove(tc.in)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("ParseMove(%q) = %s, want an error", tc.in, FormatMove(m))
		case tc.want != "" && err != nil:
			t.Errorf("ParseMove(%q): %v", tc.in, err)
		case tc.want != "" && FormatMove(m) != tc.want:
			t.Errorf("ParseMove(%q) = %s, want %s", tc.in, FormatMove(m), tc.want)
		}
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"TA", "bi", "L5", "R9", "12", "A", " r3 ", "TJ", "", "1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMove(text)
		if err != nil {
			return
		}
		if m >= Slots {
			t.Fatalf("ParseMove(%q) = %d, outside the slots", text, m)
		}
		canon := FormatMove(m)
		again, err := ParseMove(canon)
		if err != nil || again != m || FormatMove(again) != canon {
			t.Fatalf("ParseMove(%q) = %s, which parses back to %d, %v", text, canon, again, err)
		}
	})
}

func TestRegistry(t *testing.T) {
	v, err := games.Lookup("gravity")
	if err != nil {
		t.Fatal(err)
	}
	s, ok := v.New().(games.State)
	if !ok || s.Hash() != New().Hash() || len(s.LegalMoves(nil)) != Slots {
		t.Fatalf("registry start position differs from New()")
	}
	if _, err := games.Lookup("gravity:big"); err == nil || !strings.Contains(err.Error(), "no options") {
		t.Errorf("unknown option accepted or badly reported: %v", err)
	}
	var _ games.Evaluator = s.(games.Evaluator)
	var _ games.Playouter = s.(games.Playouter)
	var _ games.BulkPerfter = s.(games.BulkPerfter)
}

func TestString(t *testing.T) {
	s := playAll(t, "R3", "L3", "TA")
	want := `  A B C D E F G H I
1 . . . . . . . . .
2 X . . . . . . . .
3 X . . . . . . . O
4 . . . . . . . . .
5 . . . . . . . . .
6 . . . . . . . . .
7 . . . . . . . . .
8 . . . . . . . . .
9 . . . . . . . . .
last: X TA→A2; O (second player) to move, not from the left; 3 tiles`
	if got := s.String(); got != want {
		t.Errorf("String():\n%s\nwant:\n%s", got, want)
	}
	if got := New().String(); !strings.HasSuffix(got, "\nX (first player) to move; 0 tiles") {
		t.Errorf("start position renders as:\n%s", got)
	}
	s = playAll(t, strings.Fields("TA L1 R9 R1 TC L2 R9 R2 TE")...)
	if got := s.String(); !strings.HasSuffix(got, "\n9 X X X X X . . . .\nlast: X TE→E9; game over: X (first player) wins with five in a row, 1-0") {
		t.Errorf("finished game renders as:\n%s", got)
	}
}

func TestHashTranspositions(t *testing.T) {
	a := playAll(t, "TA", "L5", "BC", "R6", "R9")
	b := playAll(t, "BC", "L5", "TA", "R6", "R9")
	if a.board != b.board || a.Hash() != b.Hash() {
		t.Errorf("same position and banned sides, different boards or hashes")
	}
	// Same tiles, but the first player's banned side differs (B against T).
	c := playAll(t, "TA", "L5", "BC", "R6")
	d := playAll(t, "BC", "L5", "TA", "R6")
	if c.lines != d.lines || c.last == d.last {
		t.Fatalf("test positions are not what they should be")
	}
	if c.Hash() == d.Hash() {
		t.Errorf("positions with different banned sides share a hash")
	}
}

// TestRandomGames plays seeded random games and checks, after every ply,
// the position against the array implementation and the board's own
// invariants. The game contract (undo, clones, hash, notation) is
// games/gamestest's conformance suite.
func TestRandomGames(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 2000
	}
	var ends [3]int
	var lengths int
	for seed := range uint64(n) {
		r := rng.New(seed)
		s := New()
		slow := newSlow()
		var buf [games.MaxMoves]games.Move
		for !s.Terminal() {
			checkPosition(t, s, &slow)
			moves := s.LegalMoves(buf[:0])
			m := moves[r.IntN(len(moves))]
			want := slow.landing(int(m))

			s.Play(m)
			if cell := int(s.hist[s.ply-1].cell); cell != want[0]*Size+want[1] {
				t.Fatalf("seed %d ply %d: %s landed on %s, array version says %s", seed, s.ply, FormatMove(m),
					CellName(cell), CellName(want[0]*Size+want[1]))
			}
			slow.play(int(m))
		}
		checkPosition(t, s, &slow)
		checkEnd(t, s, &slow, seed)
		ends[s.end]++
		lengths += s.ply
	}
	t.Logf("%d games: %d won by five, %d by a full board; %.1f plies on average",
		n, ends[endFive], ends[endFull], float64(lengths)/float64(n))
}

// checkPosition compares s with the array version and checks its invariants.
func checkPosition(t *testing.T, s *State, slow *slowGame) {
	t.Helper()
	if s.Terminal() != slow.over {
		t.Fatalf("ply %d: Terminal %v, array version %v", s.ply, s.Terminal(), slow.over)
	}
	// Tiles: the same as the array's, ⌈ply/2⌉ for X and ⌊ply/2⌋ for O.
	var tiles [2]int
	for r := range Size {
		for c := range Size {
			p := s.owner(r, c)
			if int8(p+1) != slow.grid[r][c] {
				t.Fatalf("ply %d: %s holds %d, array version %d", s.ply, CellName(r*Size+c), p, slow.grid[r][c]-1)
			}
			if p >= 0 {
				tiles[p]++
			}
		}
	}
	if tiles[0] != (s.ply+1)/2 || tiles[1] != s.ply/2 {
		t.Fatalf("ply %d: %d and %d tiles", s.ply, tiles[0], tiles[1])
	}
	// Every line mask agrees with the row masks.
	var lines [2][4][nLines]uint16
	for p := range 2 {
		for r := range Size {
			for c := range Size {
				if s.owner(r, c) == p {
					lines[p][dirRow][r] |= 1 << uint(c)
					lines[p][dirCol][c] |= 1 << uint(r)
					lines[p][dirDiag][r-c+Size-1] |= 1 << uint(c)
					lines[p][dirAnti][r+c] |= 1 << uint(c)
				}
			}
		}
	}
	if lines != s.lines {
		t.Fatalf("ply %d: line masks disagree with the rows", s.ply)
	}
	for p := range 2 {
		if want := slow.last[p]; int(s.last[p]) != want && !(want == -1 && s.last[p] == NoSide) {
			t.Fatalf("ply %d: player %d's previous side %d, array version %d", s.ply, p, s.last[p], want)
		}
	}
	var buf [games.MaxMoves]games.Move
	moves := s.LegalMoves(buf[:0])
	if !slices.Equal(moves, slow.moves()) {
		t.Fatalf("ply %d: legal moves %s, array version %s", s.ply,
			games.FormatMoves(s, moves), games.FormatMoves(s, slow.moves()))
	}
	if !s.Terminal() && (len(moves) < 3 || len(moves) > Slots) {
		t.Fatalf("ply %d: %d legal moves", s.ply, len(moves))
	}
	for i, m := range moves {
		if i > 0 && m <= moves[i-1] {
			t.Fatalf("ply %d: legal moves not strictly increasing: %v", s.ply, moves)
		}
		if s.Landing(m) < 0 || s.Owner(s.Landing(m)) != -1 {
			t.Fatalf("ply %d: %s lands on %d", s.ply, FormatMove(m), s.Landing(m))
		}
	}
	e0, e1 := s.Evaluate(0), s.Evaluate(1)
	if e0 != -e1 || e0 <= -games.WinScore || e0 >= games.WinScore {
		t.Fatalf("ply %d: Evaluate(0) = %d, Evaluate(1) = %d", s.ply, e0, e1)
	}
}

// checkEnd checks a finished game's result against the rules.
func checkEnd(t *testing.T, s *State, slow *slowGame, seed uint64) {
	t.Helper()
	o := s.Outcome()
	if s.ToMove() != games.None || o.Winner != slow.winner || o.Score != 1-2*o.Winner || s.ply > MaxPlies {
		t.Fatalf("seed %d: ToMove %d, outcome %+v after %d plies; array version: winner %d",
			seed, s.ToMove(), o, s.ply, slow.winner)
	}
	five := [2]bool{slow.hasFiveAnywhere(0), slow.hasFiveAnywhere(1)}
	last := (s.ply - 1) & 1
	switch s.end {
	case endFive:
		if o.Winner != last || !five[last] || five[1-last] {
			t.Fatalf("seed %d: won by five, winner %d, last mover %d, fives %v", seed, o.Winner, last, five)
		}
	case endFull:
		if s.ply != Cells || last != 0 || o.Winner != 1 || five[0] || five[1] {
			t.Fatalf("seed %d: board full at ply %d, winner %d, fives %v", seed, s.ply, o.Winner, five)
		}
	default:
		t.Fatalf("seed %d: game over without a reason", seed)
	}
	if e := s.Evaluate(o.Winner); e != finished || s.Evaluate(1-o.Winner) != -finished {
		t.Fatalf("seed %d: finished game evaluates to %d for the winner", seed, e)
	}
}

// TestFullBoard replays a game in which neither player ever makes five:
// the first player's 41st tile fills the board and the second player wins.
func TestFullBoard(t *testing.T) {
	s := playAll(t, strings.Fields(fullBoardGame)...)
	if s.ply != Cells || !s.Terminal() || s.end != endFull {
		t.Fatalf("after %d plies: Terminal %v, end %d", s.ply, s.Terminal(), s.end)
	}
	if o := s.Outcome(); o.Winner != 1 || o.Score != -1 || o.Result() != "0-1" {
		t.Errorf("full board: outcome %+v", o)
	}
	if !strings.HasSuffix(s.String(), "game over: board full, O (second player) wins, 0-1") {
		t.Errorf("full board renders as:\n%s", s.String())
	}
	s.Undo()
	if s.Terminal() || len(s.LegalMoves(nil)) == 0 {
		t.Errorf("one empty cell left, but no legal move")
	}
}

func TestEvaluate(t *testing.T) {
	// X to move with A9–D9 and E9 reachable by TE: a win in one.
	s := playAll(t, strings.Fields("TA L1 R9 R1 TC L2 R9 R2")...)
	if got := s.Evaluate(0); got != winInOne {
		t.Errorf("X to move and win: Evaluate(0) = %d, want %d", got, winInOne)
	}
	// Same tiles with O to move: X's winning cell E9 is a threat, not a win.
	s = playAll(t, strings.Fields("TA L1 R9 R1 TC L2 R9 R2 L5")...)
	if got := s.Evaluate(0); got <= 150 || got >= winInOne {
		t.Errorf("X threatens five: Evaluate(0) = %d", got)
	}
	// The opening is symmetric, so the empty board is level.
	if got := New().Evaluate(0); got != 0 {
		t.Errorf("start position evaluates to %d", got)
	}
	// One tile counts once per window it lies in: E9 lies in five windows of
	// row 9, one of column E and one of each diagonal; the corner I9 in three.
	if got := playAll(t, "TE").Evaluate(0); got != 8 {
		t.Errorf("X on E9: Evaluate(0) = %d, want 8", got)
	}
	if got := playAll(t, "L9").Evaluate(1); got != -3 {
		t.Errorf("X on I9: Evaluate(1) = %d, want -3", got)
	}
}

// fullBoardGame is random game 259 (the first seed whose random game fills
// the board), checked move by move against the array version below.
const fullBoardGame = `R9 R7 BD BD L1 TA BI L8 TD BB R4 TC BD BA R1 TH L6 R9 R5 TF
BA L6 R7 TG TG L1 R9 TE BD R4 R8 L3 L6 BE R4 TH BF L9 L8 TH TI R6 L7 TD BD R3
L4 BG TG R1 BG L3 R6 BB BC TF R2 L8 L6 TC R2 L6 TC R5 R6 BA TB R8 R7 L7 TG TI
BI L4 L7 BG BG TA TI L2 L3`

func TestFullBoardArrayVersion(t *testing.T) {
	g := newSlow()
	moves := strings.Fields(fullBoardGame)
	for i, text := range moves {
		m, err := ParseMove(text)
		if err != nil || !g.legal(int(m)) {
			t.Fatalf("ply %d: %s not legal in the array version (%v)", i+1, text, err)
		}
		if g.over {
			t.Fatalf("array version: game over before ply %d", i+1)
		}
		g.play(int(m))
	}
	if len(moves) != Cells || !g.over || g.winner != 1 || g.hasFiveAnywhere(0) || g.hasFiveAnywhere(1) {
		t.Errorf("array version: %d moves, over %v, winner %d", len(moves), g.over, g.winner)
	}
}
