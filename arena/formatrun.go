package arena

// This file runs the formats whose pairings depend on the results (Swiss,
// Knockout) through the ordinary workers: RunFormat asks the format for
// its planned games, plays them as a schedule of their own (Run), and
// asks again, until the format is done. The record's games are ordinary
// games between agents (arena rate reads them as any other); the format
// rebuilds its state from them alone, so a resumed run continues where
// the record stops.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

// IsFormat reports whether kind is a format whose pairings depend on the
// results: results.Swiss or results.Knockout.
func IsFormat(kind string) bool { return kind == results.Swiss || kind == results.Knockout }

// byeNames are the ByeScores' names in options and record headers.
var byeNames = []string{ByeWin: "win", ByeDraw: "draw", ByeLoss: "loss"}

func (b ByeScore) String() string {
	if b < ByeWin || b > ByeLoss {
		return fmt.Sprintf("ByeScore(%d)", int(b))
	}
	return byeNames[b]
}

// ParseByeScore reads a bye's score: win, draw or loss.
func ParseByeScore(text string) (ByeScore, error) {
	if i := slices.Index(byeNames, text); i >= 0 {
		return ByeScore(i), nil
	}
	return 0, option.New("Bye", text, "want %s", strings.Join(byeNames, ", "))
}

// formatOf builds the format of a run of the given kind, n agents
// (seeded in their order) and o's settings, and returns it with the
// run's index space (Config.TotalGames: every game's index is below it).
// For a Swiss tournament that is its number of games; a knockout plays
// at most (n−1)·(GamesPerPair + 2·ExtraPairs) of its (P−1)·(GamesPerPair
// + 2·ExtraPairs) numbers, P the bracket's size.
func formatOf(kind string, n int, o Options) (Format, uint64, error) {
	g := o.GamesPerPair
	switch kind {
	case results.Swiss:
		if o.ExtraPairs != 0 {
			return nil, 0, option.New("ExtraPairs", o.ExtraPairs, "tie-break pairs belong to a knockout; a Swiss board's games may end level")
		}
		s := &Swiss{Agents: n, Rounds: o.Rounds, GamesPerBoard: g, Seed: o.Seed, Bye: o.Bye}
		if err := s.Check(); err != nil {
			return nil, 0, err
		}
		return s, uint64(o.Rounds) * uint64(n/2) * uint64(g), nil
	case results.Knockout:
		if o.Rounds != 0 {
			return nil, 0, option.New("Rounds", o.Rounds, "a knockout's rounds follow from its agents (log₂ of the bracket); {Rounds} belongs to a Swiss tournament")
		}
		if o.Bye != ByeWin {
			return nil, 0, option.New("Bye", o.Bye, "a knockout's bye advances the agent and scores no games; {Bye} belongs to a Swiss tournament")
		}
		k := &Knockout{Agents: n, GamesPerMatch: g, ExtraPairs: o.ExtraPairs, Seed: o.Seed}
		if err := k.Check(); err != nil {
			return nil, 0, err
		}
		return k, uint64(k.size()-1) * uint64(k.maxGames()), nil
	}
	return nil, 0, fmt.Errorf("%q is not a format", kind)
}

// PlannedGames is the number of games the run plans: its schedule's
// (Schedule.Len), or a format's most: a Swiss tournament's TotalGames, a
// knockout's (agents−1)·(games + 2·extra pairs) (every match of the
// bracket but its byes, each to its last tie-break pair).
func (t *Tournament) PlannedGames() int {
	if k, ok := t.format.(*Knockout); ok {
		return (k.Agents - 1) * k.maxGames()
	}
	if t.format != nil {
		return t.Config.TotalGames
	}
	return t.Schedule.Len()
}

// Format is the run's format (a *Swiss or *Knockout), nil for the kinds
// with a fixed schedule.
func (t *Tournament) Format() Format { return t.format }

