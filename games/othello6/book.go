package othello6

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"slices"
	"sort"
	"sync"

	"github.com/boardgame-arena/arena/games"
)

// The opening book: every position reachable from the start with at least
// Book.MinEmpties empty cells (one per class of the board's eight
// symmetries, positions where the mover must pass left out: their move is
// the pass), with an optimal move and the exact value, for the positions
// the solver cannot settle within a move's time. State.BookMove reads it
// (games.Booker); the perfect agent uses it.
//
// book.bin is built by commands, not tests (see BuildBook): every
// position with 25 or more empty cells, then, from that book, every
// position with 24 and the values of the replies to those on the second
// player's paths (ReplyValues):
//
//	go run ./games/othello6/internal/mkbook -min-empties 25 -out games/othello6/book.bin
//	go run ./games/othello6/internal/mkbook -min-empties 24 -known games/othello6/book.bin -reply-values -threads 2 -out games/othello6/book.bin
//
// With -paths-only (BookBuild.PathsOnly) the second command solves only
// the positions with 24 that the perfect agent can meet, about a fifth of
// the layer: a partial book that already serves every game the agent plays
// from the start. The embedded one (136 345 bytes) holds the 11 094 positions with 25 or
// more empty cells, built in 1 h 38 min on 2 threads of a 2-core machine
// (it says the start is worth -4); all 51 964 with 24: first the 10 117
// on the perfect agent's paths (-paths-only, about 70 min on the same
// machine), then the other 41 847 by the second command, stopped and
// resumed several times (the whole layer takes about 5 h of the 2 threads
// here; the last run solved the final 17 356 in 1 h 53 min); and the
// values of all 8 293 replies other than
// the book's to the 1 702 positions with 24 on the second player's paths
// (28 min 47 s). So in a game where the agent has moved with 26 or 27 empty
// cells on the board (from the start, or after an opening of up to 6
// plies) its moves come from the book down to 24 empties, and at 23, as
// the second player, it knows the exact value of its position after any
// reply, so the first move its solver proves keeps that value is optimal
// (for 64 such positions drawn from the book, 0.14 s of CPU on average and
// 0.84 s at worst, one thread). An agent handed a game at any position of
// the book's tree, with or without its history, plays from the book down
// to 24 empties too.
//
// Format (little-endian): the magic "O6BOOK2\n"; one byte MinEmpties;
// the root, the canonical position the book starts from (the settled
// start for the embedded one: its mover places next), as the mover's discs
// and the opponent's (5 bytes each, 36 bits used); a uint32 count; then
// count entries of 2 bytes, one for each position BookLayers lists from
// the root down to MinEmpties empty cells, in its order (the layers from
// the most empty cells to the fewest, each sorted by (me, opp), in the
// canonical orientation): the best move (a cell 0–35, in that orientation)
// and the value (int8, SolvedScore from the mover's view), or the move
// 0xFF and the value 0 for a position not solved yet (a checkpoint of an
// interrupted build, or a partial book); a uint32 count of reply values
// (0 for none), then the reply values (see bookvalues.go), one int8 each:
// for each bottom position on the second player's paths, sorted by
// (me, opp), for each of its moves in square order (its canonical
// orientation), the value of that move for its mover, or -128 for one not
// solved yet; last, the CRC-32 (IEEE) of all the bytes before it. The
// positions are not stored: the root and MinEmpties determine them, and
// LoadBook lists them again (BenchmarkLoadDefaultBook).

//go:generate go run ./internal/mkbook -min-empties 25 -out book.bin
//go:generate go run ./internal/mkbook -min-empties 24 -known book.bin -reply-values -threads 2 -out book.bin

//go:embed book.bin
var bookData []byte

const (
	bookMagic     = "O6BOOK2\n"
	bookHeader    = len(bookMagic) + 1 + 5 + 5 + 4
	bookEntrySize = 2
	bookUnknown   = 0xFF // the move byte of a position not solved yet
	// maxBookEntries bounds what LoadBook accepts (a corrupt count must not
	// make it allocate gigabytes): 4 M, more than the 2.06 M positions
	// from the start down to 22 empty cells. Listing that many from the
	// start, as for a file of 8 MB that claims them down to 1 empty cell,
	// takes LoadBook about 2 s and 350 MB before it refuses the file.
	maxBookEntries = 1 << 22
)

