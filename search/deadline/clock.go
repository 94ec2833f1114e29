package deadline

import "time"

// Time management on a game clock.
//
// On a clock (a base time and a Fischer increment) a move's budget is a
// share of what is left: the remaining time plus the increments still to
// come, spread over an estimate of the mover's moves to come, and never more
// than a fixed fraction of the remaining time. Sharing out what is left,
// move after move, is a geometric schedule: a game that lasts longer than
// the estimate never runs the clock out, it only plays its late moves
// faster; a game that ends sooner leaves time unused, which is the price of
// never flagging.

const (
	// DefaultMovesLeft is the number of own moves the clock is shared over
	// when the game gives no estimate: a horizon rather than a prediction
	// (chess programs use 20 to 30). A game twice as long still ends with
	// an eighth of the clock left.
	DefaultMovesLeft = 25
	// MinMovesLeft is the fewest moves the clock is shared over, even when
	// the game says the mover has fewer left: an estimate can fall short
	// (an Othello pass gives the mover an extra move), and time saved for
	// a move that never comes costs little. It is also the reserve of a
	// clock that lives on its increment: the time left settles at about
	// MinMovesLeft increments (3 left a few milliseconds on fast clocks,
	// one scheduler delay from a flag on a busy machine).
	MinMovesLeft = 5
	// MaxShare is the largest fraction of the remaining time (1/MaxShare)
	// one move may take, so that a large increment or a short estimate
	// still leaves a reserve for the moves to come.
	MaxShare = 3
	// MoveOverhead is what a move costs on the clock outside the search:
	// the agent's own bookkeeping and the referee's, small in process
	// (the scheduler's delays are what the searches' Margin is for). It is kept back from every move's share;
	// more would starve fast clocks of long games (a millisecond is two
	// thirds of a move of 100ms+1ms over TryAngle Catch's 200 turns).
	MoveOverhead = 250 * time.Microsecond
	// MinMoveTime is the least budget Allot returns, so that a search has
	// a budget at all (0 means none) and plays at once.
	MinMoveTime = 10 * time.Microsecond
	// maxMovesLeft bounds an estimate so that the increments to come
	// cannot overflow.
	maxMovesLeft = 100_000
)

// Allot returns the time to think about the next move for a player with
// remaining on the clock, inc added after each of its moves, and movesLeft
// an estimate of its own moves still to play, this one included (0 or less:
// unknown, DefaultMovesLeft is assumed; at least MinMovesLeft). A game's
// estimate is best an upper bound (the board's empty cells, a turn limit):
// one too high only makes the moves faster. The budget is
//
//	(remaining + (n-1)·inc) / n − MoveOverhead
//
// for n moves left (this move's own increment arrives only after it), at
// most remaining/MaxShare − MoveOverhead, and at least MinMoveTime: with
// almost nothing on the clock the search plays at once. The budget is the
// searches' usual time budget, from which they keep back their safety
// margin (see Margin).
func Allot(remaining, inc time.Duration, movesLeft int) time.Duration {
	n := movesLeft
	if n <= 0 {
		n = DefaultMovesLeft
	}
	n = min(max(n, MinMovesLeft), maxMovesLeft)
	if remaining <= 0 {
		return MinMoveTime
	}
	// Bounded so that (n-1)·inc cannot overflow a Duration (292 years);
	// agents.TimeControl allows an hour.
	inc = min(max(inc, 0), 24*time.Hour)
	remaining = min(remaining, 100*365*24*time.Hour)
	share := (remaining+time.Duration(n-1)*inc)/time.Duration(n) - MoveOverhead
	share = min(share, remaining/MaxShare-MoveOverhead)
	return max(share, MinMoveTime)
}

// IterativeStretch is how many shares AllotIterative gives a search that
// stops early. Iterative deepening does not start an iteration that it
// expects to end past its budget, and an iteration takes two to four times
// the one before, so such a search answers, on average, near half its
// budget: given one share a move, alphabeta spent 36 to 54 % of its base
// plus increments over whole games of Othello 6×6 (300ms+5ms and 1s), and
// 26 % over 30 turns of TryAngle Catch (300ms+10ms); given two, 56 to 67 %
// and 60 %.
const IterativeStretch = 2

// AllotIterative is Allot for a search that stops early (above):
// IterativeStretch shares, within the same cap (remaining/MaxShare −
// MoveOverhead), so that it uses about one share. A search that does use
// its whole budget on every move only spends the clock faster: each move
// still takes at most the cap, so it does not flag.
func AllotIterative(remaining, inc time.Duration, movesLeft int) time.Duration {
	share := Allot(remaining, inc, movesLeft)
	return max(min(IterativeStretch*share, remaining/MaxShare-MoveOverhead), share)
}
