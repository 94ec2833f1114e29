package othello6

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/boardgame-arena/arena/games"
)

// Reply values. On the second player's paths (bookPaths from MinEmpties+3
// empty cells alone) the agent's book move leaves a bottom-layer position
// whose best reply the book gives; after any other reply the agent must
// solve a position one ply below the book without knowing its value, and
// at 23 empty cells that takes more than a second of one core about once
// in 16. A book may therefore hold the exact value of every reply to those
// positions (BookBuild.ReplyValues): the agent then knows the value of its
// position, and the move its solver finds first that keeps it is optimal.

// replyUnknown is the stored reply value of a reply not solved yet.
const replyUnknown = -128

// replyParents returns the bottom-layer positions (minEmpties empty cells)
// on the second player's paths from top, the positions with minEmpties+3,
// sorted; ok is false when move lacks a position on the way.
func replyParents(top [][2]uint64, minEmpties int, move func(p [2]uint64) (int, bool)) ([][2]uint64, bool) {
	paths, ok := bookPaths(map[int][][2]uint64{minEmpties + 3: top}, minEmpties, move)
	if !ok {
		return nil, false
	}
	list := make([][2]uint64, 0, len(paths))
	for p := range paths {
		list = append(list, p)
	}
	return sortPositions(list), true
}

// layerOf returns the positions of list with e empty cells.
func layerOf(list [][2]uint64, e int) [][2]uint64 {
	var out [][2]uint64
	for _, p := range list {
		if bits.OnesCount64(^(p[0]|p[1])&full) == e {
			out = append(out, p)
		}
	}
	return out
}

// decodeReplyValues checks the reply values vals (for each parent, for
// each of its moves in square order, the value for the parent's mover, or
// replyUnknown) against the parents' book entries, and returns the
// children's values as entries (value from the child's mover's view, move
// unused), sorted.
func decodeReplyValues(parents [][2]uint64, vals []int8, find func(me, opp uint64) (bookEntry, bool)) ([]bookEntry, error) {
	total := 0
	for _, p := range parents {
		total += bits.OnesCount64(Moves(p[0], p[1]))
	}
	if total != len(vals) {
		return nil, fmt.Errorf("%d reply values, the book's %d positions that need them have %d moves", len(vals), len(parents), total)
	}
	byChild := map[[2]uint64]int8{}
	k := 0
	for _, p := range parents {
		e, ok := find(p[0], p[1])
		if !ok {
			return nil, fmt.Errorf("reply values for a position the book has not solved (%x/%x)", p[0], p[1])
		}
		best, all := -solveInf, true
		for m := Moves(p[0], p[1]); m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			v := vals[k]
			k++
			c, flip, over := bookChild(p, i)
			switch {
			case over && int(v) != SolvedScore(c[0], c[1]):
				return nil, fmt.Errorf("reply value %d: move %s ends the game at %d", v, FormatMove(games.Move(i)), SolvedScore(c[0], c[1]))
			case v == replyUnknown:
				all = false
				if i == int(e.move) {
					return nil, fmt.Errorf("reply values of %x/%x: the book's move is not solved", p[0], p[1])
				}
				continue
			case v < -Size*Size || v > Size*Size:
				return nil, fmt.Errorf("reply value %d is outside ±%d", v, Size*Size)
			case int(v) > int(e.value) || i == int(e.move) && v != e.value:
				return nil, fmt.Errorf("reply value %d of move %s in %x/%x: the position is worth %d by its book move", v, FormatMove(games.Move(i)), p[0], p[1], e.value)
			}
			best = max(best, int(v))
			if over {
				continue
			}
			cv := -v // the opponent places next: his value is against the parent's mover
			if flip {
				cv = v
			}
			if old, ok := byChild[c]; ok && old != cv {
				return nil, fmt.Errorf("reply values: a position reached twice is worth %d and %d", old, cv)
			}
			byChild[c] = cv
		}
		if all && best != int(e.value) {
			return nil, fmt.Errorf("reply values of %x/%x: the best is %d, the book says %d", p[0], p[1], best, e.value)
		}
	}
	out := make([]bookEntry, 0, len(byChild))
	for c, v := range byChild {
		out = append(out, bookEntry{me: c[0], opp: c[1], move: -1, value: v})
	}
	slices.SortFunc(out, compareEntries)
	return out, nil
}

// encodeReplyValues is the inverse of decodeReplyValues: value gives a
// child's value from its mover's view, when known; the book's move is
// worth its parent's value.
func encodeReplyValues(parents [][2]uint64, find func(me, opp uint64) (bookEntry, bool), value func(c [2]uint64) (int8, bool)) []int8 {
	var vals []int8
	for _, p := range parents {
		e, _ := find(p[0], p[1])
		for m := Moves(p[0], p[1]); m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			c, flip, over := bookChild(p, i)
			switch cv, ok := value(c); {
			case over:
				vals = append(vals, int8(SolvedScore(c[0], c[1])))
			case i == int(e.move):
				vals = append(vals, e.value)
			case !ok:
				vals = append(vals, replyUnknown)
			case flip:
				vals = append(vals, cv)
			default:
				vals = append(vals, -cv)
			}
		}
	}
	return vals
}

// Value returns the exact value (SolvedScore from the mover's view) of the
// position, for the mover's discs me and the opponent's opp, when the book
// knows it: a book position, or a reply to one on the second player's
// paths (see BookBuild.ReplyValues).
func (b *Book) Value(me, opp uint64) (int, bool) {
	cme, copp, _ := canonical(me, opp)
	if e, ok := b.find(cme, copp); ok {
		return int(e.value), true
	}
	if e, ok := findEntry(b.values, cme, copp); ok {
		return int(e.value), true
	}
	return 0, false
}

// BookValue implements games.BookValuer with the embedded book.
func (s *State) BookValue() (int, bool) {
	b, err := defaultBook()
	if err != nil {
		panic(err)
	}
	if s.over || s.moves == 0 {
		return 0, false
	}
	return b.Value(s.discs[s.side], s.discs[1-s.side])
}
