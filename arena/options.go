package arena

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/spec"
)

// Defaults of the per-move limits.
const (
	// DefaultMargin is the grace beyond a move's limit before it forfeits.
	DefaultMargin = 100 * time.Millisecond
	// DefaultMoveCap limits the moves of agents that have no time budget
	// (no time= key) in automatic mode, so that a hung agent cannot stall
	// a tournament. Raise it with Options.MoveTime for very deep fixed
	// searches.
	DefaultMoveCap = time.Minute
	// DefaultMaxPlies caps game length; every game of the registry ends
	// long before.
	DefaultMaxPlies = 1000
)

// Limits on the size of a run. Options.Check refuses options beyond them,
// and a resumed Session a record header beyond them (see CheckConfig), before
// anything is built: the schedule (72 bytes a game) and the games kept for
// the tables (a few hundred bytes each) live in memory, so a mistyped
// GamesPerPair of 100000000000 or a hand-edited header must not allocate
// them.
const (
	// MaxGames bounds the games of one run (pairings × games per pairing).
	// A million games is days of play for any agent that thinks; a longer
	// study is several runs with different seeds.
	MaxGames = 1_000_000
	// MaxAgents bounds the agents of one run: as many as a round robin of
	// two games per pairing allows within MaxGames (every agent is built
	// once by New to check its spec).
	MaxAgents = 1000
	// MaxOpeningPlies bounds K of random:K openings.
	MaxOpeningPlies = 1000
	// MaxPlyCap bounds Options.MaxPlies, the ply cap of a game, so that a
	// game at the cap can be recorded (results.MaxGameBytes, 4 MiB): a ply
	// takes at most 167 bytes of a record with every info text cut (its
	// statistics and clocks at their widest, its move's quotes and
	// comma) plus the move's text, so 20 000 plies of moves up to 16
	// bytes take 3.7 MB, leaving over 400 KB for the rest (openings of
	// MaxOpeningPlies, names, specs, the detail). Every game of the
	// registry ends before 1000 plies; a run without a cap (MaxPlies < 0)
	// that makes a longer record fails with an arena.UnrecordableError.
	MaxPlyCap = 20_000
	// MaxMoveTime bounds Options.MoveTime.
	MaxMoveTime = 24 * time.Hour
	// MaxMoveMargin bounds Options.MoveMargin.
	MaxMoveMargin = time.Hour
	// MaxConcurrency bounds the games played at once by one process
	// (SessionOptions.Concurrency, see CheckConcurrency).
	MaxConcurrency = 256
)

// Options describe a tournament or a match.
type Options struct {
	Kind            string   // results.RoundRobin, Gauntlet, Match, Sweep, Swiss or Knockout
	Game            string   // game spec
	Agents          []string // agent specs, one each
	GamesPerPair    int      // even; for a match, the most games to play
	Seed            uint64
	Openings        string // see NewBook
	ShuffleOpenings bool
	// MoveTime is every agent's limit per move, 1ms to MaxMoveTime; 0 is
	// automatic: the agent's own budget (agents.Budgeter: a search's
	// time=, a bot's turn=), else the game's limits (games.Entry.MoveTime),
	// else DefaultMoveCap.
	MoveTime   time.Duration
	MoveMargin time.Duration // grace beyond the limit, 1ms to MaxMoveMargin; 0 means DefaultMargin
	MaxPlies   int           // at most MaxPlyCap; 0 means DefaultMaxPlies; negative for no cap
	// Adjudicate is the solver adjudication, as ParseAdjudicate reads it
	// (e.g. "solve:empties=10"); empty for none.
	Adjudicate string
	SPRT       *results.SPRT // matches only
	// TimeControl puts every agent whose spec has no tc= key of its own
	// on a game clock (Limits.Clock); an agent's tc= overrides it. It
	// cannot be combined with MoveTime: a run is on clocks or on per-move
	// limits (agents with tc= excepted).
	TimeControl agents.TimeControl
	// Shard, when set, plays only that static slice of the schedule (see
	// results.Shard); 1/1 is the whole run. A match cannot be sharded: an
	// SPRT decides on all the games in order.
	Shard *results.Shard
	// Swept is, for a results.Sweep, how many of the agents (the first)
	// are the swept values; the others are their opponents.
	Swept int
	// Rounds is a Swiss tournament's (results.Swiss) number of rounds,
	// and Bye what its bye earns; ExtraPairs is a knockout's
	// (results.Knockout) tie-break game pairs at most. A format's
	// seeding is the agents' order, best first, and GamesPerPair the
	// games of its boards (a knockout match's before any tie-break).
	Rounds     int
	Bye        ByeScore
	ExtraPairs int
	// Names are the agents' display names, one each, unique: a resumed
	// run's, from its record (OptionsFrom), which it never changes. nil
	// names the agents from their specs (agents.Names).
	Names []string
}

