// Package erdos implements Erdős Latino (Jorge Nuno Silva, 2011) exactly as
// the project's rules specification gives it (summarised here), on 25-bit
// masks.
//
// # Rules in brief
//
// Two players take turns placing a unit of level 1–5 on an empty cell of a
// 5×5 board, so that no unit of that level stands anywhere in the same row or
// column (a Latin-square constraint; there is no pass). Each column can be
// captured once and for all: a placement in an uncontrolled column that makes
// a strictly increasing run of three levels reading bottom→top gives the
// column to the first player, one increasing top→bottom gives it to the
// second; gaps are allowed, the mover wins a tie, and a placement that only
// makes the opponent's run hands the column to the opponent. Units in a
// controlled column take the controller's colour, and later units placed
// there join it. The game ends when the board is full (the first player's
// 13th placement; more controlled columns wins, "column count") or when the
// player to move has no legal placement (the player who just placed wins,
// "starvation").
//
// # Board and notation
//
// Cells are a1…e5: file a–e left to right, rank 1–5 bottom to top (rank 1 is
// the first player's side). Cell index = 5·(rank−1) + file; bit i of a uint32
// is cell i. A move is written cell:level, e.g. "c3:1"; its code is
// 25·(level−1) + cell, so the 125 codes are dense. ParseMove accepts upper
// case and surrounding spaces; FormatMove writes the canonical lower-case form.
//
// # Variant algol
//
// The spec "erdos:algol" reproduces the two quirks of the Algol web engine
// (spec §4). Q1: on the second player's turns a chain in which the new unit is
// the middle element is recognised only when the new level is below the
// minimum (not the maximum) of the units on the far side; chains with the new
// unit at an end, and everything on the first player's turns, are recognised
// correctly. Q2: on a full board the columns are counted as they stood before
// the 25th placement. Legal moves and starvation are the same in both rule
// sets, so perft counts are too. Where the spec is silent we follow the
// engine it describes: a column is examined only for chains through the unit
// just placed (the engine looks at the target cell), so a chain the engine
// missed is not picked up by a later placement elsewhere in the column; a new
// chain through a later unit captures it as usual. In the standard rules an
// uncontrolled column never holds a chain, so the two readings agree there.
// Under algol a full column can therefore stay neutral, and full boards end
// in draws both ways: the stale count alone turns a one-column win into a
// draw (2–2) but can never reverse a winner, since the last placement moves
// the count by at most one column; winners reversed against the standard
// rules come from Q1 (the tests hold such a game).
//
// # Outcome
//
// Outcome().Score is from the first player's view: on a full board the
// column difference (first player's columns minus the second's; under algol
// the stale count of Q2, so it may be 0, a draw), after starvation +1 or −1
// (the winner's sign; starvation has no natural margin). EndReason tells the
// two endings apart.
//
// # Positions as text
//
// Position (games.PositionWriter) writes the board as five ranks, rank 5
// first, each five cells a→e of a level 1–5 or '.', separated by '/', then a
// space and each column's controller a→e: 1 (first player), 2 (second) or
// '-'. The empty board is "...../...../...../...../..... -----". A unit's
// colour follows from its column's controller and the player to move from
// the number of units (the first player moves when it is even), so neither
// is written. Under the algol rules a full board adds a third field, the
// column difference (first minus second) that quirk Q2 counted before the
// last placement, e.g. "-1": the board alone cannot tell it. ParsePosition
// (and ReadPosition, games.PositionReader, under the receiver's rules)
// reads it back with Ply 0 and no history, and rejects a level twice in a row
// or column, a controller without its increasing run of three in the column,
// an uncontrolled column holding such a run (standard rules only: the Algol
// engine can miss one), and a third field that is missing, extra, or more
// than one column from the board's count.
//
// # Implementation
//
// The state keeps the occupied cells, per level the cells blocked by a unit
// of that level in the same row or column (updated with one row and one
// column mask per placement, so the legal placements of a level are
// ^(occupied|blocked)), the cells owned by each player, the controlled
// columns, and each column's levels as a base-6 code. Chains are read from a
// table indexed by (column code, rank of the new unit): four bits give the
// first- and second-player chains through that unit under the correct test
// and under the engine's test on the second player's turns. Zobrist keys are
// per (cell, level) for the placement plus per (cell, owner) for the colour,
// so a capture costs one XOR per unit. Play saves the whole 64-byte board in a
// fixed undo stack, so Play, Undo and LegalMoves never allocate. RandomPlayout
// works on a copy of the board without the hash; PerftBulk copies boards by
// value and counts the last ply by population count.
//
// String shows the board as in the spec (level.owner, owner 0 neutral, 1 or 2
// a player), a "col" line with each column's controller under its letter,
// and whose turn it is or the result with the reason and the column count.
//
// # Evaluation
//
// Evaluate (for greedy and alpha-beta) is, from the asking player's view,
// 100 per controlled column more than the opponent, plus 10 per uncontrolled
// column in which the player would capture with some legal placement if it
// were their turn, minus the same count for the opponent. A finished game
// scores ±(WinScore/2 + 1000·|Score|), 0 for a draw. The two weights are
// named column and threat (games.Weighted), so an agent can play or tune
// others: greedy:eval.threat=25.
package erdos

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

