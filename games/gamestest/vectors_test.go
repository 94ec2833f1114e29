package gamestest_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/games/gamestest"
)

// The tests in this file are the ones every game had a copy of (positions
// as text, empty places, fast playouts, hot paths), run once over the
// registry. What only a game knows, its vectors, comes from the file
// testdata/gamestest.json in the game's own package directory; a game
// that implements an interface these tests cover and lacks the vectors
// they need fails with a message saying what to add.

// vectors is a game's testdata/gamestest.json.
type vectors struct {
	Positions struct {
		// Writes: the position after moves (from the start of spec's
		// variant, "" for the start itself) writes text.
		Writes []struct{ Spec, Moves, Text string }
		// Reads: text reads back, under spec, into a position at ply 0
		// with player ToMove to move, which writes text again and on which
		// Undo panics.
		Reads []struct {
			Spec, Text string
			ToMove     int
		}
		// Errors: text is refused under spec with an error containing Want
		// (Why says what is wrong with it where the message does not).
		Errors []struct{ Spec, Text, Want, Why string }
		// Games (ShortGames with -short) random games of the game and each
		// declared variant are read back at every ply, from Seed.
		Games, ShortGames int
		Seed              uint64
		// Fuzz seeds FuzzPosition.
		Fuzz []struct{ Spec, Text string }
	}
	Empties struct {
		Start     *int     // Empties at the start
		Passes    []string // moves that fill no place
		Games     int
		Positions []struct {
			Spec, Text string
			Empties    int
		}
	}
	Playouts struct {
		Games  int
		NoDraw []string // lone moves the fast playout makes without a draw
	}
}

// gameVectors reads the vectors of the game whose start position is b, or
// returns ok false when its package has none.
func gameVectors(t testing.TB, b games.Base) (vec vectors, path string, ok bool) {
	t.Helper()
	typ := reflect.TypeOf(b)
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	const games_ = "github.com/boardgame-arena/arena/games/"
	pkg, found := strings.CutPrefix(typ.PkgPath(), games_)
	if !found {
		t.Fatalf("%T is not in a package under %s", b, games_)
	}
	path = filepath.Join("..", filepath.FromSlash(pkg), "testdata", "gamestest.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return vec, path, false
	}
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	var raw struct {
		Comment string
		vectors
	}
	if err := dec.Decode(&raw); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return raw.vectors, path, true
}

// specs returns the game's name and its declared variants.
func specs(g *games.Entry) []string { return append([]string{g.Name}, g.Variants...) }

