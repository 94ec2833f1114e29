// Package pyrga implements Pyrga (Mathias Daval, 2014) exactly as the
// project's rules specification gives it (summarised here), on 16-bit masks: one per piece type and colour.
//
// # Board, pieces and notation
//
// The board has 4×4 cells a1…d4: file a–d left to right, rank 1–4 bottom to
// top; cell index = 4·(rank−1) + file, bit i of a uint16 is cell i. White
// (the first player) and Black each own 5 Squares, 5 Triangles and 5
// Cylinders. A cell holds at most one piece of each type, colours mixed. A
// move places one piece from the mover's stock and is written S@b2, C@b2 or
// T@b2>N: type, cell, and for a Triangle its direction N, E, S or W (N is
// towards rank 4, E towards file d). ParseMove accepts either ASCII case and
// rejects a Triangle pointing straight at the edge, which exists in no
// position; FormatMove writes the canonical upper/lower case shown above.
//
// # Rules as implemented
//
// The opponent's last piece gives the mover a target set: the orthogonal
// neighbours of a Square, every cell beyond a Triangle in its direction up to
// the edge (full cells do not block), the cell of a Cylinder; the first move
// of the game has none, which is the same as all 16 cells. The mover must
// place a piece of a type still in stock on a target cell not yet holding that
// type. Only when no such move exists may the mover place any piece from
// stock on an empty cell anywhere (the fallback). With neither, the game ends.
// There is no pass.
//
// A cell holding all three types is a completed tower, controlled by the
// colour with at least two of its pieces. After every placement a player who
// controls three completed towers wins at once — also the player who did not
// move, when the mover completed a tower for the opponent. Otherwise, when the
// player to move has no move, the game is decided by comparing, in order,
// completed towers, 2-piece stacks whose both pieces are one's own, and
// 1-piece stacks; the first difference decides and complete equality is a
// draw. A game lasts at most 30 placements (MaxPlies): White, who moves first,
// runs out of pieces first.
//
// Outcome.Score is the margin, from White's view, of the criterion that
// decided the game: the completed-tower difference whenever the towers differ
// (always so after an immediate win), otherwise the difference of own 2-piece
// stacks, otherwise of 1-piece stacks, and 0 for a draw. Its sign therefore
// always agrees with Outcome.Winner. (The spec leaves the score open; a bare
// tower difference would read 0 for games won on the tie-break.)
//
// # Variant bga
//
// The spec flag "pyrga:bga" adds Board Game Arena's rule: when White's first
// piece is a Square, White's second piece (ply 3) may not be one. The Squares
// are removed before the fallback test, so they are barred from constrained
// and fallback moves alike (and if Squares were the only constrained moves,
// the fallback applies; this cannot arise on ply 3, but the order is fixed).
//
// # Positions as text
//
// Position (games.PositionWriter) writes the board as four ranks, rank 4
// first, separated by '/', each four cells a→d of three characters, the
// Square, Triangle and Cylinder slots as String shows them (S T C for
// White, s t c for Black, '.' for none), then a space and the last move
// (e.g. T@b2>N), or '-' before the first. The last move gives the target set
// (a Triangle's direction is on no board) and String's last-move line; the
// pieces give the stock and the player to move (White when both have as many
// pieces). The start is "............/............/............/............ -".
// ParsePosition (and ReadPosition, games.PositionReader, under the
// receiver's rules) reads it back with Ply 0 and no history, and rejects
// more than five pieces of a type for a colour, counts that White's moving
// first cannot give, a last move whose piece is not on the board in the
// right colour, both players or one player with more than three towers, a
// third tower the last move did not complete, and under bga two Squares as
// White's first two pieces.
//
// # Implementation
//
// The state keeps the six piece masks, the target set and the legal moves of
// the player to move as six masks (Square, Triangle per direction, Cylinder),
// each the target cells that can still receive that type. Legal moves are a
// handful of ANDs: cells free of the type (while the type is in stock),
// within the target set or, when that leaves nothing, within the empty cells.
// Play pushes the whole small position onto a fixed history inside the
// state, so Play, Undo and LegalMoves never allocate; RandomPlayout and
// PerftBulk run the same rules on bare masks, and the playout draws exactly
// the moves a LegalMoves loop would draw from the same random numbers. The Zobrist hash covers pieces, side to move and the target set
// (two positions reached by different last moves with the same target set
// are the same position).
//
// # Evaluation
//
// Evaluate (used by greedy and alpha-beta) scores from the asking player's
// view, in the terms of the tie-break: 1000 per completed tower more than the
// opponent, 150 per own 2-piece stack (a tower for its owner whoever
// completes it), 20 per own 1-piece stack, plus a tempo term for the player
// to move when one of its legal moves completes a tower it would control:
// ±300, or ±5000 if that tower would be its third (a win on the next move).
// A finished game scores ±(WinScore/2 + 1000·|Score|). The weights are
// named tower, pair, single, tempo and threat (games.Weighted), so an agent
// can play or tune others: alphabeta:eval.pair=200.
package pyrga

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

