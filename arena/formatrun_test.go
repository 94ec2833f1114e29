package arena

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

// formatCases are the formats the run tests play: a Swiss tournament of
// five agents (a bye each round) and a knockout of five (three byes in
// the first round) with tie-break pairs, on a game with draws.
var formatCases = []struct {
	name string
	o    Options
}{
	{"swiss", Options{Kind: results.Swiss, Game: "t-sum", Agents: []string{"random", "t-max", "greedy", "random:name=r2", "random:name=r3"},
		GamesPerPair: 2, Seed: 5, Openings: "random:1", Rounds: 4, Bye: ByeDraw}},
	{"knockout", Options{Kind: results.Knockout, Game: "t-sum", Agents: []string{"random", "t-max", "greedy", "random:name=r2", "random:name=r3"},
		GamesPerPair: 2, Seed: 7, Openings: "random:1", ExtraPairs: 3}},
}

// runFormatFile plays o into a new record at path with the given workers,
// stopping once stopAfter games are recorded (0: never), and returns the
// run's statistics.
func runFormatFile(t *testing.T, o Options, path string, workers, stopAfter int) RunStats {
	t.Helper()
	s, err := OpenSession(SessionOptions{Options: o, Out: path, Concurrency: workers})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	return runFormatSession(t, s, stopAfter)
}

func runFormatSession(t *testing.T, s *Session, stopAfter int) RunStats {
	t.Helper()
	stop := make(chan struct{})
	st, err := s.Run(context.Background(), RunOptions{ReuseGames: true, Stop: stop, Sink: func([]*results.GameRecord) error {
		if stopAfter > 0 && s.Recorded() >= stopAfter {
			select {
			case <-stop:
			default:
				close(stop)
			}
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// readFormatGames reads a record's games in index order, timings stripped.
func readFormatGames(t *testing.T, path string) []results.GameRecord {
	t.Helper()
	f, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gs := comparable(f.Games)
	slices.SortFunc(gs, func(a, b results.GameRecord) int { return a.Index - b.Index })
	return gs
}

func standingsText(t *testing.T, tour *Tournament, games []results.GameRecord) string {
	t.Helper()
	fr, err := tour.formatResults(games)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tour.WriteFormatStandings(&b, fr); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestFormatRunReproducible: a Swiss tournament and a knockout play the
// same games, seeds, moves and results with one worker and with two, to
// the end, and a Swiss tournament plays exactly its Rounds·⌊N/2⌋·G games.
func TestFormatRunReproducible(t *testing.T) {
	for _, tc := range formatCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var runs [2][]results.GameRecord
			for w := 1; w <= 2; w++ {
				path := filepath.Join(dir, tc.name+string(rune('0'+w))+".jsonl")
				st := runFormatFile(t, tc.o, path, w, 0)
				if !st.Complete {
					t.Fatalf("%d workers: the run is not complete: %+v", w, st)
				}
				runs[w-1] = readFormatGames(t, path)
			}
			if !reflect.DeepEqual(runs[0], runs[1]) {
				t.Fatalf("1 and 2 workers played different games: %d and %d games", len(runs[0]), len(runs[1]))
			}
			tour := mustNew(t, tc.o)
			if tc.o.Kind == results.Swiss {
				if want := tc.o.Rounds * (len(tc.o.Agents) / 2) * tc.o.GamesPerPair; len(runs[0]) != want {
					t.Fatalf("%d games, want %d", len(runs[0]), want)
				}
			} else if n := len(runs[0]); n < (len(tc.o.Agents)-1)*tc.o.GamesPerPair || n > tour.PlannedGames() {
				t.Fatalf("%d games in a knockout of %d matches", n, len(tc.o.Agents)-1)
			}
			// Every game is between the agents its format paired.
			fr, err := tour.formatResults(runs[0])
			if err != nil {
				t.Fatal(err)
			}
			if _, done, err := tour.Format().Plan(fr); err != nil || !done {
				t.Fatalf("the record's games are not the finished format: done %t, %v", done, err)
			}
			t.Logf("%d games\n%s", len(runs[0]), standingsText(t, tour, runs[0]))
		})
	}
}

// TestFormatResume: a run stopped midway and resumed from its record
// ends with the games and standings of an uninterrupted run.
func TestFormatResume(t *testing.T) {
	for _, tc := range formatCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			whole := filepath.Join(dir, "whole.jsonl")
			runFormatFile(t, tc.o, whole, 2, 0)
			want := readFormatGames(t, whole)

			cut := filepath.Join(dir, "cut.jsonl")
			st := runFormatFile(t, tc.o, cut, 2, 3)
			if st.Complete {
				t.Fatal("the stopped run says it is complete")
			}
			before := readFormatGames(t, cut)
			if len(before) < 3 || len(before) >= len(want) {
				t.Fatalf("stopped after %d of %d games; the test needs a run cut midway", len(before), len(want))
			}
			s, err := OpenSession(SessionOptions{Resume: cut, Concurrency: 2})
			if err != nil {
				t.Fatal(err)
			}
			st = runFormatSession(t, s, 0)
			s.Close()
			if !st.Complete || st.Skipped != len(before) {
				t.Fatalf("resumed run: %+v (skipped want %d)", st, len(before))
			}
			got := readFormatGames(t, cut)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("resumed record has %d games, the uninterrupted one %d, or they differ", len(got), len(want))
			}
			tour := mustNew(t, tc.o)
			if a, b := standingsText(t, tour, got), standingsText(t, tour, want); a != b {
				t.Fatalf("standings differ:\n%s\nwant\n%s", a, b)
			}
		})
	}
}

