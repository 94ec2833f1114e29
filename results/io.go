package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// ParseError locates a problem in a record file.
type ParseError struct {
	Path string
	Line int // 1-based
	Err  error
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err) }
func (e *ParseError) Unwrap() error { return e.Err }

// File is a record file as read from disk.
type File struct {
	Path   string
	Header Header
	Games  []GameRecord
	// NumGames is the number of games read: len(Games), or the games
	// handed over one by one (ReadFileEach), which Games does not hold.
	NumGames int
	Resumes  []Resume
	// Torn is true when the last line was cut short (the writer was killed
	// mid-write, or the disk filled up) and was therefore ignored.
	Torn bool
	// GoodSize is the length in bytes of the readable part, up to and
	// including the last complete line; a resumed run truncates the file
	// to this size before appending.
	GoodSize int64
	// NeedsNewline is true when the last readable line has no final newline.
	NeedsNewline bool
}

// MaxLineBytes bounds the length of one line of a record file, newline
// included; Read refuses a longer line rather than hold it in memory. The
// longest records are TryAngle Catch games: 200 joint plies of up to a few
// hundred bytes each came to under 10 KB (measured: 9.5 KB), so the bound
// leaves a margin of over a thousand. A longer line is damage, or a file
// that arena did not write.
const MaxLineBytes = 16 << 20

// ReadFile reads and checks a record file.
func ReadFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// ReadFileLean reads and checks a record file as ReadFile does (same
// rules, same messages), but keeps the moves, opening and engines' info
// text of only its first whole games (negative: all), and shares the
// strings its games repeat: for a caller that needs the other games'
// results, times and clocks but not their moves, such as a report whose
// viewer shows the first games. The moves are most of a game's memory.
func ReadFileLean(path string, whole int) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f, path, whole, nil, nil)
}

// ReadFileEach reads and checks a record file as ReadFileLean does (same
// rules, same messages) in one pass, without keeping its games: header,
// if not nil, is given the header once read (before any game), and game
// each game in the order of the file, decoded anew for each call (the
// callee may keep it; past the first whole games, without the moves,
// opening and info text). Games stays empty; NumGames counts them. An
// error from header or game stops the read and is returned as it is.
// Memory does not grow with the games: a resumed run reads its record so.
func ReadFileEach(path string, whole int, header func(*Header) error, game func(*GameRecord) error) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f, path, whole, header, game)
}

// Read reads and checks a record file from r; path names it in errors.
// Every line must be valid JSON of a known record kind, the first must be
// the header, and game indices must be unique and within the planned
// schedule. Only the very last line may be incomplete (see File.Torn).
func Read(r io.Reader, path string) (*File, error) {
	return read(r, path, -1, nil, nil)
}

