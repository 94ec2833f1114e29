package pyrga

// An independent, deliberately plain implementation of the rules on arrays,
// used only to cross-check the mask implementation: coordinates instead of
// bits, loops instead of masks, rules read straight off the spec.

import "fmt"

type slowMove struct{ kind, file, rank, dir int }

// String writes the move in the spec's notation, independently of FormatMove.
func (m slowMove) String() string {
	s := fmt.Sprintf("%c@%c%d", "STC"[m.kind], 'a'+m.file, m.rank+1)
	if m.kind == Triangle {
		s += ">" + string("NESW"[m.dir])
	}
	return s
}

// encode converts to the package's move encoding, for comparing move sets.
func (m slowMove) encode() int { return m.rank*4 + m.file | m.kind<<4 | m.dir<<6 }

type slowGame struct {
	cell      [4][4][3]int // [file][rank][type]: 0 none, 1 White, 2 Black
	stock     [2][3]int
	ply       int
	last      slowMove
	bga       bool
	firstKind int // type of White's first piece
	over      bool
}

func newSlow(bga bool) slowGame {
	g := slowGame{bga: bga}
	for p := range 2 {
		for k := range 3 {
			g.stock[p][k] = 5
		}
	}
	return g
}

var slowSteps = [4][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} // N E S W

func onBoard(f, r int) bool { return f >= 0 && f < 4 && r >= 0 && r < 4 }

// targets lists the cells the last piece points the mover to.
func (g *slowGame) targets() [][2]int {
	var out [][2]int
	if g.ply == 0 {
		for f := range 4 {
			for r := range 4 {
				out = append(out, [2]int{f, r})
			}
		}
		return out
	}
	m := g.last
	switch m.kind {
	case Square:
		for _, st := range slowSteps {
			if onBoard(m.file+st[0], m.rank+st[1]) {
				out = append(out, [2]int{m.file + st[0], m.rank + st[1]})
			}
		}
	case Triangle:
		st := slowSteps[m.dir]
		for f, r := m.file+st[0], m.rank+st[1]; onBoard(f, r); f, r = f+st[0], r+st[1] {
			out = append(out, [2]int{f, r})
		}
	case Cylinder:
		out = append(out, [2]int{m.file, m.rank})
	}
	return out
}

func (g *slowGame) mayUse(kind int) bool {
	me := g.ply % 2
	if g.stock[me][kind] == 0 {
		return false
	}
	return !(g.bga && g.ply == 2 && g.firstKind == Square && kind == Square)
}

func (g *slowGame) movesOn(cells [][2]int) []slowMove {
	var out []slowMove
	for _, c := range cells {
		f, r := c[0], c[1]
		for kind := range 3 {
			if !g.mayUse(kind) || g.cell[f][r][kind] != 0 {
				continue
			}
			if kind != Triangle {
				out = append(out, slowMove{kind, f, r, 0})
				continue
			}
			for d, st := range slowSteps {
				if onBoard(f+st[0], r+st[1]) {
					out = append(out, slowMove{kind, f, r, d})
				}
			}
		}
	}
	return out
}

func (g *slowGame) legal() []slowMove {
	if g.over {
		return nil
	}
	if out := g.movesOn(g.targets()); len(out) > 0 {
		return out
	}
	var empty [][2]int
	for f := range 4 {
		for r := range 4 {
			if g.cell[f][r] == [3]int{} {
				empty = append(empty, [2]int{f, r})
			}
		}
	}
	return g.movesOn(empty)
}

// counts returns player p's (towers, pairs, singles).
func (g *slowGame) counts(p int) [3]int {
	var c [3]int
	for f := range 4 {
		for r := range 4 {
			n, mine := 0, 0
			for k := range 3 {
				if g.cell[f][r][k] != 0 {
					n++
				}
				if g.cell[f][r][k] == p+1 {
					mine++
				}
			}
			switch {
			case n == 3 && mine >= 2:
				c[0]++
			case n == 2 && mine == 2:
				c[1]++
			case n == 1 && mine == 1:
				c[2]++
			}
		}
	}
	return c
}

// winner decides a finished game: 0, 1 or -1 for a draw.
func (g *slowGame) winner() int {
	a, b := g.counts(0), g.counts(1)
	for i := range 3 {
		if a[i] > b[i] {
			return 0
		}
		if a[i] < b[i] {
			return 1
		}
	}
	return -1
}

func (g *slowGame) play(m slowMove) {
	me := g.ply % 2
	if g.cell[m.file][m.rank][m.kind] != 0 || g.stock[me][m.kind] == 0 {
		panic("slow: illegal move " + m.String())
	}
	g.cell[m.file][m.rank][m.kind] = me + 1
	g.stock[me][m.kind]--
	if g.ply == 0 {
		g.firstKind = m.kind
	}
	g.ply++
	g.last = m
	if g.counts(0)[0] >= 3 || g.counts(1)[0] >= 3 || len(g.legal()) == 0 {
		g.over = true
	}
}

func slowPerft(g slowGame, depth int) uint64 {
	moves := g.legal()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		c := g
		c.play(m)
		n += slowPerft(c, depth-1)
	}
	return n
}

// parseSlow finds the legal move written text, or reports it is not legal.
func (g *slowGame) find(text string) (slowMove, bool) {
	for _, m := range g.legal() {
		if m.String() == text {
			return m, true
		}
	}
	return slowMove{}, false
}
