package results

import (
	"maps"
	"slices"
)

// Counter counts the games of a run as it records them, keeping what the
// ratings and tables need (a Summary) and not the games: its memory grows
// with the players and the games in flight, never with the games played.
// Analyse gives the report that Analyse gives on NewDataset of the same
// games, added in the same order. A Counter is not safe for concurrent
// use.
type Counter struct {
	game  string
	s     *Summary
	index map[string]int
}

// NewCounter returns a Counter of the game's games; players lists the
// expected names in order, as NewDataset's.
func NewCounter(game string, players []string) *Counter {
	c := &Counter{game: game, s: newSummary(nil), index: map[string]int{}}
	for _, p := range players {
		c.player(p)
	}
	return c
}

func (c *Counter) player(name string) int {
	if i, ok := c.index[name]; ok {
		return i
	}
	c.index[name] = len(c.s.Players)
	c.s.addPlayer(name)
	return len(c.s.Players) - 1
}

// Add counts one game of the run.
func (c *Counter) Add(g *GameRecord) {
	f := factsOf(g)
	seat := [2]int{c.player(g.Players[0].Name), c.player(g.Players[1].Name)}
	c.s.add(&f, seat, 0) // one run: one source, as NewDataset's
}

// Games is the number of games counted.
func (c *Counter) Games() int { return c.s.Games }

// Analyse rates the players of the games counted so far; the Counter may
// go on counting.
func (c *Counter) Analyse(o AnalysisOptions) (*Analysis, error) {
	return buildReport(c.game, c.Summary(), o)
}

// Snapshot is a copy of the counts so far, which goes on counting apart:
// a caller that shares c takes it under its lock and analyses it outside.
func (c *Counter) Snapshot() *Counter {
	return &Counter{game: c.game, s: c.summary(false), index: maps.Clone(c.index)}
}

// Summary is a copy of the counts so far, its games still waiting for
// their pair partner counted as unpaired (as at the end of a file).
func (c *Counter) Summary() *Summary { return c.summary(true) }

func (c *Counter) summary(end bool) *Summary {
	s := *c.s
	s.Players = slices.Clone(s.Players)
	s.Terminations, s.met, s.pairs, s.pending = maps.Clone(s.Terminations), maps.Clone(s.met), maps.Clone(s.pairs), maps.Clone(s.pending)
	s.Matches = slices.Clone(s.Matches)
	if end {
		s.endSource()
	}
	return &s
}
