package agents

import (
	"context"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/search/deadline"
)

// clockShare is the time manager of the search agents: when ctx carries a
// clock (a move under a time control, see ClockFrom), it returns player
// p's share of its remaining time and increment for the move in b
// (deadline.Allot, over the game's estimate of p's moves left; for an
// iterative search, which answers early, deadline.AllotIterative), capped
// by the agent's time= key (limit, 0: none). ok is false without a clock:
// the agent then keeps its own budget, as before clocks existed.
func clockShare(ctx context.Context, b games.Base, p int, limit time.Duration, iterative bool) (share time.Duration, ok bool) {
	c, ok := ClockFrom(ctx)
	if !ok || p < 0 || p > 1 {
		return 0, false
	}
	allot := deadline.Allot
	if iterative {
		allot = deadline.AllotIterative
	}
	share = allot(c.Remaining[p], c.Inc[p], games.MovesLeft(b))
	if limit > 0 {
		share = min(share, limit)
	}
	return share, true
}
