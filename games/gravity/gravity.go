// Package gravity implements Gravity Connect, exactly as the project's rules
// specification gives it (summarised here): two players slide tiles into a 9×9 grid
// from its four edges and try to make five in a row.
//
// # Board and notation
//
// Cells are A1…I9: column letter A–I left to right, row number 1–9 top to
// bottom. Cell index = 9·(row−1) + column. The first player (X) moves first.
// A move is a slot, a side and a line, written as two characters:
//
//	TA…TI  top end of columns A–I (the tile travels down)
//	BA…BI  bottom end of columns A–I (the tile travels up)
//	L1…L9  left end of rows 1–9 (the tile travels right)
//	R1…R9  right end of rows 1–9 (the tile travels left)
//
// ParseMove is case-insensitive and also reads the labels of the original
// rules text: "1"…"9" for L1…L9, "10"…"18" for R1…R9 and a bare column
// letter "A"…"I" for TA…TI; FormatMove always writes the canonical form.
//
// For example, on the empty board R3 slides to A3; then L3 enters at B3
// and stops on I3; then TA stops on A2, against the tile on A3.
//
// # Rules
//
// A slot is legal when its line has an empty cell and its side differs from
// the side of the mover's own previous move (the opponent's sides do not
// matter; a first move is unrestricted). The tile enters at the first empty
// cell seen from the slot's edge and keeps travelling while the next cell is
// empty: it lands at the far end of the first run of empty cells. Two slots
// that land on the same cell are different moves, since they ban different
// sides for the mover's next turn.
//
// After a placement the mover wins with five or more own tiles in a row,
// column or diagonal (overlines count); otherwise a full board (81 tiles,
// always right after the first player's 41st) is a win for the second
// player. A player without a legal move before the board is full cannot
// occur (an empty cell opens its row and column from four sides, at most one
// of which is banned); should it happen, it is treated as a full board.
// There are no draws. Outcome.Score is +1 when the first player wins and −1
// when the second does.
//
// # Positions as text
//
// Position (games.PositionWriter) writes three fields: the board as nine
// rows, row 1 first, each nine cells A→I of X, O or '.', separated by '/';
// the side each player used last, X's then O's, as T, B, L, R or '-' before
// its first move (the side it may not use next); and the last move as
// slot>cell, e.g. TE>E9, or '-' before the first (String shows it, and the
// board alone cannot always tell where the last tile landed). The player to
// move follows from the tile counts. The start is nine rows of "........."
// then "-- -". ParsePosition (and ReadPosition, games.PositionReader) reads
// it back with Ply 0 and no history, and rejects tile counts X's moving
// first cannot give, a last side for a player without tiles or none for one
// with tiles, a last move whose tile is not the last mover's, is not from its
// last side, or would land elsewhere, five in a row for the player to move,
// and a five the last mover had before its last move. It does not check
// that every other tile could have come to rest where it stands.
//
// # Implementation
//
// Each player's tiles are kept as 9-bit line masks, one per row, column and
// diagonal in both directions (bit i of a row or diagonal mask is column i,
// bit i of a column mask is row i). A landing cell is found from the line's
// occupancy with two bit scans: the first empty cell from the entry edge,
// then the nearest occupied cell beyond it. Five in a row is a shifted-mask
// test (x & x>>1 & … & x>>4) on the four line masks through the new tile;
// a five elsewhere would have ended the game before this move. A 36-bit mask of slots whose
// line is not yet full, minus the nine slots of the mover's banned side,
// gives the legal moves. Play and Undo touch four of the mover's masks, the
// Zobrist hash covers tiles, both players' banned sides and the side to
// move, and the undo stack lives inside the state, so Play, Undo and
// LegalMoves never allocate.
//
// # Evaluation
//
// Evaluate (used by greedy and alpha-beta) looks at every 5-cell window in
// every row, column and diagonal (140 of them). A window holding tiles of
// only one player is worth 1, 3, 9 or 27 to that player for 1, 2, 3 or 4
// tiles. An empty cell that would complete five for a player is a winning
// cell, worth 40 once however many windows it completes; a winning cell that
// is also the landing cell of one of that player's legal slots (with their
// current banned side) is a threat, worth 150 more for the player who is not
// to move. If the player to move has such a threat, they win on the spot:
// the position scores ±WinScore/4. A finished game scores ±WinScore/2. The
// second player's full-board win is left to search; it has no term. The
// weights are named window1 to window4, wincell and threat (games.Weighted),
// so an agent can play or tune others: alphabeta:eval.threat=200.
package gravity

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

