package arena

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

// header is the record header of a run of t starting now with the given
// concurrency.
func (t *Tournament) header(concurrency int) results.Header {
	return results.Header{Record: results.KindHeader, Version: results.FormatVersion,
		Created: time.Now().UTC().Format(time.RFC3339), Concurrency: concurrency, Config: t.Config}
}

// resumed is the tournament that continues the record at path, whose
// header is h (Session's resume): rebuilt from its header, changed by edit
// if not nil, and checked against the header. Each game recorded is then
// checked as it is read (checkRecorded).
func resumed(path string, h *results.Header, edit func(*Options)) (*Tournament, error) {
	c := h.Config
	// The header's sizes first, so that a damaged header is named as such
	// rather than as an option that differs.
	if err := CheckHeader(path, c); err != nil {
		return nil, err
	}
	var t *Tournament
	var err error
	if edit == nil {
		t, err = rebuild(path, c)
	} else {
		// From the file's configuration, changed where the caller says,
		// so that the error names exactly what differs.
		o := OptionsFrom(c)
		recorded := slices.Clone(o.Agents)
		edit(&o)
		if !slices.Equal(o.Agents, recorded) {
			// Other agents: named from their specs, so that the
			// error lists what differs rather than the names.
			o.Names = nil
		}
		t, err = New(o)
	}
	if err != nil {
		return nil, err
	}
	return t, t.continues(path, h)
}

// rebuild is the tournament of a record header c (of the file at path).
func rebuild(path string, c results.Config) (*Tournament, error) {
	t, err := New(OptionsFrom(c))
	if err != nil {
		return nil, fmt.Errorf("%s: cannot rebuild its tournament: %w", path, err)
	}
	return t, nil
}

// continues checks that t is the run of the record at path, whose header
// is h: the same configuration.
func (t *Tournament) continues(path string, h *results.Header) error {
	if diff := h.Config.Diff(t.Config); len(diff) > 0 {
		return option.New("Resume", path, "the configuration differs from the file's, so the remaining games would not be the planned ones:\n  %s\n(leave out the flags that differ to continue the file as it was started)",
			strings.Join(diff, "\n  "))
	}
	return nil
}

// checkRecorded checks that a recorded game is a game of t's schedule
// (index, seeds and seats), so that a resumed run never plays a schedule
// other than the one its file holds. A sweep written before sweeps had a
// kind of their own has a round-robin header over games of another
// schedule: resuming it as a round robin would play the value agents
// against each other.
func (t *Tournament) checkRecorded(path string, g *results.GameRecord) error {
	if t.format != nil {
		return t.checkFormatGame(path, g)
	}
	pos, ok := t.FixturePos(g.Index)
	if !ok {
		return option.New("Resume", path, "game %d is not in the schedule of the file's header", g.Index)
	}
	f := t.Schedule.At(pos)
	if g.Seed == f.Seed && g.Players[0].Agent == f.Seats[0] && g.Players[1].Agent == f.Seats[1] &&
		g.Players[0].Seed == f.Agents[0] && g.Players[1].Seed == f.Agents[1] {
		return nil
	}
	why := "its games were not planned by the schedule its header describes"
	if t.Config.Kind == results.RoundRobin {
		why = "if arena tune sweep wrote it (before sweeps were recorded as kind \"sweep\"), its header says round-robin but its games are a sweep's"
	}
	return option.New("Resume", path, "game %d has seed %d between agents %d and %d, but the header's %s gives game %d seed %d between agents %d and %d: %s, so it cannot be resumed (arena rate and report still read it; start a new run with {Out} to play more games)",
		g.Index, g.Seed, g.Players[0].Agent, g.Players[1].Agent, t.Config.Kind, g.Index, f.Seed, f.Seats[0], f.Seats[1], why)
}

// CheckHeader is CheckConfig for the header of the record file at path,
// with an error that names the file and its header.
func CheckHeader(path string, c results.Config) error {
	if err := CheckConfig(c); err != nil {
		return fmt.Errorf("%s: header: %w (arena writes no such header: was it edited by hand?)", path, err)
	}
	return nil
}

// CheckConfig checks the sizes in a configuration read from a record header
// against the limits New applies (MaxGames, MaxAgents, MaxOpeningPlies,
// MaxPlyCap) and against each other, naming the header's fields, so that a
// damaged or hand-edited header is refused before a tournament is built
// from it.
func CheckConfig(c results.Config) error {
	n := len(c.Agents)
	if n < 2 || n > MaxAgents {
		return fmt.Errorf("agents lists %d agents; a run has 2 to %d", n, MaxAgents)
	}
	g := c.GamesPerPair
	if g < 2 || g > MaxGames || g%2 != 0 {
		return fmt.Errorf("games_per_pair is %d; it must be an even number from 2 to %d", g, MaxGames)
	}
	var total uint64
	if IsFormat(c.Kind) {
		if err := checkFormatConfig(c); err != nil {
			return err
		}
		o := OptionsFrom(c)
		_, total, _ = formatOf(c.Kind, n, o) // checkFormatConfig built it
	} else {
		pairs, err := pairCount(c.Kind, n, c.Swept)
		if err != nil {
			return fmt.Errorf("kind %q with %d agents: %v", c.Kind, n, err)
		}
		total = pairs * uint64(g)
	}
	if total > MaxGames {
		return fmt.Errorf("games_per_pair %d with %d agents makes %d games in a %s; a run has at most %d", g, n, total, c.Kind, MaxGames)
	}
	if uint64(c.TotalGames) != total || c.TotalGames < 0 {
		return fmt.Errorf("total_games is %d, but a %s of %d agents with games_per_pair %d plans %d", c.TotalGames, c.Kind, n, g, total)
	}
	seen := map[string]bool{}
	for i, a := range c.Agents {
		if a.Name == "" || seen[a.Name] {
			return fmt.Errorf("agent %d is named %q, empty or another agent's name; every agent has a name of its own", i, a.Name)
		}
		seen[a.Name] = true
	}
	if c.MaxPlies < 0 || c.MaxPlies > MaxPlyCap {
		return fmt.Errorf("max_plies is %d; it must be from 0 (no cap) to %d", c.MaxPlies, MaxPlyCap)
	}
	if strings.HasPrefix(c.Openings, "random:") {
		if k, ok := randomPlies(c.Openings); !ok || k < 0 || k > MaxOpeningPlies {
			return fmt.Errorf("openings is %q; random openings are random:K with K from 0 to %d plies", c.Openings, MaxOpeningPlies)
		}
	}
	if c.TimeControl != "" {
		if _, err := agents.ParseTimeControl(c.TimeControl); err != nil {
			return fmt.Errorf("tc: %v", err)
		}
	}
	if _, err := ParseAdjudicate(c.Adjudicate); err != nil {
		return fmt.Errorf("adjudicate: %v", err)
	}
	// Milliseconds that fit a time.Duration.
	const maxMS = float64(math.MaxInt64 / int64(time.Millisecond))
	for _, f := range []struct {
		name string
		ms   float64
	}{{"move_time_ms", c.MoveTimeMS}, {"move_margin_ms", c.MoveMarginMS}} {
		if !(f.ms >= 0 && f.ms <= maxMS) {
			return fmt.Errorf("%s is %v; it must be from 0 to %.0f", f.name, f.ms, maxMS)
		}
	}
	return nil
}
