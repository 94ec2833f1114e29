package pyrga

import (
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
)

// play makes the moves of a space-separated transcript, failing on any
// unreadable or illegal one, and returns the legal-move counts seen before
// each ply and after the last.
func play(t *testing.T, s *State, transcript string) []int {
	t.Helper()
	var counts []int
	for _, text := range strings.Fields(transcript) {
		legal := s.LegalMoves(nil)
		counts = append(counts, len(legal))
		m, err := ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(legal, m) {
			t.Fatalf("ply %d: %s is not legal (legal: %s)", s.Ply()+1, text, games.FormatMoves(s, legal))
		}
		s.Play(m)
	}
	return append(counts, len(s.LegalMoves(nil)))
}

func newVariant(bga bool) *State {
	if bga {
		return NewBGA()
	}
	return New()
}

func variantName(bga bool) string {
	if bga {
		return "pyrga:bga"
	}
	return "pyrga"
}

// legalCells returns the cells (sorted names) that the legal moves use.
func legalCells(s *State) string {
	var mask uint16
	for _, m := range s.LegalMoves(nil) {
		_, cell, _ := Decode(m)
		mask |= 1 << cell
	}
	return formatCells(mask)
}

// TestSpecVectors checks every vector of spec section 6: legal-move counts
// before each ply (and after the last), for both variants.
func TestSpecVectors(t *testing.T) {
	tests := []struct {
		name       string
		transcript string
		counts     []int  // before each ply, then after the last
		bgaCounts  []int  // nil: same as counts
		cells      string // cells used by the final legal moves, "" to skip
		moves      string // the final legal moves, sorted, "" to skip
		bgaMoves   string
	}{
		{name: "empty board", counts: []int{80}},
		{name: "square b2", transcript: "S@b2", counts: []int{80, 22}, cells: "b1 a2 c2 b3"},
		{
			name: "cylinder b3", transcript: "S@b2 C@b3", counts: []int{80, 22, 5}, bgaCounts: []int{80, 22, 4},
			cells: "b3", moves: "S@b3 T@b3>E T@b3>N T@b3>S T@b3>W", bgaMoves: "T@b3>E T@b3>N T@b3>S T@b3>W",
		},
		{name: "triangle a1 north", transcript: "T@a1>N", counts: []int{80, 14}, cells: "a2 a3 a4"},
		{name: "triangle a1 east", transcript: "T@a1>E", counts: []int{80, 14}, cells: "b1 c1 d1"},
		{name: "triangle then square", transcript: "T@a1>N S@a3", counts: []int{80, 14, 15}, cells: "a2 b3 a4"},
		{
			name: "fallback", transcript: "S@b2 S@b3 T@b2>N T@b3>S C@b2",
			counts: []int{80, 22, 21, 10, 6, 68}, bgaCounts: []int{80, 22, 18, 10, 6, 68},
			cells: "a1 b1 c1 d1 a2 c2 d2 a3 c3 d3 a4 b4 c4 d4",
		},
	}
	for _, tc := range tests {
		for _, bga := range []bool{false, true} {
			t.Run(tc.name+"/"+variantName(bga), func(t *testing.T) {
				s := newVariant(bga)
				got := play(t, s, tc.transcript)
				want := tc.counts
				if bga && tc.bgaCounts != nil {
					want = tc.bgaCounts
				}
				if !slices.Equal(got, want) {
					t.Errorf("legal-move counts %v, want %v", got, want)
				}
				if tc.cells != "" {
					if c := legalCells(s); c != tc.cells {
						t.Errorf("legal moves on %q, want %q", c, tc.cells)
					}
				}
				wantMoves := tc.moves
				if bga && tc.bgaMoves != "" {
					wantMoves = tc.bgaMoves
				}
				if wantMoves != "" {
					if m := games.FormatMoves(s, s.LegalMoves(nil)); m != wantMoves {
						t.Errorf("legal moves %q, want %q", m, wantMoves)
					}
				}
			})
		}
	}
}

// TestFallbackTallies checks the tie-break counts of the fallback vector:
// the Cylinder completes b2 for White, Black keeps its 2-piece stack b3.
func TestFallbackTallies(t *testing.T) {
	for _, bga := range []bool{false, true} {
		s := newVariant(bga)
		play(t, s, "S@b2 S@b3 T@b2>N T@b3>S C@b2")
		want := [2]Tally{{Towers: 1}, {Pairs: 1}}
		if got := s.Tallies(); got != want {
			t.Errorf("%s: tallies %+v, want %+v", variantName(bga), got, want)
		}
		if s.Terminal() {
			t.Errorf("%s: game over after the fallback vector", variantName(bga))
		}
		if !strings.Contains(s.String(), "any empty cell") {
			t.Errorf("%s: rendering does not show the fallback:\n%s", variantName(bga), s)
		}
	}
}