const (
	// Size is the board's side length.
	Size = 4
	// Cells is the number of cells.
	Cells = Size * Size
	// PiecesPerType is how many pieces of each type a player starts with.
	PiecesPerType = 5
	// MaxPlies bounds the game length: 15 pieces per player, one per ply.
	MaxPlies = 2 * 3 * PiecesPerType
)

// Piece types.
const (
	Square = iota
	Triangle
	Cylinder
)

// Triangle directions.
const (
	North = iota // towards rank 4
	East         // towards file d
	South        // towards rank 1
	West         // towards file a
)

const allCells uint16 = 1<<Cells - 1

// Move encoding: bits 0–3 cell, bits 4–5 piece type, bits 6–7 direction
// (Triangles only; 0 otherwise).
const (
	kindShift = 4
	dirShift  = 6
)

// MakeMove returns the move placing a piece of type kind on cell (0…15);
// dir is the Triangle's direction and must be 0 for other types.
func MakeMove(kind, cell, dir int) games.Move {
	return games.Move(cell | kind<<kindShift | dir<<dirShift)
}

// Decode splits a move into piece type, cell and direction.
func Decode(m games.Move) (kind, cell, dir int) {
	return int(m>>kindShift) & 3, int(m) & 15, int(m>>dirShift) & 3
}

// Legal moves are kept as six slots of cells: Square, Triangle pointing N, E,
// S, W, Cylinder. LegalMoves, PerftBulk and RandomPlayout all list moves in
// this slot order, cells ascending, so a playout draws the same move from the
// same random number whichever of them it uses.
const numSlots = 6

var (
	slotBase = [numSlots]games.Move{
		MakeMove(Square, 0, 0),
		MakeMove(Triangle, 0, North), MakeMove(Triangle, 0, East),
		MakeMove(Triangle, 0, South), MakeMove(Triangle, 0, West),
		MakeMove(Cylinder, 0, 0),
	}
	slotKind = [numSlots]int{Square, Triangle, Triangle, Triangle, Triangle, Cylinder}
	// dirOK[d]: cells from which a Triangle pointing d points at a cell.
	dirOK = [4]uint16{
		North: 0x0fff, // not rank 4
		East:  0x7777, // not file d
		South: 0xfff0, // not rank 1
		West:  0xeeee, // not file a
	}
	// Target sets by the piece that sets them.
	neighbours [Cells]uint16
	rays       [Cells][4]uint16
	// slotTarget[k][c]: the target set a move of slot k on cell c leaves.
	slotTarget [numSlots][Cells]uint16
)

func init() {
	steps := [4][2]int{North: {0, 1}, East: {1, 0}, South: {0, -1}, West: {-1, 0}}
	for c := range Cells {
		f, r := c%Size, c/Size
		for d, st := range steps {
			for k := 1; ; k++ {
				ff, rr := f+k*st[0], r+k*st[1]
				if ff < 0 || ff >= Size || rr < 0 || rr >= Size {
					break
				}
				rays[c][d] |= 1 << (rr*Size + ff)
				if k == 1 {
					neighbours[c] |= 1 << (rr*Size + ff)
				}
			}
		}
	}
	for k := range numSlots {
		kind, _, dir := Decode(slotBase[k])
		for c := range Cells {
			slotTarget[k][c] = targetOf(kind, c, dir)
		}
	}
}

