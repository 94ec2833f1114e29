package othello6

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

// svgDoc draws s as a document and counts its elements.
func svgDoc(t *testing.T, s *State) (string, map[string]int) {
	t.Helper()
	var buf bytes.Buffer
	if err := games.WriteSVG(&buf, s); err != nil {
		t.Fatal(err)
	}
	counts, err := gamestest.SVGCount(buf.Bytes())
	if err != nil {
		t.Fatalf("not well-formed: %v\n%s", err, buf.String())
	}
	return buf.String(), counts
}

func TestSVGKnownPositions(t *testing.T) {
	played := New()
	for _, m := range []string{"d3", "c3", "b3"} {
		mv, err := ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		played.Play(mv)
	}
	read, err := ParsePosition(played.Position())
	if err != nil {
		t.Fatal(err)
	}
	full, err := ParsePosition("XXXXXX/XXXXXX/XXOXXX/XXXXXX/XXXXXX/XXXXXO x")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		s          *State
		x, o, last int
		lastAt     string // the last placement's cell
		caption    string
	}{
		{"start", New(), 2, 2, 0, "", "black (X) to move · black 2, white 2"},
		{"after d3 c3 b3", played, 4, 1, 1, "b3", "white (O) to move · black 4, white 1"},
		{"read from text: no history", read, 4, 1, 0, "", "white (O) to move · black 4, white 1"},
		{"full board", full, 34, 2, 0, "", "game over 1-0 · black 34, white 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, c := svgDoc(t, tt.s)
			legal := bits.OnesCount64(tt.s.LegalMask())
			if c[".disc x"] != tt.x || c[".disc o"] != tt.o || c[".last"] != tt.last || c[".legal"] != legal || c["circle"] != tt.x+tt.o+tt.last+legal {
				t.Errorf("%d black, %d white discs, %d last-move dots, %d legal; want %d, %d, %d, %d", c[".disc x"], c[".disc o"], c[".last"], c[".legal"], tt.x, tt.o, tt.last, legal)
			}
			if c["svg"] != 1 || c[".caption"] != 1 || !strings.Contains(doc, ">"+tt.caption+"</text>") {
				t.Errorf("caption: want %q in\n%s", tt.caption, doc)
			}
			if tt.lastAt != "" {
				mv, _ := ParseMove(tt.lastAt)
				x, y := svgCentre(int(mv))
				if !strings.Contains(doc, fmt.Sprintf(`<circle class="last" cx="%d" cy="%d"`, x, y)) {
					t.Errorf("no last-move dot on %s", tt.lastAt)
				}
			}
		})
	}
}

// discRE reads a disc fragment: its colour and centre.
var discRE = regexp.MustCompile(`^<circle class="disc (x|o)" cx="(\d+)" cy="(\d+)"`)

// TestSVGRandomGames draws every position of random games: the board never
// changes, the discs match the bitboards, the last-move dot appears after
// every placement and not after a pass, and a disc of a colour on a cell is
// the same fragment in every position.
func TestSVGRandomGames(t *testing.T) {
	board := string(New().SVGBoard(nil))
	seen := map[string]string{} // colour and centre → fragment
	for seed := range uint64(8) {
		r := rng.New(seed)
		s := New()
		for {
			if string(s.SVGBoard(nil)) != board {
				t.Fatalf("seed %d ply %d: the board layer changed", seed, s.Ply())
			}
			var discs [2]uint64
			dots, legal := 0, 0
			for _, f := range s.SVGPieces(nil) {
				if strings.HasPrefix(f, `<circle class="last"`) {
					dots++
				}
				if strings.HasPrefix(f, `<circle class="legal"`) {
					legal++
				}
				m := discRE.FindStringSubmatch(f)
				if m == nil {
					continue
				}
				key := m[1] + m[2] + "," + m[3]
				if old, ok := seen[key]; ok && old != f {
					t.Fatalf("the same disc drawn two ways: %q and %q", old, f)
				}
				seen[key] = f
				p := strings.Index("xo", m[1])
				var x, y int
				fmt.Sscan(m[2], &x)
				fmt.Sscan(m[3], &y)
				discs[p] |= 1 << (Size*((y-svgMargin)/svgCell) + (x-svgMargin)/svgCell)
			}
			if discs != s.discs {
				t.Fatalf("seed %d ply %d: drawn discs %x, position %x", seed, s.Ply(), discs, s.discs)
			}
			wantDot := 0
			if s.ply > 0 && bits.OnesCount64(s.discs[0]|s.discs[1]) > bits.OnesCount64(s.hist[s.ply-1].discs[0]|s.hist[s.ply-1].discs[1]) {
				wantDot = 1
			}
			if want := bits.OnesCount64(s.LegalMask()); s.Terminal() && legal != 0 || !s.Terminal() && legal != want {
				t.Fatalf("seed %d ply %d: %d legal dots, want %d", seed, s.Ply(), legal, want)
			}
			if dots != wantDot {
				t.Fatalf("seed %d ply %d: %d last-move dots, want %d", seed, s.Ply(), dots, wantDot)
			}
			if s.Terminal() {
				break
			}
			games.RandomPlies(s, 1, r)
		}
	}
	if len(seen) < 60 {
		t.Errorf("only %d distinct discs drawn in 8 games", len(seen))
	}
}
