// Package gamestest is the conformance suite for the games contract: one
// set of checks that every registered game and variant must pass, in the
// manner of OpenSpiel's random simulation test.
//
// Check (and Run, its testing wrapper) plays many seeded random games of a
// variant and, at every ply, checks what games.Base, games.State and
// games.SimState promise:
//
//   - kind and turn: a State is never Both, a SimState always Both until it
//     ends; Terminal ⇔ ToMove()==None ⇔ no legal moves (for a SimState: for
//     either player); Ply counts the moves (joint moves) played; Undo at
//     the start panics;
//   - legal moves: distinct; games.IsLegal and a LegalChecker agree with the
//     list on every listed move and on every code below 1024; a
//     MoveValidator approves every listed move;
//   - notation: ParseMove(FormatMove(m)) == m for every legal move, except
//     that a MoveValidator game may parse the text to another code that it
//     approves, that formats to the same text and has the same effect;
//   - undo: play+undo of every legal move (a SimState: each player's moves
//     against the other's random move) restores hash, text, ply, player to
//     move, legal moves and evaluation; replaying the move gives the same
//     position again; undoing a whole game passes back through the very
//     positions it went through;
//   - hash: equal to the hash from scratch (ComputeHash) at every ply and
//     after every legal move, and to the hash of the same moves replayed on
//     a fresh state;
//   - clones: a clone equals its original, and playing and undoing on either
//     one leaves the other unchanged, undo history included;
//   - determinism: the same seed plays the same game, through the same
//     positions; games.Replay accepts the game's own transcript;
//   - results: Outcome.Winner is 0, 1 or games.Draw, and Score has the
//     winner's sign (positive for player 0, zero for a draw);
//   - evaluation (games.Evaluator): strictly inside (−WinScore, WinScore),
//     and of the outcome's sign from p's view on a finished game;
//   - positions as text (games.PositionWriter): the text reads back
//     (games.ParsePosition) into the same position at ply 0, hash, text,
//     legal moves and outcome included, and writes the same text;
//   - playouts: games.RandomPlayout and a games.Playouter's RandomPlayout
//     leave the state unchanged and return a well-formed outcome.
//
// A game's own tests may add a View, e.g. a rendering of internal state,
// which is then compared wherever the suite compares positions.
//
// CheckDrawer checks the pictures of games.Drawer the same way (see its
// doc), and SVGCount counts a picture's elements for a game's own tests.
// CheckEmpties, CheckPlayouts and CheckAllocs check games.EmptiesCounter,
// games.Playouter and the hot paths, given what only the game knows (its
// empty places at the start, the moves its playout makes without a draw).
//
// The package's own tests run all of these over the registry, every game
// and declared variant, with each game's vectors (position texts and the
// errors they give, fuzz seeds, counts) read from testdata/gamestest.json in
// the game's package directory: a new game gets them by registering, and
// adds that file when it implements an interface that needs vectors.
package gamestest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

// DefaultGames is the number of random games Check plays per variant.
const DefaultGames = 16

// codeRange bounds the move codes on which a LegalChecker is compared with
// the legal move list (every game's codes are below it).
const codeRange = 1024

type config struct {
	games    int
	seed     uint64
	maxPlies int
	view     func(games.Base) string
	notation bool
}

// An Option adjusts Check.
type Option func(*config)

// Games sets the number of random games (default DefaultGames).
func Games(n int) Option { return func(c *config) { c.games = n } }

// Seed sets the seed from which every game's seed is derived (default 1).
func Seed(seed uint64) Option { return func(c *config) { c.seed = seed } }

// MaxPlies fails a game that is not over after n plies (default 100 000).
func MaxPlies(n int) Option { return func(c *config) { c.maxPlies = n } }

// View adds an observation of a position, e.g. a rendering of a game's
// internal state, that must be restored and copied like the rest.
func View(f func(games.Base) string) Option { return func(c *config) { c.view = f } }

// Variant makes a variant named name from a constructor, so that the suite
// can check states that are not registered: wrappers such as
// games.Sequentialize, or test doubles.
func Variant(name string, newState func() games.Base) games.Variant {
	g := &games.Entry{Name: name, Title: name, New: func(spec.Spec) (games.Base, error) { return newState(), nil }}
	return games.Variant{Game: g, Spec: spec.Spec{Name: name}}
}

