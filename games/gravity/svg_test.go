package gravity

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
	"github.com/boardgame-arena/arena/rng"
)

func TestSVGKnownPosition(t *testing.T) {
	s := New()
	for _, m := range []string{"TE", "TE", "L9"} {
		mv, err := ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		s.Play(mv)
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
	if c[".tile x"] != 2 || c[".tile o"] != 1 || c[".slot-last"] != 1 || c[".last"] != 1 || c[".banned"] != 1 {
		t.Errorf("counts %v: want 2 X tiles, 1 O tile, the last slot, ring and banned side", c)
	}
	// the board: 36 slot arrows besides the last move's
	if c["polygon"] != Slots+1 {
		t.Errorf("%d arrows, want %d slots and the last move's", c["polygon"], Slots)
	}
	x, y := svgCentre(8*Size + 3) // D9, where L9 lands against E9
	if !strings.Contains(doc, fmt.Sprintf(`<circle class="last" cx="%d" cy="%d"`, x, y)) {
		t.Error("the last tile's ring is not on D9")
	}
	if !strings.Contains(doc, svgSlots[0][Left*Size+8]) || !strings.Contains(doc, svgBanned[Top]) {
		t.Error("the last slot L9 (X's colour) or O's banned top side is missing")
	}
	if want := ">O to move, not from the top · 3 tiles</text>"; !strings.Contains(doc, want) {
		t.Errorf("caption %q missing", want)
	}
	// the same position read from text draws the same pieces: the text
	// keeps the last move
	read, err := ParsePosition(s.Position())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := read.SVGPieces(nil), s.SVGPieces(nil); !slices.Equal(got, want) {
		t.Errorf("read back from %q, the position draws\n%q\nwant\n%q", s.Position(), got, want)
	}
}

// tileRE reads a tile fragment: its player and centre.
var tileRE = regexp.MustCompile(`^<circle class="tile (x|o)" cx="(\d+)" cy="(\d+)"`)

// TestSVGRandomGames draws every position of random games: the board never
// changes, the tiles match the position, the last landing and the banned
// side are shown, and a tile is the same fragment in every position.
func TestSVGRandomGames(t *testing.T) {
	board := string(New().SVGBoard(nil))
	seen := map[string]string{}
	for seed := range uint64(8) {
		r := rng.New(seed)
		s := New()
		for {
			if string(s.SVGBoard(nil)) != board {
				t.Fatalf("ply %d: the board layer changed", s.Ply())
			}
			var tiles [2]int
			rings, banned := 0, 0
			for _, f := range s.SVGPieces(nil) {
				switch {
				case strings.HasPrefix(f, `<circle class="last"`):
					rings++
					if f != svgLanded[s.hist[s.ply-1].cell] {
						t.Fatalf("ply %d: the ring is not on the last tile", s.Ply())
					}
				case strings.HasPrefix(f, `<rect class="banned"`):
					banned++
				}
				m := tileRE.FindStringSubmatch(f)
				if m == nil {
					continue
				}
				p := strings.Index("xo", m[1])
				var x, y int
				fmt.Sscan(m[2], &x)
				fmt.Sscan(m[3], &y)
				cell := (y-svgMargin)/svgCell*Size + (x-svgMargin)/svgCell
				if s.Owner(cell) != p {
					t.Fatalf("ply %d: a tile of %d drawn on %s, which holds %d", s.Ply(), p, CellName(cell), s.Owner(cell))
				}
				tiles[p]++
				if old, ok := seen[m[0]]; ok && old != f {
					t.Fatalf("the same tile drawn two ways: %q and %q", old, f)
				}
				seen[m[0]] = f
			}
			wantBanned := 0
			if !s.Terminal() && s.LastSide(s.ToMove()) != NoSide {
				wantBanned = 1
			}
			if tiles[0]+tiles[1] != s.Ply() || tiles[0] != (s.Ply()+1)/2 || rings != min(s.Ply(), 1) || banned != wantBanned {
				t.Fatalf("ply %d: tiles %v, %d rings, %d banned sides (want %d)", s.Ply(), tiles, rings, banned, wantBanned)
			}
			if s.Terminal() {
				break
			}
			games.RandomPlies(s, 1, r)
		}
	}
}
