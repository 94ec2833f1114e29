package ugi

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/rng"
)

// TestUGIPositionLineFollows: the position command a Client builds
// incrementally is, at every step of random games (moves one, two or three
// plies apart, the same position again, a step back, a new game from the
// start or from a position as text), the one built from scratch, and the
// state is left as it was.
func TestUGIPositionLineFollows(t *testing.T) {
	for _, game := range []string{"othello6", "erdos:algol", "pyrga", "gravity"} {
		t.Run(game, func(t *testing.T) {
			v, err := games.Lookup(game)
			if err != nil {
				t.Fatal(err)
			}
			a := &Client{startHash: v.New().Hash(), knowStart: true}
			r := rng.New(11)
			for g := 0; g < 30; g++ {
				s := v.New().(games.State)
				root := "position startpos"
				if g%3 == 2 {
					// A game from a position given as text.
					for i := r.IntN(10); i > 0 && !s.Terminal(); i-- {
						ms := s.LegalMoves(nil)
						s.Play(ms[r.IntN(len(ms))])
					}
					text := s.(games.PositionWriter).Position()
					if s, err = games.ParsePosition(v, text); err != nil {
						t.Fatal(err)
					}
					if s.Hash() != a.startHash {
						root = "position fen " + text
					}
				}
				if g%2 == 0 {
					a.shadow = nil // as NewGame does
				}
				for !s.Terminal() {
					switch k := r.IntN(8); {
					case k == 0 && s.Ply() > 0:
						s.Undo()
					case k == 1: // the same position again
					default:
						for i := 1 + r.IntN(3); i > 0 && !s.Terminal(); i-- {
							ms := s.LegalMoves(nil)
							s.Play(ms[r.IntN(len(ms))])
						}
					}
					hash, ply := s.Hash(), s.Ply()
					if err := a.positionLine(s); err != nil {
						t.Fatal(err)
					}
					if s.Hash() != hash || s.Ply() != ply {
						t.Fatalf("game %d: the state changed", g)
					}
					moves, err := History(s, nil)
					if err != nil {
						t.Fatal(err)
					}
					want := root
					if len(moves) > 0 {
						want += " moves " + strings.Join(moves, " ")
					}
					if string(a.line) != want {
						t.Fatalf("game %d ply %d:\n got %s\nwant %s", g, ply, a.line, want)
					}
				}
			}
		})
	}
}

// TestUGIPositionLineAllocs: following a game move by move allocates
// nothing beyond the moves' texts.
func TestUGIPositionLineAllocs(t *testing.T) {
	v, err := games.Lookup("gravity")
	if err != nil {
		t.Fatal(err)
	}
	s := v.New().(games.State)
	r := rng.New(3)
	var game []games.Move
	for !s.Terminal() {
		ms := s.LegalMoves(nil)
		m := ms[r.IntN(len(ms))]
		game = append(game, m)
		s.Play(m)
	}
	if len(game) < 24 {
		t.Fatalf("a game of %d plies; want 24 or more", len(game))
	}
	for s.Ply() > 0 {
		s.Undo()
	}
	a := &Client{startHash: v.New().Hash(), knowStart: true, line: make([]byte, 0, 4096)}
	if err := a.positionLine(s); err != nil {
		t.Fatal(err)
	}
	i := 0
	allocs := testing.AllocsPerRun(20, func() {
		s.Play(game[i])
		i++
		if err := a.positionLine(s); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 0 {
		t.Errorf("%.1f allocations a move", allocs)
	}
}
