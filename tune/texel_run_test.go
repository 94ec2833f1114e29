package tune

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

func TestTexelSpec(t *testing.T) {
	defs := []struct {
		base  string
		tuned []int
		want  string
	}{
		{"alphabeta:depth=4", []int{110, 90}, "alphabeta:depth=4"},
		{"alphabeta:depth=4", []int{120, 90}, "alphabeta:depth=4,eval.a=120"},
		{"alphabeta:eval.b=3,depth=4", []int{110, 90}, "alphabeta:eval.b=90,depth=4"},
		{"greedy:name=x,eval.b=3", []int{1, 2}, "greedy:name=x-texel,eval.b=2,eval.a=1"},
	}
	ws := []games.Weight{{Name: "a", Default: 110, Min: 0, Max: 500}, {Name: "b", Default: 90, Min: -100, Max: 100}}
	for _, c := range defs {
		base, start, err := texelStart(c.base, ws)
		if err != nil {
			t.Fatal(err)
		}
		if got := texelSpec(base, ws, c.tuned); got != c.want {
			t.Errorf("texelSpec(%s, %v) = %s, want %s (start %v)", c.base, c.tuned, got, c.want, start)
		}
	}
	_, start, _ := texelStart("greedy:eval.b=3", ws)
	if start[0] != 110 || start[1] != 3 {
		t.Errorf("start weights %v, want [110 3]", start)
	}
}

// texelOptions are options that pass Check: a fit of othello6's weights
// to the records, with the command line's defaults.
func texelOptions(records ...string) TexelOptions {
	return TexelOptions{Game: "othello6", Agent: "alphabeta:depth=4", Seed: 1, Records: records, SkipPlies: -1,
		Positions: DefaultPositions, Evaluations: DefaultEvaluations, VerifyGames: DefaultVerifyGames, Verify: true}
}

// TestTexelOptionsCheck: every refused option is named, and shown as the
// command line's flags gives the message arena tune texel printed.
func TestTexelOptionsCheck(t *testing.T) {
	if err := texelOptions("a.jsonl").Check(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		edit func(*TexelOptions)
		name string // the option named first
		want string // the message with flags
	}{
		{func(o *TexelOptions) { o.Records = nil }, "Records", "no training games: give --records FILE… (record files of the game), or --self-play N to play N games of --agent first"},
		{func(o *TexelOptions) { o.SelfPlay = 10 }, "Records", "--records and --self-play (with --out, --resume) are two sources of games: give one"},
		{func(o *TexelOptions) { o.Out = "x" }, "Records", "two sources of games"},
		{func(o *TexelOptions) { o.Records, o.SelfPlay = nil, 3 }, "SelfPlay", "--self-play 3: use an even number of games from 2 to 1000000 (they come in colour-swapped pairs)"},
		{func(o *TexelOptions) { o.Records, o.SelfPlay, o.Out, o.Resume = nil, 10, "a", "b" }, "Resume", "--resume continues its own file; leave out --out"},
		{func(o *TexelOptions) { o.SkipPlies = -2 }, "SkipPlies", "--skip-plies -2: use 0 to 1000, or -1 for the game's opening plies"},
		{func(o *TexelOptions) { o.Positions = 0 }, "Positions", "--positions 0: use 1 to 500000 (each position is a game state in memory)"},
		{func(o *TexelOptions) { o.Evaluations = MaxEvaluations + 1 }, "Evaluations", "--evaluations 1000001: use 1 to 1000000"},
		{func(o *TexelOptions) { o.K = math.NaN() }, "K", "--k NaN: use 0.0001 to 10000, or 0 to fit K"},
		{func(o *TexelOptions) { o.VerifyGames = 3 }, "VerifyGames", "--verify-games 3: use an even number from 2 to 1000000"},
		{func(o *TexelOptions) { o.Verify, o.VerifyOut = false, "v.jsonl" }, "VerifyOut", "--verify-out records the verification match: leave it out with --verify=false"},
		{func(o *TexelOptions) { o.Agent = "greedy:eval.nosuch=3" }, "Agent", `--agent greedy:eval.nosuch=3: the game has no weight "nosuch" (its weights: corner_open`},
		{func(o *TexelOptions) { o.Agent = "greedy:eval.corner_open=9999" }, "Agent", "--agent: "},
		{func(o *TexelOptions) { o.Agent = "random" }, "Agent", "--agent random: random takes no eval.NAME keys, so its weights cannot be tuned (agents that take them: alphabeta, greedy, mcts)"},
		{func(o *TexelOptions) { o.Game = "tryangle" }, "", "tryangle is a simultaneous-move game"},
		{func(o *TexelOptions) { o.Game = "texeltest-unweighted" }, "", "texeltest-unweighted's evaluation has no named weights to tune"},
	} {
		o := texelOptions("a.jsonl")
		tc.edit(&o)
		err := o.Check()
		var oe *option.Error
		switch {
		case err == nil:
			t.Errorf("%s: accepted", tc.want)
		case tc.name != "" && (!errors.As(err, &oe) || oe.Name != tc.name):
			t.Errorf("%v: names %v, want %s", err, oe, tc.name)
		case !strings.Contains(option.Render(err, flag), tc.want):
			t.Errorf("%q, want it to hold %q", option.Render(err, flag), tc.want)
		}
	}
}