func init() {
	games.Register(&games.Entry{
		Name:     "pyrga",
		Title:    "Pyrga",
		Notation: "S@b2, C@b2, T@b2>N: piece type S/T/C @ cell a1…d4 (file a–d left→right, rank 1–4 bottom→top), Triangle direction N/E/S/W",
		Options: []games.Option{
			{Key: "bga", Help: "Board Game Arena rule: if White's first piece is a Square, White's second may not be one"},
		},
		Variants: []string{"pyrga:bga"},
		New: func(s spec.Spec) (games.Base, error) {
			if err := s.Check("bga"); err != nil {
				return nil, err
			}
			bga := false
			if v, ok := s.Vals["bga"]; ok {
				b, err := strconv.ParseBool(v)
				if err != nil {
					return nil, fmt.Errorf("pyrga: option bga=%q is not a boolean", v)
				}
				bga = b
			}
			if bga {
				return NewBGA(), nil
			}
			return New(), nil
		},
	})
}

// position is everything Undo must restore; Play pushes a copy of it.
type position struct {
	pieces [2][3]uint16     // pieces[colour][type]: cells holding that piece
	legal  [numSlots]uint16 // legal cells per slot for the player to move
	target uint16           // target set left by the last piece (all cells at the start)
	over   bool             // the game has ended
	hash   uint64
}

// State is a Pyrga position with its history.
type State struct {
	position
	ply   int // pieces on the board
	start int // pieces on the board when the state was made (ParsePosition)
	bga   bool
	moves [MaxPlies]games.Move // moves played, for rendering
	hist  [MaxPlies]position
	// weights of Evaluate (games.Weighted); nil for the defaults. Shared
	// by clones, never written through.
	weights []int
}

// New returns the start position under the rules of the printed game.
func New() *State { return newState(false) }

// NewBGA returns the start position of the variant "bga" (no double Square).
func NewBGA() *State { return newState(true) }

func newState(bga bool) *State {
	s := &State{bga: bga}
	s.target = allCells
	s.legal, _ = legalSlots(&s.pieces, 0, s.target, false)
	s.hash = s.computeHash()
	return s
}

// BGA reports whether the state plays the variant "bga".
func (s *State) BGA() bool { return s.bga }

// noSquare reports whether the bga rule bars Squares at ply (0-based) for the
// position pc: White's second piece after a first Square.
func noSquare(bga bool, ply int, pc *[2][3]uint16) bool {
	return bga && ply == 2 && pc[0][Square] != 0
}

// legalSlots returns the cells the player me may play each slot on, and
// whether there is any move at all.
func legalSlots(pc *[2][3]uint16, me int, target uint16, noSq bool) (l [numSlots]uint16, any bool) {
	occS := pc[0][Square] | pc[1][Square]
	occT := pc[0][Triangle] | pc[1][Triangle]
	occC := pc[0][Cylinder] | pc[1][Cylinder]
	// Cells able to receive each type, or none when it is out of stock.
	canS, canT, canC := ^occS, ^occT, ^occC
	if bits.OnesCount16(pc[me][Square]) >= PiecesPerType || noSq {
		canS = 0
	}
	if bits.OnesCount16(pc[me][Triangle]) >= PiecesPerType {
		canT = 0
	}
	if bits.OnesCount16(pc[me][Cylinder]) >= PiecesPerType {
		canC = 0
	}
	// Every cell has at least two Triangle directions, so a Triangle fits a
	// cell iff the cell can receive one.
	t := target
	if (canS|canT|canC)&t == 0 {
		t = ^(occS | occT | occC) // fallback: the empty cells
	}
	tt := canT & t
	l = [numSlots]uint16{
		canS & t,
		tt & dirOK[North], tt & dirOK[East], tt & dirOK[South], tt & dirOK[West],
		canC & t,
	}
	return l, (canS|canT|canC)&t != 0
}

// popcount16 is bits.OnesCount16 as an int, for brevity in the hot loops.
func popcount16(x uint16) int { return bits.OnesCount16(x) }

// countSlots returns the number of moves in l.
func countSlots(l *[numSlots]uint16) int {
	return bits.OnesCount16(l[0]) + bits.OnesCount16(l[1]) + bits.OnesCount16(l[2]) +
		bits.OnesCount16(l[3]) + bits.OnesCount16(l[4]) + bits.OnesCount16(l[5])
}

