package arena

import (
	"fmt"

	"github.com/boardgame-arena/arena/option"
)

// UnrecordableError is a run's failure on a game whose record cannot be
// kept: longer than results.MaxGameBytes (or than a broker's messages)
// even with every info text cut, its moves alone too many, which only a
// MaxPlies far beyond the game's length allows. Err names the option.
type UnrecordableError struct {
	Game int // the game's Fixture.Index
	Err  error
}

// Unrecordable is the failure of game index of a run capped at maxPlies,
// whose record results.GameRecord.Fit could not fit (fitErr).
func Unrecordable(index, maxPlies int, fitErr error) *UnrecordableError {
	return &UnrecordableError{Game: index, Err: fmt.Errorf("%v: %w", fitErr, option.New("MaxPlies", maxPlies, "lower it: so long a game cannot be recorded"))}
}

func (e *UnrecordableError) Error() string { return e.Err.Error() }
func (e *UnrecordableError) Unwrap() error { return e.Err }