// Book is a set of solved positions, keyed by the symmetry-reduced
// position (mover's discs, opponent's discs), among those reachable from
// its root with at least MinEmpties empty cells.
type Book struct {
	me, opp    uint64 // the root: canonical, its mover to place
	minEmpties int
	entries    []bookEntry // the solved positions, sorted by (me, opp)
	// With replies, the book has the reply values (see bookvalues.go),
	// which values holds by child position (move unused), sorted.
	replies bool
	values  []bookEntry
}

type bookEntry struct {
	me, opp uint64
	move    int8 // in the entry's orientation
	value   int8
}

// MinEmpties is the fewest empty cells of a position in the book.
func (b *Book) MinEmpties() int { return b.minEmpties }

// Root is the position the book starts from (the mover's discs and the
// opponent's), in its canonical orientation, its mover to place.
func (b *Book) Root() (me, opp uint64) { return b.me, b.opp }

// Len is the number of solved positions in the book (a checkpoint or a
// partial book has fewer than the positions it covers).
func (b *Book) Len() int { return len(b.entries) }

// DefaultBook returns the book embedded in the package (book.bin).
func DefaultBook() (*Book, error) { return defaultBook() }

var defaultBook = sync.OnceValues(func() (*Book, error) {
	b, err := LoadBook(bookData)
	if err != nil {
		return nil, fmt.Errorf("othello6: the embedded book.bin: %w (rebuild it: go run ./games/othello6/internal/mkbook)", err)
	}
	return b, nil
})

// BookMove implements games.Booker with the embedded book: an optimal move
// and the exact value (SolvedScore from the mover's view) of a position
// with at least the book's MinEmpties empty cells where the mover can
// place a disc. It panics if the embedded book is corrupt (a broken
// build, which the package's tests catch).
func (s *State) BookMove() (games.Move, int, bool) {
	b, err := defaultBook()
	if err != nil {
		panic(err)
	}
	if s.over || s.moves == 0 {
		return 0, 0, false
	}
	m, v, ok := b.Lookup(s.discs[s.side], s.discs[1-s.side])
	return games.Move(m), v, ok
}

// Lookup returns the book's move (a cell 0–35 in the position's own
// orientation) and value for the mover's discs me and the opponent's opp.
func (b *Book) Lookup(me, opp uint64) (move, value int, ok bool) {
	if bits.OnesCount64(^(me|opp)&full) < b.minEmpties {
		return 0, 0, false
	}
	cme, copp, t := canonical(me, opp)
	e, ok := b.find(cme, copp)
	if !ok {
		return 0, 0, false
	}
	return int(symInverse[t][e.move]), int(e.value), true
}

// find returns the entry of the canonical position (me, opp), if solved.
func (b *Book) find(me, opp uint64) (bookEntry, bool) { return findEntry(b.entries, me, opp) }

// findEntry returns the entry of (me, opp) in entries, sorted by (me, opp).
func findEntry(entries []bookEntry, me, opp uint64) (bookEntry, bool) {
	i := sort.Search(len(entries), func(i int) bool {
		e := &entries[i]
		return e.me > me || e.me == me && e.opp >= opp
	})
	if i == len(entries) || entries[i].me != me || entries[i].opp != opp {
		return bookEntry{}, false
	}
	return entries[i], true
}