// TestFormatResumeRefusesForeignGames: a record whose game was played by
// other agents than the format planned is not resumed.
func TestFormatResumeRefusesForeignGames(t *testing.T) {
	o := formatCases[0].o
	path := filepath.Join(t.TempDir(), "run.jsonl")
	runFormatFile(t, o, path, 1, 2)
	f, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tour := mustNew(t, o)
	g := f.Games[0]
	g.Players[0], g.Players[1] = g.Players[1], g.Players[0]
	check := func(games []results.GameRecord) error { // as a resume reads them
		for i := range games {
			if err := tour.checkRecorded(path, &games[i]); err != nil {
				return err
			}
		}
		return tour.checkFormatDone(path, NewRecorded(tour, games))
	}
	if err := check([]results.GameRecord{g}); err == nil {
		t.Fatal("a game with its seats swapped was accepted")
	}
	if err := check(f.Games); err != nil {
		t.Fatalf("the record's own games: %v", err)
	}
}

// TestFormatOptions: the formats' options are checked with errors naming
// them.
func TestFormatOptions(t *testing.T) {
	base := formatCases[0].o
	for _, tc := range []struct {
		edit   func(*Options)
		option string
	}{
		{func(o *Options) { o.Rounds = 0 }, "Rounds"},
		{func(o *Options) { o.Rounds = 6 }, "Rounds"},
		{func(o *Options) { o.ExtraPairs = 1 }, "ExtraPairs"},
		{func(o *Options) { o.Shard = &results.Shard{Index: 1, Count: 2} }, "Shard"},
		{func(o *Options) { o.Kind = results.Knockout }, "Rounds"},
		{func(o *Options) { o.Kind = results.Knockout; o.Rounds = 0; o.Bye = ByeWin; o.ExtraPairs = -1 }, "ExtraPairs"},
		{func(o *Options) { o.Kind = results.Knockout; o.Rounds = 0 }, "Bye"},
		{func(o *Options) { o.Kind = results.RoundRobin }, "Rounds"},
	} {
		o := base
		tc.edit(&o)
		err := o.Check()
		var oe *option.Error
		if !errors.As(err, &oe) || oe.Name != tc.option {
			t.Errorf("%+v: got %v, want an error naming %s", o, err, tc.option)
		}
	}
	if _, err := ParseByeScore("half"); err == nil || !strings.Contains(err.Error(), "win, draw, loss") {
		t.Errorf("ParseByeScore(half): %v", err)
	}
}

// endsAfter is a format that ends with a NoPairingError once round
// `after` would start: the inner format's games until then.
type endsAfter struct {
	*Swiss
	after int
}

func (e endsAfter) Plan(finished []FormatResult) ([]FormatGame, bool, error) {
	games, done, err := e.Swiss.Plan(finished)
	if len(games) > 0 && games[0].Round >= e.after {
		return nil, false, &NoPairingError{Round: e.after}
	}
	return games, done, err
}

// TestFormatRunNoPairing: a round that cannot be paired ends the run as
// complete, with the rounds played, and says so in the log.
func TestFormatRunNoPairing(t *testing.T) {
	tour := mustNew(t, formatCases[0].o)
	tour.format = endsAfter{tour.format.(*Swiss), 2}
	var log bytes.Buffer
	var played int
	fr, st, err := tour.RunFormat(context.Background(), RunOptions{Concurrency: 2, Log: &log, Sink: func(b []*results.GameRecord) error {
		played += len(b)
		return nil
	}})
	if err != nil || !st.Complete {
		t.Fatalf("complete %t, %v", st.Complete, err)
	}
	if want := 2 * 2 * 2; played != want || len(fr) != want || st.Played != want {
		t.Fatalf("played %d games (%d results, stats %d), want the first two rounds' %d", played, len(fr), st.Played, want)
	}
	if !strings.Contains(log.String(), "round 3 cannot be paired without two agents meeting twice: the tournament ends after round 2") {
		t.Fatalf("log: %q", log.String())
	}
}

// TestFormatRunRefusesRemote: a format runs on the local workers only,
// and says so naming the option.
func TestFormatRunRefusesRemote(t *testing.T) {
	tour := mustNew(t, formatCases[1].o)
	_, _, err := tour.RunFormat(context.Background(), RunOptions{Runner: func(context.Context, *Tournament, RunOptions) (RunStats, error) {
		t.Fatal("the runner was called")
		return RunStats{}, nil
	}})
	var oe *option.Error
	if !errors.As(err, &oe) || oe.Name != "Remote" {
		t.Fatalf("got %v, want an error naming Remote", err)
	}
}
