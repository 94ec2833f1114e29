package games

// Evaluation and search hints: what makes the built-in agents play a game
// well rather than just legally. Without any of them every agent still
// plays (search treats an unknown position as even, MCTS plays random
// rollouts), only weaker.

// Evaluator is implemented by states that offer a heuristic evaluation.
// alphabeta scores its leaves with it, mcts its cut-off leaves and greedy
// rollouts, the greedy agent its one-ply choice, and texel tuning fits its
// weights. Without it, search sees every unfinished position as even (0):
// alphabeta only finds forced results, greedy plays at random, and mcts
// plays random rollouts only.
type Evaluator interface {
	// Evaluate scores the position from player p's point of view: higher is
	// better for p, zero is balanced. On a finished game it returns a value
	// of the outcome's sign. The result lies inside (-WinScore, WinScore).
	Evaluate(p int) int
}

// Weight is one named weight of a game's evaluation (Evaluator), with its
// default and the range in which a tuner may move it.
type Weight struct {
	Name     string // the agent spec key after "eval.", e.g. "corner"
	Default  int
	Min, Max int // the values the evaluation accepts (Default among them)
	Help     string
}

// Weighted is implemented by positions whose evaluation has named weights,
// so that agents can be given other weights (alphabeta:eval.corner=40) and
// tuners can fit them. The agents' eval. keys, 'arena games' and the tuners
// (tune) call it; without it those keys are refused and the game cannot be
// tuned, and its evaluation is whatever the game wrote.
type Weighted interface {
	// Weights lists the weights in a fixed order, with their defaults; it
	// is the same for every position of a game (and variant).
	Weights() []Weight
	// UseWeights makes the position, and the positions cloned from it
	// afterwards, evaluate with w (in the order of Weights; nil for the
	// defaults), and returns the weights used until now, so that an agent
	// can restore them when its move is done. The position keeps w itself,
	// not a copy: the caller must not change it while it is in use. Hash,
	// moves and rules do not depend on the weights.
	UseWeights(w []int) (previous []int)
}

// DefaultWeights returns the defaults of ws, in order: the vector a
// Weighted position evaluates with when UseWeights was given nil.
func DefaultWeights(ws []Weight) []int {
	w := make([]int, len(ws))
	for i, x := range ws {
		w[i] = x.Default
	}
	return w
}

// MovesLeftEstimator is implemented by positions that can tell, cheaply,
// about how many more moves the player to move will make before the game
// ends, this one included: a search agent on a clock shares its remaining
// time over them (see search/deadline.Allot, through MovesLeft). An upper
// bound is best (the empty cells the mover can still fill, the turns up to
// a turn limit): an estimate that is too high only makes the moves faster,
// one that is too low spends the clock early. Games without one are
// assumed to have 25 moves left, which spends the clock badly in games
// much shorter or longer than that.
type MovesLeftEstimator interface {
	MovesLeft() int
}

// MovesLeft returns b's estimate of the mover's moves left, or 0 when b
// gives none.
func MovesLeft(b Base) int {
	if e, ok := b.(MovesLeftEstimator); ok {
		return e.MovesLeft()
	}
	return 0
}

// OrderHinter is implemented by games that can rank moves cheaply before
// search tries them: a higher hint is tried earlier. search/alphabeta calls
// it at every node; hints are clamped to [-255, 255] and rank below the
// table move and the killers and above the history heuristic. Without it
// moves are tried in the order of the table, the killers and the history,
// which costs nodes, not correctness.
type OrderHinter interface {
	OrderHint(m Move) int
}

// Rewarder is implemented by games whose finished positions have graded
// payoffs: Reward returns player p's payoff in [0, 1], the two players'
// payoffs summing to 1. search/mcts backs it up from finished positions;
// without it a win is 1, a draw ½ and a loss 0 whatever the margin.
type Rewarder interface {
	Reward(p int) float64
}
