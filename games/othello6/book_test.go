package othello6

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"math/bits"
	"slices"
	"strconv"
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
	if me, opp := b.Root(); [2]uint64{me, opp} != canonicalRoot(root) {
		t.Fatalf("the book's root is %x/%x, want %x", me, opp, canonicalRoot(root))
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
	if again.Len() != b.Len() || again.MinEmpties() != 12 || !slices.Equal(again.entries, b.entries) {
		t.Fatalf("reloaded: %d positions, min %d", again.Len(), again.MinEmpties())
	}
	if me, opp := again.Root(); [2]uint64{me, opp} != canonicalRoot(root) {
		t.Fatalf("reloaded: the root is %x/%x, want %x", me, opp, canonicalRoot(root))
	}
	if want := bookHeader + 2*b.Len() + 8; len(data) != want { // no reply values
		t.Fatalf("%d bytes for %d positions, want %d", len(data), b.Len(), want)
	}
	if d2, _ := again.MarshalBinary(); !bytes.Equal(d2, data) {
		t.Fatal("a reloaded book marshals differently")
	}
	// A position that is not among the root's is an internal error.
	other, _ := smallBook(t, 5)
	stray := &Book{me: b.me, opp: b.opp, minEmpties: b.minEmpties, entries: slices.SortedFunc(slices.Values(append(slices.Clone(b.entries), other.entries[0])), compareEntries)}
	if _, err := stray.MarshalBinary(); err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Fatalf("a book with a position not reachable from its root: %v", err)
	}
}

// canonicalRoot is the root of a book that starts from s.
func canonicalRoot(s *State) [2]uint64 {
	me, opp, _, _ := settle(s.discs[s.side], s.discs[1-s.side])
	me, opp, _ = canonical(me, opp)
	return [2]uint64{me, opp}
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
	data, err := saved.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := want.MarshalBinary()
	if len(data) != len(whole) || !bytes.Equal(data[:bookHeader], whole[:bookHeader]) {
		t.Fatalf("the checkpoint: %d bytes, header %x; the book: %d bytes, header %x", len(data), data[:bookHeader], len(whole), whole[:bookHeader])
	}
	unknown := 0
	for i := bookHeader; i < len(data)-4; i += bookEntrySize {
		if data[i] == bookUnknown {
			unknown++
		} else if !bytes.Equal(data[i:i+bookEntrySize], whole[i:i+bookEntrySize]) {
			t.Fatalf("checkpoint entry %d: %x, the book's %x", (i-bookHeader)/bookEntrySize, data[i:i+bookEntrySize], whole[i:i+bookEntrySize])
		}
	}
	if unknown != want.Len()-saved.Len() {
		t.Fatalf("the checkpoint has %d unsolved entries, want %d", unknown, want.Len()-saved.Len())
	}
	loaded, err := LoadBook(data)
	if err != nil {
		t.Fatalf("the checkpoint does not load: %v", err)
	}
	if loaded.Len() != saved.Len() {
		t.Fatalf("the checkpoint loads with %d positions, it had %d", loaded.Len(), saved.Len())
	}
	got, err := BuildBook(context.Background(), BookBuild{Root: root, MinEmpties: 12, Threads: 1, TTMB: 16, Known: loaded})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := got.MarshalBinary()
	if !bytes.Equal(a, whole) {
		t.Fatal("resumed build differs from a whole one")
	}
	// A checkpoint of another root is refused.
	if _, err := BuildBook(context.Background(), BookBuild{Root: positionWithEmpties(rng.New(3), 15), MinEmpties: 12, Threads: 1, TTMB: 16, Known: loaded}); err == nil || !strings.Contains(err.Error(), "another root") {
		t.Fatalf("a build given a book of another root: %v", err)
	}
}