// SkipNotation leaves out the notation round-trip and games.Replay, for
// wrappers that borrow another game's notation, like games.Sequentialize
// over TryAngle Catch, whose command lines parse to codes that only the
// wrapped game's ValidMove accepts.
func SkipNotation() Option { return func(c *config) { c.notation = false } }

// Run runs Check on v and reports its finding, if any, as an error of t.
func Run(t testing.TB, v games.Variant, opts ...Option) {
	t.Helper()
	if err := Check(v, opts...); err != nil {
		t.Error(err)
	}
}

// Violation is a breach of the contract that Check found.
type Violation struct {
	Variant string
	Game    int    // index of the random game, from 0
	Seed    uint64 // seed of that game's random choices
	Moves   string // the moves played before the breach, in the game's notation
	What    string
}

func (v *Violation) Error() string {
	return fmt.Sprintf("%s: game %d (seed %d) after moves [%s]: %s", v.Variant, v.Game, v.Seed, v.Moves, v.What)
}

// Check plays seeded random games of v and returns the first breach of the
// contract it finds as a *Violation, or nil. A panic in the game's methods
// is reported as a breach too.
func Check(v games.Variant, opts ...Option) (err error) {
	r := newRunner(v, opts)
	cfg := r.cfg
	defer func() {
		if p := recover(); p != nil {
			err = r.fail("panic: %v", p)
		}
	}()
	if err := r.undoAtStartPanics(); err != nil {
		return err
	}
	for g := range cfg.games {
		r.game, r.seed, r.moves = g, rng.Derive(cfg.seed, uint64(g)), r.moves[:0]
		if err := r.play(); err != nil {
			return err
		}
	}
	return nil
}

// CheckPosition checks one state b of v, which must write its position as
// text, as CheckPositions does at every ply; seed draws the game played on
// from the position read back. Games use it on positions of their own
// choosing, such as those a fuzz target accepts.
func CheckPosition(v games.Variant, b games.Base, seed uint64) (err error) {
	r := newRunner(v, nil)
	r.seed, r.shown = seed, games.Clone(b)
	defer func() {
		if p := recover(); p != nil {
			err = r.fail("panic: %v", p)
		}
	}()
	if _, ok := b.(games.PositionWriter); !ok {
		return r.fail("%T does not write its position as text (games.PositionWriter)", b)
	}
	return r.checkPositionText(b, r.take(b), rng.New(seed))
}

func newRunner(v games.Variant, opts []Option) *runner {
	cfg := config{games: DefaultGames, seed: 1, maxPlies: 100000, notation: true}
	for _, o := range opts {
		o(&cfg)
	}
	return &runner{cfg: cfg, v: v}
}

// runner holds one variant's run and the context for error messages.
type runner struct {
	cfg   config
	v     games.Variant
	game  int
	seed  uint64
	moves [][2]games.Move // the moves of the current game (joint moves, or m[0])
	shown games.Base      // a state in which to format moves for messages
}

func (r *runner) fail(format string, args ...any) error {
	var texts []string
	if r.shown != nil {
		for _, m := range r.moves {
			if games.Simultaneous(r.shown) {
				texts = append(texts, r.shown.FormatMove(m[0])+" | "+r.shown.FormatMove(m[1]))
			} else {
				texts = append(texts, r.shown.FormatMove(m[0]))
			}
		}
	}
	return &Violation{Variant: r.v.String(), Game: r.game, Seed: r.seed, Moves: strings.Join(texts, " "), What: fmt.Sprintf(format, args...)}
}

// snapshot is everything observable about a position.
type snapshot struct {
	hash     uint64
	text     string
	ply      int
	toMove   int
	terminal bool
	legal    [2][]games.Move
	eval     [2]int
	outcome  games.Outcome
	view     string
}

func (r *runner) take(b games.Base) snapshot {
	s := snapshot{hash: b.Hash(), text: b.String(), ply: b.Ply(), toMove: b.ToMove(), terminal: b.Terminal()}
	for p := range 2 {
		s.legal[p] = games.LegalMovesFor(b, p, nil)
	}
	if e, ok := b.(games.Evaluator); ok {
		s.eval = [2]int{e.Evaluate(0), e.Evaluate(1)}
	}
	if s.terminal {
		s.outcome = b.Outcome()
	}
	if r.cfg.view != nil {
		s.view = r.cfg.view(b)
	}
	return s
}