// Size is the board's side length and the number of levels.
const Size = 5

// Cells is the number of cells.
const Cells = Size * Size

// MaxPlies bounds the game length: one unit per cell, no passes.
const MaxPlies = Cells

// NumMoves is the number of move codes (cell × level).
const NumMoves = Cells * Size

// Rules selects the rule set.
type Rules uint8

const (
	// Standard is the rule set of the spec (§1–3).
	Standard Rules = iota
	// Algol adds the Algol engine's quirks Q1 and Q2 (§4).
	Algol
)

func (r Rules) String() string {
	if r == Algol {
		return "algol"
	}
	return "standard"
}

// EndReason says how a game ended.
type EndReason uint8

const (
	// NotOver means the game goes on.
	NotOver EndReason = iota
	// ColumnCount means the board filled up and the columns were counted.
	ColumnCount
	// Starvation means the player to move had no legal placement.
	Starvation
)

func (r EndReason) String() string {
	switch r {
	case ColumnCount:
		return "column count"
	case Starvation:
		return "starvation"
	}
	return "not over"
}

const (
	full    uint32 = 1<<Cells - 1
	fileA   uint32 = 1 | 1<<5 | 1<<10 | 1<<15 | 1<<20 // a1…a5
	rank1   uint32 = 1<<Size - 1                      // a1…e1
	neutral        = -1                               // owner of a unit in an uncontrolled column
)

// lines[cell] is the cell's row and column: the cells a unit there blocks
// for its level.
var lines [Cells]uint32

// pow6[r] is the weight of rank r in a column code.
var pow6 = [Size]uint16{1, 6, 36, 216, 1296}

func init() {
	for c := range lines {
		lines[c] = rank1<<(Size*(c/Size)) | fileA<<(c%Size)
	}
	games.Register(&games.Entry{
		Name:     "erdos",
		Title:    "Erdős Latino",
		Notation: "cell:level, e.g. c3:1 (file a–e left→right, rank 1–5 bottom→top, level 1–5)",
		Options: []games.Option{{
			Key:  "algol",
			Help: "reproduce the Algol engine: missed middle chains on the second player's turns, stale full-board count",
		}},
		Variants: []string{"erdos:algol"},
		New: func(s spec.Spec) (games.Base, error) {
			if err := s.Check("algol"); err != nil {
				return nil, err
			}
			algol, err := s.Bool("algol", false)
			if err != nil {
				return nil, err
			}
			if algol {
				return New(Algol), nil
			}
			return New(Standard), nil
		},
	})
}

// board is the complete position; the undo stack stores copies of it.
type board struct {
	occ     uint32       // cells holding a unit
	blocked [Size]uint32 // blocked[l]: cells sharing a row or column with a unit of level l+1
	own     [2]uint32    // own[p]: units coloured for player p
	code    [Size]uint16 // code[f]: column f's levels, Σ level·6^rank (0 = empty)
	ctrl    [2]uint8     // ctrl[p]: files controlled by player p
	side    uint8        // player to move (or who would be, once over)
	ply     uint8        // units on the board
	reason  EndReason    // NotOver while the game goes on
	winner  int8         // games.Draw, 0 or 1 once over
	score   int8         // Outcome.Score once over
	algol   bool         // rules variant, constant for a game
	hash    uint64       // Zobrist hash of the position
}

