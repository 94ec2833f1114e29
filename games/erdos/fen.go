package erdos

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/games"
)

// Position implements games.PositionWriter; see the package comment for the
// format.
func (s *State) Position() string {
	b := make([]byte, 0, 40)
	for r := Size - 1; r >= 0; r-- {
		for f := range Size {
			if lv := s.b.level(r*Size + f); lv == 0 {
				b = append(b, '.')
			} else {
				b = append(b, byte('0'+lv))
			}
		}
		if r > 0 {
			b = append(b, '/')
		}
	}
	b = append(b, ' ')
	for f := range Size {
		b = append(b, "-12"[s.Controller(f)+1])
	}
	if s.b.algol && s.b.ply == Cells {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(s.b.score), 10)
	}
	return string(b)
}

// ReadPosition implements games.PositionReader: the position in text under
// the receiver's rules, with an empty history.
func (s *State) ReadPosition(text string) (games.State, error) {
	return ParsePosition(s.Rules(), text)
}

// ParsePosition reads a position written by Position under rules r. The
// state has Ply 0 and no history.
func ParsePosition(r Rules, text string) (*State, error) {
	bad := func(format string, args ...any) (*State, error) {
		return nil, fmt.Errorf("erdos: bad position %q: %s (want 5 ranks 5→1 of levels 1–5 or '.' separated by '/', a space and each column's controller a→e as 1, 2 or -, e.g. %q)",
			text, fmt.Sprintf(format, args...), "...../...../..3../...../..... -----")
	}
	fields := strings.Fields(text)
	if len(fields) < 2 {
		return bad("%d fields, want the board and the column controllers", len(fields))
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != Size {
		return bad("%d ranks, want %d", len(ranks), Size)
	}
	s := New(r)
	b := &s.b
	for i, rank := range ranks {
		rk := Size - 1 - i
		if len(rank) != Size {
			return bad("rank %d has %d cells, want %d", rk+1, len(rank), Size)
		}
		for f := range Size {
			c := rank[f]
			if c == '.' {
				continue
			}
			if c < '1' || c > '5' {
				return bad("cell %s is %q, want a level 1–5 or '.'", CellName(rk*Size+f), c)
			}
			i, l := rk*Size+f, int(c-'1')
			if b.blocked[l]&(1<<i) != 0 {
				return bad("level %c stands twice in the row or column of %s", c, CellName(i))
			}
			b.occ |= 1 << i
			b.blocked[l] |= lines[i]
			b.code[f] += uint16(l+1) * pow6[rk]
			b.ply++
		}
	}
	b.side = b.ply & 1
	ctrl := fields[1]
	if len(ctrl) != Size {
		return bad("%d column controllers, want %d", len(ctrl), Size)
	}
	for f := range Size {
		var lv [Size]int
		for rk := range Size {
			lv[rk] = b.level(rk*Size + f)
		}
		up, down := hasChain(lv, 1), hasChain(lv, -1)
		col := fileA << f & b.occ
		switch ctrl[f] {
		case '1':
			if !up {
				return bad("player 1 controls column %c without an increasing run of three bottom→top in it", 'a'+f)
			}
			b.ctrl[0] |= 1 << f
			b.own[0] |= col
		case '2':
			if !down {
				return bad("player 2 controls column %c without an increasing run of three top→bottom in it", 'a'+f)
			}
			b.ctrl[1] |= 1 << f
			b.own[1] |= col
		case '-':
			// Under the standard rules a run is captured as it forms; the
			// Algol engine can miss one (quirk Q1).
			if (up || down) && r == Standard {
				return bad("column %c holds a run of three but nobody controls it", 'a'+f)
			}
		default:
			return bad("controller of column %c is %q, want 1, 2 or -", 'a'+f, ctrl[f])
		}
	}
	full := b.ply == Cells
	switch want := r == Algol && full; {
	case want && len(fields) != 3:
		return bad("a full board under the algol rules needs a third field, the column difference counted before the last placement (quirk Q2), e.g. +1")
	case !want && len(fields) != 2:
		return bad("%d fields, want 2 (a third, the counted columns, only on a full board under the algol rules)", len(fields))
	}
	switch {
	case full && r == Algol:
		d, err := strconv.Atoi(fields[2])
		c1, c2 := bits.OnesCount8(b.ctrl[0]), bits.OnesCount8(b.ctrl[1])
		// The last placement captured at most one column, for either player.
		if err != nil || !(d == c1-c2 || d == c1-c2-1 && c1 > 0 || d == c1-c2+1 && c2 > 0) {
			return bad("counted difference %q: with columns %d–%d, want %d, or one less or more for a column the last placement captured", fields[2], c1, c2, c1-c2)
		}
		b.reason, b.score, b.winner = ColumnCount, int8(d), int8(games.Draw)
		if d > 0 {
			b.winner = 0
		} else if d < 0 {
			b.winner = 1
		}
	case full:
		b.countColumns(b.ctrl)
	case !b.anyLegal():
		b.starve()
	}
	b.hash = b.computeHash()
	s.start = b.ply
	return s, nil
}

// hasChain reports whether the column's levels lv (bottom→top, 0 empty)
// hold three units increasing in direction dir: 1 bottom→top, −1 top→bottom.
func hasChain(lv [Size]int, dir int) bool {
	for i := range Size {
		for j := i + 1; j < Size; j++ {
			for k := j + 1; k < Size; k++ {
				a, b, c := lv[i]*dir, lv[j]*dir, lv[k]*dir
				if lv[i] != 0 && lv[j] != 0 && lv[k] != 0 && a < b && b < c {
					return true
				}
			}
		}
	}
	return false
}