// Size is the board's side length.
const Size = 9

// Cells is the number of cells; the board is full after Cells plies.
const Cells = Size * Size

// Slots is the number of moves (4 sides × 9 lines).
const Slots = 4 * Size

// MaxPlies bounds the game length: every ply adds one tile.
const MaxPlies = Cells

// The sides a tile can enter from. A slot (move) is side·9 + line, where the
// line is a column (Top, Bottom) or a row (Left, Right).
const (
	Top    = 0
	Bottom = 1
	Left   = 2
	Right  = 3
	// NoSide is a player's previous side before their first move.
	NoSide = 4
)

const (
	lineFull  uint16 = 1<<Size - 1
	lineSlots uint64 = 1<<Size - 1
	allSlots  uint64 = 1<<Slots - 1
	nLines           = 2*Size - 1 // diagonals per direction
)

// Directions of the line masks.
const (
	dirRow  = iota // lines[p][dirRow][r], bit c
	dirCol         // lines[p][dirCol][c], bit r
	dirDiag        // lines[p][dirDiag][r-c+8], bit c (down-right)
	dirAnti        // lines[p][dirAnti][r+c], bit c (down-left)
)

func init() {
	games.Register(&games.Entry{
		Name:     "gravity",
		Title:    "Gravity Connect",
		Notation: "slot TA…TI / BA…BI (top/bottom of columns A–I), L1…L9 / R1…R9 (left/right of rows 1–9, top→bottom)",
		New: func(s spec.Spec) (games.Base, error) {
			if err := s.Check(); err != nil {
				return nil, err
			}
			return New(), nil
		},
	})
}

// board is the position without history: what a playout needs to copy.
type board struct {
	lines [2][4][nLines]uint16 // each player's tiles as line masks
	open  uint64               // slots whose line still has an empty cell
	last  [2]uint8             // each player's previous side, NoSide at first
}

// How a game ended.
const (
	endNone = iota
	endFive
	endFull
)

type undoEntry struct {
	hash uint64
	open uint64
	cell uint8 // where the tile landed
	slot uint8 // the move, for String
	last uint8 // the mover's previous side before this move
}

// State is a Gravity Connect position with its history.
type State struct {
	board
	hash  uint64
	ply   int   // tiles on the board; the player to move is ply&1
	start int   // tiles on the board when the state was made (ParsePosition)
	end   uint8 // endNone, endFive (the last mover won) or endFull (second player won)
	hist  [MaxPlies]undoEntry
	// weights of Evaluate (games.Weighted); nil for the defaults. Shared
	// by clones, never written through.
	weights []int
}

// New returns the start position: an empty board, the first player to move.
func New() *State {
	s := &State{}
	s.open = allSlots
	s.last = [2]uint8{NoSide, NoSide}
	s.hash = s.computeHash()
	return s
}

// landFromLow returns the landing index of a tile entering the 9-bit line
// occ at index 0 and travelling up: the last cell of the first empty run.
// The line must have an empty cell.
func landFromLow(occ uint16) int {
	first := bits.TrailingZeros16(^occ) // first empty cell
	// The sentinel bit 9 stops a tile that meets nothing at index 8.
	return first + bits.TrailingZeros16((occ|1<<Size)>>uint(first)) - 1
}

// landFromHigh mirrors landFromLow for a tile entering at index 8.
func landFromHigh(occ uint16) int {
	first := bits.Len16(^occ&lineFull) - 1 // first empty cell from the top
	// Bit i+1 of t is cell i below first; bit 0 is a sentinel for index −1.
	t := (occ<<1 | 1) & (2<<uint(first) - 1)
	return bits.Len16(t) - 1
}

