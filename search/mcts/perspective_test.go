package mcts

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/search/testgames"
)

// gt is a hand-made game tree: at an inner node player mover chooses
// among kids (move j leads to kids[j]); a leaf is won by winner (0, 1 or
// games.Draw). A node with one child is a pass; a child whose mover is the
// parent's is a second move in a row.
type gt struct {
	mover, winner int
	kids          []gt
}

func turn(p int, kids ...gt) gt { return gt{mover: p, kids: kids} }
func won(p int) gt              { return gt{winner: p} }
func drawn() gt                 { return gt{winner: games.Draw} }

// swapped is g with the players' roles exchanged.
func (g gt) swapped() gt {
	s := gt{mover: 1 - g.mover, winner: g.winner}
	if g.winner != games.Draw {
		s.winner = 1 - g.winner
	}
	for _, k := range g.kids {
		s.kids = append(s.kids, k.swapped())
	}
	return s
}

// minimax is the game-theoretic points of g for player p.
func (g gt) minimax(p int) float64 {
	if len(g.kids) == 0 {
		return games.Outcome{Winner: g.winner}.Points(p)
	}
	best := 0.0
	for _, k := range g.kids {
		best = max(best, k.minimax(g.mover))
	}
	if g.mover != p {
		return 1 - best
	}
	return best
}

// treeGame plays a gt as a games.State; the position is the last node of
// path, an index into nodes (the flattened tree).
type treeGame struct {
	nodes []flatNode
	path  []int
}

type flatNode struct {
	mover, winner int
	kids          []int
}

func newTreeGame(g gt) *treeGame {
	t := &treeGame{path: []int{0}}
	var add func(g gt) int
	add = func(g gt) int {
		i := len(t.nodes)
		t.nodes = append(t.nodes, flatNode{mover: g.mover, winner: g.winner})
		for _, k := range g.kids {
			j := add(k)
			t.nodes[i].kids = append(t.nodes[i].kids, j)
		}
		return i
	}
	add(g)
	return t
}

func (t *treeGame) at() *flatNode { return &t.nodes[t.path[len(t.path)-1]] }

func (t *treeGame) ToMove() int {
	if t.Terminal() {
		return games.None
	}
	return t.at().mover
}
func (t *treeGame) Terminal() bool                 { return len(t.at().kids) == 0 }
func (t *treeGame) Outcome() games.Outcome         { return games.Outcome{Winner: t.at().winner} }
func (t *treeGame) Ply() int                       { return len(t.path) - 1 }
func (t *treeGame) Undo()                          { t.path = t.path[:len(t.path)-1] }
func (t *treeGame) Hash() uint64                   { return uint64(t.path[len(t.path)-1]+1) * 0x9E3779B97F4A7C15 }
func (t *treeGame) ComputeHash() uint64            { return t.Hash() }
func (t *treeGame) FormatMove(m games.Move) string { return strconv.Itoa(int(m)) }
func (t *treeGame) ParseMove(s string) (games.Move, error) {
	n, err := strconv.Atoi(s)
	return games.Move(n), err
}
func (t *treeGame) String() string { return fmt.Sprintf("node %d", t.path[len(t.path)-1]) }
func (t *treeGame) LegalMoves(buf []games.Move) []games.Move {
	for j := range t.at().kids {
		buf = append(buf, games.Move(j))
	}
	return buf
}
func (t *treeGame) Play(m games.Move) { t.path = append(t.path, t.at().kids[m]) }
func (t *treeGame) Clone() games.State {
	return &treeGame{nodes: t.nodes, path: append([]int(nil), t.path...)}
}

