package arena

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/readfile"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

// DefaultOpeningPlies is the number of random plies that start each game
// pair when no openings are given, for a game that does not set its own
// (games.Entry.OpeningPlies).
const DefaultOpeningPlies = 2

func defaultPlies(g *games.Entry) int {
	switch {
	case g.OpeningPlies == games.NoOpening:
		return 0
	case g.OpeningPlies > 0:
		return g.OpeningPlies
	}
	return DefaultOpeningPlies
}

// Opening is the plies played from the start position before the agents
// take over, in the game's notation (a simultaneous ply as "a | b"), or a
// position to start from (an openings line "fen TEXT").
type Opening struct {
	Texts []string
	plies [][2]games.Move
	// Position is the canonical text of an opening that is a position
	// (games.PositionWriter), "" for a list of plies. Its Texts are the one
	// entry PositionPrefix+Position, which records keep as their first ply.
	Position string
	start    games.State // the position, cloned for every game
	// Variant, when not nil, replaces the tournament's game spec for this
	// opening's games: a random book gives every round of a game with a
	// round key (games.Entry.RoundKey, e.g. a map seed) its own value.
	Variant *games.Variant
}

// Len returns the number of plies (1 for a position).
func (o Opening) Len() int { return len(o.Texts) }

// PositionPrefix starts an openings line, and a record's first ply, that is
// a position in the game's text format rather than a list of moves.
const PositionPrefix = results.PositionPrefix

// ParsePositionOpening reads a position in v's text format (games.ParsePosition)
// as an opening: its games start there.
func ParsePositionOpening(v games.Variant, text string) (Opening, error) {
	s, err := games.ParsePosition(v, text)
	if err != nil {
		return Opening{}, err
	}
	if s.Terminal() {
		return Opening{}, fmt.Errorf("the position is a finished game; an opening must leave something to play")
	}
	pos := s.(games.PositionWriter).Position()
	return Opening{Texts: []string{PositionPrefix + pos}, Position: pos, start: s}, nil
}

// State returns a fresh copy of the opening's position, or nil for an
// opening of plies (which start from the variant's start position).
func (o Opening) State() games.State {
	if o.start == nil {
		return nil
	}
	return o.start.Clone()
}

// ParseOpening checks a list of plies against v and returns the opening.
func ParseOpening(v games.Variant, texts []string) (Opening, error) {
	b := v.New()
	o := Opening{}
	for i, t := range texts {
		var ply [2]games.Move
		if s, ok := b.(games.State); ok {
			m, err := games.ParseLegal(s, t)
			if err != nil {
				return Opening{}, fmt.Errorf("ply %d: %v", i+1, err)
			}
			ply[0] = m
		} else {
			a, c, ok := strings.Cut(t, "|")
			if !ok {
				return Opening{}, fmt.Errorf("ply %d: %q is not a joint move \"a | b\"", i+1, t)
			}
			for p, part := range []string{a, c} {
				m, err := b.ParseMove(strings.TrimSpace(part))
				if err != nil {
					return Opening{}, fmt.Errorf("ply %d, player %d: %v", i+1, p, err)
				}
				if !contains(games.LegalMovesFor(b, p, nil), m) {
					return Opening{}, fmt.Errorf("ply %d: illegal move %q for player %d", i+1, part, p)
				}
				ply[p] = m
			}
		}
		games.PlayPly(b, ply)
		if b.Terminal() {
			return Opening{}, fmt.Errorf("ply %d ends the game; an opening must leave something to play", i+1)
		}
		o.plies = append(o.plies, ply)
		o.Texts = append(o.Texts, canonical(b, ply))
	}
	return o, nil
}

// canonical re-formats a ply after it was played (so "C2" and "c2" agree).
func canonical(b games.Base, ply [2]games.Move) string {
	b.Undo()
	defer games.PlayPly(b, ply)
	if games.Simultaneous(b) {
		return b.FormatMove(ply[0]) + " | " + b.FormatMove(ply[1])
	}
	return b.FormatMove(ply[0])
}