// Check reports the first option out of its range, or given with one it
// cannot go with, as an *option.Error naming the field (GamesPerPair,
// MoveTime …). It builds nothing and reads no file: the game, the agents'
// specs and an openings file are New's to check. With Agents nil (a
// caller that resumes a record takes them from its header) the checks
// that count the agents are left out; New makes them all.
func (o Options) Check() error { return o.check(o.Agents != nil) }

func (o Options) check(counted bool) error {
	kind := o.Kind
	if kind == "" {
		kind = results.RoundRobin
	}
	n := len(o.Agents)
	switch {
	case !counted:
	case kind == results.Match && n != 2:
		return option.New("Agents", nil, "{Agents} needs exactly two agent specs, got %d", n)
	case n < 2:
		return option.New("Agents", nil, "{Agents} needs at least two agent specs, got %d", n)
	case n > MaxAgents:
		return option.New("Agents", nil, "{Agents} lists %d agent specs; a run has at most %d: split the agents into several runs", n, MaxAgents)
	}
	// Bound the schedule before building any agent or fixture.
	g := o.GamesPerPair
	if g < 2 || g > MaxGames || g%2 != 0 {
		return option.New("GamesPerPair", g, "use an even number from 2 to %d (games come in colour-swapped pairs)", MaxGames)
	}
	var total uint64
	if IsFormat(kind) {
		if o.Shard != nil && o.Shard.Count > 1 {
			return option.New("Shard", o.Shard, "a %s cannot be sharded: its pairings depend on the results of all its games", kind)
		}
		if o.SPRT != nil {
			return option.New("SPRT", nil, "an SPRT belongs to a match, or to a gauntlet (a race), not to a %s", kind)
		}
		if counted {
			_, t, err := formatOf(kind, n, o)
			if err != nil {
				return err
			}
			if t > MaxGames {
				return option.New("GamesPerPair", g, "{GamesPerPair} %d with %d agents makes %d games in a %s; one run plays at most %d", g, n, t, kind, MaxGames)
			}
		}
	} else {
		switch {
		case o.Rounds != 0:
			return option.New("Rounds", o.Rounds, "rounds belong to a Swiss tournament, not to a %s", kind)
		case o.Bye != ByeWin:
			return option.New("Bye", o.Bye, "a bye's score belongs to a Swiss tournament, not to a %s", kind)
		case o.ExtraPairs != 0:
			return option.New("ExtraPairs", o.ExtraPairs, "tie-break pairs belong to a knockout, not to a %s", kind)
		}
	}
	if counted && !IsFormat(kind) {
		pairs, err := pairCount(kind, n, o.Swept)
		if err != nil {
			return err
		}
		if total = pairs * uint64(g); total > MaxGames {
			return option.New("GamesPerPair", g, "{GamesPerPair} %d with %d agents makes %d games in a %s; one run plays at most %d: use a smaller {GamesPerPair} or fewer agents, and split a larger study into runs with different {Seed}", g, n, total, kind, MaxGames)
		}
	}
	if d := o.MoveTime; d != 0 && (d < time.Millisecond || d > MaxMoveTime) {
		return option.New("MoveTime", spec.FormatDuration(d), "{MoveTime} %s is out of range: use 0 or 1ms to %s (0: automatic)", spec.FormatDuration(d), spec.FormatDuration(MaxMoveTime))
	}
	if d := o.MoveMargin; d != 0 && (d < time.Millisecond || d > MaxMoveMargin) {
		return option.OutOfRange("MoveMargin", spec.FormatDuration(d), "1ms", spec.FormatDuration(MaxMoveMargin), "")
	}
	if o.MaxPlies > MaxPlyCap {
		return option.OutOfRange("MaxPlies", o.MaxPlies, 0, MaxPlyCap, "")
	}
	if tc := o.TimeControl; !tc.IsZero() {
		// The bounds of agents.ParseTimeControl, for callers that build one.
		if _, err := agents.ParseTimeControl(tc.String()); err != nil || tc.Base < time.Millisecond || tc.Inc < 0 {
			return option.New("TimeControl", tc, "the base must be 1ms to %s and the increment 0 to %s", agents.MaxClockBase, agents.MaxClockInc)
		}
		if o.MoveTime != 0 {
			return option.New("TimeControl", tc, "{TimeControl} %s and {MoveTime} %s cannot be used together: the clock limits every move (leave out {MoveTime}, or give agents their own clocks with tc= in their specs)", tc, spec.FormatDuration(o.MoveTime))
		}
	}
	if strings.HasPrefix(o.Openings, "random:") {
		if k, ok := randomPlies(o.Openings); !ok || k < 0 || k > MaxOpeningPlies {
			return option.New("Openings", o.Openings, "want random:K with K from 0 to %d plies", MaxOpeningPlies)
		}
	}
	if o.SPRT != nil && kind != results.Match && kind != results.Gauntlet {
		return option.New("SPRT", nil, "an SPRT belongs to a match, or to a gauntlet (a race of the other agents against the first)")
	}
	if o.SPRT != nil && kind == results.Gauntlet {
		if counted && n < 3 {
			return option.New("Agents", nil, "a race (a gauntlet with an {SPRT}) needs the base and at least two candidates, got %d agent specs; with one candidate, run a match", n)
		}
		if o.Shard != nil {
			return option.New("Shard", nil, "a race cannot be sharded: it decides on every candidate's game pairs in order")
		}
	}
	if _, err := ParseAdjudicate(o.Adjudicate); err != nil {
		return err
	}
	if s := o.Shard; s != nil {
		if kind == results.Match {
			return option.New("Shard", nil, "a match cannot be sharded (an SPRT decides on the games in order, and a match's report counts its pairs in one file); for a fixed number of games between two agents, shard a round robin of the two: it plays the same games")
		}
		if err := s.Check(); err != nil {
			return option.New("Shard", s, "%v", err)
		}
		if pairs := total / 2; counted && s.Count > 1 && uint64(s.Count) > pairs {
			return option.New("Shard", s, "this run has only %d game pairs, so at most %d shards (each plays whole colour-swapped pairs); use a smaller N", pairs, pairs)
		}
	}
	return nil
}

