package games

// MovesLeftEstimator is implemented by positions that can tell, cheaply,
// about how many more moves the player to move will make before the game
// ends, this one included: a search agent on a clock shares its remaining
// time over them (see search/deadline.Allot). An upper bound is best (the
// empty cells the mover can still fill, the turns up to a turn limit): an
// estimate that is too high only makes the moves faster, one that is too
// low spends the clock early. Games without one are assumed to have 25
// moves left.
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