// fiveIn returns a non-zero value when the line mask x has five consecutive bits.
func fiveIn(x uint16) uint16 {
	y := x & (x >> 1)
	y &= y >> 2
	return y & (x >> 4)
}

// landing returns the row and column where slot's tile would land. It has
// no branches: the side decides by masks which line to read, which end to
// enter from and whether the landing index is a row or a column.
func (b *board) landing(slot int) (r, c int) {
	side, line := uint(slot)/Size, uint(slot)%Size
	dir := (side>>1 ^ 1) & 1 // dirCol for Top and Bottom, dirRow for Left and Right
	occ := b.lines[0][dir][line] | b.lines[1][dir][line]
	pos, high := landFromLow(occ), landFromHigh(occ)
	pos ^= (pos ^ high) & -int(side&1) // Bottom and Right enter at index 8
	r, c = int(line), pos
	swap := (r ^ c) & -int(dir) // a column's landing index is a row
	return r ^ swap, c ^ swap
}

// place drops player p's tile through slot, which must be open, and reports
// the cell and whether p now has five in a row. It records slot's side as
// p's previous side.
func (b *board) place(p, slot int) (cell int, five bool) {
	r, c := b.landing(slot)
	bit := uint16(1) << uint(c)
	l := &b.lines[p]
	row := l[dirRow][r] | bit
	col := l[dirCol][c] | 1<<uint(r)
	diag := l[dirDiag][r-c+Size-1] | bit
	anti := l[dirAnti][r+c] | bit
	l[dirRow][r], l[dirCol][c], l[dirDiag][r-c+Size-1], l[dirAnti][r+c] = row, col, diag, anti
	if row|b.lines[1-p][dirRow][r] == lineFull {
		b.open &^= (1<<(Left*Size) | 1<<(Right*Size)) << uint(r)
	}
	if col|b.lines[1-p][dirCol][c] == lineFull {
		b.open &^= (1<<(Top*Size) | 1<<(Bottom*Size)) << uint(c)
	}
	b.last[p] = uint8(slot / Size)
	return r*Size + c, fiveIn(row)|fiveIn(col)|fiveIn(diag)|fiveIn(anti) != 0
}

// unplace removes player p's tile from cell (the caller restores open and last).
func (b *board) unplace(p, cell int) {
	r, c := cell/Size, cell%Size
	bit := uint16(1) << uint(c)
	l := &b.lines[p]
	l[dirRow][r] &^= bit
	l[dirCol][c] &^= 1 << uint(r)
	l[dirDiag][r-c+Size-1] &^= bit
	l[dirAnti][r+c] &^= bit
}

// legal returns player p's legal slots as a 36-bit mask.
func (b *board) legal(p int) uint64 {
	return b.open &^ (lineSlots << (Size * uint(b.last[p])))
}

// owner returns 0 or 1 for the player whose tile is on (r, c), or -1.
func (b *board) owner(r, c int) int {
	for p := range 2 {
		if b.lines[p][dirRow][r]>>uint(c)&1 != 0 {
			return p
		}
	}
	return -1
}

// Owner returns the player (0 or 1) whose tile is on cell, or -1 if it is empty.
func (s *State) Owner(cell int) int { return s.owner(cell/Size, cell%Size) }

// LastSide returns player p's previous side (Top…Right), the side p may not
// use next, or NoSide before p's first move.
func (s *State) LastSide(p int) int { return int(s.last[p]) }

// Landing returns the cell where the tile of slot m would land now, or -1
// when m's line is full.
func (s *State) Landing(m games.Move) int {
	if m >= Slots || s.open>>uint(m)&1 == 0 {
		return -1
	}
	r, c := s.landing(int(m))
	return r*Size + c
}

// ToMove implements games.Base.
func (s *State) ToMove() int {
	if s.end != endNone {
		return games.None
	}
	return s.ply & 1
}