// State is an Erdős Latino position with its history.
type State struct {
	b     board
	start uint8 // units on the board when the state was made (ParsePosition)
	hist  [MaxPlies]board
	// weights of Evaluate (games.Weighted); nil for the defaults. Shared
	// by clones, never written through.
	weights []int
}

// New returns the empty board under the given rules.
func New(r Rules) *State {
	chainsOnce.Do(buildChains)
	s := &State{}
	s.b.algol = r == Algol
	s.b.hash = s.b.computeHash()
	return s
}

// Rules returns the rule set of the game.
func (s *State) Rules() Rules {
	if s.b.algol {
		return Algol
	}
	return Standard
}

// MoveOf returns the move placing a unit of level (1–5) on cell (0–24).
func MoveOf(cell, level int) games.Move { return games.Move((level-1)*Cells + cell) }

// Decode returns the cell (0–24) and level (1–5) of a move code below NumMoves.
func Decode(m games.Move) (cell, level int) { return int(m) % Cells, int(m)/Cells + 1 }

// CellName returns the name of cell i, e.g. "c3".
func CellName(i int) string { return string([]byte{'a' + byte(i%Size), '1' + byte(i/Size)}) }

// ToMove implements games.Base.
func (s *State) ToMove() int {
	if s.b.reason != NotOver {
		return games.None
	}
	return int(s.b.side)
}

// Terminal implements games.Base.
func (s *State) Terminal() bool { return s.b.reason != NotOver }

// EndReason returns how the game ended, or NotOver.
func (s *State) EndReason() EndReason { return s.b.reason }

// Outcome implements games.Base; see the package comment for Score.
func (s *State) Outcome() games.Outcome {
	return games.Outcome{Winner: int(s.b.winner), Score: int(s.b.score)}
}

// Ply implements games.Base.
func (s *State) Ply() int { return int(s.b.ply - s.start) }

// Hash implements games.Base.
func (s *State) Hash() uint64 { return s.b.hash }

// ComputeHash implements games.Base: the hash from scratch.
func (s *State) ComputeHash() uint64 { return s.b.computeHash() }

// Level returns the level (1–5) of the unit on cell i, or 0 if it is empty.
func (s *State) Level(i int) int { return s.b.level(i) }

func (b *board) level(i int) int {
	return int(b.code[i%Size]/pow6[i/Size]) % 6
}

// Owner returns the colour of the unit on cell i: 0 or 1 for a player, −1
// for a neutral unit or an empty cell.
func (s *State) Owner(i int) int {
	switch {
	case s.b.own[0]&(1<<i) != 0:
		return 0
	case s.b.own[1]&(1<<i) != 0:
		return 1
	}
	return neutral
}

// Controller returns the player controlling file f (0 = a … 4 = e), or −1.
func (s *State) Controller(f int) int {
	switch {
	case s.b.ctrl[0]&(1<<f) != 0:
		return 0
	case s.b.ctrl[1]&(1<<f) != 0:
		return 1
	}
	return neutral
}

// Columns returns how many columns each player controls.
func (s *State) Columns() (first, second int) {
	return bits.OnesCount8(s.b.ctrl[0]), bits.OnesCount8(s.b.ctrl[1])
}

// legal returns the cells where a unit of level l+1 may be placed.
func (b *board) legal(l int) uint32 { return full &^ (b.occ | b.blocked[l]) }

// anyLegal reports whether some placement is legal.
func (b *board) anyLegal() bool {
	free := full &^ b.occ
	return free&^b.blocked[0]|free&^b.blocked[1]|free&^b.blocked[2]|
		free&^b.blocked[3]|free&^b.blocked[4] != 0
}

// LegalMoves implements games.State: by level, then by cell index.
func (s *State) LegalMoves(buf []games.Move) []games.Move {
	if s.b.reason != NotOver {
		return buf
	}
	for l := 0; l < Size; l++ {
		for m := s.b.legal(l); m != 0; m &= m - 1 {
			buf = append(buf, games.Move(l*Cells+bits.TrailingZeros32(m)))
		}
	}
	return buf
}

