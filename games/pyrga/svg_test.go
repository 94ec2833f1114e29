package pyrga

import (
	"bytes"
	"math/bits"
	"regexp"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
	"github.com/boardgame-arena/arena/rng"
)

func TestSVGKnownPositions(t *testing.T) {
	tests := []struct {
		text   string
		counts map[string]int // classes and their counts; the rest must be 0
		points string         // a Triangle's points, when one is drawn
		legal  uint16         // cells shaded for the player to move
		capt   string
	}{
		{
			"............/............/............/............ -",
			nil, "", allCells, "White to move",
		},
		{
			"............/............/....T......./............ T@b2>N",
			map[string]int{".triangle white": 1, ".last": 1}, svgTrianglePoints(180, 270, North), 1<<9 | 1<<13, "Black to move",
		},
		{
			"............/............/....T......./..c......... C@a1",
			map[string]int{".triangle white": 1, ".cylinder black": 1, ".dashed": 1, ".last": 1}, svgTrianglePoints(180, 270, noDir), 0, "White to move",
		},
		{
			"............/............/............/STc......... T@a1>E",
			map[string]int{".square white": 1, ".triangle white": 1, ".cylinder black": 1, ".tower white": 1, ".last": 1}, svgTrianglePoints(80, 370, East), 0, "Black to move",
		},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			s, err := ParsePosition(false, tt.text)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := games.WriteSVG(&buf, s); err != nil {
				t.Fatal(err)
			}
			doc := strings.ReplaceAll(buf.String(), `stroke-dasharray="5 3"`, `class="dashed"`) // count the dashed outlines too
			c, err := gamestest.SVGCount([]byte(doc))
			if err != nil {
				t.Fatalf("not well-formed: %v", err)
			}
			for _, class := range []string{".square white", ".square black", ".triangle white", ".triangle black", ".cylinder white", ".cylinder black", ".tower white", ".tower black", ".last", ".dashed"} {
				if c[class] != tt.counts[class] {
					t.Errorf("%d %s, want %d", c[class], class, tt.counts[class])
				}
			}
			if tt.points != "" && !strings.Contains(doc, `points="`+tt.points+`"`) {
				t.Errorf("no Triangle at %s", tt.points)
			}
			legal := tt.legal
			if legal == 0 {
				legal = s.legal[0] | s.legal[1] | s.legal[2] | s.legal[3] | s.legal[4] | s.legal[5]
			}
			if c[".legal"] != bits.OnesCount16(legal) {
				t.Errorf("%d cells shaded, want %d", c[".legal"], bits.OnesCount16(legal))
			}
			for l := legal; l != 0; l &= l - 1 {
				if !strings.Contains(doc, svgLegal[bits.TrailingZeros16(l)]) {
					t.Errorf("%s not shaded", cellName(bits.TrailingZeros16(l)))
				}
			}
			if !strings.Contains(doc, "><tspan>"+tt.capt+"</tspan>") {
				t.Errorf("caption %q missing", tt.capt)
			}
		})
	}
}

// pieceRE reads a piece fragment: its kind and colour.
var pieceRE = regexp.MustCompile(`^<(?:rect|polygon|circle) class="(square|triangle|cylinder) (white|black)"`)

// TestSVGRandomGames draws every position of random games under both
// rules: the board never changes, the pieces of each kind and colour are
// as many as the position has, each Triangle points its way, the towers
// have their badges, and a piece is the same fragment in every position.
func TestSVGRandomGames(t *testing.T) {
	board := string(New().SVGBoard(nil))
	seen := map[string]bool{}
	for _, bga := range []bool{false, true} {
		for seed := range uint64(8) {
			r := rng.New(seed)
			s := newState(bga)
			for {
				if string(s.SVGBoard(nil)) != board {
					t.Fatalf("ply %d: the board layer changed", s.Ply())
				}
				var n [2][3]int
				towers := 0
				for _, f := range s.SVGPieces(nil) {
					if strings.Contains(f, "stroke-dasharray") {
						t.Fatalf("ply %d: a Triangle of unknown direction in a game played from the start", s.Ply())
					}
					if strings.HasPrefix(f, `<circle class="tower`) {
						towers++
					}
					if m := pieceRE.FindStringSubmatch(f); m != nil {
						n[strings.Index("wb", m[2][:1])][strings.Index("stc", m[1][:1])]++
						seen[f] = true
					}
				}
				for p := range 2 {
					for k := range 3 {
						if n[p][k] != bits.OnesCount16(s.Pieces(p, k)) {
							t.Fatalf("ply %d: %d pieces of colour %d type %d drawn, %d on the board", s.Ply(), n[p][k], p, k, bits.OnesCount16(s.Pieces(p, k)))
						}
					}
				}
				if tl := s.Tallies(); towers != tl[0].Towers+tl[1].Towers {
					t.Fatalf("ply %d: %d tower badges, %d towers", s.Ply(), towers, tl[0].Towers+tl[1].Towers)
				}
				if s.Terminal() {
					break
				}
				games.RandomPlies(s, 1, r)
			}
		}
	}
	// Each distinct fragment is one (colour, type, cell, direction): at most
	// 2·(16 + 16 + 16·5) of them, and many are reached again.
	if len(seen) > 2*(16+16+16*5) || len(seen) < 40 {
		t.Errorf("%d distinct piece fragments", len(seen))
	}
}
