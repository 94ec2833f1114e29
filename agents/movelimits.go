package agents

import "context"

// MoveLimits caps one move of a search agent in depth or nodes, as a UGI
// GUI's "go depth N" or "go nodes N" asks (arena engine). They replace the
// budget of the agent's spec (depth=, nodes=, iters=, time=) for that move;
// a clock in the context (WithClock) and the context's deadline still
// stop it. A zero field sets nothing.
type MoveLimits struct {
	Depth int   // plies, 1 to MaxLimitDepth
	Nodes int64 // nodes (alpha-beta) or iterations (mcts), 1 to MaxLimitNodes
}

// The largest MoveLimits an agent honours (larger ones are capped there):
// alphabeta's depth= and nodes= ranges, which mcts's iters= shares.
const (
	MaxLimitDepth = abMaxDepth
	MaxLimitNodes = abMaxNodes
)

type moveLimitsKey struct{}

// WithMoveLimits returns a context that carries l to the Move call it is
// given to. Agents that honour some of its fields say which (MoveLimiter).
func WithMoveLimits(ctx context.Context, l MoveLimits) context.Context {
	return context.WithValue(ctx, moveLimitsKey{}, l)
}

// moveLimitsFrom returns the limits in ctx, capped to the honoured
// ranges, and whether there are any.
func moveLimitsFrom(ctx context.Context) (MoveLimits, bool) {
	l, ok := ctx.Value(moveLimitsKey{}).(MoveLimits)
	l.Depth, l.Nodes = min(max(l.Depth, 0), MaxLimitDepth), min(max(l.Nodes, 0), MaxLimitNodes)
	return l, ok && (l.Depth > 0 || l.Nodes > 0)
}

// MoveLimiter is an agent whose moves honour MoveLimits in their context;
// MoveLimitKeys reports which of the two fields it honours.
type MoveLimiter interface {
	MoveLimitKeys() (depth, nodes bool)
}