// NumLegal returns the number of legal moves.
func (s *State) NumLegal() int {
	if s.b.reason != NotOver {
		return 0
	}
	n := 0
	for l := 0; l < Size; l++ {
		n += bits.OnesCount32(s.b.legal(l))
	}
	return n
}

// Legal implements games.LegalChecker.
func (s *State) Legal(m games.Move) bool {
	return s.b.reason == NotOver && m < NumMoves && s.b.legal(int(m)/Cells)>>(m%Cells)&1 != 0
}

// Play implements games.State. It trusts m to be legal.
func (s *State) Play(m games.Move) {
	s.hist[s.b.ply] = s.b
	s.b.place(int(m)%Cells, int(m)/Cells)
}

// Undo implements games.Base.
func (s *State) Undo() {
	if s.b.ply == s.start {
		panic("erdos: Undo with no move played")
	}
	s.b = s.hist[s.b.ply-1]
}

// Clone implements games.State.
func (s *State) Clone() games.State {
	c := *s
	return &c
}

// place puts a unit of level l+1 on cell i for the player to move, settles
// the column, the hash and the end of the game, and passes the turn.
func (b *board) place(i, l int) {
	before := b.ctrl
	x, coloured := b.put(i, l)
	h := b.hash ^ placeKeys[l*Cells+i] ^ sideKey
	for ; coloured != 0; coloured &= coloured - 1 {
		h ^= ownKeys[x][bits.TrailingZeros32(coloured)]
	}
	b.hash = h
	switch {
	case b.ply == Cells:
		b.countColumns(before)
	case !b.anyLegal():
		b.starve()
	}
}

// put places a unit of level l+1 on cell i for the player to move, settles
// the column and passes the turn, leaving the hash and the end of the game to
// the caller. It returns the player whose colour the cells coloured took.
func (b *board) put(i, l int) (x int, coloured uint32) {
	p := int(b.side)
	f, r := i%Size, i/Size
	bit := uint32(1) << i
	b.occ |= bit
	b.blocked[l] |= lines[i]
	b.code[f] += uint16(l+1) * pow6[r]
	b.ply++
	b.side ^= 1
	fb := uint8(1) << f
	switch {
	case b.ctrl[0]&fb != 0:
		x, coloured = 0, bit
	case b.ctrl[1]&fb != 0:
		x, coloured = 1, bit
	default:
		if x = b.captor(f, r, p); x < 0 {
			return x, 0
		}
		b.ctrl[x] |= fb
		coloured = b.occ & (fileA << f)
	}
	b.own[x] |= coloured
	return x, coloured
}

// countColumns ends a full board by column count; before is the control
// before the last placement, which the algol rules count (Q2).
func (b *board) countColumns(before [2]uint8) {
	cols := b.ctrl
	if b.algol {
		cols = before
	}
	d := bits.OnesCount8(cols[0]) - bits.OnesCount8(cols[1])
	b.reason, b.score = ColumnCount, int8(d)
	switch {
	case d > 0:
		b.winner = 0
	case d < 0:
		b.winner = 1
	default:
		b.winner = games.Draw
	}
}

// starve ends the game because the player to move cannot place: the player
// who placed last wins.
func (b *board) starve() {
	last := 1 - int(b.side)
	b.reason, b.winner, b.score = Starvation, int8(last), int8(1-2*last)
}

// captor returns who captures uncontrolled column f when player p has just
// placed the unit on rank r (already counted in the column code), or −1.
func (b *board) captor(f, r, p int) int {
	t := chains[int(b.code[f])*Size+r]
	if b.algol && p == 1 {
		t >>= 2 // the engine's test on the second player's turns
	}
	switch {
	case t&(1<<p) != 0:
		return p
	case t&(2>>p) != 0:
		return 1 - p
	}
	return neutral
}

// FormatMove implements games.Base.
func (s *State) FormatMove(m games.Move) string { return FormatMove(m) }

// FormatMove writes m as cell:level, e.g. "c3:1".
func FormatMove(m games.Move) string {
	if m >= NumMoves {
		return fmt.Sprintf("?%d", m)
	}
	return moveNames[m]
}