func contains(ms []games.Move, m games.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// apply plays the opening on the start position b and appends its moves.
func (o Opening) apply(b games.Base, moves []string) ([]string, error) {
	if err := games.CheckKind(b); err != nil {
		return moves, err
	}
	if o.start != nil {
		return append(moves, o.Texts...), nil // b is a copy of the position already
	}
	for i, ply := range o.plies {
		games.PlayPly(b, ply)
		moves = append(moves, o.Texts[i])
	}
	return moves, nil
}

// texts returns the opening's moves for a record: records of one round
// share the opening's texts (never appended to).
func (o Opening) texts() []string {
	if len(o.Texts) == 0 {
		return []string{}
	}
	return o.Texts[:len(o.Texts):len(o.Texts)]
}

// Book yields the opening of each round: game pair r of every pairing
// starts from Opening(r), so all pairings meet the same openings.
type Book struct {
	variant games.Variant
	seed    uint64
	plies   int       // random openings: plies per opening
	lines   []Opening // file openings, in use order
	// Spec is "random:K" or "file:PATH"; Digest is the SHA-256 of the
	// lines of a file book.
	Spec    string
	Digest  string
	Shuffle bool
	// gameSeeds: random openings also draw the game's seed option per round.
	gameSeeds bool
}

// Streams derived from the tournament seed, kept apart by their first part.
const (
	streamOpening = 1 // random opening of round r: (1, r, attempt)
	streamGame    = 2 // game seed: (2, pair, game in pair)
	streamAgent   = 3 // agent seed: (3, pair, game in pair, seat)
	streamShuffle = 4 // order of a file book
	streamMap     = 5 // game seed of round r: (5, r)
)

// NewBook reads an openings spec: "" or "random" (the game's default number
// of random plies), "random:K", "none" (K = 0), or a file name (optionally
// "file:NAME") holding one opening per line as space-separated moves ('#'
// starts a comment, blank lines are skipped) or, for a sequential game with
// a position format, as "fen " and a position (games.ParsePosition). File openings are used in
// order, or in an order shuffled by the seed.
//
// With random openings, a game that has a round key (games.Entry.RoundKey,
// such as a map seed) and is given without any option gets its own value
// of that key for every round, drawn from (seed, r), so that the tournament
// visits many boards; give the option explicitly (e.g. "game:seed=42") to
// play one board throughout.
func NewBook(v games.Variant, text string, seed uint64, shuffle bool) (*Book, error) {
	b := &Book{variant: v, seed: seed, Shuffle: shuffle}
	text = strings.TrimSuffix(text, "+seed") // how the header spells it; implied by the game spec
	b.gameSeeds = v.Game.RoundKey != "" && len(v.Spec.Keys) == 0
	switch {
	case text == "" || text == "random":
		b.plies = defaultPlies(v.Game)
	case text == "none":
		b.plies = 0
	case strings.HasPrefix(text, "random:"):
		k, err := strconv.Atoi(strings.TrimPrefix(text, "random:"))
		if err != nil || k < 0 {
			return nil, option.New("Openings", text, "want random:K with K ≥ 0 plies")
		}
		b.plies = k
	default:
		return b, b.load(strings.TrimPrefix(text, "file:"))
	}
	if shuffle {
		return nil, option.New("ShuffleOpenings", nil, "{ShuffleOpenings} applies to an openings file, not to random openings")
	}
	b.Spec = fmt.Sprintf("random:%d", b.plies)
	if b.gameSeeds {
		b.Spec += "+seed" // each round also draws the game's seed option
	}
	return b, nil
}

func (b *Book) load(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w: %w", option.New("Openings", nil, ""), err)
	}
	defer f.Close()
	return b.read(f, path)
}

// maxOpeningLine bounds a line of an openings file (the file is read line
// by line, so its length is not bounded).
const maxOpeningLine = 16 * readfile.MiB

