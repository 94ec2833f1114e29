package tune

import (
	"context"
	"math"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

// The synthetic problem: the agent "synthetic:x=X,opt=O,y=Y,yopt=P,k=K"
// plays the greedy move with probability exp(−K·(|X−O|+|Y−P|/4)), else a
// random one, so its strength is highest at (O, P) and falls away on every
// side; SPSA on x and y should find (O, P). The key z is accepted and
// ignored (a third parameter for tests of the update rule).
func init() {
	agents.Register(&agents.Kind{
		Name: "synthetic",
		Help: "test agent: greedy with probability exp(-k·|x-opt|), else random",
		Keys: []agents.Key{{Name: "x"}, {Name: "opt"}, {Name: "y"}, {Name: "yopt"}, {Name: "k"}, {Name: "z"}},
		New: func(s spec.Spec, seed uint64) (agents.Agent, error) {
			x, err := s.Float("x", 0)
			if err != nil {
				return nil, err
			}
			opt, err := s.Float("opt", 0)
			if err != nil {
				return nil, err
			}
			y, err := s.Float("y", 0)
			if err != nil {
				return nil, err
			}
			yopt, err := s.Float("yopt", 0)
			if err != nil {
				return nil, err
			}
			k, err := s.FloatIn("k", 1, 0, 100)
			if err != nil {
				return nil, err
			}
			g, err := agents.New("greedy", rng.Derive(seed, 1))
			if err != nil {
				return nil, err
			}
			r, err := agents.New("random", rng.Derive(seed, 2))
			if err != nil {
				return nil, err
			}
			return &synthetic{name: s.String(), p: math.Exp(-k * (math.Abs(x-opt) + math.Abs(y-yopt)/4)), coin: *rng.New(rng.Derive(seed, 3)), greedy: g, random: r}, nil
		},
	})
}

type synthetic struct {
	name           string
	p              float64 // probability of the greedy move
	coin           rng.Rand
	greedy, random agents.Agent
}

func (a *synthetic) Name() string { return a.name }

func (a *synthetic) Move(ctx context.Context, s games.Base, p int) (games.Move, error) {
	if a.coin.Float64() < a.p {
		return a.greedy.Move(ctx, s, p)
	}
	return a.random.Move(ctx, s, p)
}
