package pyrga

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/boardgame-arena/arena/games"
)

// Position implements games.PositionWriter; see the package comment for the
// format.
func (s *State) Position() string {
	b := make([]byte, 0, 60)
	for r := Size - 1; r >= 0; r-- {
		for f := range Size {
			bit := uint16(1) << (r*Size + f)
			for k := range 3 {
				c := byte('.')
				switch {
				case s.pieces[0][k]&bit != 0:
					c = kindLetters[k]
				case s.pieces[1][k]&bit != 0:
					c = kindLetters[k] + 'a' - 'A'
				}
				b = append(b, c)
			}
		}
		if r > 0 {
			b = append(b, '/')
		}
	}
	b = append(b, ' ')
	if s.ply == 0 {
		b = append(b, '-')
	} else {
		b = append(b, FormatMove(s.moves[s.ply-1])...)
	}
	return string(b)
}

// positionExample is the position after White's Triangle on b2 pointing
// north, shown in errors.
const positionExample = "............/............/....T......./............ T@b2>N"

// ReadPosition implements games.PositionReader: the position in text under
// the receiver's rules (bga or not), with an empty history.
func (s *State) ReadPosition(text string) (games.State, error) {
	return ParsePosition(s.bga, text)
}

// ParsePosition reads a position written by Position, under the bga rule
// when bga is set. The state has Ply 0 and no history before the last move.
func ParsePosition(bga bool, text string) (*State, error) {
	bad := func(format string, args ...any) (*State, error) {
		return nil, fmt.Errorf("pyrga: bad position %q: %s (want 4 ranks 4→1 of 4 cells a→d, each 3 characters Square, Triangle, Cylinder: S T C for White, s t c for Black, '.' for none, ranks separated by '/', then a space and the last move, e.g. T@b2>N, or - before the first; e.g. %q)",
			text, fmt.Sprintf(format, args...), positionExample)
	}
	fields := strings.Fields(text)
	if len(fields) != 2 {
		return bad("%d fields, want 2 (board and last move)", len(fields))
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != Size {
		return bad("%d ranks, want %d", len(ranks), Size)
	}
	var pc [2][3]uint16
	for i, rank := range ranks {
		r := Size - 1 - i
		if len(rank) != 3*Size {
			return bad("rank %d has %d characters, want %d (3 per cell)", r+1, len(rank), 3*Size)
		}
		for f := range Size {
			cell := r*Size + f
			for k := range 3 {
				switch c := rank[3*f+k]; c {
				case '.':
				case kindLetters[k]:
					pc[0][k] |= 1 << cell
				case kindLetters[k] + 'a' - 'A':
					pc[1][k] |= 1 << cell
				default:
					return bad("cell %s has %q in its %s slot, want %c, %c or '.'", cellName(cell),
						c, kindNames[k], kindLetters[k], kindLetters[k]+'a'-'A')
				}
			}
		}
	}
	var count [2]int
	for p := range 2 {
		for k := range 3 {
			n := bits.OnesCount16(pc[p][k])
			if n > PiecesPerType {
				return bad("%s has %d %ss, more than %d", colourNames[p], n, kindNames[k], PiecesPerType)
			}
			count[p] += n
		}
	}
	if d := count[0] - count[1]; d != 0 && d != 1 {
		return bad("White has %d pieces and Black %d: White, who moves first, has as many as Black or one more", count[0], count[1])
	}
	n := count[0] + count[1]
	if bga && count[0] == 2 && bits.OnesCount16(pc[0][Square]) == 2 {
		return bad("White's first two pieces are Squares, which the bga rule forbids")
	}
	s := &State{bga: bga, ply: n, start: n}
	s.pieces = pc
	s.target = allCells
	switch {
	case n == 0 && fields[1] != "-":
		return bad("last move %q on an empty board, want -", fields[1])
	case n > 0 && fields[1] == "-":
		return bad("no last move, but %d pieces on the board", n)
	case n > 0:
		m, err := ParseMove(fields[1])
		if err != nil {
			return bad("last move: %v", err)
		}
		kind, cell, dir := Decode(m)
		if last := (n - 1) & 1; pc[last][kind]&(1<<cell) == 0 {
			return bad("the last move %s was %s's, but the board has no %s of %s on %s", fields[1], colourNames[last], kindNames[kind], colourNames[last], cellName(cell))
		}
		s.moves[n-1] = m
		s.target = targetOf(kind, cell, dir)
	}
	t := tallies(&pc)
	switch {
	case t[0].Towers >= 3 && t[1].Towers >= 3:
		return bad("both players control three towers; the game ends at the first third tower")
	case t[0].Towers > 3 || t[1].Towers > 3:
		return bad("a player controls more than three towers; the game ends at the third")
	case t[0].Towers == 3 || t[1].Towers == 3:
		w := 0
		if t[1].Towers == 3 {
			w = 1
		}
		_, cell, _ := Decode(s.moves[n-1])
		full := (pc[0][Square] | pc[1][Square]) & (pc[0][Triangle] | pc[1][Triangle]) & (pc[0][Cylinder] | pc[1][Cylinder])
		if full&majority(&pc[w])&(1<<cell) == 0 {
			return bad("%s has three towers but the last move did not complete one of them: the game would have ended earlier", colourNames[w])
		}
		s.over = true
	default:
		var any bool
		s.legal, any = legalSlots(&s.pieces, n&1, s.target, noSquare(bga, n, &s.pieces))
		s.over = !any
	}
	s.hash = s.computeHash()
	return s, nil
}

var (
	kindNames   = [3]string{"Square", "Triangle", "Cylinder"}
	colourNames = [2]string{"White", "Black"}
)

func cellName(i int) string { return string([]byte{'a' + byte(i%Size), '1' + byte(i/Size)}) }
