package games

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/boardgame-arena/arena/spec"
)

// Option documents one option a game accepts in its spec, e.g. "algol" or "seed".
type Option struct {
	Key  string
	Help string
}

// Entry describes a registered game.
type Entry struct {
	Name     string   // registry name, e.g. "othello6"
	Title    string   // human name, e.g. "Othello 6×6"
	Notation string   // one line on the move notation
	Options  []Option // accepted spec options (variants and keys)
	// Variants lists further specs the conformance suite (games/gamestest)
	// must cover besides the bare name: every rules variant (e.g.
	// "erdos:algol") and, for a game with generated boards, a few boards.
	Variants []string
	// OpeningPlies is the number of random plies that start every game
	// pair of a tournament when no openings are given: 0 means the
	// arena's default (2, which gives Othello 6×6 12 distinct starts),
	// NoOpening means none (a game whose start already varies, such as
	// TryAngle Catch's map seed).
	OpeningPlies int
	// RoundKey names an option that a tournament of the bare game name
	// sets to a fresh number (63-bit, positive) for every game pair, so
	// that the run visits many boards ("seed" for TryAngle Catch's map);
	// "" when the game has no such option.
	RoundKey string
	// MoveTime and FirstMoveTime are the game's own limits per move (a
	// contest's rules: CodinGame's 50 ms and 1000 ms for TryAngle Catch),
	// held in automatic mode against agents without a time budget; 0 when
	// the game has none. FirstMoveTime 0 means MoveTime.
	MoveTime, FirstMoveTime time.Duration
	// New returns the start position for the options in s; s.Name is Name.
	// It must reject options it does not know (spec.Spec.Check does that).
	New func(s spec.Spec) (Base, error)
}

// NoOpening is the OpeningPlies of a game that starts without random plies.
const NoOpening = -1

var (
	mu       sync.RWMutex
	registry = map[string]*Entry{}
)

// Register adds a game. It panics on a duplicate name; games register
// themselves in an init function.
func Register(g *Entry) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[g.Name]; dup {
		panic("games: duplicate registration of " + g.Name)
	}
	if g.OpeningPlies < NoOpening {
		panic(fmt.Sprintf("games: %s: OpeningPlies %d (want ≥ 0, or NoOpening)", g.Name, g.OpeningPlies))
	}
	if g.RoundKey != "" && !slices.ContainsFunc(g.Options, func(o Option) bool { return o.Key == g.RoundKey }) {
		panic(fmt.Sprintf("games: %s: RoundKey %q is not among its Options", g.Name, g.RoundKey))
	}
	registry[g.Name] = g
}

// All returns the registered games sorted by name.
func All() []*Entry {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]*Entry, 0, len(registry))
	for _, g := range registry {
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b *Entry) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Names returns the registered game names, sorted.
func Names() []string {
	var names []string
	for _, g := range All() {
		names = append(names, g.Name)
	}
	return names
}

// Variant is a resolved game spec: a game and its options.
type Variant struct {
	Game *Entry
	Spec spec.Spec
	// start is the start position Lookup built: New clones it, so that
	// options read from files (tryangle:map=FILE) are read once, and a file
	// changed during a run changes nothing.
	start Base
}

// WithPosition returns the names of the registered games whose start
// position (bare spec) satisfies ok, e.g. to list the games that have
// pictures in an error message.
func WithPosition(ok func(Base) bool) []string {
	var out []string
	for _, g := range All() {
		sp, err := spec.Parse(g.Name)
		if err != nil {
			continue
		}
		if b, err := g.New(sp); err == nil && ok(b) {
			out = append(out, g.Name)
		}
	}
	return out
}

// Digest returns the digest of the input outside the spec that the variant
// was built from (see InputDigester), or "". Records keep it so that a
// resumed run notices an edited file.
func (v Variant) Digest() string {
	if d, ok := v.start.(InputDigester); ok {
		return d.InputDigest()
	}
	return ""
}

// String returns the canonical spec, e.g. "erdos:algol".
func (v Variant) String() string { return v.Spec.String() }

// New returns a fresh start position: a clone of the one Lookup built, or
// for a Variant made by hand, a new one from the spec.
func (v Variant) New() Base {
	switch s := v.start.(type) {
	case State:
		return s.Clone()
	case SimState:
		return s.Clone()
	}
	b, err := v.Game.New(v.Spec)
	if err != nil {
		panic("games: options were validated by Lookup: " + err.Error())
	}
	return b
}

// Lookup resolves a game spec such as "othello6" or "pyrga:bga". Errors say
// what was wrong and list what exists.
func Lookup(s string) (Variant, error) {
	sp, err := spec.Parse(s)
	if err != nil {
		return Variant{}, fmt.Errorf("game spec: %v", err)
	}
	mu.RLock()
	g := registry[sp.Name]
	mu.RUnlock()
	if g == nil {
		return Variant{}, fmt.Errorf("unknown game %q (known: %s)", sp.Name, strings.Join(Names(), ", "))
	}
	start, err := g.New(sp)
	if err != nil {
		return Variant{}, err
	}
	return Variant{Game: g, Spec: sp, start: start}, nil
}

// New resolves a game spec and returns its start position.
func New(s string) (Base, error) {
	v, err := Lookup(s)
	if err != nil {
		return nil, err
	}
	return v.New(), nil
}

// FormatMoves formats moves in the game's notation, sorted, space-separated.
func FormatMoves(b Base, moves []Move) string {
	return strings.Join(MoveStrings(b, moves), " ")
}

// MoveStrings formats moves in the game's notation and sorts them.
func MoveStrings(b Base, moves []Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = b.FormatMove(m)
	}
	sort.Strings(out)
	return out
}
