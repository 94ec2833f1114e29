// Package othello6 implements Othello (Reversi) on a 6×6 board, exactly as the
// project's rules specification gives it (summarised here), on 36-bit
// bitboards.
//
// # Board and notation
//
// Cells are a1…f6: file a–f left to right, rank 1–6 top to bottom. Square
// index = 6·(rank−1) + file, bit i of a uint64 is square i. The first player
// (X, "Black", Red in the original text) moves first; the start position has
// X on c4 and d3, O on c3 and d4. A move is a cell ("d3") or "pass", which is
// legal only when no placement is and the opponent can still move. The game
// ends when neither player can move; the result is the disc difference
// (Outcome.Score, from X's point of view), empty cells left uncounted. Solvers
// that report the conventional solved value give the empty cells to the
// winner; see SolvedScore.
//
// # Positions as text
//
// Position (games.PositionWriter) writes the board as six ranks, rank 1
// first, each six cells a→f of X, O or '.', separated by '/', then a space
// and the side to move, x or o; the start is
// "....../....../..OX../..XO../....../...... x". That is all the rules need:
// whether a pass is due, or the game is over, follows from the discs.
// ParsePosition (and ReadPosition, games.PositionReader) reads it back, with
// Ply 0 and no history; it rejects other characters and an empty centre cell
// (c3, d3, c4 or d4), which no game reaches. A finished game keeps the side
// that would move next, as its hash does.
//
// # Implementation
//
// Legal placements come from eight shift-and-mask flood fills (runs of at
// most four discs, grown in three steps). Flips take one bit scan per ray
// over precomputed ray masks, combined without branches (Flips), so no
// loop visits squares one by one. The state keeps both disc sets, the legal
// placement mask of the side to move, the Zobrist hash and a fixed undo stack,
// so Play, Undo and LegalMoves never allocate.
//
// # Evaluation
//
// Evaluate (used by greedy, alpha-beta and MCTS cut-offs) is phase-aware:
// every term's weight slides linearly from an opening value (32 empty cells)
// to an endgame value (0 empties). From the asking player's view it counts,
// as own minus opponent's: corners (110 → 90 each), X-squares (b2-type
// cells diagonally next to an empty corner, −50 → −15), C-squares (cells
// orthogonally next to an empty corner, −20 → −5), mobility (legal moves,
// 14 → 6 each), frontier discs (discs next to an empty cell, −5 → −1 each),
// stable discs (discs that can never be flipped: anchored on the edges or on
// full lines, grown from the corners, 25 → 12 each), parity (with an odd
// number of empties the side to move expects the last move: 0 → 30 for it)
// and the disc difference (−1 → 8: few discs are good early, many late). A
// finished game scores ±(WinScore/2 + 1000·|disc difference|), so any win
// outranks any heuristic value and bigger wins rank higher. OrderHint ranks
// corners first and X-squares last for search move ordering. Each weight
// is named TERM_open and TERM_end (corner_open, …, disc_end; games.Weighted),
// so an agent can play or tune others: alphabeta:eval.corner_open=140.
//
// Against the previous fixed-weight evaluation (corners, X/C-squares,
// mobility, discs) it scored 69.5 % at depth 2 and 63 % at depth 4 in 100
// alpha-beta games each from random 4-ply openings.
//
// # Exact solver
//
// Solve and State.SolveExact (games.ExactSolver: arena solve, the
// alphabeta agent's exact mode, the perfect agent, solver adjudication)
// give the exact value of a position, SolvedScore from the mover's view
// (empty cells go to the winner), and a principal variation. Perfect play
// from the start is worth −4: the second player wins 20–16.
//
// The search is negamax with principal-variation search on bare bitboards.
// The last move's flips are counted from line tables, not played; up to 4
// empty cells, cells are tried in parity order; from 5 to 10,
// fastest-first, with a small table of bounds per thread that stays in the
// processor's cache; above that, moves are ordered by a fitted pattern
// evaluation (solve_eval.go) and, from 15 empty cells, by shallow
// alpha-beta searches with it, over a lockless two-slot transposition
// table (the table's move searched first, the children's entries
// prefetched), with enhanced transposition cut-offs and a stability
// cut-off. Threads split the work young-brothers-wait style. SolveExact
// without a table size sizes the table for the position (4 MB up to 20
// empty cells, doubling every two more, 256 MB from 32) and, with a
// deadline, for its time (at most 64 MB a second and thread, at least
// 4 MB). The principal variation is read back from the table and checked
// move by move.
//
// # Book of solved positions
//
// book.bin (136 345 bytes, embedded) holds every position reachable from
// the start with at least 24 empty cells, one per class of the board's 8
// symmetries (63 058 positions: 32 empty cells: 1, 31: 1, 30: 3, 29: 14,
// 28: 60, 27: 314, 26: 1 632, 25: 9 069, 24: 51 964), each with an
// optimal move and its exact value, and the exact values of the replies to
// the positions with 24 on the second player's paths. State.BookMove
// (games.Booker), State.BookValue (games.BookValuer) and State.BookBound
// (games.BookBounder: a lower bound for a position just below the book,
// through the book positions one move before it, with or without its
// history) read it; the perfect agent plays from it down to 24 empty cells.
//
// The positions are not stored: the file holds the root (the start) and
// the fewest empty cells, which determine them, then 2 bytes per position
// (move and value, or "not solved yet": an interrupted build's checkpoint
// is a book in the same format), the reply values, and a CRC-32; see
// book.go. LoadBook lists the positions again (about 26 ms and 7 MB for
// the embedded book, once per process: BenchmarkLoadDefaultBook) and
// refuses a damaged file, saying why. Rebuild it with the commands below
// (hours on 2 threads, progress on stderr; Ctrl-C keeps a checkpoint that
// the next run resumes): the positions with 25 or more empty cells, then,
// from that book (-known), those with 24 and the reply values. With
// -paths-only the second command solves only the fifth of the layer that
// the perfect agent can meet in a game it plays from the start.
//
//	go run ./games/othello6/internal/mkbook -min-empties 25 -out games/othello6/book.bin
//	go run ./games/othello6/internal/mkbook -min-empties 24 -known games/othello6/book.bin -reply-values -threads 2 -out games/othello6/book.bin
package othello6

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

