package othello6

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"maps"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

var _ games.Booker = (*State)(nil)

// randomPosition plays random moves from the start until the position has
// the given number of empty cells (or the game ends: then again).
func positionWithEmpties(r *rng.Rand, empties int) *State {
	for {
		s := New()
		var buf []games.Move
		for !s.Terminal() && s.Empties() > empties {
			buf = s.LegalMoves(buf[:0])
			s.Play(buf[r.IntN(len(buf))])
		}
		if !s.Terminal() && s.Empties() == empties && s.LegalMask() != 0 {
			return s
		}
	}
}

// solveValue is the exact value of (me to move, opp).
func solveValue(t testing.TB, me, opp uint64) int {
	t.Helper()
	s, err := FromDiscs(me, opp, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Solve(context.Background(), s, 1, 16)
	if err != nil {
		t.Fatal(err)
	}
	return r.Value
}

// smallBook builds the book of a position with 15 empty cells down to 12:
// a few hundred positions, solved in a moment.
func smallBook(t testing.TB, seed uint64) (*Book, *State) {
	t.Helper()
	root := positionWithEmpties(rng.New(seed), 15)
	b, err := BuildBook(context.Background(), BookBuild{Root: root, MinEmpties: 12, Threads: 1, TTMB: 16})
	if err != nil {
		t.Fatal(err)
	}
	return b, root
}

// TestBuildBook: every position of a small book has the solver's value,
// and its move keeps that value, looked up in any of its eight
// orientations; the book survives MarshalBinary and LoadBook.
func TestBuildBook(t *testing.T) {
	b, root := smallBook(t, 3)
	if b.Len() < 50 {
		t.Fatalf("only %d positions", b.Len())
	}
	if _, _, ok := b.Lookup(root.discs[root.side], root.discs[1-root.side]); !ok {
		t.Fatal("the root is not in its own book")
	}
	for k, e := range b.entries {
		if k%7 != 0 {
			continue // a sample: each check solves a few positions
		}
		want := solveValue(t, e.me, e.opp)
		for sym := range 8 {
			me, opp := transform(e.me, sym), transform(e.opp, sym)
			m, v, ok := b.Lookup(me, opp)
			if !ok || v != want {
				t.Fatalf("entry %d, symmetry %d: lookup %v value %d, the solver says %d", k, sym, ok, v, want)
			}
			if Moves(me, opp)&bit(m) == 0 {
				t.Fatalf("entry %d, symmetry %d: move %d is illegal", k, sym, m)
			}
			f := Flips(m, me, opp) | bit(m)
			nme, nopp := me|f, opp&^f
			var got int
			switch {
			case Moves(nopp, nme) != 0:
				got = -solveValue(t, nopp, nme)
			case Moves(nme, nopp) != 0:
				got = solveValue(t, nme, nopp)
			default:
				got = SolvedScore(nme, nopp)
			}
			if got != want {
				t.Fatalf("entry %d, symmetry %d: the book's move %s leads to value %d, the position is worth %d", k, sym, FormatMove(games.Move(m)), got, want)
			}
			if sym > 0 {
				break // one other orientation per entry is enough
			}
		}
	}
	data, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	again, err := LoadBook(data)
	if err != nil {
		t.Fatal(err)
	}
	if again.Len() != b.Len() || again.MinEmpties() != 12 {
		t.Fatalf("reloaded: %d positions, min %d", again.Len(), again.MinEmpties())
	}
	if d2, _ := again.MarshalBinary(); !bytes.Equal(d2, data) {
		t.Fatal("a reloaded book marshals differently")
	}
}

// TestBuildBookCheckpoint: a build stopped part way hands over what it
// solved, and a build given that as Known finishes with the same book.
func TestBuildBookCheckpoint(t *testing.T) {
	want, root := smallBook(t, 5)
	ctx, cancel := context.WithCancel(context.Background())
	var saved *Book
	n := 0
	_, err := BuildBook(ctx, BookBuild{Root: root, MinEmpties: 12, Threads: 1, TTMB: 16, CheckpointEvery: 1,
		Checkpoint: func(b *Book) error {
			saved = b
			if n++; n == 40 {
				cancel()
			}
			return nil
		}})
	if !errors.Is(err, context.Canceled) || saved == nil || saved.Len() == 0 || saved.Len() >= want.Len() {
		t.Fatalf("stopped build: %v, checkpoint of %v positions (the book has %d)", err, saved, want.Len())
	}
	data, _ := saved.MarshalBinary()
	if _, err := LoadBook(data); err != nil {
		t.Fatalf("the checkpoint does not load: %v", err)
	}
	got, err := BuildBook(context.Background(), BookBuild{Root: root, MinEmpties: 12, Threads: 1, TTMB: 16, Known: saved})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := got.MarshalBinary()
	b, _ := want.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Fatal("resumed build differs from a whole one")
	}
}

