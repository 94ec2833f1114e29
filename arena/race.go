package arena

import (
	"context"
	"errors"
	"sync"

	"github.com/boardgame-arena/arena/results"
)

// IsRace reports whether the tournament is a race: a gauntlet with an
// SPRT, agent 0 the base and the others the candidates (results.Race).
func (t *Tournament) IsRace() bool {
	return t.Config.Kind == results.Gauntlet && t.Config.SPRT != nil
}

// RunRace runs a race until it is decided or the planned games run out.
// Each candidate's games against the base are counted in pairs, in round
// order (results.PairTracker), and fed to the race; the fixtures of a
// candidate no longer in the race are skipped (RunOptions.Skip), and once
// the race is decided no new game starts: games already running are
// finished and recorded but not counted. The gauntlet's schedule plays
// the pairings round by round, so the live candidates get their games in
// turn. onStage, if not nil, is called from the collector goroutine
// whenever stages were completed. Games in opts.Done (resume) are counted
// first; if they already decide the race, nothing is played. A Runner
// (opts.Runner, a coordinator of remote workers) is handed opts.Skip and
// must honour it as the local workers do: queue no game that Skip skips,
// and take back, where it can, the games it queued before.
func (t *Tournament) RunRace(ctx context.Context, opts RunOptions, onStage func(*results.Race)) (*results.Race, RunStats, error) {
	if !t.IsRace() {
		return nil, RunStats{}, errors.New("arena: RunRace needs a gauntlet with an SPRT")
	}
	race, err := results.NewRace(*t.Config.SPRT, len(t.Config.Agents)-1)
	if err != nil {
		return nil, RunStats{}, err
	}
	c := newRaceCounter(race)
	if d := opts.Done; d != nil && d.race != nil {
		c, race = d.race, d.race.race // counted as the record was read
	}
	if race.Decided() {
		n := opts.Done.Len()
		return race, RunStats{Planned: t.Schedule.Len(), Skipped: n, Complete: n == t.Schedule.Len()}, nil
	}
	halt, release := stopEarly(&opts)
	defer release()
	sink := opts.Sink
	opts.Skip = func(f Fixture) bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return !race.InRace(candidateOf(f.Seats) - 1)
	}
	opts.Sink = func(batch []*results.GameRecord) error {
		if sink != nil {
			if err := sink(batch); err != nil {
				return err
			}
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		stages := 0
		for _, g := range batch {
			stages += c.add(keepable(g, opts.ReuseGames))
		}
		if stages > 0 && onStage != nil {
			onStage(race)
		}
		if race.Decided() {
			halt()
		}
		return nil
	}
	st, err := t.Run(ctx, opts)
	return race, st, err
}

// raceCounter assembles each candidate's games into pairs for the race.
type raceCounter struct {
	mu     sync.Mutex // the race is read by the workers' Skip
	race   *results.Race
	stages int
	pairs  []*results.PairTracker // per candidate
}

func newRaceCounter(race *results.Race) *raceCounter {
	c := &raceCounter{race: race, pairs: make([]*results.PairTracker, len(race.Candidates))}
	for i := range c.pairs {
		c.pairs[i] = results.NewPairTracker(nil, i+1)
		c.pairs[i].OnPair = func(a, b float64) { c.stages += race.Add(i, a, b) }
	}
	return c
}

// add counts a game and returns the stages it completed.
func (c *raceCounter) add(g *results.GameRecord) int {
	cand := candidateOf([2]int{g.Players[0].Agent, g.Players[1].Agent})
	if cand < 1 || cand > len(c.pairs) || !c.race.InRace(cand-1) {
		return 0
	}
	before := c.stages
	c.pairs[cand-1].Add(g)
	return c.stages - before
}

// candidateOf is the agent of a race game that is not the base (agent 0).
func candidateOf(seats [2]int) int {
	if seats[0] == 0 {
		return seats[1]
	}
	return seats[0]
}