// targetOf returns the target set a piece of type kind placed on cell,
// pointing dir, leaves for the opponent.
func targetOf(kind, cell, dir int) uint16 {
	switch kind {
	case Square:
		return neighbours[cell]
	case Triangle:
		return rays[cell][dir]
	}
	return 1 << cell
}

// majority returns the cells where at least two of the three masks are set.
func majority(m *[3]uint16) uint16 {
	return m[0]&m[1] | m[0]&m[2] | m[1]&m[2]
}

// place puts the piece on pc and reports whether it completes a third tower
// for either player (the immediate win).
func place(pc *[2][3]uint16, me, kind, cell int) (win bool) {
	b := uint16(1) << cell
	pc[me][kind] |= b
	full := (pc[0][Square] | pc[1][Square]) & (pc[0][Triangle] | pc[1][Triangle]) & (pc[0][Cylinder] | pc[1][Cylinder])
	if full&b == 0 {
		return false
	}
	// Only the tower on cell is new, so only its controller's count moved.
	owner := 1
	if majority(&pc[0])&b != 0 {
		owner = 0
	}
	return bits.OnesCount16(full&majority(&pc[owner])) >= 3
}

// ToMove implements games.Base.
func (s *State) ToMove() int {
	if s.over {
		return games.None
	}
	return s.ply & 1
}

// Terminal implements games.Base.
func (s *State) Terminal() bool { return s.over }

// Ply implements games.Base.
func (s *State) Ply() int { return s.ply - s.start }

// Hash implements games.Base.
func (s *State) Hash() uint64 { return s.hash }

// ComputeHash implements games.Base: the hash from scratch.
func (s *State) ComputeHash() uint64 { return s.computeHash() }

// Pieces returns the cells holding player p's pieces of type kind.
func (s *State) Pieces(p, kind int) uint16 { return s.pieces[p][kind] }

// Stock returns how many pieces of type kind player p still has.
func (s *State) Stock(p, kind int) int {
	return PiecesPerType - bits.OnesCount16(s.pieces[p][kind])
}

// Target returns the target set left by the last piece (all cells before
// the first move). The moves of the player to move are in the fallback when
// no legal move lies in it.
func (s *State) Target() uint16 { return s.target }

// LegalMoves implements games.State.
func (s *State) LegalMoves(buf []games.Move) []games.Move {
	if s.over {
		return buf
	}
	for k := range numSlots {
		for c := s.legal[k]; c != 0; c &= c - 1 {
			buf = append(buf, slotBase[k]|games.Move(bits.TrailingZeros16(c)))
		}
	}
	return buf
}

// Play implements games.State. It trusts m to be legal.
func (s *State) Play(m games.Move) {
	s.hist[s.ply] = s.position
	s.moves[s.ply] = m
	me := s.ply & 1
	kind, cell, dir := Decode(m)
	win := place(&s.pieces, me, kind, cell)
	t := targetOf(kind, cell, dir)
	s.hash ^= pieceKeys[me][kind][cell] ^ sideKey ^ targetHash(s.target) ^ targetHash(t)
	s.target = t
	s.ply++
	if win {
		s.over = true
		s.legal = [numSlots]uint16{}
		return
	}
	var any bool
	s.legal, any = legalSlots(&s.pieces, s.ply&1, t, noSquare(s.bga, s.ply, &s.pieces))
	s.over = !any
}

// Undo implements games.Base.
func (s *State) Undo() {
	if s.ply == s.start {
		panic("pyrga: Undo with no move played")
	}
	s.ply--
	s.position = s.hist[s.ply]
}

// Clone implements games.State.
func (s *State) Clone() games.State {
	c := *s
	return &c
}

// Tally is one player's standing in the terms of the tie-break.
type Tally struct {
	Towers  int // completed towers controlled
	Pairs   int // 2-piece stacks whose both pieces are the player's
	Singles int // 1-piece stacks holding the player's piece
}

