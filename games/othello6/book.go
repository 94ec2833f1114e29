package othello6

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/bits"
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
// book.bin is built by a command, not a test (see BuildBook):
//
//	go run ./games/othello6/internal/mkbook -min-empties 25 -out games/othello6/book.bin
//
// The embedded one holds the 11 094 positions with 25 or more empty cells,
// built in 1 h 38 min on 2 threads of a 2-core machine (it says the start
// is worth -4). The solver settles positions of up to 23 empty cells
// within a second of one core; at 24 the perfect agent's moves are proven
// only when the solve finishes in time (see benchmarks/README.md).
//
// Format (little-endian): the magic "O6BOOK1\n"; one byte MinEmpties;
// a uint32 entry count; the entries, sorted by (me, opp), 12 bytes each:
// the mover's discs and the opponent's (5 bytes each, 36 bits used), the
// best move (a cell 0–35, in the entry's own orientation) and the value
// (int8, SolvedScore from the mover's view); last, the CRC-32 (IEEE) of
// all the bytes before it.

//go:generate go run ./internal/mkbook -min-empties 25 -out book.bin

//go:embed book.bin
var bookData []byte

const (
	bookMagic     = "O6BOOK1\n"
	bookHeader    = len(bookMagic) + 1 + 4
	bookEntrySize = 12
	// maxBookEntries bounds what LoadBook accepts (a corrupt count must not
	// make it allocate gigabytes): far more than any useful book.
	maxBookEntries = 1 << 24
)

// Book is a set of solved positions, keyed by the symmetry-reduced
// position (mover's discs, opponent's discs).
type Book struct {
	minEmpties int
	entries    []bookEntry // sorted by (me, opp)
}

type bookEntry struct {
	me, opp uint64
	move    int8 // in the entry's orientation
	value   int8
}

// MinEmpties is the fewest empty cells of a position in the book.
func (b *Book) MinEmpties() int { return b.minEmpties }

// Len is the number of positions in the book.
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
	i := sort.Search(len(b.entries), func(i int) bool {
		e := &b.entries[i]
		return e.me > cme || e.me == cme && e.opp >= copp
	})
	if i == len(b.entries) || b.entries[i].me != cme || b.entries[i].opp != copp {
		return 0, 0, false
	}
	e := b.entries[i]
	return int(symInverse[t][e.move]), int(e.value), true
}

// LoadBook reads a book in the format above, checking everything: the
// magic, the length, the checksum, the order, and that every entry is a
// canonical position with its move legal and its value in range.
func LoadBook(data []byte) (*Book, error) {
	if len(data) < bookHeader+4 || !bytes.HasPrefix(data, []byte(bookMagic)) {
		return nil, fmt.Errorf("not an othello6 book (want the magic %q and at least %d bytes, got %d bytes)", bookMagic, bookHeader+4, len(data))
	}
	minEmpties := int(data[len(bookMagic)])
	n := binary.LittleEndian.Uint32(data[len(bookMagic)+1:])
	if minEmpties > Size*Size-4 {
		return nil, fmt.Errorf("book: minimum empties %d is more than a position can have (%d)", minEmpties, Size*Size-4)
	}
	if n > maxBookEntries {
		return nil, fmt.Errorf("book: %d entries is more than the %d allowed", n, maxBookEntries)
	}
	if want := bookHeader + int(n)*bookEntrySize + 4; len(data) != want {
		return nil, fmt.Errorf("book: %d entries need %d bytes, the file has %d (truncated or padded)", n, want, len(data))
	}
	body := data[:len(data)-4]
	if sum, want := crc32.ChecksumIEEE(body), binary.LittleEndian.Uint32(data[len(data)-4:]); sum != want {
		return nil, fmt.Errorf("book: checksum %08x, the file says %08x (corrupt)", sum, want)
	}
	b := &Book{minEmpties: minEmpties, entries: make([]bookEntry, n)}
	for i := range b.entries {
		p := data[bookHeader+i*bookEntrySize:]
		e := bookEntry{me: uint40(p), opp: uint40(p[5:]), move: int8(p[10]), value: int8(p[11])}
		switch {
		case e.me&^full != 0 || e.opp&^full != 0 || e.me&e.opp != 0:
			return nil, fmt.Errorf("book entry %d: not a position (discs off the board or on the same cell)", i)
		case bits.OnesCount64(^(e.me|e.opp)&full) < minEmpties:
			return nil, fmt.Errorf("book entry %d: fewer empty cells than the book's minimum %d", i, minEmpties)
		case e.move < 0 || int(e.move) >= Size*Size || Moves(e.me, e.opp)&bit(int(e.move)) == 0:
			return nil, fmt.Errorf("book entry %d: move %d is not legal in its position", i, e.move)
		case e.value < -Size*Size || e.value > Size*Size:
			return nil, fmt.Errorf("book entry %d: value %d is outside ±%d", i, e.value, Size*Size)
		}
		if cme, copp, _ := canonical(e.me, e.opp); cme != e.me || copp != e.opp {
			return nil, fmt.Errorf("book entry %d: the position is not in its canonical orientation", i)
		}
		if i > 0 {
			if q := b.entries[i-1]; q.me > e.me || q.me == e.me && q.opp >= e.opp {
				return nil, fmt.Errorf("book entry %d: out of order or repeated", i)
			}
		}
		b.entries[i] = e
	}
	return b, nil
}

// MarshalBinary writes the book in the format LoadBook reads.
func (b *Book) MarshalBinary() ([]byte, error) {
	out := make([]byte, 0, bookHeader+len(b.entries)*bookEntrySize+4)
	out = append(out, bookMagic...)
	out = append(out, byte(b.minEmpties))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(b.entries)))
	for _, e := range b.entries {
		out = appendUint40(out, e.me)
		out = appendUint40(out, e.opp)
		out = append(out, byte(e.move), byte(e.value))
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