// TestValuePerspective searches hand-made trees whose best move is known,
// for either player at the root, with and without the solver, at several
// fpu values: every node kind must be valued for the player who chooses
// there (sequential, a pass, two moves in a row, proven draws).
func TestValuePerspective(t *testing.T) {
	const me, opp, D = 0, 1, games.Draw
	cases := []struct {
		name string
		root gt
		best games.Move
	}{
		{"sequential", turn(me,
			turn(opp, turn(me, won(opp), won(opp)), drawn()), // loss: opp goes into my lost node
			turn(opp, turn(me, won(opp), won(me)), won(me)),  // win: I pick my win
			drawn()), 1},
		{"pass gives me the move", turn(me,
			drawn(),
			turn(opp, turn(me, won(opp), won(me)))), 1}, // opp must pass, I win
		{"passes back and forth", turn(me,
			turn(opp, turn(me, turn(opp, won(me), won(opp)))), // opp passes, I pass, opp wins
			drawn()), 1},
		{"my second move", turn(me,
			drawn(),
			turn(me, won(opp), won(me))), 1},
		{"opponent's second move", turn(me,
			turn(opp, turn(opp, won(me), won(opp))),
			drawn()), 1},
		{"proven draw", turn(me,
			turn(opp, won(opp), drawn()), // loss
			turn(opp, drawn(), won(me)),  // draw: opp takes it
			turn(opp, won(opp), won(opp))), 1},
		{"proven draw two plies down", turn(me,
			turn(opp, won(me), won(opp)), // loss
			turn(opp, turn(me, won(opp), drawn()), turn(me, drawn(), drawn()))), 1},
	}
	for _, c := range cases {
		for _, player := range []int{0, 1} {
			root := c.root
			if player == 1 {
				root = root.swapped()
			}
			want := root.minimax(player)
			for _, solver := range []bool{true, false} {
				for _, fpu := range []float64{0, 1, 0.7} { // 0: the default, +Inf
					name := fmt.Sprintf("%s/player %d/solver %v/fpu %v", c.name, player, solver, fpu)
					t.Run(name, func(t *testing.T) {
						st := newTreeGame(root)
						res, err := New(Options{Iterations: 3000, FPU: fpu, NoSolver: !solver}, 1).Search(context.Background(), st)
						if err != nil {
							t.Fatal(err)
						}
						if res.Move != c.best {
							t.Fatalf("move %v, want %v (value %.2f); stats %+v", res.Move, c.best, want, res.Stats)
						}
						if !solver {
							if res.Value < want-0.1 || res.Value > want+0.1 {
								t.Fatalf("value %.3f, want %.2f; stats %+v", res.Value, want, res.Stats)
							}
							return
						}
						if p := map[float64]Proof{1: ProvenWin, 0.5: ProvenDraw, 0: ProvenLoss}[want]; res.Proven != p {
							t.Fatalf("proven %q, want %q; stats %+v", res.Proven, p, res.Stats)
						}
						for _, ms := range res.Stats {
							if ms.Proven == Unproven {
								continue
							}
							v := root.kids[ms.Move].minimax(player)
							if p := map[float64]Proof{1: ProvenWin, 0.5: ProvenDraw, 0: ProvenLoss}[v]; ms.Proven != p {
								t.Fatalf("move %v proven %q, its value is %.1f", ms.Move, ms.Proven, v)
							}
						}
					})
				}
			}
		}
	}
}

// randomTree is a game tree of the given depth whose nodes have 1 to 3
// children (one: a pass) and a random player to move (often the same as
// the parent's), and whose leaves are won or drawn at random.
func randomTree(r *rng.Rand, depth int) gt {
	if depth == 0 || (depth < 3 && r.IntN(4) == 0) {
		return gt{winner: r.IntN(3) - 1} // -1 is games.Draw
	}
	g := gt{mover: r.IntN(2)}
	for k := 1 + r.IntN(3); k > 0; k-- {
		g.kids = append(g.kids, randomTree(r, depth-1))
	}
	return g
}