// randomPlies returns K of an openings spec "random:K" (or "random:K+seed",
// as a header spells it); ok is false for other specs and for a K that is
// not a number.
func randomPlies(text string) (k int, ok bool) {
	t, found := strings.CutPrefix(strings.TrimSuffix(text, "+seed"), "random:")
	if !found {
		return 0, false
	}
	k, err := strconv.Atoi(t)
	return k, err == nil
}

// CheckConcurrency checks a number of games played at once: 1 to
// MaxConcurrency, or 0 when remote is true, where a coordinator of remote
// workers (RunOptions.Runner) plays the games: this process then plays
// none itself.
func CheckConcurrency(n int, remote bool) error {
	lo := 1
	if remote {
		lo = 0
	}
	if n < lo || n > MaxConcurrency {
		return option.New("Concurrency", n, "{Concurrency} %d is out of range: use 1 to %d games at once (0 with {Remote}: the coordinator plays no game itself, its workers play them all)", n, MaxConcurrency)
	}
	return nil
}

// OptionsFrom rebuilds the options that produced a recorded configuration,
// for resuming a run from its file alone.
func OptionsFrom(c results.Config) Options {
	o := Options{
		Kind: c.Kind, Game: c.Game, GamesPerPair: c.GamesPerPair, Seed: c.Seed,
		Openings: c.Openings, ShuffleOpenings: c.ShuffleOpenings,
		MoveTime:   time.Duration(math.Round(c.MoveTimeMS * 1e6)),
		MoveMargin: time.Duration(math.Round(c.MoveMarginMS * 1e6)),
		MaxPlies:   c.MaxPlies, SPRT: c.SPRT, Shard: c.Shard, Swept: c.Swept,
		Adjudicate: c.Adjudicate, Rounds: c.Rounds, ExtraPairs: c.ExtraPairs,
	}
	if c.Bye != "" {
		// CheckConfig reports a header whose bye does not read.
		o.Bye, _ = ParseByeScore(c.Bye)
	}
	if c.TimeControl != "" {
		// CheckConfig reports a header whose tc does not read; New then
		// sees no clock and the configurations differ.
		o.TimeControl, _ = agents.ParseTimeControl(c.TimeControl)
	}
	if c.MaxPlies == 0 {
		o.MaxPlies = -1
	}
	for _, a := range c.Agents {
		o.Agents = append(o.Agents, a.Spec)
		o.Names = append(o.Names, a.Name)
	}
	return o
}

// checkNames checks Options.Names for n agents: one each, none empty,
// no two alike.
func checkNames(names []string, n int) error {
	if len(names) != n {
		return option.New("Names", nil, "{Names} gives %d names for %d agents; give one each, or none to name the agents from their specs", len(names), n)
	}
	seen := map[string]bool{}
	for _, name := range names {
		switch {
		case name == "":
			return option.New("Names", nil, "{Names} holds an empty name")
		case seen[name]:
			return option.New("Names", nil, "{Names} gives two agents the name %q; each agent needs its own", name)
		}
		seen[name] = true
	}
	return nil
}