func lookup(t testing.TB, spec string) games.Variant {
	t.Helper()
	v, err := games.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func isReader(b games.Base) bool {
	_, ok := b.(games.PositionReader)
	return ok
}

// panics reports whether f panics.
func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

// TestPositionVectors checks each game's position format (games.PositionWriter
// and games.PositionReader) on its vectors: known positions and their text,
// texts read back, texts refused with their reasons, and many random games
// read back at every ply (more than the conformance suite plays).
func TestPositionVectors(t *testing.T) {
	for _, g := range games.All() {
		start := lookup(t, g.Name).New()
		if _, ok := start.(games.PositionReader); !ok {
			continue
		}
		t.Run(g.Name, func(t *testing.T) {
			vec, path, ok := gameVectors(t, start)
			pv := vec.Positions
			if !ok || len(pv.Writes) == 0 || len(pv.Errors) == 0 || len(pv.Fuzz) == 0 {
				t.Fatalf("%s reads positions as text: %s needs positions.writes (the start's text at least), positions.errors and positions.fuzz", g.Name, path)
			}
			for _, w := range pv.Writes {
				v := lookup(t, w.Spec)
				s, err := games.Replay(w.Spec, v.New().(games.State), strings.Fields(w.Moves))
				if err != nil {
					t.Fatalf("%s after %q: %v", w.Spec, w.Moves, err)
				}
				if s.Final.Position != w.Text {
					t.Errorf("%s after %q writes %q, want %q", w.Spec, w.Moves, s.Final.Position, w.Text)
				}
			}
			for _, r := range pv.Reads {
				v := lookup(t, r.Spec)
				s, err := games.ParsePosition(v, r.Text)
				if err != nil {
					t.Fatalf("%s %q: %v", r.Spec, r.Text, err)
				}
				if s.Ply() != 0 || s.ToMove() != r.ToMove || s.(games.PositionWriter).Position() != r.Text {
					t.Errorf("%s %q reads as ply %d, %d to move, writing %q; want ply 0, %d to move, the same text", r.Spec, r.Text, s.Ply(), s.ToMove(), s.(games.PositionWriter).Position(), r.ToMove)
				}
				if err := gamestest.CheckPosition(v, s, 1); err != nil {
					t.Error(err)
				}
				if !panics(s.Undo) {
					t.Errorf("%s %q: Undo on a position read from text did not panic", r.Spec, r.Text)
				}
			}
			for _, e := range pv.Errors {
				_, err := lookup(t, e.Spec).New().(games.PositionReader).ReadPosition(e.Text)
				if err == nil || !strings.Contains(err.Error(), e.Want) {
					t.Errorf("%s ReadPosition(%q) = %v, want an error containing %q", e.Spec, e.Text, err, e.Want)
				}
			}
			n := pv.Games
			if testing.Short() {
				n = pv.ShortGames
			}
			for _, spec := range specs(g) {
				if err := gamestest.CheckPositions(lookup(t, spec), gamestest.Games(n), gamestest.Seed(pv.Seed)); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// FuzzPosition: no text makes a game's position reader panic, and any text
// it accepts reads back from its canonical form to the same position (the
// conformance suite's text-position check, a random game played on
// included). The seeds are every game's positions.fuzz vectors.
func FuzzPosition(f *testing.F) {
	readers := map[string]games.Variant{} // the specs fuzzed, never one made up (tryangle:map=FILE reads files)
	for _, g := range games.All() {
		for _, spec := range specs(g) {
			if v := lookup(f, spec); isReader(v.New()) {
				readers[spec] = v
			}
		}
		if vec, _, ok := gameVectors(f, lookup(f, g.Name).New()); ok {
			for _, z := range vec.Positions.Fuzz {
				f.Add(z.Spec, z.Text)
			}
		}
	}
	f.Fuzz(func(t *testing.T, spec, text string) {
		v, ok := readers[spec]
		if !ok {
			return
		}
		s, err := v.New().(games.PositionReader).ReadPosition(text)
		if err != nil {
			return
		}
		if err := gamestest.CheckPosition(v, s, uint64(len(text))); err != nil {
			t.Fatal(err)
		}
	})
}

// TestEmpties checks games.EmptiesCounter on every game and variant that
// counts its empty places: the count at the start from the game's vectors,
// one place taken by every move but a pass, and the positions listed.
func TestEmpties(t *testing.T) {
	for _, g := range games.All() {
		start := lookup(t, g.Name).New()
		if _, ok := start.(games.EmptiesCounter); !ok {
			continue
		}
		t.Run(g.Name, func(t *testing.T) {
			vec, path, _ := gameVectors(t, start)
			ev := vec.Empties
			if ev.Start == nil {
				t.Fatalf("%s counts its empty places: %s needs empties.start, the count at the start", g.Name, path)
			}
			for _, spec := range specs(g) {
				if err := gamestest.CheckEmpties(lookup(t, spec), *ev.Start, ev.Passes, gamestest.Games(max(ev.Games, 1))); err != nil {
					t.Error(err)
				}
			}
			for _, p := range ev.Positions {
				s, err := games.ParsePosition(lookup(t, p.Spec), p.Text)
				if err != nil {
					t.Fatal(err)
				}
				if got := s.(games.EmptiesCounter).Empties(); got != p.Empties {
					t.Errorf("%s %q: Empties %d, want %d", p.Spec, p.Text, got, p.Empties)
				}
			}
		})
	}
}

// TestPlayouts checks every fast playout (games.Playouter) against the
// generic loop: from the same seed both play the same game.
func TestPlayouts(t *testing.T) {
	for _, g := range games.All() {
		for _, spec := range specs(g) {
			v := lookup(t, spec)
			if _, ok := v.New().(games.Playouter); !ok {
				continue
			}
			t.Run(spec, func(t *testing.T) {
				vec, _, _ := gameVectors(t, v.New())
				n := vec.Playouts.Games
				if n == 0 {
					n = 300
				}
				if err := gamestest.CheckPlayouts(v, vec.Playouts.NoDraw, gamestest.Games(n)); err != nil {
					t.Error(err)
				}
			})
		}
	}
}

// TestHotPathsDoNotAllocate backs the benchmarks' 0 allocs/op with a test,
// for every game and variant.
func TestHotPathsDoNotAllocate(t *testing.T) {
	for _, g := range games.All() {
		for _, spec := range specs(g) {
			t.Run(spec, func(t *testing.T) {
				for seed := range uint64(3) {
					if err := gamestest.CheckAllocs(lookup(t, spec), gamestest.Seed(seed)); err != nil {
						t.Error(err)
					}
				}
			})
		}
	}
}

// TestVectorsRead: every game package's vectors file is read by a test
// above (a field misspelt in it fails gameVectors; a file for an
// interface the game lost would go unread).
func TestVectorsRead(t *testing.T) {
	for _, g := range games.All() {
		b := lookup(t, g.Name).New()
		vec, path, ok := gameVectors(t, b)
		if !ok {
			continue
		}
		_, pos := b.(games.PositionReader)
		_, emp := b.(games.EmptiesCounter)
		_, pl := b.(games.Playouter)
		if len(vec.Positions.Writes) > 0 && !pos || vec.Empties.Start != nil && !emp || vec.Playouts.Games > 0 && !pl {
			t.Errorf("%s holds vectors for an interface %s does not implement", path, g.Name)
		}
	}
}