// writeRecords writes games to a new record file of a tournament of
// theirs and returns its path.
func writeRecords(t *testing.T, o arena.Options, recs []results.GameRecord) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.jsonl")
	s, err := arena.OpenSession(arena.SessionOptions{Options: o, Out: path, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		if err := s.Record([]*results.GameRecord{&recs[i]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// A small fit from a record file: the error falls, the tuned spec is the
// agent with eval keys, the report comes before the verification match,
// and the match is played and recorded.
func TestRunTexelRecords(t *testing.T) {
	recs := writeRecords(t, arena.Options{Game: "othello6", Agents: []string{"greedy", "random"}, GamesPerPair: 40, Seed: 9}, othelloRecords(t))
	verify := filepath.Join(t.TempDir(), "verify.jsonl")
	o := texelOptions(recs)
	o.Agent, o.Evaluations, o.VerifyGames, o.VerifyOut = "greedy:name=g", 200, 20, verify
	o.Run.Concurrency = 2
	var progress bytes.Buffer
	o.Progress = &progress
	fitted := false
	o.OnFit = func(r *TexelReport) {
		fitted = true
		if r.Verify != nil || r.TunedSpec == "" {
			t.Errorf("OnFit: verification %v, tuned %q; want the fit alone", r.Verify, r.TunedSpec)
		}
	}
	r, err := RunTexel(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !fitted || !strings.Contains(progress.String(), " positions (") || !strings.Contains(progress.String(), "evaluations, best MSE") {
		t.Errorf("OnFit called %v; progress:\n%s", fitted, progress.String())
	}
	if r.Games != 36 || r.HeldOutGames != 4 || r.SkippedGames != 0 || r.SkipPlies != 2 || r.Positions+r.HeldOutPositions != r.Eligible {
		t.Errorf("games %d+%d (skipped %d), skip %d, positions %d+%d of %d: want 36+4, 0, 2, all",
			r.Games, r.HeldOutGames, r.SkippedGames, r.SkipPlies, r.Positions, r.HeldOutPositions, r.Eligible)
	}
	if !(r.MSE < r.MSEStart) || r.K <= 0 || r.HeldOutMSE == nil || r.Evaluations < 200 {
		t.Errorf("K %g, MSE %g → %g, held out %v, %d evaluations", r.K, r.MSEStart, r.MSE, r.HeldOutMSE, r.Evaluations)
	}
	if r.StartSpec != "greedy:name=g" || !strings.HasPrefix(r.TunedSpec, "greedy:name=g-texel,eval.") {
		t.Errorf("specs %q and %q", r.StartSpec, r.TunedSpec)
	}
	if len(r.Weights) == 0 || r.Weights[0].Name != "corner_open" || r.Weights[0].Start != r.Weights[0].Default {
		t.Errorf("weights %+v", r.Weights)
	}
	if r.Verify == nil || r.Verify.Games() == 0 || r.Verify.Games() > 20 || r.Verify.Tuned != r.TunedSpec {
		t.Fatalf("verification %+v", r.Verify)
	}
	file, err := results.ReadFile(verify)
	if err != nil {
		t.Fatal(err)
	}
	if len(file.Games) < r.Verify.Games() || file.Header.Config.Agents[0].Spec != r.TunedSpec || file.Header.Config.SPRT == nil {
		t.Errorf("verification record: %d games (counted %d), agents %v", len(file.Games), r.Verify.Games(), file.Header.Config.Agents)
	}
	// A verification record that exists is refused before any game.
	if _, err := RunTexel(context.Background(), o); err == nil || !strings.Contains(err.Error(), "exist") {
		t.Errorf("a verification record that exists: %v", err)
	}
}

// withoutTimes is a report without what differs from run to run.
func withoutTimes(r *TexelReport) TexelReport {
	c := *r
	c.Seconds, c.BytesPerPosition = 0, 0
	return c
}

// Self-play keeps its games; a run resumed from the finished file, from a
// file cut short by a kill (a torn line), or fitted from the file as
// records, fits the same positions to the same weights.
func TestTexelSelfPlayResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "self.jsonl")
	o := texelOptions()
	o.Agent, o.SelfPlay, o.Out, o.Evaluations, o.Verify = "greedy", 30, path, 30, false
	o.Run.Concurrency = 2
	calls, last := 0, 0
	o.OnGames = func(played, total int) {
		if calls++; calls == 1 && (played != 0 || total != 30) || played < last {
			t.Errorf("OnGames(%d, %d) after %d", played, total, last)
		}
		last = played
	}
	first, err := RunTexel(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if last != 30 {
		t.Errorf("OnGames heard of %d games, want 30", last)
	}
	file, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if c := file.Header.Config; len(file.Games) != 30 || c.Agents[0].Spec != "greedy" || c.Openings != DefaultTexelOpenings || c.Seed != 1 {
		t.Errorf("self-play record: %d games, agents %v, openings %s, seed %d", len(file.Games), c.Agents, c.Openings, c.Seed)
	}
	resumed := func(path string) TexelReport {
		t.Helper()
		sp, err := ReadSelfPlay(path)
		if err != nil {
			t.Fatal(err)
		}
		r := o
		r.Out, r.Resume, r.OnGames = "", path, nil
		r.Game, r.Agent, r.Seed, r.SelfPlay, r.Openings = sp.Game, sp.Agent, sp.Seed, sp.Games, sp.Openings
		rep, err := RunTexel(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		return withoutTimes(rep)
	}
	want := withoutTimes(first)
	if got := resumed(path); !reflect.DeepEqual(got, want) {
		t.Errorf("resumed run differs:\n%+v\nfirst:\n%+v", got, want)
	}
	// As if killed after 10 games, in the middle of writing the 11th.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	killed := filepath.Join(t.TempDir(), "killed.jsonl")
	if err := os.WriteFile(killed, []byte(strings.Join(lines[:11], "")+lines[11][:len(lines[11])/2]), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := resumed(killed); !reflect.DeepEqual(got, want) {
		t.Errorf("run resumed after a kill differs:\n%+v\nuninterrupted:\n%+v", got, want)
	}
	if file, err := results.ReadFile(killed); err != nil {
		t.Error(err)
	} else if len(file.Games) != 30 || len(file.Resumes) != 1 {
		t.Errorf("resumed file: %d games, %d resumes; want 30, 1", len(file.Games), len(file.Resumes))
	}
	rec := o
	rec.SelfPlay, rec.Out, rec.Records, rec.OnGames = 0, "", []string{path}, nil
	fromFile, err := RunTexel(context.Background(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if got := withoutTimes(fromFile); !reflect.DeepEqual(got, want) {
		t.Errorf("the fit of the self-play file as records differs:\n%+v\nself-play:\n%+v", got, want)
	}
	// A file that exists is not overwritten.
	if _, err := RunTexel(context.Background(), o); err == nil || !strings.Contains(err.Error(), "exist") {
		t.Errorf("Out onto an existing file: error %v", err)
	}
}

// TestSelfPlayErrors: a resume must be a self-play file of the same
// options, left as it was when refused; a stopped run says how many
// games its file keeps.
func TestSelfPlayErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "self.jsonl")
	o := SelfPlayOptions{Game: "othello6", Agent: "greedy", Games: 4, Seed: 3, Out: path, Run: arena.RunOptions{Concurrency: 1}}
	if _, err := SelfPlay(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	torn := string(data[:len(data)-10])
	os.WriteFile(path, []byte(torn), 0o644)
	other := o
	other.Out, other.Resume, other.Agent, other.Seed = "", path, "random", 4
	_, err := SelfPlay(context.Background(), other)
	if err == nil || !strings.Contains(err.Error(), "Resume "+path+": the self-play file was started with other options:\n  Agent: greedy (file) ≠ random (now)\n  Seed: 3 (file) ≠ 4 (now)") {
		t.Errorf("resume with other options: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != torn {
		t.Errorf("a refused resume changed the file")
	}
	same, err := ReadSelfPlay(path)
	if err != nil || same.Resume != path || same.Agent != "greedy" || same.Games != 4 || same.Seed != 3 || same.Openings != DefaultTexelOpenings || same.Game != "othello6" {
		t.Errorf("ReadSelfPlay: %+v, %v", same, err)
	}
	tour := writeRecords(t, arena.Options{Game: "othello6", Agents: []string{"greedy", "random"}, GamesPerPair: 2}, nil)
	if _, err := ReadSelfPlay(tour); err == nil || option.Render(err, flag) != "--resume "+tour+": not a self-play record of tune texel (a round-robin)" {
		t.Errorf("ReadSelfPlay of a tournament: %v", err)
	}
	bad := o
	bad.Agent, bad.Out = "nosuch", filepath.Join(dir, "bad.jsonl")
	if _, err := SelfPlay(context.Background(), bad); err == nil || !strings.HasPrefix(err.Error(), "self-play: ") || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("self-play of an unknown agent: %v", err)
	}
	if _, err := os.Stat(bad.Out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused self-play left its record: %v", err)
	}
	stop := make(chan struct{})
	close(stop)
	o.Out = filepath.Join(dir, "stopped.jsonl")
	o.Run.Stop = stop
	_, err = SelfPlay(context.Background(), o)
	var se *SelfPlayError
	if !errors.As(err, &se) || se.Path != o.Out || se.Total != 4 || se.Played != 0 || err.Error() != "self-play stopped with 0 of 4 games recorded in "+o.Out {
		t.Errorf("stopped self-play: %v (%+v)", err, se)
	}
	o.Out = ""
	if _, err = SelfPlay(context.Background(), o); err == nil || err.Error() != "self-play stopped after 0 of 4 games (in no record file)" {
		t.Errorf("stopped self-play without a file: %v", err)
	}
}

// TestRunTexelConnect: what plays the games (Connect) is opened once the
// self-play record is open, with its path: a record that exists, or a
// resume refused, opens nothing and leaves the files as they were; a
// Connect that fails removes the record it would have filled; one that
// opens plays the self-play games and the verification match, and is
// closed once, at the end.
func TestRunTexelConnect(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "self.jsonl")
	var paths []string
	runs, closes := 0, 0
	failed := errors.New("no broker")
	o := texelOptions()
	o.Agent, o.SelfPlay, o.Out, o.Evaluations, o.VerifyGames = "greedy", 4, path, 20, 4
	o.Connect = func(ctx context.Context, p string) (arena.Runner, func(), error) {
		paths = append(paths, p)
		if len(paths) == 1 {
			return nil, nil, failed
		}
		return func(ctx context.Context, t *arena.Tournament, opts arena.RunOptions) (arena.RunStats, error) {
			runs++
			opts.Concurrency = 1 // a coordinator's workers are Concurrency 0 here
			return t.Run(ctx, opts)
		}, func() { closes++ }, nil
	}
	if _, err := RunTexel(context.Background(), o); err != failed {
		t.Fatalf("a Connect that fails: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) || fmt.Sprint(paths) != "["+path+"]" {
		t.Fatalf("a run that could not start left its record (%v); Connect had %q", err, paths)
	}
	r, err := RunTexel(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if runs != 2 || closes != 1 || r.Verify == nil || r.Verify.Games() == 0 {
		t.Errorf("the runner played %d runs (want 2: self-play, verification), closed %d times, verification %+v", runs, closes, r.Verify)
	}
	if file, err := results.ReadFile(path); err != nil || len(file.Games) != 4 || file.Header.Concurrency != 0 {
		t.Errorf("self-play record: %v (want 4 games, a remote run's concurrency 0)", err)
	}
	// Refused before anything is opened: the record exists; a resume of
	// other games (its file as it was).
	paths = nil
	data, _ := os.ReadFile(path)
	resumed := o
	resumed.Out, resumed.Resume, resumed.Seed = "", path, 2
	for _, tc := range []struct {
		o    TexelOptions
		want string
	}{{o, "exists"}, {resumed, "the self-play file was started with other options"}} {
		if _, err := RunTexel(context.Background(), tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
	if got, _ := os.ReadFile(path); len(paths) != 0 || string(got) != string(data) {
		t.Errorf("refused runs opened %q, and changed the record: %t", paths, string(got) != string(data))
	}
}
