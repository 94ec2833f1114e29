package agents_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/search/testgames"
	"github.com/boardgame-arena/arena/spec"
)

// discsOnly are othello6 weights that count discs alone (own minus
// opponent's), so a one-ply search takes the move flipping most discs;
// the defaults weigh mobility, corners and more, and often disagree.
func discsOnly(s *othello6.State) []int {
	w := make([]int, len(s.Weights()))
	for i, x := range s.Weights() {
		if x.Name == "disc_open" || x.Name == "disc_end" {
			w[i] = 32
		}
	}
	return w
}

const discsSpec = "eval.corner_open=0,eval.corner_end=0,eval.xsquare_open=0,eval.xsquare_end=0," +
	"eval.csquare_open=0,eval.csquare_end=0,eval.mobility_open=0,eval.mobility_end=0," +
	"eval.frontier_open=0,eval.frontier_end=0,eval.stable_open=0,eval.stable_end=0," +
	"eval.parity_open=0,eval.parity_end=0,eval.disc_open=32,eval.disc_end=32"

// bestMoves returns p's moves in s whose resulting position evaluates best
// for p under weights w (nil: the defaults), computed directly.
func bestMoves(s *othello6.State, p int, w []int) map[games.Move]bool {
	prev := s.UseWeights(w)
	defer s.UseWeights(prev)
	best := map[games.Move]bool{}
	bestV := 0
	for _, m := range s.LegalMoves(nil) {
		s.Play(m)
		v := agents.Score(s, p)
		s.Undo()
		switch {
		case len(best) == 0 || v > bestV:
			best, bestV = map[games.Move]bool{m: true}, v
		case v == bestV:
			best[m] = true
		}
	}
	return best
}

