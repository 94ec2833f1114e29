package agents

import (
	"fmt"
	"strings"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/spec"
)

// evalKey is the key family of the game's evaluation weights, accepted by
// the agents that evaluate positions (alphabeta, greedy, mcts).
var evalKey = Key{Name: "eval.", Help: "eval.NAME=V: the game's evaluation weight NAME set to the integer V within its range (see 'arena games'), e.g. eval.corner_open=140; the opponent keeps its own weights"}

// evalMaxAbs bounds eval.NAME values before the game is known (every
// game's ranges lie well inside it).
const evalMaxAbs = 1_000_000_000

// evalWeights holds an agent's eval.NAME keys and, once the game is known,
// the full weight vector they give (the game's defaults for the others).
type evalWeights struct {
	agent string   // the agent kind, for messages
	names []string // weight names, in the spec's order
	vals  []int
	// vec is the resolved vector for the game whose Weights() starts at
	// for (the same slice for every position of a game), nil before.
	vec []int
	of  *games.Weight
}

// parseEvalWeights reads sp's eval.NAME keys; the names are checked
// against the game later (CheckGame, Move).
func parseEvalWeights(sp spec.Spec) (evalWeights, error) {
	e := evalWeights{agent: sp.Name}
	for _, k := range sp.Keys {
		name, ok := strings.CutPrefix(k, evalKey.Name)
		if !ok {
			continue
		}
		v, err := sp.IntIn(k, 0, -evalMaxAbs, evalMaxAbs)
		if err != nil && sp.Bare(k) {
			return e, err // "needs a value"
		}
		if err != nil {
			// The weight's own range needs the game, known later.
			return e, fmt.Errorf("%s: %s=%s: want an integer within the weight's range ('arena games' lists each game's weights and ranges)", sp.Name, k, sp.Vals[k])
		}
		e.names = append(e.names, name)
		e.vals = append(e.vals, v)
	}
	return e, nil
}

// resolve builds the weight vector for a game with weights ws, or says
// which key is wrong and lists the game's weights.
func (e *evalWeights) resolve(ws []games.Weight, game string) ([]int, error) {
	if len(ws) > 0 && e.of == &ws[0] {
		return e.vec, nil
	}
	vec := make([]int, len(ws))
	for i, w := range ws {
		vec[i] = w.Default
	}
	for k, name := range e.names {
		i := -1
		for j, w := range ws {
			if w.Name == name {
				i = j
				break
			}
		}
		v := e.vals[k]
		switch {
		case i < 0:
			return nil, fmt.Errorf("%s: eval.%s is not an evaluation weight of %s; its weights are: %s", e.agent, name, game, FormatWeights(ws))
		case v < ws[i].Min || v > ws[i].Max:
			return nil, fmt.Errorf("%s: eval.%s=%d is outside its range %d to %d (default %d) in %s", e.agent, name, v, ws[i].Min, ws[i].Max, ws[i].Default, game)
		}
		vec[i] = v
	}
	if len(ws) > 0 {
		e.vec, e.of = vec, &ws[0]
	}
	return vec, nil
}

// check is CheckGame for an agent with weights e: a start position of v
// must have every named weight, with a value in its range.
func (e *evalWeights) check(v games.Variant) error {
	if len(e.names) == 0 {
		return nil
	}
	_, _, err := e.use(v.New(), v.String())
	return err
}

// use sets e's weights on b, and returns b as a Weighted with the weights
// it used before, which the caller restores when its move is done (the
// opponent shares the position): w is nil without eval. keys. game names
// b's game for messages.
func (e *evalWeights) use(b games.Base, game string) (w games.Weighted, previous []int, err error) {
	if len(e.names) == 0 {
		return nil, nil, nil
	}
	w, ok := b.(games.Weighted)
	if !ok {
		return nil, nil, fmt.Errorf("%s: %s has no evaluation weights, so eval.%s cannot be set; remove the eval. keys", e.agent, game, e.names[0])
	}
	vec, err := e.resolve(w.Weights(), game)
	if err != nil {
		return nil, nil, err
	}
	return w, w.UseWeights(vec), nil
}

// gameName names b's game for messages: its type's package, which is the
// game's name for the built-in games.
func gameName(b games.Base) string {
	name := fmt.Sprintf("%T", b)
	name = strings.TrimPrefix(name, "*")
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	return name
}

// FormatWeights lists weights as "name default [min, max]" for messages
// and listings.
func FormatWeights(ws []games.Weight) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d [%d, %d]", w.Name, w.Default, w.Min, w.Max)
	}
	return b.String()
}
