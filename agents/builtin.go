package agents

import (
	"context"
	"errors"
	"fmt"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

func init() {
	Register(&Kind{
		Name: "random",
		Help: "plays a uniformly random legal move (seeded)",
		New: func(s spec.Spec, seed uint64) (Agent, error) {
			return &Random{name: DisplayName(s), rand: *rng.New(seed)}, nil
		},
	})
	Register(&Kind{
		Name: "greedy",
		Help: "one ply: the move whose resulting position evaluates best for the mover (in simultaneous games: against the opponent's first, most passive move); ties broken by the seed; a winning move is always taken",
		Keys: []Key{evalKey},
		New: func(s spec.Spec, seed uint64) (Agent, error) {
			eval, err := parseEvalWeights(s)
			if err != nil {
				return nil, err
			}
			return &Greedy{name: DisplayName(s), rand: *rng.New(seed), eval: eval}, nil
		},
	})
}

// Random plays uniformly random legal moves.
type Random struct {
	name string
	rand rng.Rand // by value: the state stays on the agent's own cache lines
	buf  []games.Move
}

// Name implements Agent.
func (a *Random) Name() string { return a.name }

// Seed implements Seeder.
func (a *Random) Seed(seed uint64) { a.rand.Seed(seed) }

// Move implements Agent.
func (a *Random) Move(_ context.Context, s games.Base, p int) (games.Move, error) {
	a.buf = games.LegalMovesFor(s, p, a.buf[:0])
	if len(a.buf) == 0 {
		return 0, errors.New("random: no legal move")
	}
	return a.buf[a.rand.IntN(len(a.buf))], nil
}

// Greedy looks one ply ahead with the game's evaluation.
type Greedy struct {
	name string
	rand rng.Rand
	buf  []games.Move
	opp  []games.Move
	eval evalWeights // eval.NAME keys
}

// Name implements Agent.
func (a *Greedy) Name() string { return a.name }

// Seed implements Seeder.
func (a *Greedy) Seed(seed uint64) { a.rand.Seed(seed) }

// CheckGame implements GameChecker: the eval.NAME keys must name weights
// of v's evaluation, with values in their ranges.
func (a *Greedy) CheckGame(v games.Variant) error { return a.eval.check(v) }

// Move implements Agent. Without an evaluation only finished games are
// scored (win > draw > loss), so greedy still takes a win when there is one.
// In a simultaneous game each of p's moves is played against the
// opponent's first listed move, which such games make their most passive
// one (tryangle lists WAIT first), and the resulting position is scored.
func (a *Greedy) Move(_ context.Context, b games.Base, p int) (games.Move, error) {
	if err := games.CheckKind(b); err != nil {
		return 0, fmt.Errorf("greedy: %w", err)
	}
	// The eval.NAME weights hold for this move only; the opponent's are
	// restored however the move ends.
	w, previous, err := a.eval.use(b, gameName(b))
	if err != nil {
		return 0, err
	}
	if w != nil {
		defer w.UseWeights(previous)
	}
	var passive games.Move
	a.buf = games.LegalMovesFor(b, p, a.buf[:0])
	if games.Simultaneous(b) {
		a.opp = games.LegalMovesFor(b, 1-p, a.opp[:0])
		if len(a.opp) == 0 {
			return 0, errors.New("greedy: the opponent has no move")
		}
		passive = a.opp[0]
	}
	if len(a.buf) == 0 {
		return 0, errors.New("greedy: no legal move")
	}
	best, ties := 0, 0
	var choice games.Move
	for _, m := range a.buf {
		games.PlayFor(b, p, m, passive) // sequential: passive is ignored
		v := Score(b, p)
		b.Undo()
		switch {
		case ties == 0 || v > best:
			best, ties, choice = v, 1, m
		case v == best:
			ties++ // reservoir sampling: each tied move is kept with chance 1/ties
			if a.rand.IntN(ties) == 0 {
				choice = m
			}
		}
	}
	return choice, nil
}

// Score rates s for player p: the game's evaluation when it has one, and a
// proven result (beyond any evaluation) once the game is over.
func Score(s games.Base, p int) int {
	if s.Terminal() {
		o := s.Outcome()
		switch o.Winner {
		case p:
			return games.WinScore - 1
		case games.Draw:
			return 0
		}
		return -(games.WinScore - 1)
	}
	if e, ok := s.(games.Evaluator); ok {
		return e.Evaluate(p)
	}
	return 0
}