// LoadBook reads a book in the format above, checking everything: the
// magic, the length, the checksum, the minimum, that the root is a
// canonical position whose mover can place, with at least MinEmpties
// empty cells, that the positions from it are as many as the entries,
// that every solved entry's move is legal and its value in range, and
// that every unsolved entry's value is 0. Listing the positions costs time
// and memory in proportion to the count, which the file's length bounds.
func LoadBook(data []byte) (*Book, error) {
	if len(data) < bookHeader+4 || !bytes.HasPrefix(data, []byte(bookMagic)) {
		return nil, fmt.Errorf("not an othello6 book (want the magic %q and at least %d bytes, got %d bytes)", bookMagic, bookHeader+4, len(data))
	}
	minEmpties := int(data[len(bookMagic)])
	me, opp := uint40(data[len(bookMagic)+1:]), uint40(data[len(bookMagic)+6:])
	n := binary.LittleEndian.Uint32(data[len(bookMagic)+11:])
	if n > maxBookEntries {
		return nil, fmt.Errorf("book: %d entries is more than the %d allowed", n, maxBookEntries)
	}
	replyAt := bookHeader + int(n)*bookEntrySize
	if len(data) < replyAt+8 {
		return nil, fmt.Errorf("book: %d entries need at least %d bytes, the file has %d (truncated)", n, replyAt+8, len(data))
	}
	k := binary.LittleEndian.Uint32(data[replyAt:])
	if want := replyAt + 4 + int(k) + 4; uint64(k) > uint64(len(data)) || len(data) != want {
		return nil, fmt.Errorf("book: %d entries and %d reply values need %d bytes, the file has %d (truncated or padded)", n, k, replyAt+8+int(min(k, 1<<30)), len(data))
	}
	body := data[:len(data)-4]
	if sum, want := crc32.ChecksumIEEE(body), binary.LittleEndian.Uint32(data[len(data)-4:]); sum != want {
		return nil, fmt.Errorf("book: checksum %08x, the file says %08x (corrupt)", sum, want)
	}
	if minEmpties < 1 || minEmpties > Size*Size-4 {
		return nil, fmt.Errorf("book: minimum empties %d is not between 1 and %d", minEmpties, Size*Size-4)
	}
	if err := checkBookRoot(me, opp, minEmpties); err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	list, ok := bookPositions(make([][2]uint64, 0, n), me, opp, minEmpties, int(n))
	switch {
	case !ok:
		return nil, fmt.Errorf("book: more than %d positions are reachable from the root with at least %d empty cells, the file has %d entries", n, minEmpties, n)
	case len(list) != int(n):
		return nil, fmt.Errorf("book: %d positions are reachable from the root with at least %d empty cells, the file has %d entries", len(list), minEmpties, n)
	}
	known := 0
	for i := range list {
		move, value := data[bookHeader+2*i], int8(data[bookHeader+2*i+1])
		p := list[i]
		switch {
		case move == bookUnknown:
			if value != 0 {
				return nil, fmt.Errorf("book entry %d: not solved (move 0xFF), but its value is %d, not 0", i, value)
			}
			continue
		case int(move) >= Size*Size || Moves(p[0], p[1])&bit(int(move)) == 0:
			return nil, fmt.Errorf("book entry %d: move %d is not legal in its position", i, move)
		case value < -Size*Size || value > Size*Size:
			return nil, fmt.Errorf("book entry %d: value %d is outside ±%d", i, value, Size*Size)
		}
		known++
	}
	b := &Book{me: me, opp: opp, minEmpties: minEmpties, entries: make([]bookEntry, 0, known)}
	for i, p := range list {
		if move := data[bookHeader+2*i]; move != bookUnknown {
			b.entries = append(b.entries, bookEntry{me: p[0], opp: p[1], move: int8(move), value: int8(data[bookHeader+2*i+1])})
		}
	}
	slices.SortFunc(b.entries, compareEntries)
	if k > 0 {
		parents, ok := replyParents(layerOf(list, minEmpties+3), minEmpties, func(p [2]uint64) (int, bool) {
			e, ok := b.find(p[0], p[1])
			return int(e.move), ok
		})
		if !ok {
			return nil, fmt.Errorf("book: it has reply values but lacks a move on the second player's paths")
		}
		vals := make([]int8, k)
		for i := range vals {
			vals[i] = int8(data[replyAt+4+i])
		}
		values, err := decodeReplyValues(parents, vals, b.find)
		if err != nil {
			return nil, fmt.Errorf("book: %w", err)
		}
		b.replies, b.values = true, values
	}
	return b, nil
}