// read is Read, keeping the moves of the first whole games (ReadFileLean),
// and handing over the header and games to onHeader and onGame if not nil
// (ReadFileEach, which keeps no games).
func read(r io.Reader, path string, whole int, onHeader func(*Header) error, onGame func(*GameRecord) error) (*File, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	shared := map[string]string{}
	out := &File{Path: path}
	var seen pagedBits // game indices read: a bit each, not a map entry
	var offset int64
	var data []byte // the current line; its buffer is reused
	for line := 1; ; line++ {
		var readErr error
		data, readErr = readLine(br, data[:0])
		if errors.Is(readErr, errLineTooLong) {
			return nil, &ParseError{path, line, fmt.Errorf("line longer than %d bytes (results.MaxLineBytes): the file is damaged or was not written by arena", MaxLineBytes)}
		}
		if readErr != nil && readErr != io.EOF {
			return nil, &ParseError{path, line, readErr}
		}
		if len(data) == 0 && readErr == io.EOF {
			break
		}
		last := readErr == io.EOF // no newline: the final line
		fail := func(format string, args ...any) error {
			return &ParseError{path, line, fmt.Errorf(format, args...)}
		}
		trimmed := bytes.TrimSpace(data)
		if len(trimmed) == 0 {
			offset += int64(len(data))
			if last {
				break
			}
			continue
		}
		var g GameRecord
		var rs Resume
		kind, torn, err := decodeLine(trimmed, line, last, &out.Header, &g, &rs)
		if torn {
			out.Torn = true // a torn final write: ignore it
			break
		}
		if err != nil {
			return nil, fail("%v", err)
		}
		switch kind {
		case KindHeader:
			if onHeader != nil {
				if err := onHeader(&out.Header); err != nil {
					return nil, err
				}
			}
		case KindGame:
			if err := out.Header.Config.checkIndex(g.Index); err != nil {
				return nil, fail("%v", err)
			}
			if seen.has(g.Index) {
				prev := 0
				if rs, ok := r.(io.ReadSeeker); ok {
					prev = firstLine(rs, g.Index)
				}
				return nil, fail("game %d is recorded twice (also on line %d)", g.Index, prev)
			}
			seen.set(g.Index)
			if whole >= 0 && out.NumGames >= whole {
				lean(&g, shared)
			}
			out.NumGames++
			if onGame != nil {
				if err := onGame(&g); err != nil {
					return nil, err
				}
				break
			}
			out.Games = append(out.Games, g)
		case KindResume:
			out.Resumes = append(out.Resumes, rs)
		}
		offset += int64(len(data))
		out.GoodSize = offset
		out.NeedsNewline = last
		if last {
			break
		}
	}
	if out.Header.Record == "" {
		return nil, &ParseError{path, 1, errors.New("empty record file (no header)")}
	}
	return out, nil
}

