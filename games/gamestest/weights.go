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

// CheckWeighted checks the games.Weighted contract on a start position b:
// the weights have unique names, help text and defaults within their
// ranges; UseWeights returns the weights set before (nil at first, the very
// slice afterwards); a clone shares them; and a slice of the wrong length
// panics (a caller's bug, not something to evaluate with).
func CheckWeighted(b games.Base) (err error) {
	w, ok := b.(games.Weighted)
	if !ok {
		return fmt.Errorf("%T is not a games.Weighted", b)
	}
	ws := w.Weights()
	if len(ws) == 0 {
		return fmt.Errorf("%T lists no weights", b)
	}
	seen := map[string]bool{}
	for _, x := range ws {
		if seen[x.Name] || x.Name == "" || x.Help == "" || x.Default < x.Min || x.Default > x.Max {
			return fmt.Errorf("bad weight %+v (names unique and not empty, help given, Min ≤ Default ≤ Max)", x)
		}
		seen[x.Name] = true
	}
	a := games.DefaultWeights(ws)
	if prev := w.UseWeights(a); prev != nil {
		return fmt.Errorf("the first UseWeights returned %v, want nil", prev)
	}
	if c, ok := games.Clone(b).(games.Weighted); !ok || c.UseWeights(nil) == nil {
		return fmt.Errorf("a clone does not share the weights")
	}
	if prev := w.UseWeights(nil); len(prev) != len(a) || &prev[0] != &a[0] {
		return fmt.Errorf("UseWeights did not return the slice set before")
	}
	defer func() {
		if recover() == nil {
			err = fmt.Errorf("UseWeights with %d weights (of %d) did not panic", len(ws)+1, len(ws))
		}
	}()
	w.UseWeights(make([]int, len(ws)+1))
	return nil
}
