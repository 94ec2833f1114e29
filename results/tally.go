package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxPlayers bounds the players a Tally pools: twice the 50 000 that
// Ordo documents. Nothing is players² (Summary keeps the pairs that met),
// so memory grows with the pairs: `arena rate` took 110 MB for 10 000
// players who each met 20 others and 590 MB for 50 000 (about 1.2 KB a
// pair that met, benchmarks/README.md "Large pools"), so 100 000 such
// players take about 1.2 GB. The bound keeps a damaged file of millions
// of names from taking the machine.
const MaxPlayers = 100_000

// Tally counts the games of record files as it reads them, line by line,
// keeping only what the ratings and tables need (Summary): its memory
// grows with the players, never with the games. Reading checks each file
// as Read does (same rules, same messages), and pooling checks the files
// as Merge does; Analyse then gives the report that Analyse gives
// on the merged Dataset.
type Tally struct {
	Game    string // the game spec all files share
	Files   []*TallyFile
	Summary *Summary // the games counted so far (players in order of first appearance)
	// OnGame, when set, is called with each game counted, decoded whole,
	// and the number of its file in Files (its header read). A caller
	// that needs more of the games than the counts (a report's plots)
	// reads them in the same pass; the games are then decoded in full,
	// which is slower than the counts' own scan.
	OnGame func(file int, g *GameRecord)
	index  map[string]int
	scan   gameScanner
	line   []byte
	err    error // the first pooling problem (as Merge reports it)
}

// TallyFile is what a Tally keeps of one record file.
type TallyFile struct {
	Path    string
	Header  Header
	Games   int  // games counted
	Resumes int  // resume records
	Torn    bool // the last line was cut short and ignored (File.Torn)
	config  string
	seen    pagedBits     // game indices recorded
	match   *matchCounter // a match's record: its games as match counted them
}

// NewTally returns an empty Tally.
func NewTally() *Tally {
	return &Tally{Summary: newSummary(nil), index: map[string]int{}}
}

// ReadFile reads and counts one record file. Any error leaves the Tally
// unusable.
func (t *Tally) ReadFile(path string) (*TallyFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return t.Read(f, path)
}

// Read reads and counts a record file from r; path names it in errors.
func (t *Tally) Read(r io.ReadSeeker, path string) (*TallyFile, error) {
	tf, err := t.read(r, path)
	if err != nil {
		t.err = err
		return nil, err
	}
	return tf, nil
}

func (t *Tally) read(r io.ReadSeeker, path string) (*TallyFile, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	tf := &TallyFile{Path: path}
	t.Files = append(t.Files, tf)
	var facts gameFacts
	for line := 1; ; line++ {
		var readErr error
		t.line, readErr = readLine(br, t.line[:0])
		data := t.line
		if errors.Is(readErr, errLineTooLong) {
			return nil, &ParseError{path, line, fmt.Errorf("line longer than %d bytes (results.MaxLineBytes): the file is damaged or was not written by arena", MaxLineBytes)}
		}
		if readErr != nil && readErr != io.EOF {
			return nil, &ParseError{path, line, readErr}
		}
		if len(data) == 0 && readErr == io.EOF {
			break
		}
		last := readErr == io.EOF
		fail := func(format string, args ...any) error {
			return &ParseError{path, line, fmt.Errorf(format, args...)}
		}
		trimmed := bytes.TrimSpace(data)
		if len(trimmed) == 0 {
			if last {
				break
			}
			continue
		}
		// The common case: a game line as arena writes it.
		fast := line > 1 && t.OnGame == nil && t.scan.scan(trimmed, &facts)
		var whole *GameRecord // decoded, for OnGame
		if !fast {
			// Everything else exactly as Read does it.
			var g GameRecord
			var rs Resume
			kind, torn, err := decodeLine(trimmed, line, last, &tf.Header, &g, &rs)
			if torn {
				tf.Torn = true
				break
			}
			if err != nil {
				return nil, fail("%v", err)
			}
			switch kind {
			case KindHeader:
				if err := t.startFile(tf); err != nil {
					return nil, fail("%v", err)
				}
			case KindGame:
				facts = factsOf(&g)
				fast = true // counted below
				whole = &g
			case KindResume:
				tf.Resumes++
			}
		}
		if fast {
			if err := tf.Header.Config.checkIndex(facts.index); err != nil {
				return nil, fail("%v", err)
			}
			if tf.seen.has(facts.index) {
				return nil, fail("game %d is recorded twice (also on line %d)", facts.index, firstLine(r, facts.index))
			}
			tf.seen.set(facts.index)
			if err := t.count(tf, &facts); err != nil {
				return nil, fail("%v", err)
			}
			if t.OnGame != nil && whole != nil {
				t.OnGame(len(t.Files)-1, whole)
			}
		}
		if last {
			break
		}
	}
	t.Summary.endSource() // shards deal whole pairs: no pair spans two files
	if tf.match != nil {
		t.Summary.Matches = append(t.Summary.Matches, tf.match.result())
	}
	if tf.Header.Record == "" {
		return nil, &ParseError{path, 1, errors.New("empty record file (no header)")}
	}
	return tf, nil
}