// TestBuildBookDeeper: a book one layer deeper, from a book of the layers
// above: with PathsOnly, exactly the bottom positions on the perfect
// agent's paths are solved, right; the rest of the layer then completes
// it, with the values of a build from nothing.
func TestBuildBookDeeper(t *testing.T) {
	upper, root := smallBook(t, 5) // down to 12 empties
	const bottom = 11
	ctx := context.Background()
	if _, err := BuildBook(ctx, BookBuild{Root: root, MinEmpties: bottom, Threads: 1, TTMB: 16, PathsOnly: true}); err == nil || !strings.Contains(err.Error(), "paths") {
		t.Fatalf("paths only, nothing known: %v", err)
	}
	part, err := BuildBook(ctx, BookBuild{Root: root, MinEmpties: bottom, Threads: 1, TTMB: 16, Known: upper, PathsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	layers := BookLayers(root, bottom)
	paths, ok := bookPaths(layers, bottom, func(p [2]uint64) (int, bool) {
		m, _, ok := upper.Lookup(p[0], p[1])
		return m, ok
	})
	if !ok || len(paths) == 0 || len(paths) == len(layers[bottom]) {
		t.Fatalf("%d paths (%t) of %d bottom positions", len(paths), ok, len(layers[bottom]))
	}
	if got, want := part.Len(), upper.Len()+len(paths); got != want {
		t.Fatalf("partial book: %d positions, want the %d above and the %d on the paths", got, upper.Len(), len(paths))
	}
	whole, err := BuildBook(ctx, BookBuild{Root: root, MinEmpties: bottom, Threads: 1, TTMB: 16})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range layers[bottom] {
		_, v, ok := part.Lookup(p[0], p[1])
		_, want, _ := whole.Lookup(p[0], p[1])
		if ok != paths[p] || ok && v != want {
			t.Fatalf("bottom position %x: in the partial book %t (on the paths %t), value %d, want %d", p, ok, paths[p], v, want)
		}
	}
	done, err := BuildBook(ctx, BookBuild{Root: root, MinEmpties: bottom, Threads: 1, TTMB: 16, Known: part})
	if err != nil {
		t.Fatal(err)
	}
	if done.Len() != whole.Len() {
		t.Fatalf("completed: %d positions, a whole build %d", done.Len(), whole.Len())
	}
	for _, e := range whole.entries {
		if _, v, ok := done.Lookup(e.me, e.opp); !ok || v != int(e.value) {
			t.Fatalf("completed book: %x value %d (%t), a whole build says %d", [2]uint64{e.me, e.opp}, v, ok, e.value)
		}
	}
}

// resum recomputes a book file's checksum after an edit.
func resum(data []byte) []byte {
	body := data[:len(data)-4]
	binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.ChecksumIEEE(body))
	return data
}

// TestLoadBookRejects: damaged books are refused, each with its reason.
func TestLoadBookRejects(t *testing.T) {
	b, _ := smallBook(t, 3)
	good, _ := b.MarshalBinary()
	entry := func(i int) int { return bookHeader + i*bookEntrySize }
	edit := func(f func(d []byte) []byte) []byte { return f(bytes.Clone(good)) }
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not an othello6 book"},
		{"other magic", edit(func(d []byte) []byte { d[0] = 'X'; return d }), "not an othello6 book"},
		{"truncated", good[:len(good)-5], "truncated"},
		{"padded", append(bytes.Clone(good), 0), "truncated or padded"},
		{"flipped bit", edit(func(d []byte) []byte { d[entry(3)+11] ^= 1; return d }), "checksum"},
		{"huge count", edit(func(d []byte) []byte { binary.LittleEndian.PutUint32(d[len(bookMagic)+1:], 1<<30); return d }), "allowed"},
		{"minimum", edit(func(d []byte) []byte { d[len(bookMagic)] = 40; return resum(d) }), "minimum empties"},
		{"order", edit(func(d []byte) []byte {
			tmp := bytes.Clone(d[entry(1):entry(2)])
			copy(d[entry(1):], d[entry(2):entry(3)])
			copy(d[entry(2):], tmp)
			return resum(d)
		}), "out of order"},
		{"illegal move", edit(func(d []byte) []byte {
			e := b.entries[0]
			legal := Moves(e.me, e.opp)
			d[entry(0)+10] = byte(bits.TrailingZeros64(^legal & full &^ (e.me | e.opp)))
			return resum(d)
		}), "not legal"},
		{"move off the board", edit(func(d []byte) []byte { d[entry(0)+10] = 36; return resum(d) }), "not legal"},
		{"value", edit(func(d []byte) []byte { d[entry(0)+11] = 37; return resum(d) }), "outside"},
		{"overlap", edit(func(d []byte) []byte {
			d[entry(0)+5] |= d[entry(0)]
			d[entry(0)] |= 1
			d[entry(0)+5] |= 1
			return resum(d)
		}), "not a position"},
		{"off the board", edit(func(d []byte) []byte { d[entry(0)+4] |= 0x80; return resum(d) }), "not a position"},
	} {
		_, err := LoadBook(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	// A position not in its canonical orientation.
	e := b.entries[0]
	for sym := 1; sym < 8; sym++ {
		me, opp := transform(e.me, sym), transform(e.opp, sym)
		if me == e.me && opp == e.opp {
			continue
		}
		one := &Book{minEmpties: b.minEmpties, entries: []bookEntry{{me: me, opp: opp, move: symmetry[sym][e.move], value: e.value}}}
		data, _ := one.MarshalBinary()
		if _, err := LoadBook(data); err == nil || !strings.Contains(err.Error(), "canonical") {
			t.Errorf("symmetry %d of an entry: %v, want the canonical orientation refused", sym, err)
		}
		break
	}
}

// FuzzLoadBook: LoadBook never panics, and what it accepts marshals back
// to the same bytes.
func FuzzLoadBook(f *testing.F) {
	b, _ := smallBook(f, 3)
	good, _ := b.MarshalBinary()
	f.Add(good)
	f.Add(good[:bookHeader+4])
	f.Add(bookData)
	f.Fuzz(func(t *testing.T, data []byte) {
		book, err := LoadBook(data)
		if err != nil {
			return
		}
		again, _ := book.MarshalBinary()
		if !bytes.Equal(again, data) {
			t.Fatalf("accepted %x, marshals as %x", data, again)
		}
	})
}

// TestDefaultBook: the embedded book loads, holds every position down to
// its minimum, is consistent (each position above the minimum is worth
// its best child, and has that child's move), and says the start is
// worth -4 (the known value of 6×6 Othello) with an optimal first move.
func TestDefaultBook(t *testing.T) {
	b, err := DefaultBook()
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() == 0 {
		t.Skip("the embedded book is empty")
	}
	layers := BookLayers(New(), b.MinEmpties())
	n := 0
	value := map[[2]uint64]int8{}
	for _, e := range b.entries {
		value[[2]uint64{e.me, e.opp}] = e.value
	}
	for e, l := range layers {
		n += len(l)
		for _, p := range l {
			if _, ok := value[p]; !ok {
				t.Fatalf("a position with %d empties is missing", e)
			}
			if e == b.MinEmpties() {
				continue
			}
			best, _, err := bestChild(p, value)
			if err != nil || best != int(value[p]) {
				t.Fatalf("a position with %d empties: book value %d, its children say %d (%v)", e, value[p], best, err)
			}
		}
	}
	if n != b.Len() {
		t.Errorf("%d positions in the book, %d reachable", b.Len(), n)
	}
	s := New()
	m, v, ok := s.BookMove()
	if !ok || v != -4 || !s.Legal(m) {
		t.Fatalf("start: move %s value %d (%t), want a legal move worth -4", FormatMove(m), v, ok)
	}
}

// TestDefaultBookBottomLayer: TestDefaultBook checks each layer above the
// book's minimum against its children, so the bottom layer, solved when
// the book was built, carries every value above it. Two of its positions,
// picked by a seeded generator, are solved again here: the book's value
// must be the solver's, and the book's move must keep it (a few seconds:
// the bottom layer is where solving starts to take too long).
func TestDefaultBookBottomLayer(t *testing.T) {
	b, err := DefaultBook()
	if err != nil {
		t.Fatal(err)
	}
	bottom := bottomLayer(b)
	if len(bottom) == 0 {
		t.Fatal("no position with the book's fewest empties")
	}
	r := rng.New(6)
	solve := func(me, opp uint64) int {
		return newSolver(t.Context(), 2, newSolveTT(64)).root(me, opp)
	}
	for range 2 {
		e := bottom[r.IntN(len(bottom))]
		if v := solve(e.me, e.opp); v != int(e.value) {
			t.Fatalf("book value %d, the solver says %d", e.value, v)
		}
		f := Flips(int(e.move), e.me, e.opp) | bit(int(e.move))
		me, opp := e.me|f, e.opp&^f
		var child int
		switch nme, nopp, flip, over := settle(opp, me); {
		case over:
			child = SolvedScore(me, opp)
		case flip: // the opponent passes: I place again
			child = solve(nme, nopp)
		default:
			child = -solve(nme, nopp)
		}
		if child != int(e.value) {
			t.Fatalf("book move %s worth %d, the book says %d", FormatMove(games.Move(e.move)), child, e.value)
		}
	}
}

// bottomLayer returns the entries of b with its fewest empties.
func bottomLayer(b *Book) []bookEntry {
	var bottom []bookEntry
	for _, e := range b.entries {
		if bits.OnesCount64(^(e.me|e.opp)&full) == b.MinEmpties() {
			bottom = append(bottom, e)
		}
	}
	return bottom
}

// TestBookMerge: a merge holds each book's positions once, and refuses
// books that disagree on a value.
func TestBookMerge(t *testing.T) {
	a, _ := smallBook(t, 3)
	b, _ := smallBook(t, 5)
	m, err := a.Merge(b)
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() != a.Len()+b.Len() { // different roots: no position in common
		t.Fatalf("merged %d and %d positions into %d", a.Len(), b.Len(), m.Len())
	}
	for _, book := range []*Book{a, b} {
		for _, e := range book.entries {
			if mv, v, ok := m.Lookup(e.me, e.opp); !ok || mv != int(e.move) || v != int(e.value) {
				t.Fatalf("entry %x: merged book says %d %d %t", [2]uint64{e.me, e.opp}, mv, v, ok)
			}
		}
	}
	if again, err := m.Merge(a); err != nil || again.Len() != m.Len() {
		t.Fatalf("merging a book again: %v, %d positions", err, again.Len())
	}
	if n, _ := (*Book)(nil).Merge(a); n != a {
		t.Fatal("nil.Merge(a) is not a")
	}
	bad := &Book{minEmpties: a.minEmpties, entries: slices.Clone(a.entries)}
	bad.entries[3].value += 2
	if _, err := m.Merge(bad); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Fatalf("books that disagree: %v", err)
	}
}

// TestBookLayers: from the start (nil or New()), the layers hold the
// reachable positions, symmetry-reduced, the README counts: 1, 1, 3, 14
// and 60 with 32 to 28 empties, each layer sorted and canonical; listing
// them stops as soon as it passes its limit.
func TestBookLayers(t *testing.T) {
	layers := BookLayers(nil, 28)
	if fromNew := BookLayers(New(), 28); !maps.EqualFunc(layers, fromNew, slices.Equal) {
		t.Fatal("BookLayers(nil) differs from BookLayers(New())")
	}
	want := map[int]int{32: 1, 31: 1, 30: 3, 29: 14, 28: 60}
	total := 0
	for e, l := range layers {
		total += len(l)
		if len(l) != want[e] {
			t.Errorf("%d empties: %d positions, want %d", e, len(l), want[e])
		}
		for i, p := range l {
			if a, b, _ := canonical(p[0], p[1]); a != p[0] || b != p[1] || bits.OnesCount64(^(p[0]|p[1])&full) != e || Moves(p[0], p[1]) == 0 {
				t.Fatalf("%d empties: %x is not a canonical, settled position with that many empties", e, p)
			}
			if i > 0 && (l[i-1][0] > p[0] || l[i-1][0] == p[0] && l[i-1][1] >= p[1]) {
				t.Fatalf("%d empties: not sorted at %d", e, i)
			}
		}
	}
	if len(layers) != len(want) {
		t.Errorf("%d layers, want %d", len(layers), len(want))
	}
	s := New()
	me, opp, _ := canonical(s.discs[s.side], s.discs[1-s.side])
	list, ok := bookPositions(me, opp, 28, total)
	if !ok || len(list) != total || list[0] != [2]uint64{me, opp} || !slices.Equal(list[total-60:], layers[28]) {
		t.Fatalf("bookPositions with the limit %d: %d positions (%t)", total, len(list), ok)
	}
	for _, limit := range []int{0, 1, 4, total - 1} {
		if list, ok := bookPositions(me, opp, 28, limit); ok || len(list) > limit {
			t.Errorf("bookPositions with the limit %d: %d positions (%t), want it to stop", limit, len(list), ok)
		}
	}
	if l := BookLayers(New(), 33); len(l) != 0 {
		t.Errorf("more empties than the start has: %d layers", len(l))
	}
}