// Terminal implements games.Base.
func (s *State) Terminal() bool { return s.end != endNone }

// Ply implements games.Base.
func (s *State) Ply() int { return s.ply - s.start }

// Hash implements games.Base.
func (s *State) Hash() uint64 { return s.hash }

// ComputeHash implements games.Base: the hash from scratch.
func (s *State) ComputeHash() uint64 { return s.computeHash() }

// LegalMask returns the legal slots of the player to move, bit m for move m
// (0 once the game is over).
func (s *State) LegalMask() uint64 {
	if s.end != endNone {
		return 0
	}
	return s.legal(s.ply & 1)
}

// LegalMoves implements games.State, in slot order TA…TI, BA…BI, L1…L9, R1…R9.
func (s *State) LegalMoves(buf []games.Move) []games.Move {
	for m := s.LegalMask(); m != 0; m &= m - 1 {
		buf = append(buf, games.Move(bits.TrailingZeros64(m)))
	}
	return buf
}

// Legal implements games.LegalChecker.
func (s *State) Legal(m games.Move) bool { return m < Slots && s.LegalMask()&(1<<m) != 0 }

// Play implements games.State. It trusts m to be legal.
func (s *State) Play(m games.Move) {
	p := s.ply & 1
	slot := int(m)
	h := &s.hist[s.ply]
	h.hash, h.open, h.last, h.slot = s.hash, s.open, s.last[p], uint8(slot)
	cell, five := s.place(p, slot)
	h.cell = uint8(cell)
	s.hash ^= cellKeys[p][cell] ^ lastKeys[p][h.last] ^ lastKeys[p][s.last[p]] ^ sideKey
	s.ply++
	switch {
	case five:
		s.end = endFive
	case s.ply == Cells || s.legal(1-p) == 0:
		s.end = endFull
	}
}

// Undo implements games.Base.
func (s *State) Undo() {
	if s.ply == s.start {
		panic("gravity: Undo with no move played")
	}
	s.ply--
	p := s.ply & 1
	h := &s.hist[s.ply]
	s.unplace(p, int(h.cell))
	s.open, s.last[p], s.hash, s.end = h.open, h.last, h.hash, endNone
}

// Clone implements games.State.
func (s *State) Clone() games.State {
	c := *s
	return &c
}

// Outcome implements games.Base: Score is +1 when the first player won, −1
// when the second did (0 and Winner Draw while the game is on).
func (s *State) Outcome() games.Outcome {
	switch s.end {
	case endFive:
		return outcome((s.ply - 1) & 1)
	case endFull:
		return outcome(1)
	}
	return games.Outcome{Winner: games.Draw}
}

func outcome(winner int) games.Outcome {
	return games.Outcome{Winner: winner, Score: 1 - 2*winner}
}

// FormatMove implements games.Base.
func (s *State) FormatMove(m games.Move) string { return FormatMove(m) }

// FormatMove writes slot m as TA…TI, BA…BI, L1…L9 or R1…R9.
func FormatMove(m games.Move) string {
	if m >= Slots {
		return fmt.Sprintf("?%d", m)
	}
	return slotNames[m]
}

// slotNames holds every slot's notation, so formatting does not allocate.
var slotNames = func() (names [Slots]string) {
	for m := range Slots {
		side, line := m/Size, byte(m%Size)
		if side <= Bottom {
			names[m] = string([]byte{"TB"[side], 'A' + line})
		} else {
			names[m] = string([]byte{"TBLR"[side], '1' + line})
		}
	}
	return names
}()

// ParseMove implements games.Base.
func (s *State) ParseMove(text string) (games.Move, error) { return ParseMove(text) }

