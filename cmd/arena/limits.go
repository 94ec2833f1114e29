package main

import (
	"fmt"
	"time"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/spec"
)

// Limits of the numeric flags. The help texts state them; check functions
// refuse values outside them with an error that says what to type.
//
// The limits of a run (its games, agents, move times, ply cap, openings and
// concurrency) are the arena's own (arena.MaxGames and the rest): the
// library checks them (arena.Options.Check) and names the option, which
// errorText shows as its flag.
const (
	maxGames        = arena.MaxGames
	maxConcurrency  = arena.MaxConcurrency
	maxMoveTime     = arena.MaxMoveTime
	maxMaxPlies     = arena.MaxPlyCap
	maxOpeningPlies = arena.MaxOpeningPlies
	maxPerftDepth   = 64
	maxSolveTime    = 365 * 24 * time.Hour
)

// inRange returns an error for flag --name when n is outside [lo, hi].
func inRange(name string, n, lo, hi int, note string) error {
	if n < lo || n > hi {
		return fmt.Errorf("--%s %d is out of range: use %d to %d%s", name, n, lo, hi, note)
	}
	return nil
}

// durationIn returns an error for flag --name when d is outside [lo, hi]
// (and, when zeroOK, not 0).
func durationIn(name string, d, lo, hi time.Duration, zeroOK bool, note string) error {
	if zeroOK && d == 0 || d >= lo && d <= hi {
		return nil
	}
	zero := ""
	if zeroOK {
		zero = "0 or "
	}
	return fmt.Errorf("--%s %s is out of range: use %s%s to %s%s", name, spec.FormatDuration(d), zero, spec.FormatDuration(lo), spec.FormatDuration(hi), note)
}

// checkOpenings checks the K of an --openings random:K as a run's options
// are checked (arena.Options.Check), for the commands that pass the text
// on to the library later (tune spsa).
func checkOpenings(text string) error {
	return flagError(arena.Options{Openings: text, GamesPerPair: 2}.Check())
}
