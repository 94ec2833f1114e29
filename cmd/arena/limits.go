package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/internal/sysmem"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/spec"
)

// Limits of the numeric flags. The help texts state them; check functions
// below refuse values outside them with an error that says what to type.
//
// The sizes of a run are the arena's own limits (arena.MaxGames and the
// rest), which it also applies to a resumed file's header: the schedule and
// the games kept for the tables are built in memory, so a mistyped
// --games 100000000000 must be refused before anything is allocated.
// Streaming the schedule instead would have touched the arena's resume
// and claiming code for a case no one needs.
const (
	maxGames        = arena.MaxGames
	maxConcurrency  = 256
	maxMoveTime     = 24 * time.Hour
	maxMoveMargin   = time.Hour
	maxMaxPlies     = arena.MaxPlyCap
	maxOpeningPlies = arena.MaxOpeningPlies
	maxPerftDepth   = 64
	maxThreads      = 256
	maxTTMB         = 1 << 16
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

// pairings counts the pairings of a tournament of n agents without
// building them (n comes from the command line and may be large).
func pairings(kind string, n int) uint64 {
	switch {
	case n < 2:
		return 0
	case kind == results.Gauntlet:
		return uint64(n - 1)
	case kind == results.Match:
		return 1
	}
	return uint64(n) * uint64(n-1) / 2
}

// check validates the run flags of a tournament or match of the given kind
// with n agents (0 when the agents come from a resumed file).
func (r *runFlags) check(kind string, n int) error {
	g := *r.games
	if g < 2 || g > maxGames || g%2 != 0 {
		return fmt.Errorf("--games %d: use an even number from 2 to %d (games come in colour-swapped pairs)", g, maxGames)
	}
	if total := pairings(kind, n) * uint64(g); total > maxGames {
		return fmt.Errorf("--games %d with %d agents makes %d games in a %s; one run plays at most %d: use a smaller --games or fewer agents, and split a larger study into runs with different --seed", g, n, total, kind, maxGames)
	}
	if err := checkConcurrency(*r.concurrency, r.broker); err != nil {
		return err
	}
	if err := durationIn("move-time", *r.moveTime, time.Millisecond, maxMoveTime, true, " (0: automatic)"); err != nil {
		return err
	}
	if err := durationIn("move-margin", *r.moveMargin, time.Millisecond, maxMoveMargin, false, ""); err != nil {
		return err
	}
	if err := inRange("max-plies", *r.maxPlies, 0, maxMaxPlies, " (0: no cap)"); err != nil {
		return err
	}
	if err := r.checkTC(); err != nil {
		return err
	}
	if err := inRange("rating-interval", *r.interval, -1, maxGames, " (0: automatic, -1: never)"); err != nil {
		return err
	}
	return checkOpenings(*r.openings)
}

// checkTC validates --tc and refuses it with --move-time: on a clock the
// time left limits every move (an agent's own tc= key does combine with
// --move-time: that agent is on its clock, the others on the limit).
func (r *runFlags) checkTC() error {
	if *r.tc == "" {
		return nil
	}
	if _, err := agents.ParseTimeControl(*r.tc); err != nil {
		return fmt.Errorf("--tc: %v", err)
	}
	if *r.moveTime != 0 {
		return fmt.Errorf("--tc %s and --move-time %s cannot be used together: the clock limits every move (leave out --move-time, or give agents their own clocks with tc= in their specs)", *r.tc, spec.FormatDuration(*r.moveTime))
	}
	return nil
}

// checkOpenings bounds K of --openings random:K (the arena checks the rest).
func checkOpenings(text string) error {
	k, ok := strings.CutPrefix(strings.TrimSuffix(text, "+seed"), "random:")
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(k)
	if err != nil || n < 0 || n > maxOpeningPlies {
		return fmt.Errorf("--openings %s: want random:K with K from 0 to %d plies", text, maxOpeningPlies)
	}
	return nil
}

// checkTT validates a transposition-table size in MB given as --tt.
func checkTT(mb int) error {
	if err := inRange("tt", mb, 1, maxTTMB, " MB"); err != nil {
		return err
	}
	return sysmem.CheckMB(fmt.Sprintf("--tt %d", mb), mb)
}
