package testgames

import (
	"fmt"
	"strconv"

	"github.com/boardgame-arena/arena/games"
)

// Matrix is a one-shot zero-sum game: both players pick a row and a column
// at once and the first player gets Payoff[row][col] ∈ [0, 1] (the second
// gets 1 − that). Reward reports these payoffs, which a search that
// understands graded rewards can use; Outcome gives the player with the
// larger payoff the win.
type Matrix struct {
	Payoff [][]float64
	played bool
	m      [2]games.Move
}

// NewMatrix returns the game with the given payoffs for the first player.
func NewMatrix(payoff [][]float64) *Matrix { return &Matrix{Payoff: payoff} }

// BiasedRPS is rock-paper-scissors in which winning with rock pays more:
// with payoffs a (rock beats scissors), b (paper beats rock) and c
// (scissors beats paper), rescaled into [0, 1]. With a, b, c = 2, 1, 1 the
// unique equilibrium plays rock 1/4, paper 1/2, scissors 1/4.
func BiasedRPS() *Matrix {
	const a, b, c = 2.0, 1.0, 1.0
	// Net payoffs of the row player, rows and columns rock, paper, scissors.
	net := [3][3]float64{{0, -b, a}, {b, 0, -c}, {-a, c, 0}}
	p := make([][]float64, 3)
	for i := range p {
		p[i] = make([]float64, 3)
		for j := range p[i] {
			p[i][j] = 0.5 + net[i][j]/(2*a) // into [0, 1]
		}
	}
	return NewMatrix(p)
}

// ToMove implements games.Base.
func (g *Matrix) ToMove() int {
	if g.played {
		return games.None
	}
	return games.Both
}

// Terminal implements games.Base.
func (g *Matrix) Terminal() bool { return g.played }

var _ games.Rewarder = (*Matrix)(nil)

// Reward implements games.Rewarder: player p's payoff in [0, 1] once the
// game is over.
func (g *Matrix) Reward(p int) float64 {
	v := g.Payoff[g.m[0]][g.m[1]]
	if p == 1 {
		return 1 - v
	}
	return v
}

// Outcome implements games.Base.
func (g *Matrix) Outcome() games.Outcome {
	v := g.Payoff[g.m[0]][g.m[1]]
	switch {
	case v > 0.5:
		return games.Outcome{Winner: 0, Score: 1}
	case v < 0.5:
		return games.Outcome{Winner: 1, Score: -1}
	}
	return games.Outcome{Winner: games.Draw}
}

// Ply implements games.Base.
func (g *Matrix) Ply() int {
	if g.played {
		return 1
	}
	return 0
}

// Undo implements games.Base; like every game's, it panics at ply 0.
func (g *Matrix) Undo() {
	if !g.played {
		panic("testgames: Undo of the matrix game before its move")
	}
	g.played = false
}

// Hash implements games.Base.
func (g *Matrix) Hash() uint64 {
	if !g.played {
		return 0
	}
	return keys[1+int(g.m[0])] ^ keys[1000+int(g.m[1])]
}

// ComputeHash implements games.Base: Hash is computed from scratch already.
func (g *Matrix) ComputeHash() uint64 { return g.Hash() }

// LegalMovesFor implements games.SimState.
func (g *Matrix) LegalMovesFor(p int, buf []games.Move) []games.Move {
	if g.played {
		return buf
	}
	n := len(g.Payoff)
	if p == 1 {
		n = len(g.Payoff[0])
	}
	for i := 0; i < n; i++ {
		buf = append(buf, games.Move(i))
	}
	return buf
}

// PlayJoint implements games.SimState.
func (g *Matrix) PlayJoint(m0, m1 games.Move) { g.m, g.played = [2]games.Move{m0, m1}, true }

// Clone implements games.SimState.
func (g *Matrix) Clone() games.SimState { c := *g; return &c }

// FormatMove implements games.Base.
func (g *Matrix) FormatMove(m games.Move) string { return strconv.Itoa(int(m)) }