// tallies counts both players' towers, pairs and singles on pc.
func tallies(pc *[2][3]uint16) [2]Tally {
	occS := pc[0][Square] | pc[1][Square]
	occT := pc[0][Triangle] | pc[1][Triangle]
	occC := pc[0][Cylinder] | pc[1][Cylinder]
	full := occS & occT & occC
	two := (occS&occT | occS&occC | occT&occC) &^ full
	one := (occS | occT | occC) &^ (two | full)
	var t [2]Tally
	for p := range 2 {
		maj := majority(&pc[p])
		t[p] = Tally{
			Towers:  bits.OnesCount16(full & maj),
			Pairs:   bits.OnesCount16(two & maj),
			Singles: bits.OnesCount16(one & (pc[p][0] | pc[p][1] | pc[p][2])),
		}
	}
	return t
}

// Tallies returns both players' counts in the terms of the tie-break.
func (s *State) Tallies() [2]Tally { return tallies(&s.pieces) }

// outcome decides a finished game on pc. After an immediate win the winner
// has three towers and the loser at most two, so the tower comparison gives
// the same result.
func outcome(pc *[2][3]uint16) games.Outcome {
	t := tallies(pc)
	d := t[0].Towers - t[1].Towers
	if d == 0 {
		d = t[0].Pairs - t[1].Pairs
	}
	if d == 0 {
		d = t[0].Singles - t[1].Singles
	}
	return games.MarginOutcome(d)
}

// Outcome implements games.Base; see the package comment for Score.
func (s *State) Outcome() games.Outcome { return outcome(&s.pieces) }

var (
	kindLetters = [3]byte{'S', 'T', 'C'}
	dirLetters  = [4]byte{'N', 'E', 'S', 'W'}
)

// FormatMove implements games.Base.
func (s *State) FormatMove(m games.Move) string { return FormatMove(m) }

// FormatMove writes m as S@b2, C@b2 or T@b2>N.
func FormatMove(m games.Move) string {
	kind, cell, dir := Decode(m)
	if m > 0xff || kind > Cylinder || (kind != Triangle && dir != 0) ||
		(kind == Triangle && dirOK[dir]&(1<<cell) == 0) {
		return fmt.Sprintf("?%d", m)
	}
	b := []byte{kindLetters[kind], '@', 'a' + byte(cell%Size), '1' + byte(cell/Size)}
	if kind == Triangle {
		b = append(b, '>', dirLetters[dir])
	}
	return string(b)
}

// ParseMove implements games.Base.
func (s *State) ParseMove(text string) (games.Move, error) { return ParseMove(text) }

// ParseMove reads a move such as S@b2, c@B2 or T@b2>n (any letter case).
func ParseMove(text string) (games.Move, error) {
	t := asciiUpper(strings.TrimSpace(text))
	bad := func(why string) (games.Move, error) {
		return 0, fmt.Errorf("pyrga: bad move %q: %s (want S@b2, C@b2 or T@b2>N)", text, why)
	}
	if len(t) < 4 || t[1] != '@' {
		return bad("not piece@cell")
	}
	kind := strings.IndexByte("STC", t[0])
	if kind < 0 {
		return bad("piece type must be S, T or C")
	}
	if t[2] < 'A' || t[2] > 'D' || t[3] < '1' || t[3] > '4' {
		return bad("cell must be a1…d4")
	}
	cell := int(t[3]-'1')*Size + int(t[2]-'A')
	if kind != Triangle {
		if len(t) != 4 {
			return bad("only a Triangle takes a direction")
		}
		return MakeMove(kind, cell, 0), nil
	}
	if len(t) != 6 || t[4] != '>' {
		return bad("a Triangle needs a direction >N, >E, >S or >W")
	}
	dir := strings.IndexByte("NESW", t[5])
	if dir < 0 {
		return bad("direction must be N, E, S or W")
	}
	if dirOK[dir]&(1<<cell) == 0 {
		return bad("the Triangle points at the edge")
	}
	return MakeMove(kind, cell, dir), nil
}

// asciiUpper upper-cases ASCII letters only (strings.ToUpper would also turn
// e.g. 'ſ' into 'S').
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// formatCells lists the cells of mask, e.g. "a2 b1 b3 c2".
func formatCells(mask uint16) string {
	var parts []string
	for c := mask; c != 0; c &= c - 1 {
		i := bits.TrailingZeros16(c)
		parts = append(parts, string([]byte{'a' + byte(i%Size), '1' + byte(i/Size)}))
	}
	return strings.Join(parts, " ")
}

