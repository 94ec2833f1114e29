package accuracy

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"
	"time"
)

// The cache file: the exact values (and the positions left unknown, with
// the budget they were tried with) of the positions a run solved, so that
// a later run, a run resumed after an interrupt and `arena report` solve
// nothing twice. It is an append-only log: a header, then one record per
// position as it is solved, each with a CRC, so that a run killed while
// writing leaves a torn last record, which the reader ignores (and the
// next run cuts off), and any other damage is an error rather than a
// wrong value. A position written twice keeps its last record (a bigger
// budget settling what a smaller one could not).
//
//	header: "arena-accuracy-cache\n", version (1 byte),
//	        game spec length (2 bytes LE), game spec, CRC-32 of the above
//	record: key length (2 bytes LE), key, flags (1 byte: bit 0 known),
//	        value (int16 LE), result (int8), node budget (int64 LE),
//	        time budget in ns (int64 LE), CRC-32 of the record's bytes

const (
	cacheMagic   = "arena-accuracy-cache\n"
	cacheVersion = 1
	maxKey       = 1 << 12 // positions' texts are far shorter
	recordFixed  = 2 + 1 + 2 + 1 + 8 + 8 + 4
)

// entry is what the cache knows of one position: its exact value from the
// side to move's view (Known), or that it was not settled within the
// budget it was tried with.
type entry struct {
	Known  bool
	Value  int16
	Result int8 // 1 win, 0 draw, -1 loss for the side to move
	Nodes  int64
	Time   time.Duration
}

// covers reports whether an unknown entry tried with at least the budget
// (nodes, d): then trying again cannot settle it (0 nodes: no node limit).
func (e entry) covers(nodes int64, d time.Duration) bool {
	inf := func(n int64) int64 {
		if n == 0 {
			return 1<<63 - 1
		}
		return n
	}
	return inf(e.Nodes) >= inf(nodes) && e.Time >= d
}

// Cache holds solved positions of one game, in memory and, when opened
// from a file, appended to the file as they are added. It is safe for
// concurrent use.
type Cache struct {
	game string
	mu   sync.Mutex
	m    map[string]entry
	f    *os.File
	w    *bufio.Writer
	err  error // the first write error
	// Loaded counts the records read from the file when it was opened.
	Loaded int
	// Torn says the file's last record was cut short and was dropped.
	Torn bool
}

// NewCache returns an empty cache for the game spec, kept in memory only.
func NewCache(game string) *Cache { return &Cache{game: game, m: map[string]entry{}} }

// Game is the game spec the cache holds positions of.
func (c *Cache) Game() string { return c.game }

// Len is the number of positions the cache holds.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// OpenCache reads the cache file at path, or creates it, for the game
// spec; new entries are appended to it until Close. A file of another
// game, version or damaged before its last record is an error.
func OpenCache(path, game string) (*Cache, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	c, good, err := readCache(bufio.NewReader(f), game)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if good == 0 { // a new file
		hdr := cacheHeader(game)
		if _, err := f.WriteAt(hdr, 0); err != nil {
			f.Close()
			return nil, err
		}
		good = int64(len(hdr))
	}
	// Cut a torn last record off before appending after it.
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	c.f, c.w = f, bufio.NewWriter(f)
	return c, nil
}

// ReadCache reads a cache file's content (the positions it holds, the game
// it is for) without opening it for writing.
func ReadCache(r io.Reader) (*Cache, error) {
	c, _, err := readCache(bufio.NewReader(r), "")
	return c, err
}

