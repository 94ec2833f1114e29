package gamestest

import (
	"fmt"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// CheckWeightsUnchanged plays n random games from the positions start(g)
// returns (g = 0 … n−1, seeded by seed) and checks, at every position and
// for both players, that the evaluation equals before(s, p) — a frozen
// copy of the evaluation as it was before it had weights — in four ways:
// as the position comes, after UseWeights(nil), after UseWeights with the
// defaults given explicitly, and in a clone of that. It returns the number
// of positions checked, or the first difference. A game adding weights to
// its evaluation calls it to prove that default play is unchanged.
func CheckWeightsUnchanged(n int, seed uint64, start func(g int) games.Base, before func(s games.Base, p int) int) (positions int, err error) {
	r := rng.New(seed)
	var b0, b1 []games.Move
	for g := range n {
		s := start(g)
		w, ok := s.(games.Weighted)
		e, ok2 := s.(games.Evaluator)
		if !ok || !ok2 {
			return positions, fmt.Errorf("%T is not a games.Weighted games.Evaluator", s)
		}
		def := games.DefaultWeights(w.Weights())
		for {
			for p := range 2 {
				want := before(s, p)
				got := [4]int{e.Evaluate(p)}
				w.UseWeights(nil)
				got[1] = e.Evaluate(p)
				w.UseWeights(def)
				got[2] = e.Evaluate(p)
				got[3] = games.Clone(s).(games.Evaluator).Evaluate(p)
				w.UseWeights(nil)
				for i, v := range got {
					if v != want {
						return positions, fmt.Errorf("game %d ply %d player %d: evaluation %d (%s), before weights %d\n%v",
							g, s.Ply(), p, v, [4]string{"as it comes", "weights nil", "default weights", "clone"}[i], want, s)
					}
				}
			}
			positions++
			if s.Terminal() {
				break
			}
			b0 = games.LegalMovesFor(s, 0, b0[:0])
			b1 = games.LegalMovesFor(s, 1, b1[:0])
			var ply [2]games.Move
			switch {
			case len(b0) > 0 && len(b1) > 0: // simultaneous
				ply = [2]games.Move{b0[r.IntN(len(b0))], b1[r.IntN(len(b1))]}
			case len(b0) > 0:
				ply[0] = b0[r.IntN(len(b0))]
			default:
				ply[0] = b1[r.IntN(len(b1))]
			}
			games.PlayPly(s, ply)
		}
	}
	return positions, nil
}