// ParseMove reads a slot: TA…TI, BA…BI, L1…L9, R1…R9 (case-insensitive),
// or an original label: 1…9 (L1…L9), 10…18 (R1…R9), A…I (TA…TI).
func ParseMove(text string) (games.Move, error) {
	t := strings.ToUpper(strings.TrimSpace(text))
	switch {
	case len(t) == 1 && t[0] >= 'A' && t[0] < 'A'+Size:
		return games.Move(Top*Size + int(t[0]-'A')), nil
	case len(t) == 1 && t[0] >= '1' && t[0] < '1'+Size:
		return games.Move(Left*Size + int(t[0]-'1')), nil
	case len(t) == 2 && t[0] == '1' && t[1] >= '0' && t[1] < '0'+Size:
		return games.Move(Right*Size + int(t[1]-'0')), nil
	case len(t) == 2 && (t[0] == 'T' || t[0] == 'B') && t[1] >= 'A' && t[1] < 'A'+Size:
		side := Top
		if t[0] == 'B' {
			side = Bottom
		}
		return games.Move(side*Size + int(t[1]-'A')), nil
	case len(t) == 2 && (t[0] == 'L' || t[0] == 'R') && t[1] >= '1' && t[1] < '1'+Size:
		side := Left
		if t[0] == 'R' {
			side = Right
		}
		return games.Move(side*Size + int(t[1]-'1')), nil
	}
	return 0, fmt.Errorf("gravity: bad move %q: want a slot TA…TI, BA…BI, L1…L9 or R1…R9", text)
}

// CellName returns the name of cell, e.g. "A3".
func CellName(cell int) string {
	return string([]byte{'A' + byte(cell%Size), '1' + byte(cell/Size)})
}

var sideNames = [...]string{Top: "top", Bottom: "bottom", Left: "left", Right: "right"}

// String implements games.Base: the grid with X for the first player and O
// for the second, the last move, and whose turn it is with their banned side.
func (s *State) String() string {
	var b strings.Builder
	b.WriteString("  A B C D E F G H I\n")
	for r := range Size {
		b.WriteByte('1' + byte(r))
		for c := range Size {
			b.WriteByte(' ')
			b.WriteByte(".XO"[s.owner(r, c)+1])
		}
		b.WriteByte('\n')
	}
	if s.ply > 0 {
		h := &s.hist[s.ply-1]
		fmt.Fprintf(&b, "last: %c %s→%s; ", "XO"[(s.ply-1)&1], FormatMove(games.Move(h.slot)), CellName(int(h.cell)))
	}
	switch s.end {
	case endFive:
		fmt.Fprintf(&b, "game over: %s wins with five in a row, %s", playerNames[(s.ply-1)&1], s.Outcome().Result())
	case endFull:
		fmt.Fprintf(&b, "game over: board full, %s wins, %s", playerNames[1], s.Outcome().Result())
	default:
		p := s.ply & 1
		fmt.Fprintf(&b, "%s to move", playerNames[p])
		if last := s.last[p]; last != NoSide {
			fmt.Fprintf(&b, ", not from the %s", sideNames[last])
		}
		fmt.Fprintf(&b, "; %d tiles", s.ply)
	}
	return b.String()
}

var playerNames = [2]string{"X (first player)", "O (second player)"}

// Zobrist keys, fixed by a constant seed so hashes are stable across runs.
var (
	cellKeys [2][Cells]uint64
	lastKeys [2][NoSide + 1]uint64
	sideKey  uint64 // present when the second player is to move
)

func init() {
	r := rng.New(0x6a7e17c0)
	for p := range cellKeys {
		for i := range cellKeys[p] {
			cellKeys[p][i] = r.Uint64()
		}
		for i := range lastKeys[p] {
			lastKeys[p][i] = r.Uint64()
		}
	}
	sideKey = r.Uint64()
}

// computeHash recomputes the hash from scratch (tests compare it with the
// incremental one).
func (s *State) computeHash() uint64 {
	var h uint64
	for r := range Size {
		for c := range Size {
			if p := s.owner(r, c); p >= 0 {
				h ^= cellKeys[p][r*Size+c]
			}
		}
	}
	h ^= lastKeys[0][s.last[0]] ^ lastKeys[1][s.last[1]]
	if s.ply&1 == 1 {
		h ^= sideKey
	}
	return h
}
