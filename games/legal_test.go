package games_test

import (
	"slices"
	"testing"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/internal/rng"
)

// TestLegalCheckers checks, for every sequential game with a fast Legal,
// that it agrees with LegalMoves on every move code below 1024 in every
// position of 200 seeded random games (finished positions included), and
// that games.IsLegal, which referees call, gives the same answers.
func TestLegalCheckers(t *testing.T) {
	checked := 0
	for _, g := range games.All() {
		b, err := games.New(g.Name)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := b.(games.State)
		if !ok {
			continue
		}
		if _, ok := s.(games.LegalChecker); !ok {
			continue
		}
		checked++
		t.Run(g.Name, func(t *testing.T) {
			r := rng.New(3)
			var buf []games.Move
			for game := range 200 {
				for s.Ply() > 0 {
					s.Undo()
				}
				for {
					buf = s.LegalMoves(buf[:0])
					for m := range games.Move(1024) {
						want := slices.Contains(buf, m)
						if got := s.(games.LegalChecker).Legal(m); got != want {
							t.Fatalf("game %d ply %d: Legal(%d) = %v, LegalMoves lists it: %v\n%s", game, s.Ply(), m, got, want, s)
						}
						if got := games.IsLegal(s, m); got != want {
							t.Fatalf("game %d ply %d: IsLegal(%d) = %v, want %v", game, s.Ply(), m, got, want)
						}
					}
					if s.Terminal() {
						break
					}
					s.Play(buf[r.IntN(len(buf))])
				}
			}
		})
	}
	if checked < 3 {
		t.Errorf("only %d games have a Legal fast path; othello6, erdos and gravity should", checked)
	}
}

// TestFormatMoveDoesNotAllocate: a referee formats every move it records,
// so the games with small move sets keep their notation in tables.
func TestFormatMoveDoesNotAllocate(t *testing.T) {
	for _, name := range []string{"othello6", "erdos", "gravity"} {
		b, err := games.New(name)
		if err != nil {
			t.Fatal(err)
		}
		s := b.(games.State)
		moves := s.LegalMoves(nil)
		if n := testing.AllocsPerRun(100, func() {
			for _, m := range moves {
				_ = s.FormatMove(m)
			}
		}); n != 0 {
			t.Errorf("%s: FormatMove allocates %.1f times per call batch", name, n)
		}
	}
}