// TestSolverAgreesWithMinimax proves random trees of every node kind and
// compares the proof and the move with minimax, and checks that the
// search without the solver picks a best move too.
func TestSolverAgreesWithMinimax(t *testing.T) {
	r := rng.New(30)
	for i := 0; i < 200; i++ {
		root := randomTree(r, 4)
		if len(root.kids) == 0 {
			continue
		}
		p := root.mover
		want := root.minimax(p)
		for _, solver := range []bool{true, false} {
			res, err := New(Options{Iterations: 20000, NoSolver: !solver}, uint64(i)).Search(context.Background(), newTreeGame(root))
			if err != nil {
				t.Fatal(err)
			}
			got := root.kids[res.Move].minimax(p)
			if got != want {
				t.Fatalf("tree %d, solver %v: move %v worth %.1f, best %.1f; stats %+v", i, solver, res.Move, got, want, res.Stats)
			}
			if solver && res.Proven != map[float64]Proof{1: ProvenWin, 0.5: ProvenDraw, 0: ProvenLoss}[want] {
				t.Fatalf("tree %d: proven %q, value %.1f", i, res.Proven, want)
			}
		}
	}
}

// TestDUCTValuePerspective: each player's actions are valued with that
// player's payoff, at a one-shot matrix game with graded payoffs (each
// player has a dominant action; the wrong view picks the other) and in
// two-card Goofspiel, two joint moves deep, scored by the outcome.
func TestDUCTValuePerspective(t *testing.T) {
	// Row 0 dominates for player 0; column 1 (lower payoffs for player 0)
	// for player 1: the game's value is 0.6.
	m := testgames.NewMatrix([][]float64{{0.9, 0.6}, {0.4, 0.1}})
	// Goofspiel, cards 1 and 2, prize 2 first: bidding 2 wins (or ties) the
	// big prize, so both bid 2 and the game is drawn.
	g := testgames.NewGoofspiel(2, 1)
	for _, fpu := range []float64{0, 1, 0.7} {
		for p := 0; p < 2; p++ {
			res, err := New(Options{Iterations: 4000, FPU: fpu}, 1).SearchSim(context.Background(), m, p)
			if err != nil {
				t.Fatal(err)
			}
			wantMove, wantValue := games.Move(0), 0.6
			if p == 1 {
				wantMove, wantValue = 1, 0.4
			}
			if res.Move != wantMove || res.Value < wantValue-0.05 || res.Value > wantValue+0.05 {
				t.Errorf("matrix, fpu %v, player %d: move %v value %.3f, want %v and %.1f; stats %+v", fpu, p, res.Move, res.Value, wantMove, wantValue, res.Stats)
			}
			res, err = New(Options{Iterations: 4000, FPU: fpu}, 1).SearchSim(context.Background(), g, p)
			if err != nil {
				t.Fatal(err)
			}
			if res.Move != 2 || res.Value < 0.4 || res.Value > 0.6 {
				t.Errorf("goofspiel, fpu %v, player %d: move %v value %.3f, want 2 and 0.5; stats %+v", fpu, p, res.Move, res.Value, res.Stats)
			}
		}
	}
}

// TestProvenDrawIsWorthHalf: after a move is proven a draw, every visit
// still credits it ½, for either player at the root. The other move
// starts a chain of 2000 plies that 3000 iterations cannot prove, so the
// root stays unproven and the drawn move keeps being visited.
func TestProvenDrawIsWorthHalf(t *testing.T) {
	const me, opp = 0, 1
	chain := drawn()
	for k := 0; k < 2000; k++ {
		q := k % 2 // opp moves first below the root
		chain = turn(q, won(1-q), chain)
	}
	root := turn(me, turn(opp, drawn(), drawn()), chain)
	for _, player := range []int{0, 1} {
		if player == 1 {
			root = root.swapped()
		}
		res, err := New(Options{Iterations: 3000}, 1).Search(context.Background(), newTreeGame(root))
		if err != nil {
			t.Fatal(err)
		}
		if res.Proven != Unproven {
			t.Fatalf("player %d: root proven %q", player, res.Proven)
		}
		for _, ms := range res.Stats {
			if ms.Move == 0 && (ms.Proven != ProvenDraw || ms.Visits < 100 || ms.Value != 0.5) {
				t.Fatalf("player %d: the drawn move: %+v, want proven draw, worth 0.5 after 100 visits or more", player, ms)
			}
		}
	}
}