// TestThreeTowerWin plays the spec's ply-17 win: White completes a1 (ply 7),
// d1 (ply 11) and d2 (ply 17) and wins at once.
func TestThreeTowerWin(t *testing.T) {
	moves := strings.Fields("S@a1 C@a2 T@a2>N C@a3 T@a3>S C@a1 T@a1>E C@d1 S@d1 T@c1>E T@d1>N T@d4>S C@d2 S@d2 C@c2 T@c2>E T@d2>S")
	for _, bga := range []bool{false, true} {
		s := newVariant(bga)
		for i, text := range moves {
			if s.Terminal() {
				t.Fatalf("%s: game over before ply %d", variantName(bga), i+1)
			}
			play(t, s, text)
			wantTowers := 0
			switch {
			case i+1 >= 17:
				wantTowers = 3
			case i+1 >= 11:
				wantTowers = 2
			case i+1 >= 7:
				wantTowers = 1
			}
			if got := s.Tallies()[0].Towers; got != wantTowers {
				t.Errorf("%s: after ply %d White has %d towers, want %d", variantName(bga), i+1, got, wantTowers)
			}
		}
		if !s.Terminal() || s.ToMove() != games.None || len(s.LegalMoves(nil)) != 0 {
			t.Fatalf("%s: game not over after ply 17", variantName(bga))
		}
		if o := s.Outcome(); o.Winner != 0 || o.Score != 3 {
			t.Errorf("%s: outcome %+v, want White winning by 3 towers", variantName(bga), o)
		}
	}
}

// TestEndings covers every way a game ends, with games found by random play
// and checked by hand: an immediate win by the player who did not move, and
// games decided by the tie-break at each of its levels, and a draw.
func TestEndings(t *testing.T) {
	tests := []struct {
		name       string
		transcript string
		tallies    [2]Tally
		outcome    games.Outcome
	}{
		{
			// White's Cylinder on d2 points Black at d2, where only a Square
			// fits: Black must complete White's third tower.
			name:       "careless completion",
			transcript: "C@c4 S@c4 T@d4>W S@b4 T@c4>E C@d4 S@d4 S@d3 T@d2>S S@d1 C@d2 S@d2",
			tallies:    [2]Tally{{Towers: 3}, {Singles: 3}},
			outcome:    games.Outcome{Winner: 0, Score: 3},
		},
		{
			// Full board, White to move has only a Triangle and Cylinders,
			// none fits a2. No towers; Black's a2 stack is all Black.
			name:       "decided on pairs",
			transcript: "C@c4 T@c4>E T@d4>W S@a4 S@b4 T@b3>E S@d3 T@c3>W T@a3>S T@a2>S S@a1 C@b1 S@b1 T@b2>E T@c2>S C@c1 S@c1 S@d1 T@d2>W C@a2",
			tallies:    [2]Tally{{Singles: 7}, {Pairs: 1, Singles: 5}},
			outcome:    games.Outcome{Winner: 1, Score: -1},
		},
		{
			name:       "decided on singles",
			transcript: "T@c4>W C@a4 T@a4>E T@d4>W T@b4>S T@b2>N T@b3>E T@c3>E T@d3>S S@d1 S@d2 C@c2 S@c2 T@c1>W C@b1 T@b1>W S@a1 S@a2 C@a3 S@a3 C@a2",
			tallies:    [2]Tally{{Singles: 6}, {Singles: 5}},
			outcome:    games.Outcome{Winner: 0, Score: 1},
		},
		{
			name:       "draw",
			transcript: "T@b4>W C@a4 S@a4 T@a3>S T@a1>E T@c1>N T@c4>E S@d4 T@d3>S S@d2 T@d1>N C@d4 S@b3 C@c3 S@c3 S@c2 S@b2 T@a2>S S@a1 C@b1",
			tallies:    [2]Tally{{Pairs: 1, Singles: 6}, {Pairs: 1, Singles: 6}},
			outcome:    games.Outcome{Winner: games.Draw},
		},
	}
	for _, tc := range tests {
		for _, bga := range []bool{false, true} {
			t.Run(tc.name+"/"+variantName(bga), func(t *testing.T) {
				s := newVariant(bga)
				moves := strings.Fields(tc.transcript)
				for i, text := range moves {
					if s.Terminal() {
						t.Fatalf("game over before ply %d", i+1)
					}
					play(t, s, text)
				}
				if !s.Terminal() || s.ToMove() != games.None || len(s.LegalMoves(nil)) != 0 {
					t.Fatalf("game not over:\n%s", s)
				}
				if got := s.Tallies(); got != tc.tallies {
					t.Errorf("tallies %+v, want %+v", got, tc.tallies)
				}
				if got := s.Outcome(); got != tc.outcome {
					t.Errorf("outcome %+v, want %+v", got, tc.outcome)
				}
				if !strings.Contains(s.String(), "game over: "+tc.outcome.Result()) {
					t.Errorf("rendering does not show the result:\n%s", s)
				}
			})
		}
	}
}
