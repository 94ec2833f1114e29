package gravity

// An independent, deliberately plain implementation of the rules on a 9×9
// array, used only to cross-check the bitboard one: it walks every slot's
// line cell by cell and counts five in a row by stepping from the new tile.

import "github.com/boardgame-arena/arena/games"

type slowGame struct {
	grid   [Size][Size]int8 // [row][column]: 0 empty, 1 first player, 2 second
	last   [2]int           // previous side of each player, -1 before their first move
	toMove int
	tiles  int
	over   bool
	winner int
}

func newSlow() slowGame { return slowGame{last: [2]int{-1, -1}} }

// path returns the cells of slot's line in the order a tile meets them.
func slowPath(slot int) [Size][2]int {
	side, line := slot/Size, slot%Size
	var path [Size][2]int
	for i := range Size {
		switch side {
		case Top:
			path[i] = [2]int{i, line}
		case Bottom:
			path[i] = [2]int{Size - 1 - i, line}
		case Left:
			path[i] = [2]int{line, i}
		case Right:
			path[i] = [2]int{line, Size - 1 - i}
		}
	}
	return path
}

func (g *slowGame) empty(rc [2]int) bool { return g.grid[rc[0]][rc[1]] == 0 }

func (g *slowGame) legal(slot int) bool {
	if g.over || slot/Size == g.last[g.toMove] {
		return false
	}
	for _, rc := range slowPath(slot) {
		if g.empty(rc) {
			return true
		}
	}
	return false
}

func (g *slowGame) moves() []games.Move {
	var out []games.Move
	for slot := range Slots {
		if g.legal(slot) {
			out = append(out, games.Move(slot))
		}
	}
	return out
}

// landing returns the cell where slot's tile stops, per the spec's wording:
// the first empty cell from the edge, then onward while the next is empty.
func (g *slowGame) landing(slot int) [2]int {
	path := slowPath(slot)
	i := 0
	for !g.empty(path[i]) {
		i++
	}
	for i+1 < Size && g.empty(path[i+1]) {
		i++
	}
	return path[i]
}

func (g *slowGame) play(slot int) {
	rc := g.landing(slot)
	me := int8(g.toMove + 1)
	g.grid[rc[0]][rc[1]] = me
	g.last[g.toMove] = slot / Size
	g.tiles++
	for _, d := range [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		run := 1
		for _, sign := range []int{1, -1} {
			r, c := rc[0]+sign*d[0], rc[1]+sign*d[1]
			for r >= 0 && r < Size && c >= 0 && c < Size && g.grid[r][c] == me {
				run++
				r, c = r+sign*d[0], c+sign*d[1]
			}
		}
		if run >= 5 {
			g.over, g.winner = true, g.toMove
			return
		}
	}
	g.toMove = 1 - g.toMove
	if g.tiles == Cells || len(g.moves()) == 0 {
		g.over, g.winner = true, 1
	}
}

// hasFiveAnywhere scans the whole grid for five of player p in a row.
func (g *slowGame) hasFiveAnywhere(p int) bool {
	me := int8(p + 1)
	for r := range Size {
		for c := range Size {
			for _, d := range [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				k := 0
				for k < 5 {
					rr, cc := r+k*d[0], c+k*d[1]
					if rr < 0 || rr >= Size || cc < 0 || cc >= Size || g.grid[rr][cc] != me {
						break
					}
					k++
				}
				if k == 5 {
					return true
				}
			}
		}
	}
	return false
}

func slowPerft(g slowGame, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	moves := g.moves()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		child := g
		child.play(int(m))
		n += slowPerft(child, depth-1)
	}
	return n
}
