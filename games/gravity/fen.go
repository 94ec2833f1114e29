package gravity

import (
	"fmt"
	"strings"

	"github.com/boardgame-arena/arena/games"
)

// sideLetters are the letters of the sides Top…Right in a position, '-' for
// NoSide.
const sideLetters = "TBLR-"

// Position implements games.PositionWriter; see the package comment for the
// format.
func (s *State) Position() string {
	b := make([]byte, 0, 100)
	for r := range Size {
		if r > 0 {
			b = append(b, '/')
		}
		for c := range Size {
			b = append(b, ".XO"[s.owner(r, c)+1])
		}
	}
	b = append(b, ' ', sideLetters[s.last[0]], sideLetters[s.last[1]], ' ')
	if s.ply == 0 {
		b = append(b, '-')
	} else {
		h := &s.hist[s.ply-1]
		b = append(b, FormatMove(games.Move(h.slot))...)
		b = append(b, '>')
		b = append(b, CellName(int(h.cell))...)
	}
	return string(b)
}

// ReadPosition implements games.PositionReader: the position in text, with
// an empty history.
func (s *State) ReadPosition(text string) (games.State, error) { return ParsePosition(text) }

// ParsePosition reads a position written by Position. The state has Ply 0
// and no history before the last move.
func ParsePosition(text string) (*State, error) {
	bad := func(format string, args ...any) (*State, error) {
		return nil, fmt.Errorf("gravity: bad position %q: %s (want 9 rows 1→9 of 9 cells A→I, X, O or '.', separated by '/'; a space and the side each player used last, X's then O's, T, B, L, R or -; a space and the last move as slot>cell, e.g. TE>E9, or - before the first)",
			text, fmt.Sprintf(format, args...))
	}
	fields := strings.Fields(text)
	if len(fields) != 3 {
		return bad("%d fields, want 3 (board, last sides, last move)", len(fields))
	}
	rows := strings.Split(fields[0], "/")
	if len(rows) != Size {
		return bad("%d rows, want %d", len(rows), Size)
	}
	s := New()
	var count [2]int
	for r, row := range rows {
		if len(row) != Size {
			return bad("row %d has %d cells, want %d", r+1, len(row), Size)
		}
		for c := range Size {
			p := strings.IndexByte("XO", row[c])
			if p < 0 {
				if row[c] != '.' {
					return bad("cell %s is %q, want X, O or '.'", CellName(r*Size+c), row[c])
				}
				continue
			}
			s.set(p, r, c)
			count[p]++
		}
	}
	if d := count[0] - count[1]; d != 0 && d != 1 {
		return bad("X has %d tiles and O %d: X, who moves first, has as many as O or one more", count[0], count[1])
	}
	n := count[0] + count[1]
	if len(fields[1]) != 2 {
		return bad("last sides %q, want two letters, X's then O's", fields[1])
	}
	for p := range 2 {
		side := strings.IndexByte(sideLetters, fields[1][p])
		switch {
		case side < 0:
			return bad("%s's last side is %q, want T, B, L, R or -", "XO"[p:p+1], fields[1][p])
		case (side == NoSide) != (count[p] == 0):
			return bad("%s has %d tiles and last side %c: a player has a last side once it has played", "XO"[p:p+1], count[p], fields[1][p])
		}
		s.last[p] = uint8(side)
	}
	s.ply, s.start = n, n
	switch last := fields[2]; {
	case n == 0 && last != "-":
		return bad("last move %q on an empty board, want -", last)
	case n > 0:
		slot, cell, err := parseLast(last)
		if err != nil {
			return bad("last move %q: %v", last, err)
		}
		p := (n - 1) & 1
		r, c := cell/Size, cell%Size
		switch {
		case s.owner(r, c) != p:
			return bad("the last move was %c's, but %s holds no %c tile", "XO"[p], CellName(cell), "XO"[p])
		case int(s.last[p]) != slot/Size:
			return bad("the last move %s is from the %s, but %c's last side is %c", FormatMove(games.Move(slot)), sideNames[slot/Size], "XO"[p], fields[1][p])
		}
		s.unplace(p, cell)
		s.open = openSlots(&s.board)
		lr, lc := s.landing(slot)
		if s.open>>uint(slot)&1 == 0 || lr*Size+lc != cell {
			return bad("a tile from %s lands elsewhere than %s", FormatMove(games.Move(slot)), CellName(cell))
		}
		before := hasFive(&s.board, p)
		s.set(p, r, c)
		if before {
			return bad("%c had five in a row before the last move: the game would have ended", "XO"[p])
		}
		if hasFive(&s.board, 1-p) {
			return bad("%c has five in a row but did not move last: the game would have ended", "XO"[1-p])
		}
		s.hist[n-1].slot, s.hist[n-1].cell = uint8(slot), uint8(cell)
		if hasFive(&s.board, p) {
			s.end = endFive
		}
	}
	s.open = openSlots(&s.board)
	if s.end == endNone && (n == Cells || s.legal(n&1) == 0) {
		s.end = endFull
	}
	s.hash = s.computeHash()
	return s, nil
}

// parseLast reads a last move written slot>cell, e.g. TE>E9.
func parseLast(text string) (slot, cell int, err error) {
	m, c, ok := strings.Cut(text, ">")
	if !ok || len(c) != 2 || c[0] < 'A' || c[0] >= 'A'+Size || c[1] < '1' || c[1] >= '1'+Size {
		return 0, 0, fmt.Errorf("want slot>cell, e.g. TE>E9 (cell A1…I9)")
	}
	mv, err := ParseMove(m)
	if err != nil {
		return 0, 0, err
	}
	return int(mv), int(c[1]-'1')*Size + int(c[0]-'A'), nil
}

// set puts player p's tile on (r, c) in all four line masks.
func (b *board) set(p, r, c int) {
	l := &b.lines[p]
	l[dirRow][r] |= 1 << uint(c)
	l[dirCol][c] |= 1 << uint(r)
	l[dirDiag][r-c+Size-1] |= 1 << uint(c)
	l[dirAnti][r+c] |= 1 << uint(c)
}

// openSlots returns the slots whose line has an empty cell.
func openSlots(b *board) uint64 {
	var open uint64
	for i := range Size {
		if b.lines[0][dirRow][i]|b.lines[1][dirRow][i] != lineFull {
			open |= (1<<(Left*Size) | 1<<(Right*Size)) << uint(i)
		}
		if b.lines[0][dirCol][i]|b.lines[1][dirCol][i] != lineFull {
			open |= (1<<(Top*Size) | 1<<(Bottom*Size)) << uint(i)
		}
	}
	return open
}

// hasFive reports whether player p has five in a row anywhere.
func hasFive(b *board, p int) bool {
	for d := range b.lines[p] {
		for _, x := range b.lines[p][d] {
			if fiveIn(x) != 0 {
				return true
			}
		}
	}
	return false
}