// FormatResult is the format's view of a recorded game: its round, board
// and game within the board (from its index), its seats and winner; ok is
// false for a game the format cannot have planned (an index outside its
// numbering, or a run of another kind).
func (t *Tournament) FormatResult(g *results.GameRecord) (FormatResult, bool) {
	r, b, k, ok := t.place(g.Index)
	if !ok {
		return FormatResult{}, false
	}
	return FormatResult{Round: r, Board: b, Game: k, Seats: [2]int{g.Players[0].Agent, g.Players[1].Agent}, Winner: g.Winner}, true
}

// place inverts FormatGame.Index: the (round, board, game) of an index.
func (t *Tournament) place(index int) (round, board, game int, ok bool) {
	p, isPlacer := t.format.(placer)
	if !isPlacer || index < 0 || index >= t.Config.TotalGames {
		return 0, 0, 0, false
	}
	return p.place(index)
}

// placer is a format whose games' indices can be read back.
type placer interface {
	place(index int) (round, board, game int, ok bool)
}

func (s *Swiss) place(index int) (round, board, game int, ok bool) {
	g, boards := s.GamesPerBoard, s.Agents/2
	rb := index / g
	return rb / boards, rb % boards, index % g, index >= 0 && rb/boards < s.Rounds
}

func (k *Knockout) place(index int) (round, board, game int, ok bool) {
	m := k.maxGames()
	for r, n := 0, k.size()/2; n >= 1 && index >= 0; r, n = r+1, n/2 {
		if index < n*m {
			return r, index / m, index % m, true
		}
		index -= n * m
	}
	return 0, 0, 0, false
}

// formatResults turns recorded games into the format's results.
func (t *Tournament) formatResults(games []results.GameRecord) ([]FormatResult, error) {
	out := make([]FormatResult, 0, len(games))
	for i := range games {
		fr, ok := t.FormatResult(&games[i])
		if !ok {
			return nil, fmt.Errorf("game %d is outside the %s's numbering", games[i].Index, t.Config.Kind)
		}
		out = append(out, fr)
	}
	return out, nil
}

// checkFormatGame is checkRecorded for a format's game: it has the seeds
// of its place in the format. That the format accepts them all (each a
// game it planned, in its planned seats, none twice) is checkFormatDone's,
// once the record is read.
func (t *Tournament) checkFormatGame(path string, g *results.GameRecord) error {
	r, b, k, ok := t.place(g.Index)
	if !ok {
		return option.New("Resume", path, "game %d is outside the numbering of the file's %s", g.Index, t.Config.Kind)
	}
	want := formatGame(t.Config.Seed, r, b, k, g.Index, 0, Board{})
	if g.Seed != want.Seed || g.Players[0].Seed != want.Agents[0] || g.Players[1].Seed != want.Agents[1] {
		return option.New("Resume", path, "game %d has other seeds than the header's %s gives it: its games were not planned by the run its header describes, so it cannot be resumed", g.Index, t.Config.Kind)
	}
	return nil
}

// checkFormatDone checks that the format accepts the results recorded
// at path (see checkFormatGame).
func (t *Tournament) checkFormatDone(path string, done *Recorded) error {
	if t.format == nil {
		return nil
	}
	_, _, err := t.format.Plan(done.FormatResults())
	var np *NoPairingError
	if errors.As(err, &np) {
		err = nil
	}
	if err != nil {
		return option.New("Resume", path, "its games are not the %s's its header describes: %v", t.Config.Kind, err)
	}
	return nil
}

// pairNumber is the round-robin pairing number of agents a and b of n
// (Pairings' order), the records' Pair for a format's games.
func pairNumber(a, b, n int) int {
	if a > b {
		a, b = b, a
	}
	return a*(2*n-a-1)/2 + b - a - 1
}