// diff names the first difference between two snapshots, or returns "".
func diff(got, want snapshot) string {
	switch {
	case got.hash != want.hash:
		return fmt.Sprintf("hash %#x, want %#x", got.hash, want.hash)
	case got.ply != want.ply:
		return fmt.Sprintf("ply %d, want %d", got.ply, want.ply)
	case got.toMove != want.toMove:
		return fmt.Sprintf("player to move %d, want %d", got.toMove, want.toMove)
	case got.terminal != want.terminal:
		return fmt.Sprintf("terminal %v, want %v", got.terminal, want.terminal)
	case got.text != want.text:
		return fmt.Sprintf("position\n%s\nwant\n%s", got.text, want.text)
	case !slices.Equal(got.legal[0], want.legal[0]) || !slices.Equal(got.legal[1], want.legal[1]):
		return fmt.Sprintf("legal moves %v, want %v", got.legal, want.legal)
	case got.eval != want.eval:
		return fmt.Sprintf("evaluation %v, want %v", got.eval, want.eval)
	case got.outcome != want.outcome:
		return fmt.Sprintf("outcome %+v, want %+v", got.outcome, want.outcome)
	case got.view != want.view:
		return fmt.Sprintf("view\n%s\nwant\n%s", got.view, want.view)
	}
	return ""
}

func (r *runner) undoAtStartPanics() (err error) {
	b := r.v.New()
	if err := games.CheckKind(b); err != nil {
		return r.fail("%v", err)
	}
	r.shown = b
	if b.Ply() != 0 {
		return r.fail("the start position has ply %d, want 0", b.Ply())
	}
	defer func() {
		if recover() == nil {
			err = r.fail("Undo at ply 0 did not panic")
		}
	}()
	b.Undo()
	return nil
}

// play plays one random game with every check.
func (r *runner) play() error {
	rand := rng.New(r.seed) // chooses the game's moves, and nothing else
	aux := rng.New(rng.Derive(r.seed, 2))
	b := r.v.New()
	r.shown = games.Clone(b) // formats moves for messages; never played on
	var snaps []snapshot
	for {
		snap := r.take(b)
		if err := r.checkPosition(b, snap); err != nil {
			return err
		}
		if err := r.checkChildren(b, snap, aux); err != nil {
			return err
		}
		if err := r.checkPositionText(b, snap, aux); err != nil {
			return err
		}
		snaps = append(snaps, snap)
		if snap.terminal {
			break
		}
		if len(r.moves) >= r.cfg.maxPlies {
			return r.fail("the game is not over after %d plies", len(r.moves))
		}
		m := choose(snap, rand)
		c := games.Clone(b)
		if d := diff(r.take(c), snap); d != "" {
			return r.fail("a fresh clone differs from its original: %s", d)
		}
		games.PlayFor(b, 0, m[0], m[1])
		if b.Ply() != snap.ply+1 {
			return r.fail("playing %s took ply %d to %d", r.format(m), snap.ply, b.Ply())
		}
		after := r.take(b)
		b.Undo()
		if d := diff(r.take(b), snap); d != "" {
			return r.fail("play+undo of %s: %s", r.format(m), d)
		}
		games.PlayFor(b, 0, m[0], m[1])
		if d := diff(r.take(b), after); d != "" {
			return r.fail("playing %s again after undo: %s", r.format(m), d)
		}
		// The clone, untouched while b played, must still be the old
		// position; playing and undoing on it must leave b alone.
		if err := r.checkClone(c, snaps, aux); err != nil {
			return err
		}
		if d := diff(r.take(b), after); d != "" {
			return r.fail("playing on a clone changed its original: %s", d)
		}
		r.moves = append(r.moves, m)
	}
	final := snaps[len(snaps)-1]
	if err := r.checkSameGame(snaps); err != nil {
		return err
	}
	if err := r.checkReplay(final); err != nil {
		return err
	}
	// Undo the whole game: back through the very same positions.
	for i := len(snaps) - 2; i >= 0; i-- {
		b.Undo()
		if d := diff(r.take(b), snaps[i]); d != "" {
			r.moves = r.moves[:i]
			return r.fail("undoing the game back to ply %d: %s", i, d)
		}
		if i%5 == 0 {
			if err := r.checkPlayout(b, snaps[i]); err != nil {
				r.moves = r.moves[:i]
				return err
			}
		}
	}
	return nil
}