// readCache reads a cache; game "" accepts any game, an empty input is an
// empty cache of game. good is the length of the readable part (0 for an
// empty input).
func readCache(r *bufio.Reader, game string) (c *Cache, good int64, err error) {
	c = NewCache(game)
	if _, err := r.Peek(1); err == io.EOF {
		return c, 0, nil
	}
	magic := make([]byte, len(cacheMagic)+3)
	if _, err := io.ReadFull(r, magic); err != nil || string(magic[:len(cacheMagic)]) != cacheMagic {
		return nil, 0, errors.New("not an accuracy cache file")
	}
	if v := magic[len(cacheMagic)]; v != cacheVersion {
		return nil, 0, fmt.Errorf("accuracy cache version %d, this arena reads version %d", v, cacheVersion)
	}
	n := int(binary.LittleEndian.Uint16(magic[len(cacheMagic)+1:]))
	rest := make([]byte, n+4)
	if _, err := io.ReadFull(r, rest); err != nil {
		return nil, 0, errors.New("accuracy cache: header cut short")
	}
	head := append(magic, rest[:n]...)
	if crc32.ChecksumIEEE(head) != binary.LittleEndian.Uint32(rest[n:]) {
		return nil, 0, errors.New("accuracy cache: damaged header")
	}
	got := string(rest[:n])
	if game != "" && got != game {
		return nil, 0, fmt.Errorf("accuracy cache of %s, not %s", got, game)
	}
	c.game = got
	good = int64(len(head) + 4)
	buf := make([]byte, 0, 256)
	for {
		var kl [2]byte
		if _, err := io.ReadFull(r, kl[:]); err != nil {
			c.Torn = err == io.ErrUnexpectedEOF
			return c, good, nil
		}
		k := int(binary.LittleEndian.Uint16(kl[:]))
		if k == 0 || k > maxKey {
			return nil, 0, fmt.Errorf("accuracy cache: damaged record at byte %d", good)
		}
		buf = append(buf[:0], kl[:]...)
		buf = append(buf, make([]byte, k+recordFixed-2)...)
		if _, err := io.ReadFull(r, buf[2:]); err != nil {
			c.Torn = true
			return c, good, nil
		}
		body := buf[:len(buf)-4]
		if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(buf[len(buf)-4:]) {
			return nil, 0, fmt.Errorf("accuracy cache: damaged record at byte %d", good)
		}
		p := body[2+k:]
		e := entry{
			Known:  p[0]&1 != 0,
			Value:  int16(binary.LittleEndian.Uint16(p[1:])),
			Result: int8(p[3]),
			Nodes:  int64(binary.LittleEndian.Uint64(p[4:])),
			Time:   time.Duration(binary.LittleEndian.Uint64(p[12:])),
		}
		if p[0]&^1 != 0 || e.Result < -1 || e.Result > 1 || e.Nodes < 0 || e.Time < 0 {
			return nil, 0, fmt.Errorf("accuracy cache: damaged record at byte %d", good)
		}
		c.m[string(body[2:2+k])] = e
		c.Loaded++
		good += int64(len(buf))
	}
}

func cacheHeader(game string) []byte {
	b := append([]byte(cacheMagic), cacheVersion)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(game)))
	b = append(b, game...)
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

func appendRecord(b []byte, key string, e entry) []byte {
	start := len(b)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(key)))
	b = append(b, key...)
	var flags byte
	if e.Known {
		flags = 1
	}
	b = append(b, flags)
	b = binary.LittleEndian.AppendUint16(b, uint16(e.Value))
	b = append(b, byte(e.Result))
	b = binary.LittleEndian.AppendUint64(b, uint64(e.Nodes))
	b = binary.LittleEndian.AppendUint64(b, uint64(e.Time))
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:]))
}

// get returns the cache's entry of the position key.
func (c *Cache) get(key string) (entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	return e, ok
}

// put adds the entry of key, and writes it to the file (flushed, so an
// interrupted run keeps it).
func (c *Cache) put(key string, e entry) {
	if len(key) == 0 || len(key) > maxKey {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = e
	if c.w == nil || c.err != nil {
		return
	}
	if _, err := c.w.Write(appendRecord(nil, key, e)); err != nil {
		c.err = err
		return
	}
	c.err = c.w.Flush()
}

// Close flushes the file and closes it; it returns the first write error.
// A cache in memory only has nothing to close.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return c.err
	}
	err := c.w.Flush()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	c.f, c.w = nil, nil
	if c.err != nil {
		return c.err
	}
	return err
}