// read reads an openings file from r; path names it in errors.
func (b *Book) read(r io.Reader, path string) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxOpeningLine)
	h := sha256.New()
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		var plies []string
		if games.Simultaneous(b.variant.New()) {
			plies = splitJoint(text)
		} else {
			plies = fields
		}
		var o Opening
		var err error
		if fields[0] == strings.TrimSpace(PositionPrefix) {
			// The rest of the line is one position (it holds spaces).
			_, pos, _ := strings.Cut(strings.TrimSpace(text), " ")
			o, err = ParsePositionOpening(b.variant, pos)
		} else {
			o, err = ParseOpening(b.variant, plies)
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %v", path, line, err)
		}
		fmt.Fprintln(h, strings.Join(o.Texts, " "))
		b.lines = append(b.lines, o)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return option.New("Openings", path, "a line longer than %s; a line of an openings file is at most %s", readfile.Size(maxOpeningLine), readfile.Size(maxOpeningLine))
	} else if err != nil {
		return fmt.Errorf("%w: %w", option.New("Openings", path, ""), err)
	}
	if len(b.lines) == 0 {
		return option.New("Openings", path, "no openings in the file")
	}
	if b.Shuffle {
		r := rng.New(rng.Derive(b.seed, streamShuffle))
		for i := len(b.lines) - 1; i > 0; i-- {
			j := r.IntN(i + 1)
			b.lines[i], b.lines[j] = b.lines[j], b.lines[i]
		}
	}
	b.Spec = "file:" + path
	b.Digest = hex.EncodeToString(h.Sum(nil))
	return nil
}

// splitJoint splits a line of joint plies "a | b , c | d" at the commas.
func splitJoint(line string) []string {
	var out []string
	for _, part := range strings.Split(line, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Size returns the number of distinct openings of a file book (0 for random).
func (b *Book) Size() int { return len(b.lines) }

// Opening returns the opening of round r: line r of the file (cycling), or
// b.plies uniformly random plies drawn from (seed, r). A random opening that
// would end the game is drawn again.
func (b *Book) Opening(r int) Opening {
	if len(b.lines) > 0 {
		return b.lines[r%len(b.lines)]
	}
	v := b.variant
	var own *games.Variant
	if b.gameSeeds {
		// A positive 63-bit seed, as a Java long would take it.
		gs := rng.Derive(b.seed, streamMap, uint64(r)) >> 1
		sv, err := games.Lookup(fmt.Sprintf("%s:%s=%d", v.Game.Name, v.Game.RoundKey, gs))
		if err == nil {
			v, own = sv, &sv
		}
	}
	if b.plies == 0 {
		return Opening{Variant: own}
	}
	var best Opening
	for attempt := 0; attempt < 100; attempt++ {
		o := b.randomOpening(v, rng.New(rng.Derive(b.seed, streamOpening, uint64(r), uint64(attempt))))
		o.Variant = own
		if o.Len() == b.plies {
			return o
		}
		if o.Len() > best.Len() {
			best = o
		}
	}
	return best // the game is too short for this many plies: use the longest found
}

func (b *Book) randomOpening(v games.Variant, r *rng.Rand) Opening {
	st := v.New()
	var o Opening
	var buf []games.Move
	for len(o.plies) < b.plies {
		// A sequential ply is the mover's move in ply[0]; a simultaneous
		// one draws player 0's move, then player 1's.
		var ply [2]games.Move
		movers := []int{st.ToMove()}
		if games.Simultaneous(st) {
			movers = []int{0, 1}
		}
		for i, p := range movers {
			buf = games.LegalMovesFor(st, p, buf[:0])
			if len(buf) == 0 {
				return o
			}
			ply[i] = buf[r.IntN(len(buf))]
		}
		games.PlayPly(st, ply)
		if st.Terminal() {
			return o // would end the game: the caller draws again
		}
		o.plies = append(o.plies, ply)
		o.Texts = append(o.Texts, canonical(st, ply))
	}
	return o
}
