package agents_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/rng"
)

// TestEvalWeightsEveryGame: every game with an evaluation has named
// weights; for each, agents given every weight at its default (explicit
// eval. keys) choose exactly the moves of the same agents without keys,
// move by move through random positions (search results unchanged), pass
// CheckGame, and leave the position's weights as they found them; a weight
// one past its maximum is refused.
func TestEvalWeightsEveryGame(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name, func(t *testing.T) {
			v, err := games.Lookup(g.Name)
			if err != nil {
				t.Fatal(err)
			}
			b := v.New()
			if _, ok := b.(games.Evaluator); !ok {
				t.Skip("no evaluation")
			}
			wd, ok := b.(games.Weighted)
			if !ok {
				t.Fatalf("%s has an evaluation but no weights", g.Name)
			}
			ws := wd.Weights()
			keys := ""
			for _, w := range ws {
				keys += fmt.Sprintf(",eval.%s=%d", w.Name, w.Default)
			}
			over := fmt.Sprintf("greedy:eval.%s=%d", ws[0].Name, ws[0].Max+1)
			if a := newAgent(t, over, 1); agents.CheckGame(a, v) == nil {
				t.Errorf("%s: no error on %s", g.Name, over)
			}
			for _, kind := range []string{"greedy", "alphabeta:depth=2", "mcts:iters=200,cutoff=3"} {
				sep := ":"
				if kind != "greedy" {
					sep = ","
				}
				plain := newAgent(t, kind, 9)
				explicit := newAgent(t, kind+sep+keys[1:], 9)
				if err := agents.CheckGame(explicit, v); err != nil {
					t.Fatalf("%s: %v", explicit.Name(), err)
				}
				r := rng.New(4)
				for i := 0; i < 4; i++ {
					s := v.New()
					for k := 0; k < 2+3*i && !s.Terminal(); k++ {
						randomPly(s, r)
					}
					if s.Terminal() {
						continue
					}
					p := 0
					if st, ok := s.(games.State); ok {
						p = st.ToMove()
					}
					for _, a := range []agents.Agent{plain, explicit} {
						if sd, ok := a.(agents.Seeder); ok {
							sd.Seed(uint64(i))
						}
						if gs, ok := a.(agents.GameStarter); ok {
							if err := gs.NewGame(v, p); err != nil {
								t.Fatal(err)
							}
						}
					}
					m1, err1 := plain.Move(context.Background(), s, p)
					m2, err2 := explicit.Move(context.Background(), s, p)
					if err1 != nil || err2 != nil {
						t.Fatalf("%s: %v / %v", kind, err1, err2)
					}
					if m1 != m2 {
						t.Errorf("%s position %d: %s without keys, %s with the defaults as keys", kind, i, s.FormatMove(m1), s.FormatMove(m2))
					}
					if prev := s.(games.Weighted).UseWeights(nil); prev != nil {
						t.Fatalf("%s left its weights on the position", explicit.Name())
					}
				}
			}
		})
	}
}

// randomPly plays one random ply (a joint one in simultaneous games).
func randomPly(s games.Base, r *rng.Rand) {
	switch st := s.(type) {
	case games.State:
		ms := st.LegalMoves(nil)
		st.Play(ms[r.IntN(len(ms))])
	case games.SimState:
		a := st.LegalMovesFor(0, nil)
		b := st.LegalMovesFor(1, nil)
		st.PlayJoint(a[r.IntN(len(a))], b[r.IntN(len(b))])
	}
}
