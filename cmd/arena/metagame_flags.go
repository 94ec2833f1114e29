package main

import (
	"flag"

	"github.com/boardgame-arena/arena/results"
)

// autoMetaGamePlayers is the largest pool whose report shows the
// meta-game without --meta-game: with 1 000 resamples it costs about a
// second more there (docs/ratings.md, Cost), and 2 players make no game.
const autoMetaGamePlayers = 10

// metaGameFlags are the meta-game flags of rate and report, in the group
// Meta-game.
type metaGameFlags struct {
	fs         *flagSet
	on         bool
	alpha      float64
	population int
}

// addMetaGameFlags defines --meta-game (with help), --alpha and
// --population on fs.
func addMetaGameFlags(fs *flagSet, help string) *metaGameFlags {
	m := &metaGameFlags{fs: fs}
	fs.BoolVar(&m.on, "meta-game", false, help)
	fs.Float64Var(&m.alpha, "alpha", 0, "α-Rank's ranking intensity `X` (default 0: swept)")
	fs.IntVar(&m.population, "population", results.DefaultPopulation, "α-Rank's population size `M`")
	fs.group("Meta-game", "meta-game alpha population")
	return m
}

// options are the meta-game's options, nil when it is off: --meta-game
// decides when given; otherwise it is on for pools of 3 to auto players
// (auto 0: off unless asked for).
func (m *metaGameFlags) options(players, auto int) *results.MetaGameOptions {
	on := m.on
	if !m.given() {
		on = players >= 3 && players <= auto
	}
	if !on {
		return nil
	}
	return &results.MetaGameOptions{Alpha: m.alpha, Population: m.population}
}

// given reports whether --meta-game was given.
func (m *metaGameFlags) given() bool {
	given := false
	m.fs.Visit(func(f *flag.Flag) { given = given || f.Name == "meta-game" })
	return given
}

// check reports --alpha or --population out of range, whether or not the
// meta-game is on (report's default depends on the pool, known later).
func (m *metaGameFlags) check() error {
	return results.MetaGameOptions{Alpha: m.alpha, Population: m.population}.Check()
}
