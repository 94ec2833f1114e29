package erdos

import (
	"slices"
	"testing"

	"github.com/boardgame-arena/arena/games"
)

// slowGame is a plain array version of the rules, written straight from the
// spec and used only to cross-check the mask code: legality by scanning the
// row and the column, chains by trying every triple of units.
type slowGame struct {
	algol   bool
	level   [Size][Size]int // [file][rank]: 0 empty, else 1–5
	owner   [Size][Size]int // [file][rank]: 0 neutral, 1 first player, 2 second
	control [Size]int       // [file]: 0 uncontrolled, 1 or 2
	toMove  int             // 1 or 2
	placed  int
	over    bool
	reason  EndReason
	winner  int // 1, 2, or 0 for a draw
	score   int
}

func newSlow(algol bool) slowGame { return slowGame{algol: algol, toMove: 1} }

type slowMove struct{ file, rank, level int }

func (g *slowGame) canPlace(f, r, l int) bool {
	if g.level[f][r] != 0 {
		return false
	}
	for k := 0; k < Size; k++ {
		if g.level[f][k] == l || g.level[k][r] == l {
			return false
		}
	}
	return true
}

func (g *slowGame) canMove() bool {
	for f := 0; f < Size; f++ {
		for r := 0; r < Size; r++ {
			for l := 1; l <= Size; l++ {
				if g.canPlace(f, r, l) {
					return true
				}
			}
		}
	}
	return false
}

func (g *slowGame) legal() []slowMove {
	if g.over {
		return nil
	}
	out := make([]slowMove, 0, NumMoves)
	for f := 0; f < Size; f++ {
		for r := 0; r < Size; r++ {
			for l := 1; l <= Size; l++ {
				if g.canPlace(f, r, l) {
					out = append(out, slowMove{f, r, l})
				}
			}
		}
	}
	return out
}

// hasRun reports whether col (bottom→top) has three units strictly
// increasing (up) or strictly decreasing (!up) from the bottom, optionally
// only those triples that contain rank must, at a position allowed by pos.
func hasRun(col [Size]int, up bool, must int, pos func(i, j, k int) bool) bool {
	for i := 0; i < Size; i++ {
		for j := i + 1; j < Size; j++ {
			for k := j + 1; k < Size; k++ {
				a, b, c := col[i], col[j], col[k]
				if a == 0 || b == 0 || c == 0 {
					continue
				}
				if must >= 0 && (i != must && j != must && k != must || !pos(i, j, k)) {
					continue
				}
				if up && a < b && b < c || !up && a > b && b > c {
					return true
				}
			}
		}
	}
	return false
}

func anyPos(i, j, k int) bool { return true }

// algolChains applies the spec's §4 Q1 literally: chains through the new unit
// on rank r; on the second player's turns the middle-element case uses the
// engine's comparison with the minimum.
func algolChains(col [Size]int, r, mover int) (p1, p2 bool) {
	if mover == 1 {
		return hasRun(col, true, r, anyPos), hasRun(col, false, r, anyPos)
	}
	notMiddle := func(i, j, k int) bool { return j != r }
	p1 = hasRun(col, true, r, notMiddle)
	p2 = hasRun(col, false, r, notMiddle)
	l := col[r]
	var below, above []int
	for i, v := range col {
		switch {
		case v == 0:
		case i < r:
			below = append(below, v)
		case i > r:
			above = append(above, v)
		}
	}
	someLower := func(vs []int) bool { return slices.ContainsFunc(vs, func(v int) bool { return v < l }) }
	// "a P2 chain if some unit above the new unit has a lower level than L
	// and L is less than the minimum level among the units below it"
	if someLower(above) && len(below) > 0 && l < slices.Min(below) {
		p2 = true
	}
	// "a P1 chain if some unit below has a lower level than L and L is less
	// than the minimum level among the units above it"
	if someLower(below) && len(above) > 0 && l < slices.Min(above) {
		p1 = true
	}
	return p1, p2
}