// checkBookRoot says what is wrong with (me, opp) as the root of a book of
// minimum minEmpties, if anything.
func checkBookRoot(me, opp uint64, minEmpties int) error {
	switch {
	case me&^full != 0 || opp&^full != 0 || me&opp != 0:
		return fmt.Errorf("the root %x/%x is not a position (discs off the board or on the same cell)", me, opp)
	case Moves(me, opp) == 0:
		return fmt.Errorf("the root %x/%x is not settled (its mover cannot place a disc)", me, opp)
	case bits.OnesCount64(^(me|opp)&full) < minEmpties:
		return fmt.Errorf("the root %x/%x has %d empty cells, fewer than the minimum %d", me, opp, bits.OnesCount64(^(me|opp)&full), minEmpties)
	}
	if cme, copp, _ := canonical(me, opp); cme != me || copp != opp {
		return fmt.Errorf("the root %x/%x is not in its canonical orientation (%x/%x)", me, opp, cme, copp)
	}
	return nil
}

// MarshalBinary writes the book in the format LoadBook reads: an entry
// for each position from its root, solved or not.
func (b *Book) MarshalBinary() ([]byte, error) {
	if err := checkBookRoot(b.me, b.opp, b.minEmpties); err != nil {
		return nil, fmt.Errorf("othello6 book: %w (internal error)", err)
	}
	list, ok := bookPositions(nil, b.me, b.opp, b.minEmpties, maxBookEntries)
	if !ok {
		return nil, fmt.Errorf("othello6 book: more than %d positions from the root down to %d empty cells", maxBookEntries, b.minEmpties)
	}
	out := make([]byte, 0, bookHeader+len(list)*bookEntrySize+8)
	out = append(out, bookMagic...)
	out = append(out, byte(b.minEmpties))
	out = appendUint40(out, b.me)
	out = appendUint40(out, b.opp)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(list)))
	found := 0
	for _, p := range list {
		if e, ok := b.find(p[0], p[1]); ok {
			out = append(out, byte(e.move), byte(e.value))
			found++
		} else {
			out = append(out, bookUnknown, 0)
		}
	}
	if found != len(b.entries) {
		return nil, fmt.Errorf("othello6 book: %d of its %d positions are not among the %d reachable from its root with at least %d empty cells (internal error)", len(b.entries)-found, len(b.entries), len(list), b.minEmpties)
	}
	var vals []int8
	if b.replies {
		parents, ok := replyParents(layerOf(list, b.minEmpties+3), b.minEmpties, func(p [2]uint64) (int, bool) {
			e, ok := b.find(p[0], p[1])
			return int(e.move), ok
		})
		if !ok {
			return nil, errors.New("othello6 book: reply values without the moves of the second player's paths (internal error)")
		}
		for _, p := range parents {
			if _, ok := b.find(p[0], p[1]); !ok {
				return nil, errors.New("othello6 book: reply values for a position not solved (internal error)")
			}
		}
		vals = encodeReplyValues(parents, b.find, func(c [2]uint64) (int8, bool) {
			e, ok := findEntry(b.values, c[0], c[1])
			return e.value, ok
		})
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(len(vals)))
	for _, v := range vals {
		out = append(out, byte(v))
	}
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out)), nil
}

func uint40(p []byte) uint64 {
	return uint64(p[0]) | uint64(p[1])<<8 | uint64(p[2])<<16 | uint64(p[3])<<24 | uint64(p[4])<<32
}

func appendUint40(out []byte, v uint64) []byte {
	return append(out, byte(v), byte(v>>8), byte(v>>16), byte(v>>24), byte(v>>32))
}

// canonical returns the least (me, opp), ordered by me then opp, among the
// position's eight images, and the symmetry t that gives it.
func canonical(me, opp uint64) (cme, copp uint64, t int) {
	cme, copp = me, opp
	for k := 1; k < 8; k++ {
		m, o := transform(me, k), transform(opp, k)
		if m < cme || m == cme && o < copp {
			cme, copp, t = m, o, k
		}
	}
	return cme, copp, t
}