// ParseMove implements games.Base.
func (g *Matrix) ParseMove(s string) (games.Move, error) { return parseInt(s, 0, 99) }

// String implements games.Base.
func (g *Matrix) String() string { return fmt.Sprintf("matrix game, played %v", g.played) }

// Goofspiel is the bidding card game with n cards: each player holds cards
// 1…n, the prizes 1…n come up in a fixed order, and each round both bid a
// card at once; the higher bid takes the prize (equal bids: nobody). After n
// rounds the player with more prize points wins; Score is the difference.
// Moves are card values.
type Goofspiel struct {
	N      int
	Prizes []int
	hands  [2]uint32 // bit c: card c still held
	points [2]int
	round  int
	hist   [][2]games.Move
}

// NewGoofspiel returns Goofspiel with the given prize order (a permutation
// of 1…len(prizes)).
func NewGoofspiel(prizes ...int) *Goofspiel {
	n := len(prizes)
	g := &Goofspiel{N: n, Prizes: prizes, hist: make([][2]games.Move, 0, n)}
	all := uint32(1<<(n+1) - 2)
	g.hands = [2]uint32{all, all}
	return g
}

// ToMove implements games.Base.
func (g *Goofspiel) ToMove() int {
	if g.round == g.N {
		return games.None
	}
	return games.Both
}

// Terminal implements games.Base.
func (g *Goofspiel) Terminal() bool { return g.round == g.N }

// Outcome implements games.Base.
func (g *Goofspiel) Outcome() games.Outcome {
	return games.MarginOutcome(g.points[0] - g.points[1])
}

// Ply implements games.Base.
func (g *Goofspiel) Ply() int { return g.round }

// Hash implements games.Base.
func (g *Goofspiel) Hash() uint64 {
	return keys[g.hands[0]&1023] ^ keys[1024+g.hands[1]&1023] ^ keys[2048+g.points[0]] ^ keys[3000+g.points[1]]
}

// ComputeHash implements games.Base: Hash is computed from scratch already.
func (g *Goofspiel) ComputeHash() uint64 { return g.Hash() }

// LegalMovesFor implements games.SimState.
func (g *Goofspiel) LegalMovesFor(p int, buf []games.Move) []games.Move {
	if g.Terminal() {
		return buf
	}
	for c := 1; c <= g.N; c++ {
		if g.hands[p]&(1<<c) != 0 {
			buf = append(buf, games.Move(c))
		}
	}
	return buf
}

// PlayJoint implements games.SimState.
func (g *Goofspiel) PlayJoint(m0, m1 games.Move) {
	g.hands[0] &^= 1 << m0
	g.hands[1] &^= 1 << m1
	prize := g.Prizes[g.round]
	switch {
	case m0 > m1:
		g.points[0] += prize
	case m1 > m0:
		g.points[1] += prize
	}
	g.hist = append(g.hist, [2]games.Move{m0, m1})
	g.round++
}

// Undo implements games.Base.
func (g *Goofspiel) Undo() {
	g.round--
	m := g.hist[len(g.hist)-1]
	g.hist = g.hist[:len(g.hist)-1]
	g.hands[0] |= 1 << m[0]
	g.hands[1] |= 1 << m[1]
	prize := g.Prizes[g.round]
	switch {
	case m[0] > m[1]:
		g.points[0] -= prize
	case m[1] > m[0]:
		g.points[1] -= prize
	}
}

// Clone implements games.SimState.
func (g *Goofspiel) Clone() games.SimState {
	c := *g
	c.hist = append(make([][2]games.Move, 0, g.N), g.hist...)
	return &c
}

// FormatMove implements games.Base.
func (g *Goofspiel) FormatMove(m games.Move) string { return strconv.Itoa(int(m)) }

// ParseMove implements games.Base.
func (g *Goofspiel) ParseMove(s string) (games.Move, error) { return parseInt(s, 1, g.N) }

// String implements games.Base.
func (g *Goofspiel) String() string {
	return fmt.Sprintf("goofspiel round %d/%d, points %d–%d", g.round, g.N, g.points[0], g.points[1])
}