// fixtureOf is the fixture that plays a format's game: its index and
// seeds are the format's, its Pair the agents' round-robin pairing and
// its Round the game's opening (Book.Opening), so that the record's
// (Pair, Round) names its colour-swapped pair as in a round robin.
func (t *Tournament) fixtureOf(fg FormatGame) Fixture {
	return Fixture{Index: fg.Index, Pair: pairNumber(fg.Seats[0], fg.Seats[1], len(t.Config.Agents)),
		Round: fg.Opening, Game: fg.Game, Seats: fg.Seats, Seed: fg.Seed, Agents: fg.Agents}
}

// RunFormat runs a Swiss tournament or a knockout until the format is
// done: it asks the format for the games planned and not finished, plays
// them all with the workers (Run, on a schedule of those games), and asks
// again with their results. So a round's boards, or a knockout round's
// matches, are played at once, and a tie-break pair once its match's
// games are in. Games in opts.Done (resume) are the format's first
// results; the games follow from the seed and the results alone, so a
// resumed or a differently parallel run plays the same games. A round
// that cannot be paired (NoPairingError) ends the tournament early: it
// is told to opts.Log and the run is complete. Stop and ctx end the run
// as for Run; RunStats.Planned is PlannedGames. A format runs on the
// local workers only (opts.Runner must be nil), and neither opts.Skip nor
// opts.Queue may be set.
func (t *Tournament) RunFormat(ctx context.Context, opts RunOptions) ([]FormatResult, RunStats, error) {
	st := RunStats{Planned: t.PlannedGames(), Skipped: opts.Done.Len()}
	if t.format == nil {
		return nil, st, errors.New("arena: RunFormat needs a Swiss tournament or a knockout")
	}
	switch {
	case opts.Runner != nil:
		return nil, st, option.New("Remote", nil, "a %s runs on the local workers only: its coordinator does not plan its rounds yet", t.Config.Kind)
	case opts.Queue != nil || opts.Skip != nil:
		return nil, st, errors.New("arena: RunFormat plans its own games (no Queue or Skip)")
	}
	finished := opts.Done.FormatResults()
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	sink := opts.Sink
	inner := opts
	inner.Done = nil
	for {
		planned, done, err := t.format.Plan(finished)
		var np *NoPairingError
		if errors.As(err, &np) {
			fmt.Fprintf(log, "%v: the tournament ends after round %d\n", err, np.Round)
			done, err = true, nil
		}
		if err != nil || done {
			st.Complete = err == nil
			return finished, st, err
		}
		if stopped(ctx, opts.Stop) || len(planned) == 0 {
			// Nothing planned and nothing running is the format's error:
			// it would wait for ever.
			if len(planned) == 0 && !stopped(ctx, opts.Stop) {
				err = fmt.Errorf("arena: the %s planned no game and is not done", t.Config.Kind)
			}
			return finished, st, err
		}
		fx := make([]Fixture, len(planned))
		for i, fg := range planned {
			fx[i] = t.fixtureOf(fg)
		}
		slices.SortFunc(fx, func(a, b Fixture) int { return a.Index - b.Index })
		round := *t
		round.Schedule = listSchedule(fx)
		round.format = nil
		inner.Sink = func(batch []*results.GameRecord) error {
			if sink != nil {
				if err := sink(batch); err != nil {
					return err
				}
			}
			for _, g := range batch {
				fr, ok := t.FormatResult(g)
				if !ok { // the format's own numbering: never
					return fmt.Errorf("arena: game %d is outside the %s's numbering", g.Index, t.Config.Kind)
				}
				finished = append(finished, fr)
			}
			return nil
		}
		rs, err := round.Run(ctx, inner)
		st.Played += rs.Played
		st.Abandoned += rs.Abandoned
		if err != nil || !rs.Complete {
			return finished, st, err
		}
	}
}