// startFile pools a file's header as Merge does: same game, its agents
// added as players.
func (t *Tally) startFile(tf *TallyFile) error {
	cfg, err := json.Marshal(tf.Header.Config)
	if err != nil {
		return err
	}
	tf.config = string(cfg)
	tf.match = newMatchCounter(tf.Path, &tf.Header)
	if len(t.Files) == 1 {
		t.Game = tf.Header.Config.Game
	}
	if g := tf.Header.Config.Game; g != t.Game && t.err == nil {
		t.err = fmt.Errorf("%s records %s but %s records %s; ratings pool games of one game", tf.Path, g, t.Files[0].Path, t.Game)
	}
	t.Summary.reserve(len(t.Summary.Players) + len(tf.Header.Config.Agents))
	for _, a := range tf.Header.Config.Agents {
		if _, err := t.player(a.Name); err != nil {
			return err
		}
	}
	return nil
}

// count adds one checked game.
func (t *Tally) count(tf *TallyFile, g *gameFacts) error {
	if t.err == nil {
		for i := range t.Files[:len(t.Files)-1] {
			if prev := t.Files[i]; prev.config == tf.config && prev.seen.has(g.index) {
				t.err = fmt.Errorf("%s and %s are the same tournament (seed %d) and both hold game %d: give each machine its own seed", prev.Path, tf.Path, tf.Header.Config.Seed, g.index)
				break
			}
		}
	}
	var seat [2]int
	for p := range seat {
		var err error
		if seat[p], err = t.player(g.names[p]); err != nil {
			return err
		}
	}
	t.Summary.add(g, seat, len(t.Files)-1)
	if tf.match != nil {
		tf.match.add(g.index, g.names[0] == tf.match.first, g.winner)
	}
	tf.Games++
	return nil
}

func (t *Tally) player(name string) (int, error) {
	if i, ok := t.index[name]; ok {
		return i, nil
	}
	if len(t.index) >= MaxPlayers {
		return 0, fmt.Errorf("more than %d players (results.MaxPlayers) in the record files", MaxPlayers)
	}
	t.index[name] = len(t.Summary.Players)
	t.Summary.addPlayer(name)
	return len(t.Summary.Players) - 1, nil
}

// Err returns the first problem pooling the files (as Merge reports it):
// shards that overlap or of different runs (checked first: they explain a
// game held twice), different games, or two files of one tournament
// holding the same game.
func (t *Tally) Err() error {
	hs := make([]shardFile, 0, len(t.Files))
	for _, f := range t.Files {
		if f.Header.Record != "" {
			hs = append(hs, shardFile{f.Path, &f.Header.Config})
		}
	}
	if _, err := checkShards(hs, true); err != nil {
		return err
	}
	return t.err
}

// firstLine finds the line of the first record of game index in r, for
// the message about a game recorded twice; 0 when it cannot.
func firstLine(r io.ReadSeeker, index int) int {
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return 0
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for line := 1; ; line++ {
		var err error
		buf, err = readLine(br, buf[:0])
		var g struct {
			Record string `json:"record"`
			Index  int    `json:"index"`
		}
		if json.Unmarshal(buf, &g) == nil && g.Record == KindGame && g.Index == index {
			return line
		}
		if err != nil {
			return 0
		}
	}
}

// pagedBits is a set of non-negative integers stored as bitmaps of 4096
// values each, allocated as values fall in them: a few bytes per game
// index for a file's dense indices, and nothing for the ranges a file
// never touches (the planned total can be huge).
type pagedBits map[int]*[64]uint64

func (b *pagedBits) has(i int) bool {
	page := (*b)[i>>12]
	return page != nil && page[i>>6&63]&(1<<(i&63)) != 0
}

func (b *pagedBits) set(i int) {
	if *b == nil {
		*b = pagedBits{}
	}
	page := (*b)[i>>12]
	if page == nil {
		page = new([64]uint64)
		(*b)[i>>12] = page
	}
	page[i>>6&63] |= 1 << (i & 63)
}