// moveNames holds every move's notation, so formatting does not allocate.
var moveNames = func() (names [NumMoves]string) {
	for m := range games.Move(NumMoves) {
		i, l := Decode(m)
		names[m] = string([]byte{'a' + byte(i%Size), '1' + byte(i/Size), ':', '0' + byte(l)})
	}
	return names
}()

// ParseMove implements games.Base.
func (s *State) ParseMove(text string) (games.Move, error) { return ParseMove(text) }

// ParseMove reads a move such as "c3:1" (case-insensitive, spaces around it
// ignored). It checks the syntax, not legality.
func ParseMove(text string) (games.Move, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if len(t) != 4 || t[0] < 'a' || t[0] > 'e' || t[1] < '1' || t[1] > '5' ||
		t[2] != ':' || t[3] < '1' || t[3] > '5' {
		return 0, fmt.Errorf("erdos: bad move %q: want cell:level such as c3:1 (cells a1…e5, levels 1–5)", text)
	}
	return MoveOf(int(t[1]-'1')*Size+int(t[0]-'a'), int(t[3]-'0')), nil
}

// String implements games.Base: the board as in the spec, top rank first,
// each unit as level.owner (owner 1 or 2 for a player, 0 neutral), a "col"
// line with each column's controller (1, 2 or -), then whose turn it is or
// the result, with the column count.
func (s *State) String() string {
	var sb strings.Builder
	for r := Size - 1; r >= 0; r-- {
		line := []byte(fmt.Sprintf("%d%25s", r+1, ""))
		for f := 0; f < Size; f++ {
			i := r*Size + f
			at := 4 + 5*f // the column letter's position
			if lv := s.Level(i); lv == 0 {
				line[at] = '.'
			} else {
				line[at-1], line[at], line[at+1] = byte('0'+lv), '.', byte('0'+s.Owner(i)+1)
			}
		}
		sb.WriteString(strings.TrimRight(string(line), " "))
		sb.WriteByte('\n')
	}
	sb.WriteString("    a    b    c    d    e\n")
	sb.WriteString("col") // the controller of each column, under its letter
	for f := 0; f < Size; f++ {
		c := byte('-')
		if x := s.Controller(f); x >= 0 {
			c = byte('1' + x)
		}
		if f > 0 {
			sb.WriteString("   ")
		}
		sb.WriteByte(' ')
		sb.WriteByte(c)
	}
	sb.WriteByte('\n')
	c1, c2 := s.Columns()
	rules := ""
	if s.b.algol {
		rules = " (algol rules)"
	}
	switch o := s.Outcome(); {
	case s.b.reason == NotOver:
		fmt.Fprintf(&sb, "player %d to move; columns %d–%d%s", s.b.side+1, c1, c2, rules)
	case o.Winner == games.Draw:
		fmt.Fprintf(&sb, "game over by %s: draw, %s; columns %d–%d%s", s.b.reason, o.Result(), c1, c2, rules)
	default:
		fmt.Fprintf(&sb, "game over by %s: player %d wins, %s; columns %d–%d%s",
			s.b.reason, o.Winner+1, o.Result(), c1, c2, rules)
	}
	return sb.String()
}

// Zobrist keys, fixed by a constant seed so hashes are stable across runs.
var (
	placeKeys [NumMoves]uint64 // by move code: a unit of a level on a cell
	ownKeys   [2][Cells]uint64 // the unit on a cell coloured for a player
	sideKey   uint64
)

func init() {
	r := rng.New(0xe4d05)
	for i := range placeKeys {
		placeKeys[i] = r.Uint64()
	}
	for p := range ownKeys {
		for i := range ownKeys[p] {
			ownKeys[p][i] = r.Uint64()
		}
	}
	sideKey = r.Uint64()
}

// computeHash recomputes the hash from scratch (tests compare it with the
// incremental one).
func (b *board) computeHash() uint64 {
	var h uint64
	for i := 0; i < Cells; i++ {
		if l := b.level(i); l > 0 {
			h ^= placeKeys[(l-1)*Cells+i]
		}
		for p := range b.own {
			if b.own[p]&(1<<i) != 0 {
				h ^= ownKeys[p][i]
			}
		}
	}
	if b.side == 1 {
		h ^= sideKey
	}
	return h
}