// Size is the board's side length.
const Size = 6

// Pass is the move a player makes when no placement is legal.
const Pass games.Move = Size * Size

// MaxPlies bounds the game length: at most 32 placements, and every pass is
// followed by a placement.
const MaxPlies = 64

const (
	full  uint64 = 1<<(Size*Size) - 1
	fileA uint64 = 0x041041041 // a1, a2, …, a6
	fileF        = fileA << (Size - 1)
	inner        = full &^ (fileA | fileF) // files b–e: a ray through them never wraps
)

func init() {
	games.Register(&games.Entry{
		Name:     "othello6",
		Title:    "Othello 6×6",
		Notation: "cell a1…f6 (file a–f left→right, rank 1–6 top→bottom) or pass",
		New: func(s spec.Spec) (games.Base, error) {
			if err := s.Check(); err != nil {
				return nil, err
			}
			return New(), nil
		},
	})
}

type undoEntry struct {
	discs [2]uint64
	moves uint64
	hash  uint64
	over  bool
}

// State is an Othello 6×6 position with its history.
type State struct {
	discs [2]uint64 // discs[p]: player p's discs
	moves uint64    // legal placements of the player to move
	hash  uint64
	over  bool
	side  int // player to move (or who would be, once over)
	ply   int
	hist  [MaxPlies]undoEntry
	// weights of Evaluate (games.Weighted); nil for the defaults. Shared
	// by clones, never written through.
	weights []int
}

// New returns the start position.
func New() *State {
	s := &State{}
	s.discs[0] = bit(sq(2, 3)) | bit(sq(3, 2)) // c4, d3
	s.discs[1] = bit(sq(2, 2)) | bit(sq(3, 3)) // c3, d4
	s.moves = Moves(s.discs[0], s.discs[1])
	s.hash = s.computeHash()
	return s
}

// FromDiscs returns a position with the given discs and side to move, with
// an empty history (Ply reports plies as 0). It rejects overlapping discs.
func FromDiscs(first, second uint64, toMove int) (*State, error) {
	if first&second != 0 || (first|second)&^full != 0 || toMove&^1 != 0 {
		return nil, fmt.Errorf("othello6: invalid position")
	}
	s := &State{}
	s.discs = [2]uint64{first, second}
	s.setDerived(toMove)
	return s, nil
}

func (s *State) setDerived(toMove int) {
	s.side = toMove
	me, opp := s.discs[toMove], s.discs[1-toMove]
	s.moves = Moves(me, opp)
	s.over = s.moves == 0 && Moves(opp, me) == 0
	s.hash = s.computeHash()
}

func sq(file, rank int) int { return rank*Size + file }
func bit(i int) uint64      { return 1 << uint(i) }

// Moves returns the placements legal for the player owning me against opp.
func Moves(me, opp uint64) uint64 {
	oh := opp & inner // horizontal and diagonal runs must not wrap
	m := fillUp(me, oh, 1) | fillDown(me, oh, 1) |
		fillUp(me, opp, 6) | fillDown(me, opp, 6) |
		fillUp(me, oh, 5) | fillDown(me, oh, 5) |
		fillUp(me, oh, 7) | fillDown(me, oh, 7)
	return m &^ (me | opp) & full
}