// stopped reports a cancelled ctx or a closed stop.
func stopped(ctx context.Context, stop <-chan struct{}) bool {
	if ctx.Err() != nil {
		return true
	}
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// WriteFormatStandings writes the format's standings after the finished
// games as a text table: a Swiss tournament's score, Buchholz and
// Sonneborn-Berger, a knockout's places and the bracket's matches.
func (t *Tournament) WriteFormatStandings(w io.Writer, finished []FormatResult) error {
	names := t.Names()
	switch f := t.format.(type) {
	case *Swiss:
		hist, err := f.History(finished)
		if err != nil {
			return err
		}
		st, err := f.Standings(hist)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "Swiss standings after %d of %d rounds:\n", len(hist), f.Rounds)
		// colours: boards started/seconded.
		fmt.Fprintf(w, "%4s  %-*s %6s %9s %7s %8s  %s\n", "rank", nameWidth(names), "agent", "score", "buchholz", "sb", "colours", "bye")
		for i, s := range st {
			bye := ""
			if s.Bye {
				bye = "yes"
			}
			line := fmt.Sprintf("%4d  %-*s %6g %9g %7g %8s  %s", i+1, nameWidth(names), names[s.Agent], s.Score, s.Buchholz, s.SonnebornBerger, fmt.Sprintf("%d/%d", s.Starts, s.Seconds), bye)
			fmt.Fprintln(w, strings.TrimRight(line, " "))
		}
		return nil
	case *Knockout:
		matches, err := f.Matches(finished)
		if err != nil {
			return err
		}
		st, err := f.Standings(finished)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, "Knockout bracket:")
		for _, m := range matches {
			if m.Agents[0] < 0 || m.Agents[1] < 0 {
				if m.Round == 0 && m.Agents[0] >= 0 {
					fmt.Fprintf(w, "  round %d match %d: %s (bye)\n", m.Round+1, m.Match+1, names[m.Agents[0]])
				}
				continue
			}
			res := "playing"
			switch {
			case m.Winner >= 0 && m.ByLot:
				res = names[m.Winner] + " advances by lot"
			case m.Winner >= 0:
				res = names[m.Winner] + " advances"
			}
			fmt.Fprintf(w, "  round %d match %d: %s %g - %g %s (%d games): %s\n", m.Round+1, m.Match+1,
				names[m.Agents[0]], m.Points[0], m.Points[1], names[m.Agents[1]], m.Games, res)
		}
		fmt.Fprintln(w, "Knockout places:")
		for _, s := range st {
			fmt.Fprintf(w, "%5d  %s\n", s.Place, names[s.Agent])
		}
		return nil
	}
	return errors.New("arena: not a Swiss tournament or a knockout")
}

func nameWidth(names []string) int {
	w := len("agent")
	for _, n := range names {
		w = max(w, len(n))
	}
	return w
}

// planFormat sets up a format run of options o in New: its format, an
// empty schedule whose Total is the format's index space, and the
// header's fields.
func (t *Tournament) planFormat(o Options) error {
	f, total, err := formatOf(o.Kind, len(o.Agents), o)
	if err != nil {
		return err
	}
	t.format = f
	t.Schedule = &Schedule{list: []Fixture{}, total: int(total)}
	if o.Kind == results.Swiss {
		t.Config.Rounds, t.Config.Bye = o.Rounds, o.Bye.String()
	}
	t.Config.ExtraPairs = o.ExtraPairs
	return nil
}

// checkFormatConfig checks a format's header fields (CheckConfig), naming
// them as the header does.
func checkFormatConfig(c results.Config) error {
	o := OptionsFrom(c)
	if c.Kind == results.Swiss {
		if _, err := ParseByeScore(c.Bye); err != nil {
			return fmt.Errorf("bye is %q; want %s", c.Bye, strings.Join(byeNames, ", "))
		}
	}
	if _, _, err := formatOf(c.Kind, len(c.Agents), o); err != nil {
		var oe *option.Error
		if errors.As(err, &oe) {
			return fmt.Errorf("a %s of %d agents with rounds %d and extra_pairs %d: %v", c.Kind, len(c.Agents), c.Rounds, c.ExtraPairs, err)
		}
		return err
	}
	return nil
}