// String implements games.Base. Each cell shows its Square, Triangle and
// Cylinder slots: upper case for White, lower case for Black, '.' for none.
func (s *State) String() string {
	var b strings.Builder
	b.WriteString("    a   b   c   d\n")
	for r := Size - 1; r >= 0; r-- {
		b.WriteByte('1' + byte(r))
		b.WriteByte(' ')
		for f := range Size {
			bit := uint16(1) << (r*Size + f)
			b.WriteByte(' ')
			for k := range 3 {
				c := byte('.')
				switch {
				case s.pieces[0][k]&bit != 0:
					c = kindLetters[k]
				case s.pieces[1][k]&bit != 0:
					c = kindLetters[k] + 'a' - 'A'
				}
				b.WriteByte(c)
			}
		}
		b.WriteByte('\n')
	}
	t := s.Tallies()
	fmt.Fprintf(&b, "White: towers %d, pairs %d, singles %d; stock S%d T%d C%d\n",
		t[0].Towers, t[0].Pairs, t[0].Singles, s.Stock(0, Square), s.Stock(0, Triangle), s.Stock(0, Cylinder))
	fmt.Fprintf(&b, "Black: towers %d, pairs %d, singles %d; stock S%d T%d C%d\n",
		t[1].Towers, t[1].Pairs, t[1].Singles, s.Stock(1, Square), s.Stock(1, Triangle), s.Stock(1, Cylinder))
	if s.ply > 0 {
		fmt.Fprintf(&b, "last move %s (ply %d)\n", FormatMove(s.moves[s.ply-1]), s.ply)
	}
	if s.over {
		o := s.Outcome()
		fmt.Fprintf(&b, "game over: %s (score %+d)", o.Result(), o.Score)
		return b.String()
	}
	name := [2]string{"White (first player)", "Black (second player)"}[s.ply&1]
	legal := s.legal[0] | s.legal[1] | s.legal[2] | s.legal[3] | s.legal[4] | s.legal[5]
	switch {
	case s.ply == 0:
		fmt.Fprintf(&b, "%s to move: any piece, any cell", name)
	case legal&^s.target != 0:
		fmt.Fprintf(&b, "%s to move: nothing fits %s, so any empty cell", name, formatCells(s.target))
	default:
		fmt.Fprintf(&b, "%s to move on %s", name, formatCells(s.target))
	}
	return b.String()
}

// Zobrist keys, fixed by a constant seed so hashes are stable across runs.
var (
	pieceKeys  [2][3][Cells]uint64
	sideKey    uint64
	targetKeys [Cells]uint64
	// targetLo[x] and targetHi[x] are the XOR of targetKeys over the cells of
	// byte x of a target set (low and high byte), for a two-lookup hash.
	targetLo, targetHi [256]uint64
)

func init() {
	r := rng.New(0x9f7a6a)
	for p := range pieceKeys {
		for k := range pieceKeys[p] {
			for c := range pieceKeys[p][k] {
				pieceKeys[p][k][c] = r.Uint64()
			}
		}
	}
	sideKey = r.Uint64()
	for c := range targetKeys {
		targetKeys[c] = r.Uint64()
	}
	for x := range 256 {
		for i := range 8 {
			if x&(1<<i) != 0 {
				targetLo[x] ^= targetKeys[i]
				targetHi[x] ^= targetKeys[i+8]
			}
		}
	}
}

func targetHash(t uint16) uint64 { return targetLo[t&0xff] ^ targetHi[t>>8] }

// computeHash recomputes the hash from scratch (tests compare it with the
// incremental one).
func (s *State) computeHash() uint64 {
	var h uint64
	for p := range s.pieces {
		for k := range s.pieces[p] {
			for c := range Cells {
				if s.pieces[p][k]&(1<<c) != 0 {
					h ^= pieceKeys[p][k][c]
				}
			}
		}
	}
	if s.ply&1 == 1 {
		h ^= sideKey
	}
	for c := range Cells {
		if s.target&(1<<c) != 0 {
			h ^= targetKeys[c]
		}
	}
	return h
}