// fillUp returns the cells just past a run of one to four o-discs that
// starts next to one of me, going towards higher squares by step s. The run
// is grown two cells at a time in its last step (p marks o-discs whose
// predecessor is one too), so the dependency chain is three steps, not four.
func fillUp(me, o uint64, s uint) uint64 {
	t := o & (me << s)
	t |= o & (t << s)
	p := o & (o << s)
	t |= p & (t << (2 * s))
	return t << s
}

// fillDown is fillUp towards lower squares.
func fillDown(me, o uint64, s uint) uint64 {
	t := o & (me >> s)
	t |= o & (t >> s)
	p := o & (o >> s)
	t |= p & (t >> (2 * s))
	return t >> s
}

// Flips returns the opponent discs turned by placing on square i.
// It returns 0 when the placement is illegal.
//
// Along each ray from i the first cell that is not an opponent disc is found
// with one bit scan: the lowest set bit for rays towards higher squares, the
// highest for rays towards lower ones. If that cell holds one of the mover's
// discs, the opponent discs before it flip.
func Flips(i int, me, opp uint64) uint64 {
	notOpp := ^opp
	r := &rays[i]
	return up(r[0], notOpp, me) | up(r[1], notOpp, me) | up(r[2], notOpp, me) | up(r[3], notOpp, me) |
		down(r[4], notOpp, me) | down(r[5], notOpp, me) | down(r[6], notOpp, me) | down(r[7], notOpp, me)
}

// up returns the flips along a ray towards higher squares, without branches
// (the outcome of each ray is unpredictable, so branches would mispredict).
func up(ray, notOpp, me uint64) uint64 {
	first := ray & notOpp
	first &= -first
	below := first&me - 1                // the cells before a closing disc; all ones when none
	below &^= uint64(int64(below) >> 63) // …and then none (rays stay below bit 36)
	return ray & below
}

// down returns the flips along a ray towards lower squares.
func down(ray, notOpp, me uint64) uint64 {
	// With no such cell the shift is 63 (the masked −1): bit 63 is never
	// one of me, so nothing flips, without Go's check of an overlong shift.
	first := uint64(1) << (uint(63-bits.LeadingZeros64(ray&notOpp)) & 63)
	closed := first & me
	return ray &^ (closed<<1 - 1) // 0 when closed == 0
}

// rays[i][d] holds the cells beyond square i in direction d, excluding i.
// Directions 0–3 go towards higher square numbers (E, SW, S, SE), 4–7
// towards lower ones (W, NE, N, NW).
var rays [Size * Size][8]uint64

func init() {
	steps := [8][2]int{{1, 0}, {-1, 1}, {0, 1}, {1, 1}, {-1, 0}, {1, -1}, {0, -1}, {-1, -1}} // {file, rank}
	for i := range rays {
		for d, st := range steps {
			f, r := i%Size+st[0], i/Size+st[1]
			for f >= 0 && f < Size && r >= 0 && r < Size {
				rays[i][d] |= bit(sq(f, r))
				f, r = f+st[0], r+st[1]
			}
		}
	}
}

// ToMove implements games.Base.
func (s *State) ToMove() int {
	if s.over {
		return games.None
	}
	return s.side
}

// Terminal implements games.Base.
func (s *State) Terminal() bool { return s.over }

// Ply implements games.Base.
func (s *State) Ply() int { return s.ply }

// Hash implements games.Base.
func (s *State) Hash() uint64 { return s.hash }

// ComputeHash implements games.Base: the hash from scratch.
func (s *State) ComputeHash() uint64 { return s.computeHash() }

// Discs returns the disc sets of the first and second player.
func (s *State) Discs() (first, second uint64) { return s.discs[0], s.discs[1] }

// LegalMask returns the legal placements of the player to move as a bitboard
// (0 when the player must pass or the game is over).
func (s *State) LegalMask() uint64 { return s.moves }

// LegalMoves implements games.State.
func (s *State) LegalMoves(buf []games.Move) []games.Move {
	if s.over {
		return buf
	}
	m := s.moves
	if m == 0 {
		return append(buf, Pass)
	}
	for m != 0 {
		buf = append(buf, games.Move(bits.TrailingZeros64(m)))
		m &= m - 1
	}
	return buf
}

// Legal implements games.LegalChecker.
func (s *State) Legal(m games.Move) bool {
	switch {
	case s.over || m > Pass:
		return false
	case m == Pass:
		return s.moves == 0
	}
	return s.moves&bit(int(m)) != 0
}

