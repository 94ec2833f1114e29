package erdos

import (
	"bytes"
	"fmt"
	"math/bits"
	"regexp"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
	"github.com/boardgame-arena/arena/rng"
)

func TestSVGKnownPositions(t *testing.T) {
	played := New(Standard)
	for _, m := range []string{"a1:1", "e5:1", "a2:2"} {
		mv, err := ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		played.Play(mv)
	}
	tests := []struct {
		rules      Rules
		text       string // position, or "" for played
		p0, p1, p2 int    // neutral, first player's and second player's units
		ctrl1      int    // columns of the first player
		last       int
		caption    string
	}{
		{Standard, "...../...../...../...../..... -----", 0, 0, 0, 0, 0, "player 1 to move · columns 0–0"},
		{Standard, "...../...../3..../2..../12... 1----", 1, 3, 0, 1, 0, "player 1 to move · columns 1–0"},
		{Algol, "...../...../3..../2..../12... 1----", 1, 3, 0, 1, 0, "player 1 to move · columns 1–0 (algol)"},
		{Standard, "", 3, 0, 0, 0, 1, "player 2 to move · columns 0–0"},
	}
	for _, tt := range tests {
		t.Run(tt.rules.String()+" "+tt.text, func(t *testing.T) {
			s := played
			if tt.text != "" {
				var err error
				if s, err = ParsePosition(tt.rules, tt.text); err != nil {
					t.Fatal(err)
				}
			}
			var buf bytes.Buffer
			if err := games.WriteSVG(&buf, s); err != nil {
				t.Fatal(err)
			}
			doc := buf.String()
			c, err := gamestest.SVGCount(buf.Bytes())
			if err != nil {
				t.Fatalf("not well-formed: %v", err)
			}
			if c[".unit p0"] != tt.p0 || c[".unit p1"] != tt.p1 || c[".unit p2"] != tt.p2 || c[".ctrl p1"] != tt.ctrl1 || c[".ctrl p2"] != 0 || c[".last"] != tt.last {
				t.Errorf("counts %v, want %d neutral, %d first, %d second units, %d columns, %d last", c, tt.p0, tt.p1, tt.p2, tt.ctrl1, tt.last)
			}
			if !strings.Contains(doc, ">"+tt.caption+"</text>") {
				t.Errorf("caption %q missing in\n%s", tt.caption, doc)
			}
		})
	}
}

// unitRE reads a unit fragment: owner, corner and level.
var unitRE = regexp.MustCompile(`^<g class="unit p(\d)"><rect x="(\d+)" y="(\d+)".*>(\d)</text></g>$`)

// TestSVGRandomGames draws every position of random games under both
// rules: the board never changes, every unit is drawn on its cell with its
// level and owner, the columns' bars match their controllers, the last
// placement is framed, and a unit is the same fragment in every position.
func TestSVGRandomGames(t *testing.T) {
	board := string(New(Standard).SVGBoard(nil))
	seen := map[string]string{}
	for _, rules := range []Rules{Standard, Algol} {
		for seed := range uint64(8) {
			r := rng.New(seed)
			s := New(rules)
			for {
				if string(s.SVGBoard(nil)) != board {
					t.Fatalf("ply %d: the board layer changed", s.Ply())
				}
				units, last := 0, 0
				var ctrl [2]int
				for _, f := range s.SVGPieces(nil) {
					switch {
					case strings.HasPrefix(f, `<rect class="last"`):
						last++
					case strings.HasPrefix(f, `<rect class="ctrl p1"`):
						ctrl[0]++
					case strings.HasPrefix(f, `<rect class="ctrl p2"`):
						ctrl[1]++
					}
					m := unitRE.FindStringSubmatch(f)
					if m == nil {
						continue
					}
					units++
					var owner, x, y, level int
					fmt.Sscan(m[1], &owner)
					fmt.Sscan(m[2], &x)
					fmt.Sscan(m[3], &y)
					fmt.Sscan(m[4], &level)
					cell := (Size-1-(y-5-svgTop)/svgCell)*Size + (x-5-svgLeft)/svgCell
					if s.Level(cell) != level || s.Owner(cell)+1 != owner {
						t.Fatalf("ply %d: %s drawn as level %d owner %d, is %d owner %d", s.Ply(), CellName(cell), level, owner, s.Level(cell), s.Owner(cell)+1)
					}
					key := fmt.Sprint(owner, cell, level)
					if old, ok := seen[key]; ok && old != f {
						t.Fatalf("the same unit drawn two ways: %q and %q", old, f)
					}
					seen[key] = f
				}
				c1, c2 := s.Columns()
				if units != bits.OnesCount32(s.b.occ) || ctrl != [2]int{c1, c2} || last != min(s.Ply(), 1) {
					t.Fatalf("ply %d: %d units, columns %v, %d last; want %d, [%d %d], %d", s.Ply(), units, ctrl, last, bits.OnesCount32(s.b.occ), c1, c2, min(s.Ply(), 1))
				}
				if s.Terminal() {
					break
				}
				games.RandomPlies(s, 1, r)
			}
		}
	}
}
