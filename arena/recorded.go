package arena

import (
	"errors"

	"github.com/boardgame-arena/arena/results"
)

// Recorded is what a run needs of the games recorded before it (a
// resume, RunOptions.Done), gathered game by game as the record is read
// (OpenSession reads it once): which games they are (a bit each) and, for
// a match or a race, their pairs counted so far. It holds no game, so
// that a resume's memory does not grow with the games already played; a
// caller that needs more of them reads them again (Each). A Recorded
// serves one run: RunMatch and RunRace continue its counts.
type Recorded struct {
	set   *GameSet             // by game index (Fixture.Index)
	pairs *results.PairTracker // a match's pairs
	race  *raceCounter         // a race's pairs, per candidate
	// format are a Swiss tournament's or a knockout's results, which its
	// plan needs whole (a few words a game; such runs are small), and
	// formatOf reads one from a game (Tournament.FormatResult).
	format   []FormatResult
	formatOf func(*results.GameRecord) (FormatResult, bool)
	// Where Each finds the games: the record file (read again), or the
	// games NewRecorded was given.
	path  string
	games []results.GameRecord
}

// NewRecorded is the Recorded of games already in memory (a caller that
// runs a tournament itself rather than through a Session): those of t's
// schedule, counted in their order. Each hands over the games themselves.
func NewRecorded(t *Tournament, games []results.GameRecord) *Recorded {
	r := newRecorded(t, "")
	for i := range games {
		if t.holds(games[i].Index) && r.add(&games[i]) {
			r.games = append(r.games, games[i])
		}
	}
	return r
}

// holds reports whether game index is one of t's: of its schedule, or
// of a format's numbering.
func (t *Tournament) holds(index int) bool {
	if t.format != nil {
		_, _, _, ok := t.place(index)
		return ok
	}
	_, ok := t.FixturePos(index)
	return ok
}

// newRecorded is an empty Recorded for t's record at path, counting what
// t's kind of run needs.
func newRecorded(t *Tournament, path string) *Recorded {
	r := &Recorded{set: NewGameSet(t.Config.TotalGames), path: path}
	if t.format != nil {
		r.formatOf = t.FormatResult
	}
	switch {
	case t.Config.Kind == results.Match:
		r.pairs = results.NewPairTracker(t.Config.SPRT, 0)
	case t.IsRace():
		// A race RunRace cannot make (it says why) counts nothing here.
		if race, err := results.NewRace(*t.Config.SPRT, len(t.Config.Agents)-1); err == nil {
			r.race = newRaceCounter(race)
		}
	}
	return r
}

// add counts a recorded game, which its trackers may keep until its pair
// is complete (a resumed record's are read without their moves), and
// reports whether it was not yet counted.
func (r *Recorded) add(g *results.GameRecord) bool {
	if !r.set.Add(g.Index) {
		return false
	}
	if r.pairs != nil {
		r.pairs.Add(g)
	}
	if r.race != nil {
		r.race.add(g)
	}
	if r.formatOf != nil {
		if fr, ok := r.formatOf(g); ok {
			r.format = append(r.format, fr)
		}
	}
	return true
}

// FormatResults are the results of a Swiss tournament's or a knockout's
// recorded games, in the record's order (nil for other runs).
func (r *Recorded) FormatResults() []FormatResult {
	if r == nil {
		return nil
	}
	return r.format
}

// Len is the number of games recorded (0 for nil).
func (r *Recorded) Len() int {
	if r == nil {
		return 0
	}
	return r.set.Len()
}

// Has reports whether game index (Fixture.Index) is recorded.
func (r *Recorded) Has(index int) bool { return r != nil && r.set.Has(index) }

// gameSet is the set of games recorded, nil for none.
func (r *Recorded) gameSet() *GameSet {
	if r.Len() == 0 {
		return nil
	}
	return r.set
}

// errEnough ends Each's read once every game has been handed over.
var errEnough = errors.New("all recorded games read")

// Each calls f with each game recorded, whole, in the record's order,
// until f returns an error, which Each returns. A Session's are read again
// from its record file, one at a time (the record must still hold them:
// Each is for the start of a run, such as a coordinator's fingerprints of
// the games recorded). A nil Recorded has no games.
func (r *Recorded) Each(f func(*results.GameRecord) error) error {
	if r.Len() == 0 {
		return nil
	}
	if r.path == "" {
		for i := range r.games {
			if err := f(&r.games[i]); err != nil {
				return err
			}
		}
		return nil
	}
	n := 0
	_, err := results.ReadFileEach(r.path, -1, nil, func(g *results.GameRecord) error {
		if !r.set.Has(g.Index) {
			return nil // recorded since
		}
		if err := f(g); err != nil {
			return err
		}
		if n++; n == r.set.Len() {
			return errEnough
		}
		return nil
	})
	if errors.Is(err, errEnough) {
		return nil
	}
	return err
}
