package arena

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

// sessionOptions is a small gauntlet of the session tests: 2 pairings of 4
// games.
var sessionOptions = Options{Kind: results.Gauntlet, Game: "t-sum", Agents: []string{"random", "greedy", "t-max"}, GamesPerPair: 4, Seed: 3, Openings: "random:1"}

// playSession opens a session, runs it to the end and closes it.
func playSession(t *testing.T, o SessionOptions) *Session {
	t.Helper()
	s, err := OpenSession(o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := s.Run(context.Background(), RunOptions{ReuseGames: true})
	if err != nil || !st.Complete {
		t.Fatalf("run: %+v, %v", st, err)
	}
	return s
}

// TestSessionRecords: a new session creates its record, writes every game
// into it and keeps only their counts for the tables (so that its memory
// does not grow with the games): its ratings are those of the record; the
// caller's sink sees each batch after the record has it.
func TestSessionRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	s, err := OpenSession(SessionOptions{Options: sessionOptions, Out: path, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Path() != path || s.Done().Len() != 0 || s.Recorded() != 0 {
		t.Fatalf("path %q, %d done, %d recorded", s.Path(), s.Done().Len(), s.Recorded())
	}
	var mu sync.Mutex
	seen := 0
	st, err := s.Run(context.Background(), RunOptions{ReuseGames: true, Sink: func(b []*results.GameRecord) error {
		mu.Lock()
		defer mu.Unlock()
		seen += len(b)
		if n := countGameLines(path); n < seen {
			return fmt.Errorf("the sink saw %d games, the record has %d", seen, n)
		}
		return nil
	}})
	if err != nil || !st.Complete || st.Played != 8 || seen != 8 {
		t.Fatalf("run: %+v, %v; the sink saw %d games", st, err, seen)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Header.Concurrency != 2 || len(f.Games) != 8 {
		t.Fatalf("record: concurrency %d, %d games", f.Header.Concurrency, len(f.Games))
	}
	if h := s.Header(); fmt.Sprint(h) != fmt.Sprint(f.Header) {
		t.Errorf("the session's header %+v\nis not the record's %+v", h, f.Header)
	}
	if kept := s.Games(); len(kept) != 0 || s.Recorded() != 8 {
		t.Fatalf("kept %d games, recorded %d", len(kept), s.Recorded())
	}
	d, err := results.Merge(f)
	if err != nil {
		t.Fatal(err)
	}
	o := results.AnalysisOptions{Bootstrap: 20, Seed: 1}
	want, err := results.Analyse(d, o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Analyse(o)
	if err != nil {
		t.Fatal(err)
	}
	var w, g strings.Builder
	want.Write(&w, "json")
	got.Write(&g, "json")
	if w.String() != g.String() {
		t.Errorf("the session's ratings\n%s\nare not the record's\n%s", g.String(), w.String())
	}
}

// TestSessionKeepsMoves: KeepMoves games keep their moves (copies: the
// batch is reused), the later ones only their times per move with
// KeepTimes, and without it are not kept.
func TestSessionKeepsMoves(t *testing.T) {
	o := sessionOptions
	o.TimeControl = agents.TimeControl{Base: time.Minute} // games on clocks record times per move
	s := playSession(t, SessionOptions{Options: o, Concurrency: 1, KeepMoves: 5, KeepTimes: true})
	kept := s.Games()
	if len(kept) != 8 {
		t.Fatalf("kept %d games", len(kept))
	}
	for i, g := range kept {
		if err := g.Check(); i < 5 && err != nil {
			t.Errorf("game %d (kept whole): %v", g.Index, err)
		}
		if moves := len(g.Moves) > 0; moves != (i < 5) {
			t.Errorf("kept game %d of %d has moves: %t", i, len(kept), moves)
		}
		if len(g.MoveStats) == 0 || (len(g.Clocks) > 0) != (i < 5) {
			t.Errorf("kept game %d has %d times per move, %d clock entries", i, len(g.MoveStats), len(g.Clocks))
		}
	}
	// Negative keeps every game whole.
	s = playSession(t, SessionOptions{Options: o, Concurrency: 2, KeepMoves: -1})
	for _, g := range s.Games() {
		if err := g.Check(); err != nil || len(g.Clocks) == 0 {
			t.Errorf("game %d (kept whole, %d clock entries): %v", g.Index, len(g.Clocks), err)
		}
	}
	// Without KeepTimes, the later games are not kept: only counted.
	s = playSession(t, SessionOptions{Options: o, Concurrency: 1, KeepMoves: 1})
	if kept := s.Games(); len(kept) != 1 || s.Recorded() != 8 {
		t.Errorf("kept %d games of %d recorded, want 1 of 8", len(kept), s.Recorded())
	} else if len(kept[0].Moves) == 0 {
		t.Error("the first game was kept without its moves")
	}
}

func TestPlotStatsDropsInfo(t *testing.T) {
	in := []results.MoveStat{{Player: 0, MS: 1.5, Depth: 3, Nodes: 40, Info: "pv a1 b2"}, {Player: 1, MS: 2}}
	out := plotStats(in)
	if len(out) != 2 || out[0].Info != "" || out[0].Depth != 3 || out[0].Nodes != 40 || out[1].MS != 2 || in[0].Info != "pv a1 b2" {
		t.Errorf("plotStats(%v) = %v", in, out)
	}
	if plotStats(nil) != nil {
		t.Error("plotStats(nil) is not nil")
	}
}

// cutRecord plays sessionOptions into a record and cuts it after the
// header and two games, with half a third line, as a killed run leaves
// it. It returns the cut file, its bytes and the whole run's games.
func cutRecord(t *testing.T) (path string, data []byte, whole []results.GameRecord) {
	t.Helper()
	dir := t.TempDir()
	full := filepath.Join(dir, "full.jsonl")
	playSession(t, SessionOptions{Options: sessionOptions, Out: full, Concurrency: 2})
	f, err := results.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := os.ReadFile(full)
	lines := strings.SplitAfter(string(all), "\n")
	data = []byte(lines[0] + lines[1] + lines[2] + lines[3][:20])
	path = filepath.Join(dir, "cut.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, data, f.Games
}

// TestSessionResume: a resumed session plays the games left, from the
// header alone or with options that agree, cutting the torn last line,
// and ends with the uninterrupted run's games.
func TestSessionResume(t *testing.T) {
	for _, edit := range []func(*Options){nil, func(o *Options) { o.Seed, o.GamesPerPair = 3, 4 }} {
		path, _, whole := cutRecord(t)
		s, err := OpenSession(SessionOptions{Resume: path, Out: path, Edit: edit, Concurrency: 1})
		if err != nil {
			t.Fatal(err)
		}
		if s.Done().Len() != 2 || s.Recorded() != 2 || s.Header().Concurrency != 2 {
			t.Fatalf("%d games done, %d recorded, header %+v", s.Done().Len(), s.Recorded(), s.Header())
		}
		var log bytes.Buffer
		st, err := s.Run(context.Background(), RunOptions{Log: &log})
		s.Close()
		if err != nil || !st.Complete || st.Played != 6 || st.Skipped != 2 {
			t.Fatalf("resumed run: %+v, %v", st, err)
		}
		if !strings.Contains(log.String(), "cut.jsonl: cut off a torn last line") {
			t.Errorf("log: %q", log.String())
		}
		f, err := results.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(f.Games, func(a, b results.GameRecord) int { return a.Index - b.Index })
		slices.SortFunc(whole, func(a, b results.GameRecord) int { return a.Index - b.Index })
		if a, b := fmt.Sprint(comparable(f.Games)), fmt.Sprint(comparable(whole)); a != b || len(f.Resumes) != 1 || s.Recorded() != 8 {
			t.Errorf("the resumed run differs from the uninterrupted one (%d resume notes, %d kept):\n%s\n%s", len(f.Resumes), s.Recorded(), a, b)
		}
	}
}

// TestSessionResumeRefused: a resume that cannot go on is refused before
// the record is written to, with what differs; the file is left as it
// was, torn last line included.
func TestSessionResumeRefused(t *testing.T) {
	path, data, _ := cutRecord(t)
	edited := filepath.Join(t.TempDir(), "edited.jsonl")
	header, _, _ := strings.Cut(string(data), "\n")
	os.WriteFile(edited, []byte(strings.Replace(header, `"games_per_pair":4`, `"games_per_pair":100000000000`, 1)+"\n"), 0o644)
	refuse := errors.New("the caller's check")
	for _, c := range []struct {
		name  string
		o     SessionOptions
		field string // of the *option.Error, "" for another error
		want  []string
	}{
		{"other options", SessionOptions{Resume: path, Edit: func(o *Options) { o.GamesPerPair, o.Seed = 8, 4 }},
			"Resume", []string{"Resume " + path + ": the configuration differs", "games: 4 (file) ≠ 8 (now)", "seed: 3 (file) ≠ 4 (now)"}},
		{"another file to write", SessionOptions{Resume: path, Out: path + ".new"}, "Resume", []string{"Resume continues its own file; leave out Out"}},
		{"edited header", SessionOptions{Resume: edited}, "", []string{"edited.jsonl: header: games_per_pair is 100000000000"}},
		{"edited header, with options", SessionOptions{Resume: edited, Edit: func(o *Options) { o.Seed = 3 }}, "", []string{"edited.jsonl: header: games_per_pair is 100000000000"}},
		{"the caller's check", SessionOptions{Resume: path, Check: func(*Tournament) error { return refuse }}, "", []string{refuse.Error()}},
		{"concurrency", SessionOptions{Resume: path}, "Concurrency", []string{"Concurrency 0 is out of range"}},
	} {
		o := c.o
		if c.name != "concurrency" {
			o.Concurrency = 1
		}
		s, err := OpenSession(o)
		if err == nil {
			s.Close()
			t.Errorf("%s: resumed", c.name)
			continue
		}
		var oe *option.Error
		if c.field != "" && (!errors.As(err, &oe) || oe.Name != c.field) {
			t.Errorf("%s: %v is not an option error for %s", c.name, err, c.field)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", c.name, err, w)
			}
		}
		if now, _ := os.ReadFile(path); !bytes.Equal(now, data) {
			t.Fatalf("%s: the refused resume changed the file", c.name)
		}
	}
}

// TestSessionAbandon: a session that cannot start removes the record it
// created (with nothing in it), never one with games, never a resumed one.
func TestSessionAbandon(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.jsonl")
	s, err := OpenSession(SessionOptions{Options: sessionOptions, Out: path, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	s.Abandon()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the abandoned record is still there: %v", err)
	}
	// The same run can then be created again, played a little and abandoned.
	s, err = OpenSession(SessionOptions{Options: sessionOptions, Out: path, Concurrency: 1})
	if err != nil {
		t.Fatalf("the abandoned run's file refuses it: %v", err)
	}
	stop := make(chan struct{})
	if _, err := s.Run(context.Background(), RunOptions{Stop: stop, Sink: func([]*results.GameRecord) error {
		closeOnce(stop)
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	s.Abandon()
	if n := countGameLines(path); n == 0 {
		t.Errorf("abandoning a run with games removed them")
	}
	resumed, _, _ := cutRecord(t)
	before, _ := os.ReadFile(resumed)
	s, err = OpenSession(SessionOptions{Resume: resumed, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	s.Abandon()
	if after, _ := os.ReadFile(resumed); !bytes.Equal(before, after) {
		t.Error("abandoning a resumed session changed its record")
	}
}

func closeOnce(c chan struct{}) {
	select {
	case <-c:
	default:
		close(c)
	}
}

// TestSessionConnect: what plays the run is opened with the record's path
// and a context that the first stop ends; if it cannot open, the session
// is abandoned; else a resumed record is started.
func TestSessionConnect(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	s, err := OpenSession(SessionOptions{Options: sessionOptions, Out: path, Remote: true})
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	failed := errors.New("no broker")
	_, _, err = s.Connect(context.Background(), stop, nil, func(ctx context.Context, p string) (Runner, func(), error) {
		if p != path {
			t.Errorf("open was given %q", p)
		}
		close(stop) // a Ctrl-C while waiting for the broker
		<-ctx.Done()
		return nil, nil, failed
	})
	if err != failed {
		t.Errorf("Connect: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a run whose broker did not open left its record: %v", err)
	}

	cut, _, _ := cutRecord(t)
	s, err = OpenSession(SessionOptions{Resume: cut, Remote: true})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	closed := false
	runner, closer, err := s.Connect(context.Background(), nil, &log, func(context.Context, string) (Runner, func(), error) {
		return func(ctx context.Context, t *Tournament, opts RunOptions) (RunStats, error) {
			return t.Run(ctx, RunOptions{Concurrency: 2, Done: opts.Done, Sink: opts.Sink})
		}, func() { closed = true }, nil
	})
	if err != nil || !strings.Contains(log.String(), "torn last line") {
		t.Fatalf("Connect: %v; log %q", err, log.String())
	}
	st, err := s.Run(context.Background(), RunOptions{Runner: runner})
	closer()
	s.Close()
	if err != nil || !st.Complete || countGameLines(cut) != 8 || !closed {
		t.Errorf("run through the runner: %+v, %v, %d games recorded, closed %t", st, err, countGameLines(cut), closed)
	}
}

// TestSessionMatch: a match runs through its session to its SPRT's
// decision, and a resumed match counts the games recorded first.
func TestSessionMatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.jsonl")
	o := Options{Kind: results.Match, Game: "t-sum", Agents: []string{"t-max", "random"}, GamesPerPair: 200, Seed: 2,
		SPRT: &results.SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05}}
	s, err := OpenSession(SessionOptions{Options: o, Out: path, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	tr, st, err := s.RunMatch(context.Background(), RunOptions{ReuseGames: true}, nil)
	s.Close()
	if err != nil || tr.Decision == results.Continue || st.Played != s.Recorded() || s.Recorded() != countGameLines(path) {
		t.Fatalf("match: %v, %+v, %v; %d kept, %d recorded", tr.Decision, st, err, s.Recorded(), countGameLines(path))
	}
	s, err = OpenSession(SessionOptions{Resume: path, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	again, st, err := s.RunMatch(context.Background(), RunOptions{}, nil)
	s.Close()
	if err != nil || st.Played != 0 || again.Decision != tr.Decision || again.Penta != tr.Penta {
		t.Errorf("resumed decided match: %v %v, %+v, %v", again.Decision, again.Penta, st, err)
	}
}

// TestSessionMatchResumedMidway: a match resumed from half its record,
// whose pairs the session counts as it reads the record, decides as the
// uninterrupted match did, on the same games (one worker).
func TestSessionMatchResumedMidway(t *testing.T) {
	dir := t.TempDir()
	o := Options{Kind: results.Match, Game: "t-sum", Agents: []string{"t-max", "random"}, GamesPerPair: 200, Seed: 2,
		SPRT: &results.SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05}}
	run := func(so SessionOptions) (*results.PairTracker, RunStats) {
		s, err := OpenSession(so)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		tr, st, err := s.RunMatch(context.Background(), RunOptions{ReuseGames: true}, nil)
		if err != nil || tr.Decision == results.Continue {
			t.Fatalf("match: %v, %+v, %v", tr.Decision, st, err)
		}
		return tr, st
	}
	full := filepath.Join(dir, "full.jsonl")
	want, _ := run(SessionOptions{Options: o, Out: full, Concurrency: 1})
	data, _ := os.ReadFile(full)
	lines := strings.SplitAfter(string(data), "\n")
	cut := filepath.Join(dir, "cut.jsonl")
	half := len(lines) / 2 &^ 1 // whole pairs
	os.WriteFile(cut, []byte(strings.Join(lines[:1+half], "")), 0o644)
	got, st := run(SessionOptions{Resume: cut, Concurrency: 1})
	if st.Skipped != half || st.Played == 0 || got.Decision != want.Decision || got.Penta != want.Penta || got.LLR != want.LLR {
		t.Errorf("resumed after %d games: %v %v (%+v), want %v %v", half, got.Decision, got.Penta, st, want.Decision, want.Penta)
	}
	// Games that end while the test decides are recorded but not
	// counted (fast agents' games are delivered in batches): the two
	// records need not end at the same game, but share their games.
	a, b := readGames(t, full), readGames(t, cut)
	for i := range min(len(a), len(b)) {
		if d := sameGame(&a[i], &b[i]); d != "" {
			t.Errorf("game %d: %s", a[i].Index, d)
		}
	}
}

// readGames are the games of the record at path, by index.
func readGames(t *testing.T, path string) []results.GameRecord {
	t.Helper()
	f, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(f.Games, func(a, b results.GameRecord) int { return a.Index - b.Index })
	return f.Games
}

// TestSessionChecksPrograms: an agent whose program cannot start here is
// refused before any record is made, unless this process plays no game.
func TestSessionChecksPrograms(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	o := sessionOptions
	o.Agents = []string{"random", "ugi:cmd=/nonexistent/engine"}
	_, err := OpenSession(SessionOptions{Options: o, Out: path, Concurrency: 1})
	if err == nil || !strings.Contains(err.Error(), "ugi:cmd=") || !strings.Contains(err.Error(), "(the run plays no game with it)") {
		t.Errorf("error %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused run left its record: %v", err)
	}
	s, err := OpenSession(SessionOptions{Options: o, Out: path, Remote: true})
	if err != nil {
		t.Fatalf("a coordinator that plays no game: %v", err)
	}
	s.Abandon()
}

// TestInterrupts: the first signal is a soft stop, the second a hard one,
// each said on the log; release ends the watch.
func TestInterrupts(t *testing.T) {
	sig := make(chan os.Signal, 2)
	// Each message is written before its stop: reading the log after the
	// stop races with nothing.
	var log bytes.Buffer
	ctx, stop, release := Interrupts(context.Background(), sig, &log)
	defer release()
	sig <- syscall.SIGINT
	<-stop
	if ctx.Err() != nil || !strings.Contains(log.String(), "the running ones will finish and be recorded") {
		t.Fatalf("after one signal: ctx %v, log %q", ctx.Err(), log.String())
	}
	sig <- syscall.SIGTERM
	<-ctx.Done()
	if !strings.Contains(log.String(), "stopping now") {
		t.Errorf("after two signals: log %q", log.String())
	}
	ctx, stop, release = Interrupts(context.Background(), make(chan os.Signal), nil)
	release()
	release()
	select {
	case <-stop:
		t.Error("release stopped softly")
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Error("release did not end ctx")
	}
}

// TestUntilStop: the context ends, "interrupted", when stop is closed, and
// with its parent; cancel ends it without a cause of its own.
func TestUntilStop(t *testing.T) {
	stop := make(chan struct{})
	ctx, cancel := UntilStop(context.Background(), stop)
	defer cancel()
	close(stop)
	<-ctx.Done()
	if err := context.Cause(ctx); err == nil || err.Error() != "interrupted" {
		t.Errorf("after stop: cause %v", err)
	}
	parent, cancelParent := context.WithCancel(context.Background())
	ctx, cancel = UntilStop(parent, nil)
	defer cancel()
	cancelParent()
	<-ctx.Done()
	if err := context.Cause(ctx); err != context.Canceled {
		t.Errorf("after the parent: cause %v", err)
	}
	ctx, cancel = UntilStop(context.Background(), make(chan struct{}))
	cancel()
	<-ctx.Done()
	if err := context.Cause(ctx); err != context.Canceled {
		t.Errorf("after cancel: cause %v", err)
	}
}

// TestInterruptedSession: a soft stop lets the running games finish and
// be recorded, and the session resumes to the planned games; a hard stop
// drops the games in progress and leaves a readable record.
func TestInterruptedSession(t *testing.T) {
	for _, hard := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "run.jsonl")
		o := sessionOptions
		o.Agents = []string{"t-slow:sleep=2ms", "random", "greedy"}
		s, err := OpenSession(SessionOptions{Options: o, Out: path, Concurrency: 2})
		if err != nil {
			t.Fatal(err)
		}
		sig := make(chan os.Signal, 2)
		ctx, stop, release := Interrupts(context.Background(), sig, nil)
		st, err := s.Run(ctx, RunOptions{Stop: stop, Sink: func(b []*results.GameRecord) error {
			if len(sig) == 0 {
				sig <- syscall.SIGINT
				if hard {
					sig <- syscall.SIGINT
				}
			}
			return nil
		}})
		release()
		s.Close()
		if err != nil || st.Complete || st.Played == 0 || st.Played != countGameLines(path) {
			t.Fatalf("hard %t: %+v, %v; %d games in the record", hard, st, err, countGameLines(path))
		}
		if hard {
			if _, err := results.ReadFile(path); err != nil {
				t.Error(err)
			}
			continue
		}
		s = playSession(t, SessionOptions{Resume: path, Concurrency: 2})
		if n := countGameLines(path); n != 8 || s.Recorded() != 8 {
			t.Errorf("after the resume: %d games recorded, %d kept", n, s.Recorded())
		}
	}
}

// TestSessionOutExists: an Out that exists is refused in the session's
// options' names (how to continue it), is errors.Is fs.ErrExist, and is
// left as it was.
func TestSessionOutExists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte("ours\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := OpenSession(SessionOptions{Options: sessionOptions, Out: path, Concurrency: 1})
	if want := "Out " + path + " already exists: continue it with Resume " + path + ", or choose another file"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("%v is not fs.ErrExist", err)
	}
	flag := func(name string) string { return "--" + strings.ToLower(name) }
	if got, want := option.Render(err, flag), "--out "+path+" already exists: continue it with --resume "+path+", or choose another file"; got != want {
		t.Errorf("rendered %q, want %q", got, want)
	}
	if b, _ := os.ReadFile(path); string(b) != "ours\n" {
		t.Errorf("the file became %q", b)
	}
}

// TestResumeReadsLean: a resumed session keeps the moves of only the
// games it keeps whole (KeepMoves); the others' results stay, for the
// schedule and the tables, so that resuming a long run does not hold
// every move it played.
func TestResumeReadsLean(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	s := playSession(t, SessionOptions{Options: sessionOptions, Out: path, Concurrency: 1})
	want, err := s.Analyse(results.AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := OpenSession(SessionOptions{Resume: path, Concurrency: 1, KeepMoves: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Done().Len() != 8 || r.Recorded() != 8 {
		t.Fatalf("resumed %d games, %d recorded, want 8", r.Done().Len(), r.Recorded())
	}
	for i, g := range r.Games() {
		if whole := len(g.Moves) > 0; whole != (i < 2) {
			t.Errorf("resumed game %d (of the file's) has its moves: %t", i, whole)
		}
	}
	got, err := r.Analyse(results.AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var w, g strings.Builder
	want.Write(&w, "json")
	got.Write(&g, "json")
	if w.String() != g.String() {
		t.Errorf("the resumed session's ratings\n%s\nare not the run's\n%s", g.String(), w.String())
	}
}

// BenchmarkSessionHeap plays a run of n games of random agents through a
// Session without a record file and reports the largest live heap seen
// (sampled after a collection at every tenth of the run) beyond the
// schedule's: what the run keeps of its games, which must not grow with n
// (the finished games waiting for the sink are bounded: maxPending).
func BenchmarkSessionHeap(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for range b.N {
				o := Options{Kind: results.RoundRobin, Game: "t-sum", Agents: []string{"random", "random:name=r2"}, GamesPerPair: n, Seed: 1}
				var before runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				s, err := OpenSession(SessionOptions{Options: o, Concurrency: 2})
				if err != nil {
					b.Fatal(err)
				}
				var ms runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&ms)
				schedule := ms.HeapAlloc - before.HeapAlloc
				peak, next := uint64(0), 0
				st, err := s.Run(context.Background(), RunOptions{ReuseGames: true, Sink: func([]*results.GameRecord) error {
					if k := s.Recorded(); k >= next {
						next = k + n/10
						runtime.GC()
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapAlloc-before.HeapAlloc-schedule)
					}
					return nil
				}})
				if err != nil || !st.Complete {
					b.Fatal(st, err)
				}
				b.ReportMetric(float64(peak), "peak-heap-B")
				b.ReportMetric(float64(schedule)/float64(n), "schedule-B/game")
			}
		})
	}
}

// The live heap of a run does not grow with its games: after 2 000 and
// after 40 000 games of a tiny game, what the session, its tournament and
// its schedule hold differs by less than 1 MB (a per-game schedule or set
// of records would add 80 bytes or more a game, 3 MB here).
func TestRunHeapFlat(t *testing.T) {
	live := func(n int) uint64 {
		o := Options{Kind: results.RoundRobin, Game: "t-sum", Agents: []string{"random", "random:name=r2", "random:name=r3"}, GamesPerPair: n / 3 &^ 1, Seed: 1}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s, err := OpenSession(SessionOptions{Options: o, Concurrency: 2})
		if err != nil {
			t.Fatal(err)
		}
		st, err := s.Run(t.Context(), RunOptions{ReuseGames: true})
		if err != nil || !st.Complete || st.Played < n-6 {
			t.Fatalf("%d games: %+v, %v", n, st, err)
		}
		runtime.GC()
		runtime.GC() // and the pools' victims (recycled games)
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(s)
		return after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
	}
	small, big := live(2_000), live(40_000)
	t.Logf("live heap after the run: %d B for 2 000 games, %d B for 40 000", small, big)
	if big > small+1<<20 {
		t.Errorf("a run of 40 000 games keeps %d B, one of 2 000 %d B: %d B more, %.1f B a game", big, small, big-small, float64(big-small)/38_000)
	}
}

// A resume's live heap does not grow with the games already recorded:
// resuming a record of 2 000 and one of 40 000 games (of a tiny game, 60
// left to play in each), what the session holds after the run differs by
// less than 1 MB, for a round robin and for a match (whose pairs are
// counted as the record is read). Holding the recorded games, as a resume
// did, kept 630 B a game of this tiny game (24 MB more for 40 000).
func TestResumeHeapFlat(t *testing.T) {
	const left = 60
	for _, kind := range []string{results.RoundRobin, results.Match} {
		t.Run(kind, func(t *testing.T) {
			live := func(n int) uint64 {
				o := Options{Kind: kind, Game: "t-sum", Agents: []string{"random", "random:name=r2", "random:name=r3"}, GamesPerPair: (n + left) / 3 &^ 1, Seed: 1}
				if kind == results.Match {
					o.Agents, o.GamesPerPair = o.Agents[:2], (n+left)&^1
				}
				path := filepath.Join(t.TempDir(), "run.jsonl")
				s, err := OpenSession(SessionOptions{Options: o, Out: path, Concurrency: 1})
				if err != nil {
					t.Fatal(err)
				}
				stop := make(chan struct{})
				var once sync.Once
				_, err = s.Run(t.Context(), RunOptions{ReuseGames: true, Stop: stop, Sink: func([]*results.GameRecord) error {
					if s.Recorded() >= n {
						once.Do(func() { close(stop) })
					}
					return nil
				}})
				s.Close()
				n = s.Recorded() // a batch or two more
				if err != nil || n+left/2 > int(o.GamesPerPair)*(len(o.Agents)*(len(o.Agents)-1)/2) {
					t.Fatalf("recording %d games: %v", n, err)
				}
				var before, after runtime.MemStats
				runtime.GC()
				runtime.GC() // the first run's recycled games
				runtime.ReadMemStats(&before)
				r, err := OpenSession(SessionOptions{Resume: path, Concurrency: 2})
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				st, err := r.Run(t.Context(), RunOptions{ReuseGames: true})
				if err != nil || !st.Complete || st.Skipped != n || st.Played == 0 {
					t.Fatalf("resuming %d games: %+v, %v", n, st, err)
				}
				runtime.GC()
				runtime.GC() // and the pools' victims (recycled games)
				runtime.ReadMemStats(&after)
				runtime.KeepAlive(r)
				return after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
			}
			small, big := live(2_000), live(40_000)
			t.Logf("live heap after a resume: %d B for 2 000 games recorded, %d B for 40 000", small, big)
			if big > small+1<<20 {
				t.Errorf("resuming 40 000 games keeps %d B, resuming 2 000 %d B: %d B more, %.1f B a game", big, small, big-small, float64(big-small)/38_000)
			}
		})
	}
}