// checkPositionText checks, for a state that writes its position as text
// (games.PositionWriter), that the variant's start position reads the text
// back (games.PositionReader) into the same position at ply 0, which writes
// the same text again, and from which a random game (drawn from rand) plays
// to its end with a sound hash and ply and undoes back to the same text.
func (r *runner) checkPositionText(b games.Base, snap snapshot, rand *rng.Rand) error {
	w, ok := b.(games.PositionWriter)
	if !ok {
		return nil
	}
	text := w.Position()
	c, err := games.ParsePosition(r.v, text)
	if err != nil {
		return r.fail("reading back its own position %q: %v", text, err)
	}
	got := r.take(c)
	if got.ply != 0 {
		return r.fail("a position read from %q has ply %d, want 0", text, got.ply)
	}
	got.ply = snap.ply
	if d := diff(got, snap); d != "" {
		return r.fail("the position read from %q differs: %s", text, d)
	}
	if again := c.(games.PositionWriter).Position(); again != text {
		return r.fail("the position read from %q writes %q", text, again)
	}
	for n := 1; !c.Terminal(); n++ {
		if n > r.cfg.maxPlies {
			return r.fail("a game played on from %q is not over after %d plies", text, n-1)
		}
		m := choose(r.take(c), rand)
		games.PlayFor(c, 0, m[0], m[1])
		if c.Ply() != n || c.ComputeHash() != c.Hash() {
			return r.fail("playing on from %q: ply %d (want %d) or hash drifts after %s", text, c.Ply(), n, r.format(m))
		}
	}
	for c.Ply() > 0 {
		c.Undo()
	}
	back := r.take(c)
	back.ply = snap.ply
	if d := diff(back, snap); d != "" {
		return r.fail("a game played on from %q and undone: %s", text, d)
	}
	if again := c.(games.PositionWriter).Position(); again != text {
		return r.fail("a game played on from %q and undone writes %q", text, again)
	}
	return nil
}

// CheckPositions is the text-position part of Check alone, and so cheap
// enough for many more games: it plays seeded random games of v (Games,
// Seed and MaxPlies apply) and, at every ply, reads the position back from
// its text and plays a random game on from it (see Check). It returns nil
// at once when v's states do not write their position as text.
func CheckPositions(v games.Variant, opts ...Option) (err error) {
	r := newRunner(v, opts)
	cfg := r.cfg
	defer func() {
		if p := recover(); p != nil {
			err = r.fail("panic: %v", p)
		}
	}()
	for g := range cfg.games {
		r.game, r.seed, r.moves = g, rng.Derive(cfg.seed, uint64(g)), r.moves[:0]
		rand, aux := rng.New(r.seed), rng.New(rng.Derive(r.seed, 2))
		b := v.New()
		if _, ok := b.(games.PositionWriter); !ok {
			return nil
		}
		r.shown = games.Clone(b)
		for {
			snap := r.take(b)
			if err := r.checkPositionText(b, snap, aux); err != nil {
				return err
			}
			if snap.terminal {
				break
			}
			if len(r.moves) >= cfg.maxPlies {
				return r.fail("the game is not over after %d plies", len(r.moves))
			}
			m := choose(snap, rand)
			games.PlayFor(b, 0, m[0], m[1])
			r.moves = append(r.moves, m)
		}
	}
	return nil
}

// choose picks a random move (a joint move for a SimState) in snap.
func choose(snap snapshot, rand *rng.Rand) [2]games.Move {
	var m [2]games.Move
	if snap.toMove == games.Both {
		for p := range 2 {
			m[p] = snap.legal[p][rand.IntN(len(snap.legal[p]))]
		}
		return m
	}
	l := snap.legal[snap.toMove]
	m[0] = l[rand.IntN(len(l))]
	return m
}