func newAgent(t *testing.T, text string, seed uint64) agents.Agent {
	t.Helper()
	a, err := agents.New(text, seed)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestEvalWeightsChangeTheMove: greedy and one-ply alphabeta with
// disc-only weights take the disc-count best move, the same agents without
// eval. keys the default-evaluation best move, in positions where the two
// sets differ; and both kinds play in one game on one shared position,
// neither seeing the other's weights, the position's own weights restored
// after every move.
func TestEvalWeightsChangeTheMove(t *testing.T) {
	for _, kind := range []string{"greedy", "alphabeta:depth=1,tt=0", "alphabeta:depth=1,tt=1,threads=2"} {
		t.Run(kind, func(t *testing.T) {
			sep := ":"
			if strings.Contains(kind, ":") {
				sep = ","
			}
			tuned := newAgent(t, kind+sep+discsSpec, 1)
			plain := newAgent(t, kind, 1)
			differ := 0
			for g := 0; g < 20; g++ {
				s := othello6.New()
				games.RandomPlies(s, int(g%6), rng.New(uint64(g)))
				dw := discsOnly(s)
				players := [2]agents.Agent{tuned, plain}
				if g%2 == 1 {
					players = [2]agents.Agent{plain, tuned}
				}
				for !s.Terminal() {
					p := s.ToMove()
					var w []int
					if players[p] == tuned {
						w = dw
					}
					want := bestMoves(s, p, w)
					if len(want) == 1 && !mapsEqual(want, bestMoves(s, p, dwOther(w, dw))) {
						differ++
					}
					m, err := players[p].Move(context.Background(), s, p)
					if err != nil {
						t.Fatal(err)
					}
					if prev := s.UseWeights(nil); prev != nil {
						t.Fatalf("%s left its weights on the position: %v", players[p].Name(), prev)
					}
					if !want[m] {
						t.Fatalf("game %d ply %d: %s played %s, not one of its evaluation's best moves %v", g, s.Ply(), players[p].Name(), s.FormatMove(m), want)
					}
					s.Play(m)
				}
			}
			// The check above proves something only where the two
			// evaluations disagree.
			if differ < 50 {
				t.Fatalf("only %d positions where the weights change the best move", differ)
			}
		})
	}
}

// dwOther returns the other agent's weights: the defaults (nil) for the
// disc-only ones and vice versa.
func dwOther(w, dw []int) []int {
	if w == nil {
		return dw
	}
	return nil
}

func mapsEqual(a, b map[games.Move]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// TestEvalWeightsMCTS: an MCTS that scores cut-off playouts with the
// evaluation searches differently with other weights (the playouts'
// clones see them), with the same seed, and leaves the position's own
// weights as they were.
func TestEvalWeightsMCTS(t *testing.T) {
	s := othello6.New()
	games.RandomPlies(s, 6, rng.New(3))
	visits := func(text string) []int64 {
		a := newAgent(t, text, 7)
		if _, err := a.Move(context.Background(), s, s.ToMove()); err != nil {
			t.Fatal(err)
		}
		if prev := s.UseWeights(nil); prev != nil {
			t.Fatalf("%s left its weights on the position", text)
		}
		var v []int64
		for _, ma := range a.(agents.Analyser).Analysis() {
			v = append(v, ma.Visits)
		}
		return v
	}
	base := "mcts:iters=3000,cutoff=2,reuse=false"
	a, b, c := visits(base), visits(base), visits(base+",eval.disc_open=-50,eval.disc_end=-50,eval.mobility_open=-50")
	if !slicesEqual(a, b) {
		t.Fatalf("same spec and seed, different visits: %v, %v", a, b)
	}
	if slicesEqual(a, c) {
		t.Fatalf("eval. keys changed nothing in the search: %v", a)
	}
}

func slicesEqual(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestEvalWeightsErrors: bad eval. keys stop the agent, before the first
// game where the game must be known, with a message saying what is wrong
// and listing the weights.
func TestEvalWeightsErrors(t *testing.T) {
	v, err := games.Lookup("othello6")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec, newErr, checkErr string
	}{
		{"alphabeta:eval.corner=40", "", "eval.corner is not an evaluation weight of othello6; its weights are: corner_open 110 [0, 500], corner_end 90 [0, 500]"},
		{"greedy:eval.corner_open=501", "", "eval.corner_open=501 is outside its range 0 to 500 (default 110)"},
		{"mcts:eval.xsquare_end=-301", "", "eval.xsquare_end=-301 is outside its range -300 to 100"},
		{"alphabeta:eval.corner_open=big", "eval.corner_open=big: want an integer within the weight's range", ""},
		{"alphabeta:eval.corner_open", "needs a value", ""},
		{"greedy:eval.corner_open=2000000000", "eval.corner_open", ""},
		{"greedy:evalcorner=3", "unknown option", ""},
		{"alphabeta:depth=2,eval.corner_open=500,eval.disc_end=-50", "", ""},
	} {
		a, err := agents.New(c.spec, 1)
		if c.newErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.newErr) {
				t.Errorf("New(%s): error %v, want one containing %q", c.spec, err, c.newErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("New(%s): %v", c.spec, err)
		}
		err = agents.CheckGame(a, v)
		if c.checkErr == "" {
			if err != nil {
				t.Errorf("CheckGame(%s): %v", c.spec, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.checkErr) {
			t.Errorf("CheckGame(%s): error %v, want one containing %q", c.spec, err, c.checkErr)
		}
		// Move re-checks, for callers that did not ask CheckGame.
		s := v.New().(games.State)
		if _, err := a.Move(context.Background(), s, 0); err == nil || !strings.Contains(err.Error(), c.checkErr) {
			t.Errorf("Move(%s): error %v, want one containing %q", c.spec, err, c.checkErr)
		}
	}
	// A game without weights.
	for _, text := range []string{"greedy:eval.x=1", "alphabeta:depth=1,eval.x=1", "mcts:iters=10,eval.x=1"} {
		a := newAgent(t, text, 1)
		_, err := a.Move(context.Background(), testgames.NewTicTacToe(), 0)
		if err == nil || !strings.Contains(err.Error(), "has no evaluation weights") {
			t.Errorf("%s on tic-tac-toe: error %v, want 'has no evaluation weights'", text, err)
		}
	}
	// Weights are restored when the search fails (a finished game).
	s := othello6.New()
	for !s.Terminal() {
		s.Play(s.LegalMoves(nil)[0])
	}
	a := newAgent(t, "alphabeta:depth=2,eval.corner_open=1", 1)
	if _, err := a.Move(context.Background(), s, 0); err == nil {
		t.Fatal("a move in a finished game: no error")
	}
	if prev := s.UseWeights(nil); prev != nil {
		t.Errorf("weights left on the position after an error: %v", prev)
	}
}

// TestEvalWeightsSpecRoundTrip: a spec with eval. keys names the agent
// and parses back to itself, so a tuned result is just an agent spec.
func TestEvalWeightsSpecRoundTrip(t *testing.T) {
	for _, text := range []string{
		"alphabeta:depth=4,eval.corner_open=40",
		"greedy:eval.mobility_end=-3,eval.disc_open=2",
		"mcts:iters=100,cutoff=4,eval.stable_open=30",
	} {
		a := newAgent(t, text, 1)
		if a.Name() != text {
			t.Errorf("Name() = %q, want %q", a.Name(), text)
		}
		sp, err := spec.Parse(a.Name())
		if err != nil || sp.String() != text {
			t.Errorf("spec %q round trip: %q, %v", text, sp.String(), err)
		}
	}
}

func ExampleFormatWeights() {
	s := othello6.New()
	fmt.Println(agents.FormatWeights(s.Weights()[:2]))
	// Output: corner_open 110 [0, 500], corner_end 90 [0, 500]
}

// panicky is an othello6 position whose evaluation panics, to see that an
// agent's weights are restored when its move ends in a panic.
type panicky struct{ *othello6.State }

func (panicky) Evaluate(int) int { panic("evaluation failed") }

func TestEvalWeightsRestoredOnPanic(t *testing.T) {
	s := othello6.New()
	a := newAgent(t, "greedy:eval.corner_open=1", 1)
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the evaluation's panic did not reach the caller")
			}
		}()
		a.Move(context.Background(), panicky{s}, 0)
	}()
	if prev := s.UseWeights(nil); prev != nil {
		t.Errorf("weights left on the position after a panic: %v", prev)
	}
}