// decodeLine decodes one non-blank line of a record file (line numbers
// from 1; last: the file's final line, without a newline) for Read and
// Tally alike: a header into *h (checked), a game into *g (checked by
// GameRecord.Check, not against the header), a resume note into *rs. kind is
// the record kind; torn reports a final line that is no JSON at all, a
// write cut short, which readers ignore.
func decodeLine(trimmed []byte, line int, last bool, h *Header, g *GameRecord, rs *Resume) (kind string, torn bool, err error) {
	var head struct {
		Record  string `json:"record"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(trimmed, &head); err != nil {
		if last && line > 1 {
			return "", true, nil
		}
		if err := TornHeader(trimmed, headerStart, "game"); last && err != nil {
			return "", false, err
		}
		return "", false, fmt.Errorf("not a JSON record: %v", jsonProblem(err))
	}
	if line == 1 && head.Record != KindHeader {
		return "", false, fmt.Errorf("the first line must be the header record, found %q", head.Record)
	}
	switch head.Record {
	case KindHeader:
		switch {
		case line != 1:
			return "", false, errors.New("a second header (headers belong on line 1 only)")
		case head.Version > FormatVersion:
			return "", false, fmt.Errorf("record format version %d is newer than this program reads (%d); update arena", head.Version, FormatVersion)
		case head.Version < 1:
			return "", false, fmt.Errorf("header has no valid version (got %d)", head.Version)
		}
		if err := strictUnmarshal(trimmed, h); err != nil {
			return "", false, fmt.Errorf("header: %v", jsonProblem(err))
		}
		if err := h.Config.check(); err != nil {
			return "", false, fmt.Errorf("header: %v", err)
		}
	case KindGame:
		if err := strictUnmarshal(trimmed, g); err != nil {
			return "", false, fmt.Errorf("game record: %v", jsonProblem(err))
		}
		if err := g.Check(); err != nil {
			return "", false, fmt.Errorf("game %d: %v", g.Index, err)
		}
	case KindResume:
		if err := strictUnmarshal(trimmed, rs); err != nil {
			return "", false, fmt.Errorf("resume record: %v", jsonProblem(err))
		}
	default:
		return "", false, fmt.Errorf("unknown record kind %q (expected header, game or resume)", head.Record)
	}
	return head.Record, false, nil
}

// headerStart is how every header line begins (MarshalLine of a Header:
// its first field is the record kind).
const headerStart = `{"record":"header"`

// TornHeader is the error for a file whose first line, without its newline
// and no JSON, is the start of a header line cut short (a header line
// begins with start): the run that created the file was interrupted while
// writing it, before its first record (a game, an SPSA iteration …). It
// says so and what to do. For the line of a file of another kind, it is
// nil.
func TornHeader(line []byte, start, record string) error {
	n := min(len(line), len(start))
	if n == 0 || string(line[:n]) != start[:n] {
		return nil
	}
	return fmt.Errorf("the file holds only part of a header line (%d bytes, no newline) and no %s: the run that created it was interrupted (or the disk filled up) while writing its header, before its first %s; there is nothing to resume or read: delete the file and start the run again", len(line), record, record)
}

// checkIndex reports a game index that c's file cannot hold: beyond the
// planned games, or outside the file's shard.
func (c *Config) checkIndex(index int) error {
	if index >= c.TotalGames {
		return fmt.Errorf("game index %d is outside the planned %d games", index, c.TotalGames)
	}
	if !c.InShard(index) {
		return fmt.Errorf("game %d does not belong to shard %s", index, c.Shard)
	}
	return nil
}

var errLineTooLong = errors.New("line too long")

// readLine appends the next line of br, newline included, to buf. It fails
// with errLineTooLong once the line exceeds MaxLineBytes, having read at
// most that much of it; at the end of the input it returns io.EOF with
// whatever was left.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLineBytes {
			return buf, errLineTooLong
		}
		buf = append(buf, chunk...)
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}

// strictUnmarshal decodes one record, rejecting fields it does not know so
// that a typo or a record from another program is not silently accepted.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("extra data after the record")
	}
	return nil
}

// jsonProblem turns encoding/json errors into short explanations.
func jsonProblem(err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return fmt.Errorf("field %q should be %s, found %s", te.Field, te.Type, te.Value)
	case errors.As(err, &se):
		return fmt.Errorf("%v (at byte %d)", se, se.Offset)
	}
	return err
}

func (c Config) check() error {
	switch c.Kind {
	case RoundRobin, Gauntlet, Match, Sweep, Swiss, Knockout:
	default:
		return fmt.Errorf("unknown tournament kind %q", c.Kind)
	}
	if c.Game == "" {
		return errors.New("no game")
	}
	if len(c.Agents) < 2 {
		return fmt.Errorf("%d agents; a tournament needs at least two", len(c.Agents))
	}
	switch {
	case c.Kind == Sweep && (c.Swept < 1 || c.Swept >= len(c.Agents)):
		return fmt.Errorf("a sweep of %d agents with swept %d: the swept values are 1 to %d of the agents (the others are their opponents)", len(c.Agents), c.Swept, len(c.Agents)-1)
	case c.Kind != Sweep && c.Swept != 0:
		return fmt.Errorf("swept %d in a %s: only a sweep has swept values", c.Swept, c.Kind)
	}
	switch {
	case c.Kind != Swiss && (c.Rounds != 0 || c.Bye != ""):
		return fmt.Errorf("rounds %d and bye %q in a %s: only a Swiss tournament has them", c.Rounds, c.Bye, c.Kind)
	case c.Kind != Knockout && c.ExtraPairs != 0:
		return fmt.Errorf("extra_pairs %d in a %s: only a knockout has them", c.ExtraPairs, c.Kind)
	}
	if c.TotalGames < 0 {
		return fmt.Errorf("negative total_games %d", c.TotalGames)
	}
	if c.Shard != nil {
		if err := c.Shard.Check(); err != nil {
			return fmt.Errorf("shard %d/%d: %v", c.Shard.Index, c.Shard.Count, err)
		}
		if c.Shard.Count == 1 {
			return errors.New("shard 1/1: a whole run records no shard")
		}
		// InShard divides by them.
		if g := c.GamesPerPair; g < 2 || g%2 != 0 || c.TotalGames < g || c.TotalGames%g != 0 {
			return fmt.Errorf("shard %s with games_per_pair %d and total_games %d: a shard needs an even games_per_pair from 2 and total_games a multiple of it", c.Shard, c.GamesPerPair, c.TotalGames)
		}
	}
	return nil
}

// Writer appends records to a file, one line each, flushing every call
// to the operating system with a single write so that a killed process
// leaves at most a torn final line. It is safe for concurrent use.
type Writer struct {
	mu  sync.Mutex
	f   *os.File
	buf []byte // encoding buffer, reused between writes
}

// existsError is Create's refusal of an existing file, errors.Is
// fs.ErrExist; the caller says how to continue it in its own options'
// names (arena.OpenSession: "continue it with Resume").
type existsError string

func (e existsError) Error() string { return string(e) + " already exists" }

func (e existsError) Is(target error) bool { return target == fs.ErrExist }

// Create starts a new record file with its header. It refuses to overwrite
// an existing file (resume it instead).
func Create(path string, h Header) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if st, serr := os.Stat(path); serr == nil && st.IsDir() {
			return nil, fmt.Errorf("%s is a directory: name a file, e.g. %s", path, filepath.Join(path, "run.jsonl"))
		}
		if errors.Is(err, fs.ErrExist) {
			return nil, existsError(path)
		}
		return nil, err
	}
	h.Record, h.Version = KindHeader, FormatVersion
	if h.Created == "" {
		h.Created = time.Now().UTC().Format(time.RFC3339)
	}
	w := &Writer{f: f}
	line, err := MarshalLine(h)
	if err == nil {
		err = w.WriteLines(line)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// OpenAt opens an existing file to append to it after its first size
// bytes, which are all that is kept: the readable part of a file that a
// killed run left with a torn last line (Append, and tune's AppendLog for
// SPSA files).
func OpenAt(path string, size int64) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(size, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Append opens a file previously read with ReadFile to continue it: a torn
// final line is cut off, a missing final newline added, and a Resume
// record written.
func Append(file *File, concurrency int) (*Writer, error) {
	f, err := OpenAt(file.Path, file.GoodSize)
	if err != nil {
		return nil, err
	}
	w := &Writer{f: f}
	var lines []byte
	if file.NeedsNewline {
		lines = append(lines, '\n')
	}
	note, err := MarshalLine(Resume{Record: KindResume, Time: time.Now().UTC().Format(time.RFC3339), Concurrency: concurrency, Done: max(len(file.Games), file.NumGames)})
	if err != nil {
		f.Close()
		return nil, err
	}
	if err := w.WriteLines(append(lines, note...)); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// WriteLines writes already encoded lines (see MarshalLine) in one write.
func (w *Writer) WriteLines(lines []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return errors.New("results: write to a closed record file")
	}
	_, err := w.f.Write(lines)
	return err
}

// WriteGames encodes and writes games in one write.
func (w *Writer) WriteGames(games ...*GameRecord) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return errors.New("results: write to a closed record file")
	}
	buf := w.buf[:0]
	for _, g := range games {
		buf = AppendGame(buf, g)
	}
	_, err := w.f.Write(buf)
	if cap(buf) <= 1<<20 {
		w.buf = buf // reuse the buffer unless a huge batch grew it
	}
	return err
}

// Close closes the file; later writes fail.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	err := w.f.Close()
	w.f = nil
	return err
}

// lean drops a game's moves, opening and info text, and replaces the
// strings games repeat by shared's copies (ReadFileLean).
func lean(g *GameRecord, shared map[string]string) {
	g.Moves, g.Opening = nil, nil
	for i := range g.MoveStats {
		g.MoveStats[i].Info = ""
	}
	share := func(s *string) {
		if v, ok := shared[*s]; ok {
			*s = v
		} else if len(shared) < 1<<16 {
			shared[*s] = *s
		}
	}
	share(&g.Game)
	share(&g.Result)
	share(&g.Termination)
	for p := range g.Players {
		share(&g.Players[p].Name)
		share(&g.Players[p].Spec)
	}
}
