package tune

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

// DefaultTexelOpenings are the openings of self-play games and of a Texel
// run's verification match when none are given: a deterministic agent
// playing itself repeats the game of each opening, and othello6's two
// random plies give only 12 openings.
const DefaultTexelOpenings = "random:8"

// SelfPlayOptions are games of one agent against itself, in colour-swapped
// pairs from the openings: the training games of a Texel fit.
type SelfPlayOptions struct {
	Game  string
	Agent string
	Games int // even: 2 to arena.MaxGames
	Seed  uint64
	// Openings are the arena's (random:K, none, a file); ""
	// means DefaultTexelOpenings.
	Openings string
	// Out, if not empty, is a new record file that keeps the games, so
	// that an interrupted run can be continued (Resume).
	Out string
	// Resume continues this record file of self-play games. Game, Agent,
	// Games, Seed and Openings must be the file's (ReadSelfPlay reads
	// them), and Out is empty.
	Resume string
	// Run carries the workers (Concurrency), Runner, Stop and Log of the
	// games; SelfPlay sets its Sink and Done.
	Run arena.RunOptions
	// OnGames, if not nil, hears of the games played: so far in this
	// call, of total to play; first with none, before the first game.
	OnGames func(played, total int)
}

// SelfPlayError is a self-play run that ended before its last game: it
// was stopped (Run.Stop) or failed. Played games are kept in Path, if
// the run has a record file, for a resume.
type SelfPlayError struct {
	Err           error // why: the run's error, or "stopped"
	Played, Total int   // the games recorded (resumed ones with them) and planned
	Path          string
}

func (e *SelfPlayError) Error() string {
	if e.Path != "" {
		return fmt.Sprintf("self-play %v with %d of %d games recorded in %s", e.Err, e.Played, e.Total, e.Path)
	}
	return fmt.Sprintf("self-play %v after %d of %d games (in no record file)", e.Err, e.Played, e.Total)
}

func (e *SelfPlayError) Unwrap() error { return e.Err }

// SelfPlay plays the games (or the rest of a resumed file's) and returns
// all of them, resumed ones included, in schedule order: the positions a
// fit samples depend on the order of the games. A run that ends early
// returns a *SelfPlayError.
func SelfPlay(ctx context.Context, o SelfPlayOptions) ([]results.GameRecord, error) {
	s, err := o.open(o.Run.Runner != nil)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return o.play(ctx, s)
}

// open opens the session of the games: a new record (Out), the one to
// continue (Resume, which must hold o's games), or none. remote says that
// a Runner will play them (SessionOptions.Remote).
func (o *SelfPlayOptions) open(remote bool) (*arena.Session, error) {
	if o.Openings == "" {
		o.Openings = DefaultTexelOpenings
	}
	if o.Resume != "" && o.Out != "" {
		return nil, fmt.Errorf("%w continues its own file; leave out %w", named("Resume"), named("Out"))
	}
	// A fit reads the positions of every game.
	so := arena.SessionOptions{Out: o.Out, Resume: o.Resume, KeepMoves: -1}
	if o.Resume != "" {
		so.Check = o.sameAs
	} else {
		so.Options = arena.Options{Game: o.Game, Agents: []string{o.Agent, o.Agent}, GamesPerPair: o.Games, Seed: o.Seed, Openings: o.Openings}
	}
	return session("self-play", so, o.Run.Concurrency, remote)
}

// play plays the games of s not yet recorded (SelfPlay).
func (o *SelfPlayOptions) play(ctx context.Context, s *arena.Session) ([]results.GameRecord, error) {
	planned := s.Tournament().Schedule.Len()
	played, total := 0, planned-s.Done().Len()
	run := o.Run
	run.ReuseGames = true // the session copies what it keeps
	run.Sink = func(b []*results.GameRecord) error {
		played += len(b) // the sink is never called concurrently
		if o.OnGames != nil {
			o.OnGames(played, total)
		}
		return nil
	}
	if o.OnGames != nil {
		o.OnGames(0, total)
	}
	st, err := s.Run(ctx, run)
	if err == nil && !st.Complete {
		err = errors.New("stopped")
	}
	if err != nil {
		return nil, &SelfPlayError{Err: err, Played: s.Recorded(), Total: planned, Path: s.Path()}
	}
	kept := s.Games()
	recs := make([]results.GameRecord, len(kept))
	for i, g := range kept {
		recs[i] = *g
	}
	// The games arrive in the order they finish.
	slices.SortFunc(recs, func(a, b results.GameRecord) int { return a.Index - b.Index })
	return recs, nil
}

// ReadSelfPlay reads the options of the self-play record file at path,
// to continue it (Resume is path).
func ReadSelfPlay(path string) (SelfPlayOptions, error) {
	file, err := results.ReadFile(path)
	if err != nil {
		return SelfPlayOptions{}, fmt.Errorf("%w %w", named("Resume"), err)
	}
	o, err := selfPlayOf(path, file.Header.Config)
	o.Resume = path
	return o, err
}

// selfPlayOf is the self-play run a record header describes.
func selfPlayOf(path string, c results.Config) (SelfPlayOptions, error) {
	if c.Kind != results.RoundRobin || len(c.Agents) != 2 || c.Agents[0].Spec != c.Agents[1].Spec {
		return SelfPlayOptions{}, option.New("Resume", path, "not a self-play record of tune texel (a %s)", c.Kind)
	}
	return SelfPlayOptions{Game: c.Game, Agent: c.Agents[0].Spec, Games: c.GamesPerPair, Seed: c.Seed, Openings: c.Openings}, nil
}

// sameAs refuses a resumed file whose self-play is not o's: the games
// would not be the ones o describes.
func (o SelfPlayOptions) sameAs(t *arena.Tournament) error {
	file, err := selfPlayOf(o.Resume, t.Config)
	if err != nil {
		return err
	}
	game := o.Game
	if v, err := games.Lookup(game); err == nil {
		game = v.String()
	}
	var diff []string
	for _, d := range []struct{ name, file, now string }{
		{"Game", file.Game, game},
		{"Agent", file.Agent, o.Agent},
		{"Games", strconv.Itoa(file.Games), strconv.Itoa(o.Games)},
		{"Seed", strconv.FormatUint(file.Seed, 10), strconv.FormatUint(o.Seed, 10)},
		{"Openings", file.Openings, o.Openings},
	} {
		if d.file != d.now {
			diff = append(diff, fmt.Sprintf("%s: %s (file) ≠ %s (now)", d.name, d.file, d.now))
		}
	}
	if len(diff) > 0 {
		return fmt.Errorf("%w: the self-play file was started with other options:\n  %s\n(take them from the file: ReadSelfPlay)", option.New("Resume", o.Resume, ""), strings.Join(diff, "\n  "))
	}
	return nil
}