// Play implements games.State. It trusts m to be legal.
func (s *State) Play(m games.Move) {
	h := &s.hist[s.ply]
	h.discs, h.moves, h.hash, h.over = s.discs, s.moves, s.hash, s.over
	p := s.side
	me, opp := s.discs[p], s.discs[1-p]
	hash := s.hash ^ sideKey
	if m != Pass {
		i := int(m)
		f := Flips(i, me, opp)
		me |= f | bit(i)
		opp &^= f
		hash ^= discKeys[p][i]
		for f != 0 {
			hash ^= flipKeys[bits.TrailingZeros64(f)]
			f &= f - 1
		}
		s.discs[p], s.discs[1-p] = me, opp
	}
	s.hash = hash
	s.side = 1 - p
	s.ply++
	s.moves = Moves(opp, me)
	s.over = s.moves == 0 && Moves(me, opp) == 0
}

// Undo implements games.Base.
func (s *State) Undo() {
	s.ply--
	s.side = 1 - s.side
	h := &s.hist[s.ply]
	s.discs, s.moves, s.hash, s.over = h.discs, h.moves, h.hash, h.over
}

// Clone implements games.State.
func (s *State) Clone() games.State {
	c := *s
	return &c
}

// Outcome implements games.Base: the disc difference from the first player's view.
func (s *State) Outcome() games.Outcome { return outcome(s.discs[0], s.discs[1]) }

// SolvedScore returns the conventional exact value of a finished game from the
// first player's view: the disc difference with the empty cells given to the
// winner (a draw leaves them split, so it stays 0).
func SolvedScore(first, second uint64) int {
	a, b := bits.OnesCount64(first), bits.OnesCount64(second)
	empty := Size*Size - a - b
	switch {
	case a > b:
		return a - b + empty
	case a < b:
		return a - b - empty
	}
	return 0
}

// FormatMove implements games.Base.
func (s *State) FormatMove(m games.Move) string { return FormatMove(m) }

// FormatMove writes m as a cell name or "pass".
func FormatMove(m games.Move) string {
	if m > Pass {
		return fmt.Sprintf("?%d", m)
	}
	return moveNames[m]
}

// moveNames holds every move's notation, so that formatting a move (which a
// referee does for every move it records) does not allocate.
var moveNames = func() (names [Pass + 1]string) {
	for i := range Pass {
		names[i] = string([]byte{'a' + byte(i%Size), '1' + byte(i/Size)})
	}
	names[Pass] = "pass"
	return names
}()

// ParseMove implements games.Base.
func (s *State) ParseMove(text string) (games.Move, error) { return ParseMove(text) }

// ParseMove reads a cell such as "d3" (case-insensitive) or "pass".
func ParseMove(text string) (games.Move, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if t == "pass" {
		return Pass, nil
	}
	if len(t) != 2 || t[0] < 'a' || t[0] > 'f' || t[1] < '1' || t[1] > '6' {
		return 0, fmt.Errorf("othello6: bad move %q: want a cell a1…f6 or pass", text)
	}
	return games.Move(sq(int(t[0]-'a'), int(t[1]-'1'))), nil
}

// String implements games.Base: the board as in the spec, X for the first player.
func (s *State) String() string {
	var b strings.Builder
	b.WriteString("  a b c d e f\n")
	for r := 0; r < Size; r++ {
		b.WriteByte('1' + byte(r))
		for f := 0; f < Size; f++ {
			c := byte('.')
			switch {
			case s.discs[0]&bit(sq(f, r)) != 0:
				c = 'X'
			case s.discs[1]&bit(sq(f, r)) != 0:
				c = 'O'
			}
			b.WriteByte(' ')
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	x, o := bits.OnesCount64(s.discs[0]), bits.OnesCount64(s.discs[1])
	if s.over {
		fmt.Fprintf(&b, "game over: X %d, O %d, %s", x, o, s.Outcome().Result())
	} else if s.side == 0 {
		fmt.Fprintf(&b, "X (first player) to move; X %d, O %d", x, o)
	} else {
		fmt.Fprintf(&b, "O (second player) to move; X %d, O %d", x, o)
	}
	return b.String()
}

// Zobrist keys, fixed by a constant seed so hashes are stable across runs.
var (
	discKeys [2][Size * Size]uint64
	flipKeys [Size * Size]uint64 // discKeys[0][i] ^ discKeys[1][i]
	sideKey  uint64
)

func init() {
	r := rng.New(0x07e11e6)
	for p := range discKeys {
		for i := range discKeys[p] {
			discKeys[p][i] = r.Uint64()
		}
	}
	for i := range flipKeys {
		flipKeys[i] = discKeys[0][i] ^ discKeys[1][i]
	}
	sideKey = r.Uint64()
}

// computeHash recomputes the hash from scratch (tests compare it with the
// incremental one).
func (s *State) computeHash() uint64 {
	var h uint64
	for p := range s.discs {
		for d := s.discs[p]; d != 0; d &= d - 1 {
			h ^= discKeys[p][bits.TrailingZeros64(d)]
		}
	}
	if s.side == 1 {
		h ^= sideKey
	}
	return h
}