func (g *slowGame) play(mv slowMove) {
	f, r, l := mv.file, mv.rank, mv.level
	mover := g.toMove
	before := g.control
	g.level[f][r] = l
	if g.control[f] != 0 {
		g.owner[f][r] = g.control[f]
	} else {
		var p1, p2 bool
		if g.algol {
			p1, p2 = algolChains(g.level[f], r, mover)
		} else {
			// The whole column: it held no chain before this unit.
			p1, p2 = hasRun(g.level[f], true, -1, nil), hasRun(g.level[f], false, -1, nil)
		}
		has := [3]bool{false, p1, p2}
		x := 0
		switch {
		case has[mover]:
			x = mover
		case has[3-mover]:
			x = 3 - mover
		}
		if x != 0 {
			g.control[f] = x
			for k := 0; k < Size; k++ {
				if g.level[f][k] != 0 {
					g.owner[f][k] = x
				}
			}
		}
	}
	g.placed++
	g.toMove = 3 - mover
	if g.placed == Cells {
		count := g.control
		if g.algol {
			count = before
		}
		c := [3]int{}
		for _, x := range count {
			c[x]++
		}
		g.over, g.reason, g.score = true, ColumnCount, c[1]-c[2]
		switch {
		case c[1] > c[2]:
			g.winner = 1
		case c[2] > c[1]:
			g.winner = 2
		}
		return
	}
	if !g.canMove() {
		g.over, g.reason, g.winner = true, Starvation, mover
		g.score = map[int]int{1: 1, 2: -1}[mover]
	}
}

// perft counts leaves like games.Perft.
func (g *slowGame) perft(depth int) uint64 {
	if depth == 1 {
		var n uint64
		for f := 0; f < Size; f++ {
			for r := 0; r < Size; r++ {
				for l := 1; l <= Size; l++ {
					if !g.over && g.canPlace(f, r, l) {
						n++
					}
				}
			}
		}
		return n
	}
	var n uint64
	for _, mv := range g.legal() {
		c := *g
		c.play(mv)
		n += c.perft(depth - 1)
	}
	return n
}

func (mv slowMove) code() games.Move { return MoveOf(mv.rank*Size+mv.file, mv.level) }

func (g *slowGame) outcome() games.Outcome {
	return games.Outcome{Winner: g.winner - 1, Score: g.score}
}

// compareSlow checks that the mask state s and the slow game g agree on
// every unit, owner, controller, the legal moves and the result.
func compareSlow(t *testing.T, s *State, g *slowGame) {
	t.Helper()
	for f := 0; f < Size; f++ {
		if got, want := s.Controller(f), g.control[f]-1; got != want {
			t.Fatalf("ply %d: column %c controlled by %d, slow rules say %d\n%s", s.Ply(), 'a'+f, got, want, s)
		}
		for r := 0; r < Size; r++ {
			i := r*Size + f
			if s.Level(i) != g.level[f][r] || s.Owner(i) != g.owner[f][r]-1 {
				t.Fatalf("ply %d: %s holds %d.%d, slow rules say %d.%d\n%s", s.Ply(), CellName(i),
					s.Level(i), s.Owner(i)+1, g.level[f][r], g.owner[f][r], s)
			}
		}
	}
	if s.Ply() != g.placed || s.Terminal() != g.over {
		t.Fatalf("ply %d: terminal %v, slow rules say ply %d terminal %v", s.Ply(), s.Terminal(), g.placed, g.over)
	}
	if g.over {
		if s.Outcome() != g.outcome() || s.EndReason() != g.reason {
			t.Fatalf("outcome %+v by %v, slow rules say %+v by %v\n%s", s.Outcome(), s.EndReason(), g.outcome(), g.reason, s)
		}
		return
	}
	if s.ToMove() != g.toMove-1 {
		t.Fatalf("ply %d: player %d to move, slow rules say %d", s.Ply(), s.ToMove(), g.toMove-1)
	}
	var got, want [NumMoves]bool
	var buf [NumMoves]games.Move
	for _, m := range s.LegalMoves(buf[:0]) {
		got[m] = true
	}
	for _, mv := range g.legal() {
		want[mv.code()] = true
	}
	if got != want {
		t.Fatalf("ply %d: legal moves %s, slow rules say %s", s.Ply(), games.FormatMoves(s, s.LegalMoves(nil)), games.FormatMoves(s, slowCodes(g)))
	}
}

func slowCodes(g *slowGame) []games.Move {
	var out []games.Move
	for _, mv := range g.legal() {
		out = append(out, mv.code())
	}
	return out
}