func (r *runner) format(m [2]games.Move) string {
	if games.Simultaneous(r.shown) {
		return fmt.Sprintf("%q | %q", r.shown.FormatMove(m[0]), r.shown.FormatMove(m[1]))
	}
	return fmt.Sprintf("%q", r.shown.FormatMove(m[0]))
}

// checkPosition checks one position on its own.
func (r *runner) checkPosition(b games.Base, snap snapshot) error {
	sim := games.Simultaneous(b)
	if snap.ply != len(r.moves) {
		return r.fail("Ply is %d after %d moves", snap.ply, len(r.moves))
	}
	if h := b.ComputeHash(); h != snap.hash {
		return r.fail("incremental hash %#x, from scratch %#x", snap.hash, h)
	}
	n0, n1 := len(snap.legal[0]), len(snap.legal[1])
	switch {
	case snap.terminal:
		if snap.toMove != games.None || n0+n1 != 0 {
			return r.fail("a finished game has player %d to move and legal moves %v", snap.toMove, snap.legal)
		}
		if err := r.checkOutcome(b, snap); err != nil {
			return err
		}
	case sim:
		if snap.toMove != games.Both || n0 == 0 || n1 == 0 {
			return r.fail("a simultaneous game in play has ToMove %d (want Both) and %d and %d legal moves", snap.toMove, n0, n1)
		}
	default:
		if snap.toMove != 0 && snap.toMove != 1 {
			return r.fail("a sequential game in play has ToMove %d (want 0 or 1)", snap.toMove)
		}
		if len(snap.legal[snap.toMove]) == 0 || len(snap.legal[1-snap.toMove]) != 0 {
			return r.fail("player %d to move, legal moves %v: the mover must have moves (passes are moves), the other none", snap.toMove, snap.legal)
		}
	}
	for p, e := range snap.eval {
		if e <= -games.WinScore || e >= games.WinScore {
			return r.fail("Evaluate(%d) = %d, outside (−WinScore, WinScore)", p, e)
		}
	}
	for p := range 2 {
		if err := r.checkMoves(b, p, snap.legal[p]); err != nil {
			return err
		}
	}
	if s, ok := b.(games.State); ok {
		return r.checkLegalChecker(s, snap)
	}
	return nil
}

// checkOutcome checks a finished game's result and evaluation.
func (r *runner) checkOutcome(b games.Base, snap snapshot) error {
	o := snap.outcome
	want, err := outcomeSign(o)
	if err != "" {
		return r.fail("%s", err)
	}
	if _, ok := b.(games.Evaluator); ok {
		for p, e := range snap.eval {
			if mine := want * (1 - 2*p); sign(e) != mine {
				return r.fail("finished game %+v: Evaluate(%d) = %d, want a value of sign %d", o, p, e, mine)
			}
		}
	}
	return nil
}