// TestBuildBookRoot: a root where the game is over, or with fewer empty
// cells than the minimum, is refused.
func TestBuildBookRoot(t *testing.T) {
	ctx := context.Background()
	root := positionWithEmpties(rng.New(3), 15)
	if _, err := BuildBook(ctx, BookBuild{Root: root, MinEmpties: 16, Threads: 1, TTMB: 16}); err == nil || !strings.Contains(err.Error(), "fewer than the minimum") {
		t.Errorf("a root with fewer empties than the minimum: %v", err)
	}
	over, err := FromDiscs(full, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := BuildBook(ctx, BookBuild{Root: over, MinEmpties: 1, Threads: 1, TTMB: 16}); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("a root where the game is over: %v", err)
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
	list, _ := bookPositions(nil, b.me, b.opp, b.minEmpties, maxBookEntries)
	const (
		minAt   = len(bookMagic)
		rootAt  = minAt + 1
		countAt = rootAt + 10
	)
	entry := func(i int) int { return bookHeader + i*bookEntrySize }
	edit := func(f func(d []byte) []byte) []byte { return f(bytes.Clone(good)) }
	setRoot := func(d []byte, me, opp uint64) []byte {
		copy(d[rootAt:], appendUint40(appendUint40(nil, me), opp))
		return resum(d)
	}
	// count sets the header's count to n and the entries to match, all
	// unsolved past the book's.
	count := func(n int) []byte {
		d := bytes.Clone(good[:bookHeader])
		binary.LittleEndian.PutUint32(d[countAt:], uint32(n))
		for i := range n {
			if i < len(list) {
				d = append(d, good[entry(i):entry(i+1)]...)
			} else {
				d = append(d, bookUnknown, 0)
			}
		}
		return resum(append(d, 0, 0, 0, 0, 0, 0, 0, 0)) // no reply values, the checksum
	}
	// The entries edited below: a solved one, and one left unsolved in a
	// partial book.
	const solved, unsolved = 0, 1
	for i := range list {
		if good[entry(i)] == bookUnknown {
			t.Fatalf("entry %d of a whole book is unsolved", i)
		}
	}
	partial := &Book{me: b.me, opp: b.opp, minEmpties: b.minEmpties, entries: slices.DeleteFunc(slices.Clone(b.entries), func(e bookEntry) bool { return [2]uint64{e.me, e.opp} == list[unsolved] })}
	partialData, err := partial.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if partialData[entry(unsolved)] != bookUnknown || partialData[entry(unsolved)+1] != 0 {
		t.Fatalf("an unsolved entry is written %x", partialData[entry(unsolved):entry(unsolved+1)])
	}
	if got, err := LoadBook(partialData); err != nil || got.Len() != b.Len()-1 {
		t.Fatalf("a partial book: %v", err)
	}
	p := list[solved]
	illegal := bits.TrailingZeros64(^Moves(p[0], p[1]) & full &^ (p[0] | p[1]))
	notCanonical := [2]uint64{}
	for sym := 1; sym < 8; sym++ {
		if me, opp := transform(b.me, sym), transform(b.opp, sym); me != b.me || opp != b.opp {
			notCanonical = [2]uint64{me, opp}
			break
		}
	}
	if notCanonical == [2]uint64{} {
		t.Fatal("the root is its own image under every symmetry")
	}
	rootEmpties := bits.OnesCount64(^(b.me | b.opp) & full)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not an othello6 book"},
		{"other magic", edit(func(d []byte) []byte { d[0] = 'X'; return d }), "not an othello6 book"},
		{"the 12-byte format", edit(func(d []byte) []byte { copy(d, "O6BOOK1\n"); return resum(d) }), "not an othello6 book"},
		{"header only", good[:bookHeader], "not an othello6 book"},
		{"truncated", good[:len(good)-5], "truncated"},
		{"padded", append(bytes.Clone(good), 0), "truncated or padded"},
		{"huge count", edit(func(d []byte) []byte { binary.LittleEndian.PutUint32(d[countAt:], 1<<30); return d }), "allowed"},
		{"large count, short data", edit(func(d []byte) []byte { binary.LittleEndian.PutUint32(d[countAt:], maxBookEntries); return resum(d) }), "truncated"},
		{"flipped bit", edit(func(d []byte) []byte { d[entry(3)+1] ^= 1; return d }), "checksum"},
		{"minimum 0", edit(func(d []byte) []byte { d[minAt] = 0; return resum(d) }), "minimum empties 0 is not between"},
		{"minimum 40", edit(func(d []byte) []byte { d[minAt] = 40; return resum(d) }), "minimum empties 40 is not between"},
		{"root overlaps", edit(func(d []byte) []byte { return setRoot(d, b.me|1, b.opp|1) }), "not a position"},
		{"root off the board", edit(func(d []byte) []byte { return setRoot(d, b.me|1<<36, b.opp) }), "not a position"},
		{"root not settled", edit(func(d []byte) []byte { return setRoot(d, b.me, 0) }), "not settled"},
		{"root below the minimum", edit(func(d []byte) []byte { d[minAt] = byte(rootEmpties + 1); return resum(d) }), "fewer than the minimum"},
		{"root not canonical", edit(func(d []byte) []byte { return setRoot(d, notCanonical[0], notCanonical[1]) }), "canonical"},
		{"count too small", count(len(list) - 1), "more than"},
		{"count too large", count(len(list) + 1), fmt.Sprintf("%d positions are reachable from the root", len(list))},
		{"count 0", count(0), "more than 0 positions"},
		{"illegal move", edit(func(d []byte) []byte { d[entry(solved)] = byte(illegal); return resum(d) }), "not legal"},
		{"move off the board", edit(func(d []byte) []byte { d[entry(solved)] = Size * Size; return resum(d) }), "not legal"},
		{"move 0xFE", edit(func(d []byte) []byte { d[entry(solved)] = 0xFE; return resum(d) }), "not legal"},
		{"value 37", edit(func(d []byte) []byte { d[entry(solved)+1] = 37; return resum(d) }), "outside"},
		{"value -37", edit(func(d []byte) []byte { d[entry(solved)+1] = 256 - 37; return resum(d) }), "outside"},
		{"unsolved with a value", func() []byte {
			d := bytes.Clone(partialData)
			d[entry(unsolved)+1] = 2
			return resum(d)
		}(), "not solved"},
	} {
		_, err := LoadBook(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// FuzzLoadBook: LoadBook never panics, and what it accepts marshals back
// to the same bytes; each input is also tried with its checksum made
// right, so that the checks past it are fuzzed too. The seeds: a small
// book, a partial one, the embedded one, and a header with a large count
// and little data.
func FuzzLoadBook(f *testing.F) {
	b, _ := smallBook(f, 3)
	good, _ := b.MarshalBinary()
	f.Add(good)
	half := &Book{me: b.me, opp: b.opp, minEmpties: b.minEmpties}
	for i, e := range b.entries {
		if i%2 == 0 {
			half.entries = append(half.entries, e)
		}
	}
	partial, err := half.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(partial)
	f.Add(bookData)
	if rv, err := BuildBook(context.Background(), BookBuild{Root: positionWithEmpties(rng.New(3), 15), MinEmpties: 12, Threads: 1, TTMB: 16, ReplyValues: true}); err == nil {
		data, _ := rv.MarshalBinary()
		f.Add(data)
	}
	short := bytes.Clone(good[:bookHeader+8])
	binary.LittleEndian.PutUint32(short[bookHeader-4:], 1<<20)
	f.Add(resum(short))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputs := [][]byte{data}
		if len(data) >= 4 {
			inputs = append(inputs, resum(bytes.Clone(data)))
		}
		for _, d := range inputs {
			book, err := LoadBook(d)
			if err != nil {
				continue
			}
			again, err := book.MarshalBinary()
			if err != nil || !bytes.Equal(again, d) {
				t.Fatalf("accepted %x, marshals as %x (%v)", d, again, err)
			}
		}
	})
}

// BenchmarkLoadDefaultBook: what the embedded book costs to load (once,
// at the perfect agent's first move): listing its positions from the
// root and checking every entry.
func BenchmarkLoadDefaultBook(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadBook(bookData); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBookLookup: a lookup in the embedded book (canonical form and
// a binary search), which must not allocate.
func BenchmarkBookLookup(b *testing.B) {
	book, err := DefaultBook()
	if err != nil {
		b.Fatal(err)
	}
	s := midgame(6)
	me, opp := s.discs[s.side], s.discs[1-s.side]
	if _, _, ok := book.Lookup(me, opp); !ok {
		b.Fatal("the position is not in the book")
	}
	b.ReportAllocs()
	for b.Loop() {
		book.Lookup(me, opp)
	}
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
	if me, opp := b.Root(); [2]uint64{me, opp} != canonicalRoot(New()) {
		t.Fatalf("the book starts from %x/%x, not the start", me, opp)
	}
	bottom := b.MinEmpties()
	layers := BookLayers(New(), bottom)
	value := map[[2]uint64]int8{}
	for _, e := range b.entries {
		value[[2]uint64{e.me, e.opp}] = e.value
	}
	paths, ok := bookPaths(layers, bottom, func(p [2]uint64) (int, bool) {
		e, ok := b.find(p[0], p[1])
		return int(e.move), ok
	})
	if !ok {
		t.Fatal("a position above the bottom layer lacks its move")
	}
	n, solvedBottom, checked := 0, 0, 0
	for e, l := range layers {
		for _, p := range l {
			_, ok := value[p]
			switch {
			case e == bottom && paths[p] && !ok:
				t.Fatalf("a position with %d empties on the perfect agent's paths is missing", e)
			case e == bottom:
				if ok {
					solvedBottom++
				}
				continue
			case !ok:
				t.Fatalf("a position with %d empties is missing", e)
			}
			n++
			best, _, err := bestChild(p, value)
			if err != nil && e == bottom+1 {
				continue // a child not solved (a partial bottom layer)
			}
			if err != nil || best != int(value[p]) {
				t.Fatalf("a position with %d empties: book value %d, its children say %d (%v)", e, value[p], best, err)
			}
			e, _ := b.find(p[0], p[1])
			if v, ok := childValue(p, int(e.move), value); !ok || v != best {
				t.Fatalf("a position with %d empties: its move %s leads to %d, the position is worth %d", bits.OnesCount64(^(p[0]|p[1])&full), FormatMove(games.Move(e.move)), v, best)
			}
			checked++
		}
	}
	if n+solvedBottom != b.Len() {
		t.Errorf("%d positions in the book, %d reachable", b.Len(), n+solvedBottom)
	}
	t.Logf("bottom layer (%d empties): %d of %d solved, %d of them on the perfect agent's paths; %d positions above checked against their children; %d reply values (checked against their positions' values when loaded)", bottom, solvedBottom, len(layers[bottom]), len(paths), checked, len(b.values))
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
	// Two reply values, if the book has them (each a position one ply
	// below the bottom, worth what the book says).
	for k := 0; k < 2 && len(b.values) > 0; k++ {
		e := b.values[r.IntN(len(b.values))]
		if v := solve(e.me, e.opp); v != int(e.value) {
			t.Fatalf("reply value %d, the solver says %d", e.value, v)
		}
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
// books that start from different roots or disagree on a value.
func TestBookMerge(t *testing.T) {
	whole, _ := smallBook(t, 3)
	// Two partial books (say, a checkpoint and an earlier book) that
	// share some positions.
	a := &Book{me: whole.me, opp: whole.opp, minEmpties: whole.minEmpties}
	b := &Book{me: whole.me, opp: whole.opp, minEmpties: whole.minEmpties}
	for i, e := range whole.entries {
		if i%3 != 1 {
			a.entries = append(a.entries, e)
		}
		if i%3 != 0 {
			b.entries = append(b.entries, e)
		}
	}
	m, err := a.Merge(b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.entries, whole.entries) {
		t.Fatalf("merged %d and %d positions into %d, want the %d of the whole book", a.Len(), b.Len(), m.Len(), whole.Len())
	}
	if again, err := m.Merge(a); err != nil || again.Len() != m.Len() {
		t.Fatalf("merging a book again: %v, %d positions", err, again.Len())
	}
	if n, _ := (*Book)(nil).Merge(a); n != a {
		t.Fatal("nil.Merge(a) is not a")
	}
	// The minimum is the lower one: a book one layer deeper.
	deeper := &Book{me: whole.me, opp: whole.opp, minEmpties: whole.minEmpties - 1}
	if d, err := whole.Merge(deeper); err != nil || d.MinEmpties() != whole.minEmpties-1 || d.Len() != whole.Len() {
		t.Fatalf("merging a deeper book: %v", err)
	} else if _, err := d.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
	bad := &Book{me: a.me, opp: a.opp, minEmpties: a.minEmpties, entries: slices.Clone(a.entries)}
	bad.entries[3].value += 2
	if _, err := m.Merge(bad); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Fatalf("books that disagree: %v", err)
	}
	other, _ := smallBook(t, 5)
	if _, err := whole.Merge(other); err == nil || !strings.Contains(err.Error(), "different positions") {
		t.Fatalf("books of different roots: %v", err)
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
	list, ok := bookPositions(nil, me, opp, 28, total)
	if !ok || len(list) != total || list[0] != [2]uint64{me, opp} || !slices.Equal(list[total-60:], layers[28]) {
		t.Fatalf("bookPositions with the limit %d: %d positions (%t)", total, len(list), ok)
	}
	for _, limit := range []int{0, 1, 4, total - 1} {
		if list, ok := bookPositions(nil, me, opp, 28, limit); ok || len(list) > limit {
			t.Errorf("bookPositions with the limit %d: %d positions (%t), want it to stop", limit, len(list), ok)
		}
	}
	if l := BookLayers(New(), 33); len(l) != 0 {
		t.Errorf("more empties than the start has: %d layers", len(l))
	}
}

// TestBookReplyValues: a book built with ReplyValues knows the exact value
// of every reply to its bottom positions on the second player's paths (in
// any orientation), keeps them through MarshalBinary and LoadBook (also
// when some are not solved), and LoadBook refuses values that contradict
// the book.
func TestBookReplyValues(t *testing.T) {
	root := positionWithEmpties(rng.New(3), 15)
	const bottom = 12
	b, err := BuildBook(context.Background(), BookBuild{Root: root, MinEmpties: bottom, Threads: 1, TTMB: 16, ReplyValues: true})
	if err != nil {
		t.Fatal(err)
	}
	layers := BookLayers(root, bottom)
	parents, ok := replyParents(layers[bottom+3], bottom, func(p [2]uint64) (int, bool) {
		e, ok := b.find(p[0], p[1])
		return int(e.move), ok
	})
	if !ok || len(parents) == 0 {
		t.Fatalf("%d positions on the second player's paths (%t)", len(parents), ok)
	}
	replies := 0
	for _, p := range parents {
		for m := Moves(p[0], p[1]); m != 0; m &= m - 1 {
			c, _, over := bookChild(p, bits.TrailingZeros64(m))
			if over {
				continue
			}
			replies++
			want := solveValue(t, c[0], c[1])
			sym := replies % 8
			if v, ok := b.Value(transform(c[0], sym), transform(c[1], sym)); !ok || v != want {
				t.Fatalf("reply %x (symmetry %d): value %d (%t), the solver says %d", c, sym, v, ok, want)
			}
		}
	}
	if len(b.values) == 0 || len(b.values) > replies {
		t.Fatalf("%d reply values for %d replies", len(b.values), replies)
	}
	good, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	again, err := LoadBook(good)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.values, b.values) {
		t.Fatal("the reply values changed through MarshalBinary and LoadBook")
	}
	// A book with some values not solved (as a checkpoint has them).
	part := *b
	part.values = b.values[:len(b.values)/2]
	partData, err := part.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadBook(partData)
	if err != nil || len(got.values) >= len(b.values) {
		t.Fatalf("a book with half its reply values: %v", err)
	}
	if d, _ := got.MarshalBinary(); !bytes.Equal(d, partData) {
		t.Fatal("a book with half its reply values marshals differently once loaded")
	}
	// The values' offsets: the first parent's moves come first.
	valuesAt := bookHeader + 2*len(layersList(layers)) + 4 // after the entries and the values' count
	kTotal := binary.LittleEndian.Uint32(good[valuesAt-4:])
	p := parents[0]
	e, _ := b.find(p[0], p[1])
	var bookMoveAt, otherAt int = -1, -1
	k := 0
	for m := Moves(p[0], p[1]); m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		if _, _, over := bookChild(p, i); !over {
			if i == int(e.move) {
				bookMoveAt = valuesAt + k
			} else if otherAt < 0 {
				otherAt = valuesAt + k
			}
		}
		k++
	}
	if bookMoveAt < 0 || otherAt < 0 {
		t.Fatal("the first position on the paths has no two replies: pick another seed")
	}
	edit := func(at int, v int8) []byte {
		d := bytes.Clone(good)
		d[at] = byte(v)
		return resum(d)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"value 37", edit(otherAt, 37), "outside"},
		{"above the position's value", edit(otherAt, e.value+2), "worth"},
		{"the book move's value", edit(bookMoveAt, e.value-2), "worth"},
		{"the book move not solved", edit(bookMoveAt, replyUnknown), "not solved"},
		{"one value too many", func() []byte {
			d := bytes.Clone(good[:len(good)-4])
			binary.LittleEndian.PutUint32(d[valuesAt-4:], kTotal+1)
			return resum(append(append(d, 0), 0, 0, 0, 0))
		}(), "moves"},
	} {
		if _, err := LoadBook(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// layersList flattens layers.
func layersList(layers map[int][][2]uint64) [][2]uint64 {
	var out [][2]uint64
	for _, l := range layers {
		out = append(out, l...)
	}
	return out
}

// TestBuildBookReplyValuesCheckpoint: a build stopped while it solves the
// reply values hands over those solved so far, and a build given them as
// Known finishes with the values of a whole build.
func TestBuildBookReplyValuesCheckpoint(t *testing.T) {
	root := positionWithEmpties(rng.New(3), 15)
	o := BookBuild{Root: root, MinEmpties: 12, Threads: 1, TTMB: 16, ReplyValues: true}
	// solvedReplies runs a build and returns how many reply values it solved.
	solvedReplies := func(o BookBuild) (*Book, int) {
		var log strings.Builder
		o.Progress = &log
		b, err := BuildBook(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		for _, line := range strings.Split(log.String(), "\n") {
			if i := strings.Index(line, " solved in "); strings.Contains(line, "reply values of the") && i > 0 {
				f := strings.Fields(line[:i])
				n, _ = strconv.Atoi(f[len(f)-1])
			}
		}
		return b, n
	}
	whole, wholeSolved := solvedReplies(o)
	ctx, cancel := context.WithCancel(context.Background())
	var saved *Book
	stopped := o
	stopped.CheckpointEvery = 1
	stopped.Checkpoint = func(b *Book) error {
		if b.replies && len(b.values) > 0 {
			data, err := b.MarshalBinary()
			if err != nil {
				return err
			}
			if saved, err = LoadBook(data); err != nil {
				return err
			}
			cancel()
		}
		return nil
	}
	if _, err := BuildBook(ctx, stopped); !errors.Is(err, context.Canceled) || saved == nil || len(saved.values) >= len(whole.values) {
		t.Fatalf("stopped build: %v, checkpoint %v (a whole build has %d values)", err, saved != nil, len(whole.values))
	}
	resumed := o
	resumed.Known = saved
	got, gotSolved := solvedReplies(resumed)
	if !slices.Equal(got.values, whole.values) {
		t.Fatalf("resumed: %d reply values, a whole build %d, or different ones", len(got.values), len(whole.values))
	}
	if wholeSolved == 0 || gotSolved >= wholeSolved {
		t.Fatalf("resumed build solved %d reply values, a whole build %d: the checkpoint's were solved again", gotSolved, wholeSolved)
	}
}