// outcomeSign returns the sign of o for player 0 (1 win, 0 draw, −1 loss),
// or what is wrong with o.
func outcomeSign(o games.Outcome) (int, string) {
	want := 0
	switch o.Winner {
	case 0:
		want = 1
	case 1:
		want = -1
	case games.Draw:
	default:
		return 0, fmt.Sprintf("outcome %+v: the winner is not 0, 1 or Draw", o)
	}
	if sign(o.Score) != want {
		return 0, fmt.Sprintf("outcome %+v: Score's sign disagrees with the winner (positive for player 0, zero for a draw)", o)
	}
	return want, ""
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// checkMoves checks player p's legal moves: distinct, approved by a
// MoveValidator, and round-tripping through the notation.
func (r *runner) checkMoves(b games.Base, p int, legal []games.Move) error {
	seen := make(map[games.Move]bool, len(legal))
	val, _ := b.(games.MoveValidator)
	for _, m := range legal {
		if seen[m] {
			return r.fail("player %d's move %q (%d) is listed twice", p, b.FormatMove(m), m)
		}
		seen[m] = true
		if val != nil && !val.ValidMove(p, m) {
			return r.fail("ValidMove(%d, %q) is false for a listed move", p, b.FormatMove(m))
		}
		if !r.cfg.notation {
			continue
		}
		text := b.FormatMove(m)
		back, err := b.ParseMove(text)
		switch {
		case err != nil:
			return r.fail("player %d's move %d formats as %q, which does not parse: %v", p, m, text, err)
		case back == m:
		case val == nil:
			return r.fail("player %d's move %d formats as %q, which parses to %d", p, m, text, back)
		default:
			// A MoveValidator game may read its text as another code:
			// that code must be valid, format alike, and play alike.
			if !val.ValidMove(p, back) || b.FormatMove(back) != text {
				return r.fail("player %d's move %q parses to %d, which is not valid or formats as %q", p, text, back, b.FormatMove(back))
			}
			if err := r.sameEffect(b, p, m, back); err != nil {
				return err
			}
		}
	}
	return nil
}

// sameEffect checks that p playing m or alt (against the other player's
// first listed move) reaches the same position.
func (r *runner) sameEffect(b games.Base, p int, m, alt games.Move) error {
	other := games.LegalMovesFor(b, 1-p, nil)
	var o games.Move
	if len(other) > 0 {
		o = other[0]
	}
	games.PlayFor(b, p, m, o)
	h, text := b.Hash(), r.text(b)
	b.Undo()
	games.PlayFor(b, p, alt, o)
	h2, text2 := b.Hash(), r.text(b)
	b.Undo()
	if h != h2 || text != text2 {
		return r.fail("player %d's move %q and its parsed text (code %d) play differently", p, b.FormatMove(m), alt)
	}
	return nil
}

// text renders b in the first game; later games rely on the hash alone
// where a position is rendered once per legal move.
func (r *runner) text(b games.Base) string {
	if r.game == 0 {
		return b.String()
	}
	return ""
}

// checkLegalChecker compares games.IsLegal and a LegalChecker with the list.
func (r *runner) checkLegalChecker(s games.State, snap snapshot) error {
	var listed []games.Move
	if !snap.terminal {
		listed = snap.legal[snap.toMove]
	}
	lc, _ := s.(games.LegalChecker)
	for m := range games.Move(codeRange) {
		want := slices.Contains(listed, m)
		if got := games.IsLegal(s, m); got != want {
			return r.fail("IsLegal(%d) = %v, but the move list says %v", m, got, want)
		}
		if lc != nil {
			if got := lc.Legal(m); got != want {
				return r.fail("Legal(%d) = %v, but the move list says %v", m, got, want)
			}
		}
	}
	for _, m := range listed {
		if m >= codeRange && !games.IsLegal(s, m) {
			return r.fail("IsLegal(%d) is false for a listed move", m)
		}
	}
	return nil
}

// checkChildren plays and undoes every legal move of the position (in a
// SimState each player's moves against a random move of the other).
func (r *runner) checkChildren(b games.Base, snap snapshot, rand *rng.Rand) error {
	if snap.terminal {
		return nil
	}
	for p := range 2 {
		l, other := snap.legal[p], snap.legal[1-p]
		if len(l) == 0 {
			continue
		}
		var o games.Move
		if len(other) > 0 {
			o = other[rand.IntN(len(other))]
		}
		for _, m := range l {
			games.PlayFor(b, p, m, o)
			if b.Ply() != snap.ply+1 {
				return r.fail("player %d playing %q took ply %d to %d", p, b.FormatMove(m), snap.ply, b.Ply())
			}
			if h := b.ComputeHash(); h != b.Hash() {
				return r.fail("after player %d's move %q: incremental hash %#x, from scratch %#x", p, b.FormatMove(m), b.Hash(), h)
			}
			b.Undo()
			// Rendering every child is slow in big games: the text is
			// compared in the first game only, the hash always.
			if b.Hash() != snap.hash || b.Ply() != snap.ply || b.ToMove() != snap.toMove || (r.game == 0 && b.String() != snap.text) {
				return r.fail("play+undo of player %d's move %q: %s", p, b.FormatMove(m), diff(r.take(b), snap))
			}
		}
	}
	return nil
}

// checkClone drives the clone c of the position snaps[len-1] (taken before
// its original moved on): it must still be that position, and its own
// history must lead back through every earlier position.
func (r *runner) checkClone(c games.Base, snaps []snapshot, rand *rng.Rand) error {
	k := len(snaps) - 1
	if d := diff(r.take(c), snaps[k]); d != "" {
		return r.fail("playing on the original changed its clone: %s", d)
	}
	played := 0
	for ; played < 8 && !c.Terminal(); played++ {
		var snap snapshot
		snap.toMove = c.ToMove()
		for p := range 2 {
			snap.legal[p] = games.LegalMovesFor(c, p, nil)
		}
		m := choose(snap, rand)
		games.PlayFor(c, 0, m[0], m[1])
	}
	for ; played > 0; played-- {
		c.Undo()
	}
	for i := k; i >= 0; i-- {
		if c.Hash() != snaps[i].hash || c.Ply() != i {
			return r.fail("a clone taken at ply %d, undone to ply %d: hash %#x ply %d, want %#x ply %d", k, i, c.Hash(), c.Ply(), snaps[i].hash, i)
		}
		if i > 0 {
			c.Undo()
		}
	}
	if d := diff(r.take(c), snaps[0]); d != "" {
		return r.fail("a clone taken at ply %d, undone to the start: %s", k, d)
	}
	return nil
}

// checkSameGame plays the game again from a fresh state with the same seed
// (making no other random choices) and expects the same positions.
func (r *runner) checkSameGame(snaps []snapshot) error {
	rand := rng.New(r.seed)
	b := r.v.New()
	moves := r.moves
	defer func() { r.moves = moves }()
	for i, want := range snaps {
		r.moves = moves[:i]
		got := r.take(b)
		if d := diff(got, want); d != "" {
			return r.fail("the same moves on a fresh state: %s", d)
		}
		if got.terminal {
			break
		}
		m := choose(got, rand)
		if m != moves[i] {
			return r.fail("the same seed chose %s on a fresh state, not %s", r.format(m), r.format(moves[i]))
		}
		games.PlayFor(b, 0, m[0], m[1])
	}
	return nil
}

// checkReplay replays a sequential game's transcript with games.Replay.
func (r *runner) checkReplay(final snapshot) error {
	s, ok := r.v.New().(games.State)
	if !ok || !r.cfg.notation {
		return nil
	}
	texts := make([]string, len(r.moves))
	for i, m := range r.moves {
		texts[i] = r.shown.FormatMove(m[0])
	}
	t, err := games.Replay(r.v.String(), s, texts)
	if err != nil {
		var ill *games.IllegalMoveError
		if errors.As(err, &ill) {
			return r.fail("games.Replay rejects the game's own move %d: %v", ill.Ply, err)
		}
		return r.fail("games.Replay: %v", err)
	}
	if s.Hash() != final.hash || t.Final.Terminal != final.terminal || t.Final.ToMove != final.toMove || t.Final.Board != final.text {
		return r.fail("games.Replay reaches another position: %+v", t.Final)
	}
	if final.terminal && t.Final.Result != final.outcome.Result() {
		return r.fail("games.Replay's result %s, the game's %s", t.Final.Result, final.outcome.Result())
	}
	return nil
}

// checkPlayout checks that a Playouter's playout, and the generic loop,
// leave the state unchanged and return a well-formed outcome. Whether the
// fast playout draws exactly what the generic loop draws is each game's own
// design (Othello passes without a draw) and is tested by the game.
func (r *runner) checkPlayout(b games.Base, snap snapshot) error {
	s, ok := b.(games.State)
	if !ok {
		return nil
	}
	seed := rng.Derive(r.seed, uint64(snap.ply), 1)
	var outs []games.Outcome
	if pl, ok := s.(games.Playouter); ok {
		outs = append(outs, pl.RandomPlayout(rng.New(seed)))
		if d := diff(r.take(b), snap); d != "" {
			return r.fail("RandomPlayout changed the state: %s", d)
		}
	}
	outs = append(outs, games.RandomPlayout(hidePlayouter{s}, rng.New(seed)))
	if d := diff(r.take(b), snap); d != "" {
		return r.fail("games.RandomPlayout changed the state: %s", d)
	}
	for _, o := range outs {
		if _, err := outcomeSign(o); err != "" {
			return r.fail("a random playout: %s", err)
		}
	}
	if snap.terminal && outs[0] != snap.outcome {
		return r.fail("a playout from a finished game returned %+v, not its outcome %+v", outs[0], snap.outcome)
	}
	return nil
}

// hidePlayouter hides a state's RandomPlayout, so that games.RandomPlayout
// takes its generic loop.
type hidePlayouter struct{ games.State }
